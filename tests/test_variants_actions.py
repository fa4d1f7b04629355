"""Every action on variant Sudoku: solve, check (certified), count, explain, hint, compare, generate.

The fixtures in data/sudoku-variants/ are published puzzles with their published solutions
(its README names the sources): a killer and a thermo from the UK Sudoku Championship 2022
booklet (ukpuzzles.org), an arrow Sudoku with two-cell circles from the WPF Sudoku Grand
Prix 2023, round 7, puzzle 8; transcribed from the tests of lisudoku_solver.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mindgames.models.errors import PuzzleError
from mindgames.models.explain import Explainer
from mindgames.models.runner import PuzzleSolver
from mindgames.models.sudoku import SUDOKU, Sudoku, check, count, make_puzzle, read, solve
from mindgames.models.sudoku.variants import Cage, Constraints, Dot, Thermo

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "sudoku-variants"


def published(name: str) -> tuple[Sudoku, list[list[int]], str]:
    """A fixture: the puzzle (read as the command line reads the file), its published solution,
    and where it was published (the README's line)."""
    path = FIXTURES / f"{name}.json"
    (item,) = read(path.read_text())
    source = next(
        line for line in (FIXTURES / "README.md").read_text().splitlines() if f"`{name}.json`" in line
    )
    return item.require(), json.loads(path.read_text())["solution"], source


@pytest.mark.parametrize("name", ["killer", "thermo", "arrow"])
@pytest.mark.parametrize("engine", ["sat", "cpsat"])
def test_a_published_puzzle_has_its_published_solution_only(name: str, engine: str) -> None:
    puzzle, solution, source = published(name)
    assert source
    result = check(puzzle, engine=engine)
    assert (result.status, result.uniqueness, result.solution) == ("solved", "unique", solution)


@pytest.mark.parametrize("name", ["killer", "thermo"])
def test_a_unique_variant_puzzle_is_certified_and_the_proof_checked(name: str) -> None:
    puzzle, solution, _source = published(name)
    result = PuzzleSolver(SUDOKU).check(puzzle, certify=True)
    assert result.uniqueness == "unique" and result.solution == solution
    certificate = result.extra["certificate"]
    assert certificate["kind"] == "drat" and certificate["checked"] is True


def test_an_unsolvable_variant_puzzle_is_certified_too() -> None:
    # a thermo of 5 cells in a 4x4: it cannot increase strictly through 1..4
    puzzle = make_puzzle(
        [[0] * 4] * 4,
        constraints=Constraints(
            cages=(Cage(((0, 0), (0, 1)), 3),), thermos=(Thermo(((1, 0), (1, 1), (1, 2))),)
        ),
    )
    result = PuzzleSolver(SUDOKU).check(puzzle, certify=True)
    assert result.status == "unsolvable"
    assert result.extra["certificate"]["checked"] is True


def test_removing_any_thermo_leaves_several_solutions() -> None:
    puzzle, _solution, _source = published("thermo")
    thermos = puzzle.constraints.thermos
    for i in range(len(thermos)):
        fewer = replace(puzzle.constraints, thermos=thermos[:i] + thermos[i + 1 :])
        assert count(replace(puzzle, constraints=fewer), limit=2).count == 2, i


def test_removing_an_arrow_leaves_several_solutions() -> None:
    puzzle, _solution, _source = published("arrow")
    fewer = replace(puzzle.constraints, arrows=puzzle.constraints.arrows[1:2])
    assert count(replace(puzzle, constraints=fewer), limit=2).count == 2
    without_second = puzzle.constraints.arrows[:1] + puzzle.constraints.arrows[2:]
    assert (
        count(replace(puzzle, constraints=replace(puzzle.constraints, arrows=without_second)), limit=2).count
        == 2
    )


def test_a_killer_whose_cages_cover_the_grid_survives_one_missing_cage_but_not_two() -> None:
    # every cage's total is 405 minus the others': one cage may go, cages 2 and 3 together may not
    puzzle, solution, _source = published("killer")
    cages = puzzle.constraints.cages
    one_gone = replace(puzzle, constraints=replace(puzzle.constraints, cages=cages[1:]))
    assert check(one_gone).solution == solution and check(one_gone).uniqueness == "unique"
    two_gone = replace(puzzle, constraints=replace(puzzle.constraints, cages=cages[:1] + cages[3:]))
    assert count(two_gone, limit=2).count == 2


def test_solve_and_count_keep_to_every_rule() -> None:
    white = Constraints(dots=(Dot(((0, 0), (0, 1)), "white"),), anti_knight=True)
    puzzle = make_puzzle([[0] * 6] * 6, constraints=white)
    solved = solve(puzzle).solution
    assert abs(solved[0][0] - solved[0][1]) == 1
    assert count(puzzle, limit=None).count == count(puzzle, engine="backtrack", limit=None).count


# ---------------------------------------------------------------------------
# explain and hint
# ---------------------------------------------------------------------------
def test_explain_names_the_rules_a_clash_needs() -> None:
    # r1c1 = 1 and r1c2 = 1 clash by the row alone; here r1c1 = 4 clashes only through the cage
    cage = Cage(((0, 0), (0, 1)), 3)
    puzzle = make_puzzle(
        [[4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
        constraints=Constraints(cages=(cage,), thermos=(Thermo(((3, 0), (3, 1))),)),
    )
    explanation = Explainer(SUDOKU).explain(puzzle)
    assert explanation.explanation == "clash"
    assert explanation.clash == [(0, 0)]
    assert explanation.rules == ["cage 1 (r1c1)"]
    assert "cage 1 (r1c1)" in explanation.text
    assert explanation.to_json()["rules"] == ["cage 1 (r1c1)"]


def test_explain_a_clash_of_rules_alone() -> None:
    puzzle = make_puzzle(
        [[0] * 4] * 4,
        constraints=Constraints(
            cages=(Cage(((0, 0), (0, 1)), 3),), thermos=(Thermo(((1, 0), (1, 1), (1, 2))),)
        ),
    )
    explanation = Explainer(SUDOKU).explain(puzzle)
    assert explanation.explanation == "clash" and explanation.clash == []
    assert explanation.rules == ["cage 1 (r1c1)", "thermo 1 (r2c1)"]


def test_explain_a_variant_puzzle_with_several_solutions_gives_givens_that_fix_it() -> None:
    puzzle, solution, _source = published("thermo")
    fewer = replace(puzzle, constraints=replace(puzzle.constraints, thermos=puzzle.constraints.thermos[1:]))
    explainer = Explainer(SUDOKU)
    explanation = explainer.explain(fewer)
    assert explanation.explanation == "open" and explanation.add_givens
    assert check(explainer.fixed(fewer, explanation)).uniqueness == "unique"


def test_a_hint_is_a_single_under_the_variant_rules_naming_the_rule() -> None:
    # r3c1 = 1 leaves r1c1 2 in the cage of total 3 (1 + 2): a naked single by the cage
    cage = Cage(((0, 0), (0, 1)), 3)
    puzzle = make_puzzle(
        [[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]], constraints=Constraints(cages=(cage,))
    )
    step = SUDOKU.hint(puzzle)  # (the kind's step: the puzzle has several solutions, explain would say so)
    assert step is not None
    assert (step["row"], step["col"], step["value"], step["technique"]) == (1, 1, 2, "naked single")
    assert step["rules"] == ["cage 1 (r1c1)"]
    assert step["text"] == "r1c1 is 2: r1c1 has one candidate left, by the givens and the rule cage 1 (r1c1)"


def test_a_hint_on_a_published_arrow_sudoku_names_its_arrow() -> None:
    puzzle, solution, _source = published("arrow")
    step = Explainer(SUDOKU).hint(puzzle)
    assert solution[step["row"] - 1][step["col"] - 1] == step["value"]
    assert step["rules"] and all(rule.startswith("arrow") for rule in step["rules"])


def test_a_hint_the_rules_cannot_reach_by_singles_comes_from_the_solution() -> None:
    puzzle, solution, _source = published("killer")  # no single from the cages alone
    step = Explainer(SUDOKU).hint(puzzle)
    assert step["technique"] == "needs search" and solution[step["row"] - 1][step["col"] - 1] == step["value"]


def test_hints_solve_a_published_thermo_step_by_step() -> None:
    puzzle, solution, _source = published("thermo")
    explainer = Explainer(SUDOKU)
    placed = 0
    while any(0 in row for row in puzzle.grid) and placed < 3:
        step = explainer.hint(puzzle)
        assert solution[step["row"] - 1][step["col"] - 1] == step["value"]
        givens = {**SUDOKU.given_cells(puzzle), (step["row"] - 1, step["col"] - 1): step["value"]}
        puzzle = SUDOKU.with_givens(puzzle, givens)
        placed += 1


# ---------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------
def mindgames(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mindgames", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def puzzle_text(name: str) -> str:
    return (FIXTURES / f"{name}.json").read_text()


def test_check_certify_on_the_command_line() -> None:
    done = mindgames("sudoku", "check", "--certify", "-", stdin=puzzle_text("thermo"))
    assert done.returncode == 0, done.stderr
    assert "9x9, 3x3 boxes, thermos: unique (certified: DRAT, checked)" in done.stdout


def test_compare_runs_the_engines_on_a_variant_puzzle() -> None:
    done = mindgames(
        "compare", "sudoku", "--engines", "sat,cpsat", "--json", "-", stdin=puzzle_text("killer")
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["answer"] for row in rows if not row.get("summary")] == ["unique", "unique"]


def test_generate_killer_makes_a_unique_killer_with_cages_only() -> None:
    done = mindgames("sudoku", "generate", "--killer", "--box", "2x3", "--seed", "3", "--json")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    puzzle = SUDOKU.parse_value(record)
    assert puzzle.constraints.cages and check(puzzle).uniqueness == "unique"
    assert check(puzzle).solution == record["solution"]


def test_generate_keeps_the_rules_it_is_given_and_makes_the_givens_minimal_under_them() -> None:
    from mindgames.models.sudoku import generate

    empty = make_puzzle([[0] * 6] * 6, constraints=Constraints(anti_knight=True))
    puzzle, solution = generate(empty, seed=1)
    assert puzzle.constraints == empty.constraints
    assert check(puzzle).uniqueness == "unique" and check(puzzle).solution == solution
    for cell in SUDOKU.given_cells(puzzle):  # minimal: no given can go
        fewer = {other: v for other, v in SUDOKU.given_cells(puzzle).items() if other != cell}
        assert count(SUDOKU.with_givens(puzzle, fewer), limit=2).count == 2


def test_generate_by_grade_refuses_variant_rules() -> None:
    from mindgames.models.sudoku import generate

    empty = make_puzzle([[0] * 4] * 4, constraints=Constraints(non_consecutive=True))
    with pytest.raises(PuzzleError, match="generate --grade cannot take variant rules yet"):
        generate(empty, seed=1, grade="easy")
