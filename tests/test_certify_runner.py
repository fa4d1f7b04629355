"""Certified answers through PuzzleSolver: every grid kind, every engine, one contract.

``check(..., certify=True)`` and ``solve(..., certify=True)`` put the issue's
``certificate`` object in the result when the answer rests on the absence of
solutions (unique, unsolvable), and ``certificate: null`` with
``certificate_reason`` when it does not (solved, multiple, unknown).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.models import binairo, sudoku
from mindgames.models.runner import PuzzleSolver
from mindgames.solver import ENGINE_NAMES, Uniqueness
from mindgames.solver.proof import CertificationError
from tests.conftest import REPO

ENGINES = list(ENGINE_NAMES)

# The seed chapter's puzzle: unique and easy enough for the backtracking engine.
SEED_PUZZLE = ".6.798.127941.5.682.14..957...21.5...563..241.1254.73963.874...1.56.28..4289.1.7."
# Unique, and its uniqueness proof needs lemmas: unit propagation alone does not refute it.
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
JIGSAW_REGIONS = ["AABABB", "AAABBB", "CCCDDD", "CCCDDD", "EEFFFF", "EEEEFF"]


def empty_sudoku(size: int, **variant) -> sudoku.Sudoku:
    return sudoku.make_puzzle([[0] * size for _ in range(size)], **variant)


def unique_sudokus() -> dict[str, tuple[sudoku.Sudoku, list[list[int]]]]:
    """A unique puzzle of each variant, and its solution."""
    nine = sudoku.parse(SEED_PUZZLE)
    jigsaw = empty_sudoku(6, region_labels=[list(row) for row in JIGSAW_REGIONS])
    return {
        "9x9": (nine, sudoku.solve(nine, "sat").solution),
        "4x4": sudoku.generate(empty_sudoku(4, box=[2, 2]), seed=1),
        "X 6x6": sudoku.generate(empty_sudoku(6, with_diagonals=True), seed=2),
        "jigsaw 6x6": sudoku.generate(jigsaw, seed=3),
    }


def sudoku_without_solution(puzzle: sudoku.Sudoku, solution: list[list[int]]) -> sudoku.Sudoku:
    """``puzzle`` with a blank cell given a value other than the (only) solution's: no solution
    is left, since any would be one of ``puzzle``; the value clashes with no given."""
    grid = [list(row) for row in puzzle.grid]
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value:
                continue
            trial = [list(line) for line in grid]
            for other in range(1, puzzle.size + 1):
                trial[r][c] = other
                if other != solution[r][c] and not sudoku.clashing_cells(replace(puzzle, grid=trial)):
                    return replace(puzzle, grid=tuple(tuple(line) for line in trial))
    raise AssertionError("no blank cell takes another value without a clash")


def unique_binairo() -> tuple[binairo.Puzzle, list[list[int]]]:
    return next(binairo.generate(6, 6, seed=4))


def binairo_without_solution(puzzle: binairo.Puzzle, solution: list[list[int]]) -> binairo.Puzzle:
    cells = [list(row) for row in puzzle.cells]
    r, c = next((r, c) for r, row in enumerate(cells) for c, value in enumerate(row) if value is None)
    cells[r][c] = 1 - solution[r][c]
    return binairo.make_puzzle(cells, puzzle.rules)


SUDOKUS = unique_sudokus()
QUESTIONS = [
    *((f"sudoku {name}", sudoku.SUDOKU, puzzle, solution) for name, (puzzle, solution) in SUDOKUS.items()),
    ("binairo 6x6", binairo.BINAIRO, *unique_binairo()),
]


def assert_checked_certificate(certificate: dict) -> None:
    assert certificate["kind"] == "drat" and certificate["checked"] is True
    assert "reason" not in certificate
    # no lemma only when unit propagation alone refutes the formula (an empty proof)
    assert certificate["lemmas"] >= 1 or certificate["proof"] == "unit propagation"
    assert certificate["proof"] in ("empty clause", "unit propagation")
    assert set(certificate["seconds"]) == {"solve", "proof", "check"}
    assert "files" not in certificate  # nothing kept unless a proof_dir is given


# ---------------------------------------------------------------------------
# Unique and unsolvable answers are certified, whichever engine gave them
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name, kind, puzzle, solution", QUESTIONS, ids=[q[0] for q in QUESTIONS])
def test_a_unique_answer_is_certified_on_every_engine(engine, name, kind, puzzle, solution):
    result = PuzzleSolver(kind, engine).check(puzzle, certify=True)
    assert result.uniqueness == "unique" and result.solution == solution
    assert_checked_certificate(result.to_json()["certificate"])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name, kind, puzzle, solution", QUESTIONS, ids=[q[0] for q in QUESTIONS])
def test_an_unsolvable_answer_is_certified_on_every_engine(engine, name, kind, puzzle, solution):
    without = (sudoku_without_solution if kind is sudoku.SUDOKU else binairo_without_solution)(
        puzzle, solution
    )
    solver = PuzzleSolver(kind, engine)
    for result in (solver.check(without, certify=True), solver.solve(without, certify=True)):
        assert result.status == "unsolvable"
        assert_checked_certificate(result.to_json()["certificate"])


def test_one_solver_certifies_many_puzzles_of_one_shape_and_of_several():
    solver = PuzzleSolver(sudoku.SUDOKU, "sat", max_shapes=1)
    for _ in range(2):
        for puzzle, _ in SUDOKUS.values():
            assert solver.check(puzzle, certify=True).extra["certificate"]["checked"]


FOUR = sudoku.solve(empty_sudoku(4, box=[2, 2]), "sat").solution
RANDOM_FOURS = PuzzleSolver(sudoku.SUDOKU, "sat")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(st.integers(0, 15)), st.integers(0, 15), st.integers(0, 4))
def test_every_unique_or_unsolvable_answer_gets_a_checked_certificate(kept, cell, value):
    """Random 4x4 puzzles: kept cells of one solution, and one cell perhaps changed
    (to another value, or blanked): unique, multiple and unsolvable ones all occur."""
    grid = [[FOUR[r][c] if 4 * r + c in kept else 0 for c in range(4)] for r in range(4)]
    grid[cell // 4][cell % 4] = value
    result = RANDOM_FOURS.check(sudoku.make_puzzle(grid, box=[2, 2]), certify=True)
    certificate = result.extra["certificate"]
    if result.uniqueness == "unique" or result.status == "unsolvable":
        assert certificate["checked"] is True
    else:
        assert result.uniqueness == "multiple" and certificate is None


# ---------------------------------------------------------------------------
# Answers that need no proof say so
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
def test_multiple_solutions_get_no_certificate_and_say_why(engine):
    result = PuzzleSolver(sudoku.SUDOKU, engine).check(empty_sudoku(4, box=[2, 2]), certify=True)
    assert result.uniqueness == "multiple"
    data = result.to_json()
    assert data["certificate"] is None
    assert "two distinct witnesses" in data["certificate_reason"]


def test_a_solved_puzzle_gets_no_certificate_and_says_why():
    data = PuzzleSolver(sudoku.SUDOKU, "sat").solve(sudoku.parse(SEED_PUZZLE), certify=True).to_json()
    assert data["status"] == "solved" and data["certificate"] is None
    assert "verified by the rules" in data["certificate_reason"]


def test_without_certify_the_result_has_no_certificate_key():
    data = PuzzleSolver(sudoku.SUDOKU, "sat").check(sudoku.parse(SEED_PUZZLE)).to_json()
    assert "certificate" not in data and "certificate_reason" not in data


# ---------------------------------------------------------------------------
# Time limits: the answer stays, the certificate says it is missing and why
# ---------------------------------------------------------------------------
def test_running_out_of_time_while_certifying_keeps_the_answer(monkeypatch):
    import mindgames.solver.proof.certify as certify

    monkeypatch.setattr(certify, "_solve_with_proof", lambda cnf, name, deadline: (None, [], None))
    result = PuzzleSolver(sudoku.SUDOKU, "sat").check(sudoku.parse(HARD), time_limit=60, certify=True)
    assert result.uniqueness == "unique"
    certificate = result.to_json()["certificate"]
    assert certificate["checked"] is False and certificate["reason"].startswith("time limit")


def test_no_time_left_after_the_answer_means_no_proof_is_made(monkeypatch):
    from mindgames.solver.deadline import Deadline

    solver = PuzzleSolver(sudoku.SUDOKU, "sat")
    real_check = solver.session(sudoku.parse(HARD))[1].check_unique

    def answer_then_time_is_up(givens, time_limit):
        answer = real_check(givens, None)
        monkeypatch.setattr(Deadline, "passed", lambda self: True)
        return answer

    monkeypatch.setattr(solver.session(sudoku.parse(HARD))[1], "check_unique", answer_then_time_is_up)
    result = solver.check(sudoku.parse(HARD), time_limit=60, certify=True)
    assert result.uniqueness == "unique"
    certificate = result.extra["certificate"]
    assert certificate["checked"] is False and certificate["reason"].startswith("time limit")


def test_an_engine_that_runs_out_of_time_has_nothing_to_certify():
    result = PuzzleSolver(sudoku.SUDOKU, "sat").check(sudoku.parse(SEED_PUZZLE), time_limit=0, certify=True)
    assert result.status == "unknown"
    assert result.extra["certificate"] is None and "time limit" in result.extra["certificate_reason"]


# ---------------------------------------------------------------------------
# Kept files are checked by the command, from any process
# ---------------------------------------------------------------------------
def test_kept_files_are_named_after_the_puzzle_and_the_command_verifies_them(tmp_path):
    puzzle, solution = SUDOKUS["9x9"]
    unsolvable = sudoku_without_solution(puzzle, solution)
    solver = PuzzleSolver(sudoku.SUDOKU, "cpsat")
    results = {
        "puzzle-1": solver.check(puzzle, certify=True, proof_dir=tmp_path, name="puzzle-1"),
        "puzzle-2": solver.check(sudoku.parse(HARD), certify=True, proof_dir=tmp_path, name="puzzle-2"),
        "puzzle-3": solver.solve(unsolvable, certify=True, proof_dir=tmp_path, name="puzzle-3"),
    }
    # an easy puzzle's proof is the empty clause alone; the hard one's comes from a solver
    assert results["puzzle-1"].extra["certificate"]["solver"] == "unit propagation"
    assert results["puzzle-2"].extra["certificate"]["solver"] == "cadical153"
    for name, result in results.items():
        files = result.to_json()["certificate"]["files"]
        assert files == [str(tmp_path / f"{name}.cnf"), str(tmp_path / f"{name}.drat")]
        run = subprocess.run(
            [sys.executable, "-m", "mindgames.cli", "certify", *files],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith("verified:")


# ---------------------------------------------------------------------------
# Never a silent "unique": a bad proof or a wrong engine answer is loud
# ---------------------------------------------------------------------------
def test_a_tampered_proof_raises_certification_error(monkeypatch):
    import mindgames.solver.proof.certify as certify

    produce = certify._solve_with_proof

    def tampered(cnf, name, deadline):
        answer, lines, assignment = produce(cnf, name, deadline)
        assert len(lines) > 1
        return answer, lines[-1:], assignment  # every lemma gone but the empty clause

    monkeypatch.setattr(certify, "_solve_with_proof", tampered)
    with pytest.raises(CertificationError, match="proof rejected.*does not follow"):
        PuzzleSolver(sudoku.SUDOKU, "sat").check(sudoku.parse(HARD), certify=True)


def test_an_engine_that_wrongly_says_unique_raises_certification_error(monkeypatch):
    puzzle = empty_sudoku(4, box=[2, 2])
    solver = PuzzleSolver(sudoku.SUDOKU, "sat")
    _, session = solver.session(puzzle)
    one = session.solve([]).assignment
    monkeypatch.setattr(session, "check_unique", lambda givens, time_limit: Uniqueness("unique", [one]))
    with pytest.raises(CertificationError, match="found another solution"):
        solver.check(puzzle, certify=True)
