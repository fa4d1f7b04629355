"""Every grid kind of the registry, through the kind interface alone.

What holds for one kind holds for all: a puzzle written out is read back as the
same puzzle (variant and rules too), the runner answers the bundled data with
verified solutions, and the words and grids a kind draws are the ones the
command line prints."""

from __future__ import annotations

import inspect
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.cli import main
from mindgames.models import binairo, registry, sudoku
from mindgames.models.actions import ACTIONS, select
from mindgames.models.errors import PuzzleError
from mindgames.models.generate import Generator, Unsolvable, cells_of
from mindgames.models.kind import GridKind
from mindgames.models.registry import grid_kinds
from mindgames.models.runner import PuzzleSolver
from tests.conftest import REPO

KINDS = grid_kinds()
by_name = pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])

DATA = REPO / "data"
BUNDLED = [
    pytest.param(kind, path, id=f"{kind.name}-{path.name}")
    for kind in KINDS
    for path in sorted((DATA / kind.name).iterdir())
]


def generated(kind: GridKind, variant: int, seed: int):
    """A small generated puzzle of one of a few variants of ``kind``, with its solution."""
    if kind.name == "sudoku":
        empty = [
            kind.empty(box=(2, 2)),
            kind.empty(box=(2, 3), diagonals=False),
            kind.empty(box=(2, 2), diagonals=True),
            kind.empty(regions="1122112233443344"),
        ][variant]
        return sudoku.generate(empty, seed)
    if kind.name == "binairo":
        size, rules = [("4", "takuzu"), ("6", "unruly"), ("4x6", "takuzu"), ("6x4", "unruly")][variant]
        empty = kind.empty(size, rules)
        return next(binairo.generate(empty.rows, empty.cols, rules, seed))
    raise AssertionError(f"no generator known to this test for {kind.name}")


def test_every_grid_kind_is_in_the_registry():
    assert [kind.name for kind in KINDS] == ["sudoku", "binairo"]


@by_name
def test_a_kind_implements_every_method_of_the_interface(kind):
    assert not inspect.isabstract(type(kind))
    assert not getattr(type(kind), "__abstractmethods__", None)


@pytest.mark.parametrize("name", registry.KIND_NAMES)
def test_every_kind_answers_known_actions_only(name):
    actions = registry.get_kind(name).actions
    assert actions and set(actions) <= set(ACTIONS)
    assert len(set(actions)) == len(actions)


@by_name
def test_every_grid_kind_is_asked_what_the_command_line_offers(kind, capsys):
    """``mindgames KIND --help`` lists each per-puzzle action of the kind, with the help
    text of models/actions.py (an extension may say more of one: binairo's count)."""
    with pytest.raises(SystemExit):
        main([kind.name, "--help"])
    listed = capsys.readouterr().out
    for action in select(kind.actions, per_puzzle=True):
        assert re.search(rf"^\s+{action}\s", listed, re.M), action
    assert ACTIONS["hint"].help in listed and ACTIONS["solve"].help in listed


@by_name
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant=st.integers(0, 3), seed=st.integers(0, 2**16))
def test_a_generated_puzzle_survives_write_then_read(kind, variant, seed):
    puzzle, _ = generated(kind, variant, seed)
    (item,) = kind.read(kind.write(puzzle))
    assert item.ok and item.puzzle == puzzle
    assert kind.describe(item.puzzle) == kind.describe(puzzle)


@by_name
@settings(max_examples=8, deadline=None)
@given(variant=st.integers(0, 3), seed=st.integers(0, 2**16))
def test_a_generated_puzzle_survives_to_json_then_parse_value(kind, variant, seed):
    puzzle, _ = generated(kind, variant, seed)
    assert kind.parse_value(kind.to_json(puzzle)) == puzzle


@by_name
@settings(max_examples=8, deadline=None)
@given(variant=st.integers(0, 3), seed=st.integers(0, 2**16))
def test_givens_taken_out_and_put_back_give_the_same_puzzle(kind, variant, seed):
    puzzle, solution = generated(kind, variant, seed)
    givens = kind.given_cells(puzzle)
    assert kind.with_givens(puzzle, givens) == puzzle
    assert kind.given_cells(kind.with_givens(puzzle, {})) == {}
    assert all(solution[r][c] == value for (r, c), value in givens.items())


@pytest.mark.parametrize("kind, path", BUNDLED)
def test_the_runner_solves_the_bundled_data_with_the_kind_object(kind, path):
    solver = PuzzleSolver(kind, "sat")
    items = kind.read(path.read_text())
    assert items and all(item.ok for item in items)
    for item in items:
        result = solver.solve(item.puzzle)
        assert result.status == "solved"
        assert kind.verify(item.puzzle, result.solution) == []


