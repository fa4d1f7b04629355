"""Explanations, checked by the engines: a clash loses its meaning without any one of its givens,
the givens added to a puzzle with several solutions make it unique and none of them can go,
hints agree with the solution, and ``--fix`` output reads back as a unique puzzle."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.cli import main
from mindgames.models.binairo import BINAIRO
from mindgames.models.explain import Explainer
from mindgames.models.runner import PuzzleSolver
from mindgames.models.sudoku import SUDOKU, generate, make_puzzle

SMALL = make_puzzle([[0] * 4 for _ in range(4)], [2, 2])
NINE = make_puzzle([[0] * 9 for _ in range(9)])
SEEDS = st.integers(0, 10_000)


def status(solver: PuzzleSolver, kind, puzzle) -> str:
    """unique / multiple / unsat, by the engine."""
    result = solver.check(puzzle)
    return result.uniqueness or result.status


def assert_minimal_clash(kind, puzzle, clash: list) -> None:
    solver = PuzzleSolver(kind)
    givens = kind.given_cells(puzzle)
    only = {cell: givens[cell] for cell in clash}
    assert solver.solve(kind.with_givens(puzzle, only)).status == "unsolvable"
    for cell in clash:  # without any one of them: solvable
        rest = {c: v for c, v in only.items() if c != cell}
        assert solver.solve(kind.with_givens(puzzle, rest)).status == "solved"


def assert_minimal_fix(kind, puzzle, explanation) -> None:
    solver = PuzzleSolver(kind)
    givens = kind.given_cells(puzzle)
    assert explanation.add_givens and not set(explanation.add_givens) & set(givens)
    fixed = kind.with_givens(puzzle, {**givens, **explanation.add_givens})
    assert status(solver, kind, fixed) == "unique"
    for cell in explanation.add_givens:  # without any one of them: several again
        rest = {c: v for c, v in explanation.add_givens.items() if c != cell}
        assert status(solver, kind, kind.with_givens(puzzle, {**givens, **rest})) == "multiple"
    first, second = explanation.solutions[:2]
    assert explanation.open_cells == [
        (r, c) for r, row in enumerate(first) for c, v in enumerate(row) if second[r][c] != v
    ]


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, wrong=st.integers(0, 10_000))
def test_a_wrong_given_is_explained_by_a_minimal_clash(seed, wrong):
    for empty in (SMALL, NINE):
        puzzle, solution = generate(empty, seed)
        rng = random.Random(wrong)
        givens = SUDOKU.given_cells(puzzle)
        blanks = [(r, c) for r in range(empty.size) for c in range(empty.size) if (r, c) not in givens]
        cell = rng.choice(blanks)
        value = rng.choice([v for v in range(1, empty.size + 1) if v != solution[cell[0]][cell[1]]])
        broken = SUDOKU.with_givens(puzzle, {**givens, cell: value})
        explanation = Explainer(SUDOKU).explain(broken)
        assert explanation.explanation == "clash" and cell in explanation.clash
        assert_minimal_clash(SUDOKU, broken, explanation.clash)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, drop=st.integers(1, 4))
def test_several_solutions_are_fixed_by_minimal_extra_givens(seed, drop):
    puzzle, solution = generate(NINE, seed)
    givens = SUDOKU.given_cells(puzzle)
    for cell in sorted(givens)[:drop]:  # a minimal puzzle with a given less has several solutions
        del givens[cell]
    loose = SUDOKU.with_givens(puzzle, givens)
    explanation = Explainer(SUDOKU).explain(loose)
    assert explanation.explanation == "open"
    assert_minimal_fix(SUDOKU, loose, explanation)


def test_two_equal_givens_in_a_row_are_named_as_such():
    grid = [[0] * 9 for _ in range(9)]
    grid[0][0] = grid[0][5] = 5
    explanation = Explainer(SUDOKU).explain(make_puzzle(grid))
    assert explanation.clash == [(0, 0), (0, 5)]
    assert explanation.text.startswith("givens clash: 5 appears twice in row 1")


def test_a_unique_puzzle_is_graded():
    puzzle, _ = generate(NINE, 3)
    reply = Explainer(SUDOKU).explain(puzzle).to_json()
    assert reply["explanation"] == "unique" and reply["grade"] >= 1 and reply["techniques"]


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_hints_agree_with_the_solution(seed):
    puzzle, solution = generate(NINE, seed)
    hint = Explainer(SUDOKU).hint(puzzle)
    assert solution[hint["row"] - 1][hint["col"] - 1] == hint["value"]
    assert (hint["row"] - 1, hint["col"] - 1) not in SUDOKU.given_cells(puzzle)


def test_binairo_clash_and_open_are_minimal():
    puzzle = BINAIRO.empty((6, 6))
    explainer = Explainer(BINAIRO)
    loose = explainer.explain(puzzle)
    assert loose.explanation == "open"
    assert_minimal_fix(BINAIRO, puzzle, loose)
    three = BINAIRO.with_givens(puzzle, {(0, 0): 1, (0, 1): 1, (0, 2): 1})
    clash = explainer.explain(three)
    assert clash.explanation == "clash" and clash.clash == [(0, 0), (0, 1), (0, 2)]
    assert_minimal_clash(BINAIRO, three, clash.clash)
    hint = explainer.hint(explainer.fixed(puzzle, loose))
    assert "value" in hint and hint["technique"]


def test_cli_fix_output_reads_back_as_a_unique_puzzle(tmp_path, capsys):
    puzzle, _ = generate(NINE, 5)
    givens = SUDOKU.given_cells(puzzle)
    for cell in sorted(givens)[:3]:
        del givens[cell]
    path = tmp_path / "loose.txt"
    path.write_text(SUDOKU.write(SUDOKU.with_givens(puzzle, givens)))
    assert main(["sudoku", "explain", "--json", str(path)]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["explanation"] == "open" and reply["open_cells"] and reply["add_givens"]
    assert main(["sudoku", "explain", "--fix", str(path)]) == 0
    fixed_text = capsys.readouterr().out
    (item,) = SUDOKU.read(fixed_text)
    assert status(PuzzleSolver(SUDOKU), SUDOKU, item.puzzle) == "unique"
    for added in reply["add_givens"]:
        assert item.puzzle.grid[added["row"] - 1][added["col"] - 1] == added["value"]


def test_cli_hint_and_bad_input(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(SUDOKU.write(generate(NINE, 7)[0]))
    assert main(["sudoku", "hint", str(path)]) == 0
    assert " is " in capsys.readouterr().out
    path.write_text("1234\n")
    assert main(["sudoku", "explain", str(path)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_generate_by_grade_is_reproducible_and_has_that_grade(capsys):
    from mindgames.models.sudoku.ladder import grade

    outputs = []
    for _ in range(2):
        assert main(["sudoku", "generate", "--grade", "medium", "--seed", "4", "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0]["puzzle"] == outputs[1]["puzzle"]
    assert grade(SUDOKU.parse_value(outputs[0]["puzzle"]))[1] == "medium"


def test_grading_holds_the_time_limit(tmp_path, capsys):
    # from the forum's hardest list: the ladder needs probing for seconds, not a fraction of one
    hardest = "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........"
    path = tmp_path / "hard.txt"
    path.write_text(hardest + "\n")
    assert main(["sudoku", "explain", "--json", "--time-limit", "0.3", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unknown"


def test_the_named_clash_is_the_minimal_one():
    grid = [[0] * 9 for _ in range(9)]
    grid[0][0] = grid[0][5] = grid[8][0] = 5  # r1c1 clashes with r1c6 and with r9c1
    explanation = Explainer(SUDOKU).explain(make_puzzle(grid))
    named = [cell for cell in ((0, 5), (8, 0)) if cell in explanation.clash]
    assert len(explanation.clash) == 2 and (0, 0) in explanation.clash and len(named) == 1
    assert "r1c1" in explanation.text and ("r1c6" in explanation.text) == ((0, 5) in explanation.clash)
    three = BINAIRO.with_givens(BINAIRO.empty((6, 6)), {(0, 0): 1, (0, 1): 1, (0, 2): 1})
    assert "three 1s" in Explainer(BINAIRO).explain(three).text