def cli_lines(capsys, kind: GridKind, path) -> list[str]:
    assert main([kind.name, "solve", str(path)]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("kind, path", BUNDLED)
def test_describe_and_draw_are_what_the_command_line_prints(capsys, kind, path):
    printed = cli_lines(capsys, kind, path)
    puzzle = kind.read(path.read_text())[0].puzzle
    solution = PuzzleSolver(kind, "sat").solve(puzzle).solution
    # "puzzle 1: " only when the file holds several puzzles
    assert printed[0].removeprefix("puzzle 1: ").startswith(f"{kind.describe(puzzle)}: solved, ")
    grid = printed[1 : 1 + len(kind.draw(puzzle))]
    # Puzzle and solution side by side: the puzzle's lines, then the solution's.
    for line, left, right in zip(grid, kind.draw(puzzle), kind.draw(puzzle, solution)):
        assert line.startswith(left) and line.endswith(right)


def test_sudoku_options_state_the_variant_and_a_header_must_agree_with_them():
    kind = sudoku.SUDOKU
    line = "." * 16
    assert kind.parse_value(line, box=(2, 2), diagonals=True).diagonals
    (item,) = kind.read("# mindgames sudoku box=2x2 diagonals\n" + line, diagonals=True)
    assert item.puzzle.diagonals
    with pytest.raises(sudoku.PuzzleError, match="says no diagonals, but --diagonals says diagonals"):
        kind.read("# mindgames sudoku box=2x2\n" + line, diagonals=True)


def test_binairo_clashing_cells_are_the_givens_that_break_a_rule():
    puzzle = binairo.BINAIRO.parse_value("111.\n....\n....\n....")
    assert binairo.BINAIRO.clashing_cells(puzzle) == [(0, 0), (0, 1), (0, 2)]
    assert binairo.BINAIRO.result_fields(puzzle) == {"rules": "takuzu"}


# -- the one generate/minimize loop (models/generate.py), through the kind objects alone ------
SMALL = {"sudoku": {"box": (2, 2)}, "binairo": {"size": (4, 4)}}


def removable_givens(kind: GridKind, puzzle) -> list:
    """Givens whose removal leaves the puzzle unique (none, for a minimal puzzle)."""
    solver = PuzzleSolver(kind, "sat")
    givens = kind.given_cells(puzzle)
    return [
        cell
        for cell in givens
        if solver.check(kind.with_givens(puzzle, {c: v for c, v in givens.items() if c != cell})).uniqueness
        == "unique"
    ]


@by_name
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_the_shared_loop_makes_unique_minimal_puzzles_of_every_kind(kind, seed):
    puzzle, solution = Generator(kind).generate(kind.empty(**SMALL[kind.name]), random.Random(seed))
    checked = PuzzleSolver(kind, "sat").check(puzzle)
    assert checked.uniqueness == "unique" and checked.solution == solution
    assert removable_givens(kind, puzzle) == []


@by_name
def test_the_shared_loop_is_reproducible_from_the_random_state(kind):
    empty = kind.empty(**SMALL[kind.name])
    first, again = (Generator(kind).generate(empty, random.Random(3)) for _ in range(2))
    assert first == again


@by_name
def test_a_passed_deadline_stops_the_shared_loop_with_time_limit_reached(kind):
    from mindgames.models.errors import TimeLimitReached
    from mindgames.solver.deadline import Deadline

    with pytest.raises(TimeLimitReached):
        Generator(kind).generate(kind.empty(**SMALL[kind.name]), random.Random(1), Deadline(0.0))


def test_a_variant_without_any_solution_is_unsolvable_for_the_shared_loop():
    # Region A's two halves cannot both hold 1..6 with the rows and columns as they are.
    empty = sudoku.SUDOKU.empty(regions="AAABBBAACBBBCCADDDCCCDDFEEEFFDEEEFFF")
    with pytest.raises(Unsolvable, match="no solution at all"):
        Generator(sudoku.SUDOKU).random_solution(empty, random.Random(1))


@by_name
def test_minimize_keeps_only_the_givens_that_make_the_solution_unique(kind):
    _, solution = Generator(kind).generate(kind.empty(**SMALL[kind.name]), random.Random(8))
    full = kind.with_givens(kind.empty(**SMALL[kind.name]), cells_of(solution))
    smaller, finished = Generator(kind).minimize(full, random.Random(9))
    assert finished and set(kind.given_cells(smaller)) < set(kind.given_cells(full))
    assert removable_givens(kind, smaller) == []


# -- one convention for "parsed or error" ----------------------------------------------------
#: kind -> (a puzzle, a broken one, where the broken one is when read after the first)
A_GOOD_AND_A_BAD_PUZZLE = {
    "sudoku": ("." * 16, "x" * 16, "line 3"),
    "binairo": ("0..1\n....\n....\n....", "01x.\n....\n....\n....", "line 6"),
}


@by_name
def test_reading_gives_each_puzzle_or_the_error_that_names_where(kind):
    good_text, bad_text, where = A_GOOD_AND_A_BAD_PUZZLE[kind.name]
    good, bad = kind.read(f"{good_text}\n\n{bad_text}\n")
    assert good.ok and good.puzzle == kind.parse_value(good_text)
    assert not bad.ok and isinstance(bad.error, PuzzleError) and where in str(bad.error)


# -- counting every grid, through the kind (GridKind.count_all) ---------------------------------------


@by_name
def test_a_kind_counts_every_grid_or_says_it_cannot(kind):
    if not kind.counts_all_grids:
        from mindgames.models.errors import NotSupported

        with pytest.raises(NotSupported, match=f"{kind.name}: counting every grid is not supported"):
            kind.count_all({})
        return
    assert kind.count_all_options and kind.count_all_methods


def test_binairo_counts_every_grid_of_a_size_by_each_method_alike():
    # 4x4 takuzu: 72 grids; 6x6: 4,140 (the published figures); the engine agrees on 4x4
    counts = {
        (size, method): binairo.BINAIRO.count_all({"size": size}, method, cross_check=2).count
        for size in ("4", (6, 6))
        for method in binairo.BINAIRO.count_all_methods
    }
    assert counts == {("4", "mitm"): 72, ("4", "dfs"): 72, ((6, 6), "mitm"): 4140, ((6, 6), "dfs"): 4140}
    every = PuzzleSolver(binairo.BINAIRO).count(binairo.BINAIRO.empty("4"), None)
    assert every.count == 72
    with pytest.raises(PuzzleError, match="size"):
        binairo.BINAIRO.count_all({"rules": "unruly"})
