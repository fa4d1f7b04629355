"""The Sudoku deduction ladder: each technique where it applies and where it must not; every
step agrees with the unique solution; grades are deterministic and order the shared sets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.models.sudoku import SUDOKU, make_puzzle, solve
from mindgames.models.sudoku.ladder import grade, hint_json, solve_by_ladder
from mindgames.models.sudoku.techniques import (
    GRADE_NAMES,
    LEVELS,
    NEEDS_SEARCH,
    Board,
    Contradiction,
    hidden_pair,
    hidden_single,
    hidden_triple,
    locked_candidates,
    naked_pair,
    naked_single,
    naked_triple,
    probing_depth_1,
    x_wing,
)
from tests.conftest import REPO, shared_file

EMPTY = make_puzzle([[0] * 9 for _ in range(9)])
ALL = set(range(1, 10))
PRINTABLE = "printable_25clue_1000.txt"


def open_board(**candidates: set[int]) -> Board:
    """The empty 9x9 board with some cells' candidates narrowed: ``r1c1={5}``."""
    board = Board.of(EMPTY)
    for name, values in candidates.items():
        row, col = name[1:].split("c")
        board.candidates[int(row) - 1, int(col) - 1] = set(values)
    return board


def without(board: Board, value: int, cells: list[tuple[int, int]]) -> Board:
    for cell in cells:
        board.candidates[cell].discard(value)
    return board


def puzzles(name: str, how_many: int) -> list:
    lines = shared_file("sudoku", name).read_text().split()
    return [SUDOKU.parse_value(line) for line in lines[:how_many]]


# -- each technique: where it applies, where it must not --------------------------------------
def test_nothing_applies_on_the_empty_board():
    board = Board.of(EMPTY)
    for technique in (
        naked_single,
        hidden_single,
        locked_candidates,
        naked_pair,
        hidden_pair,
        naked_triple,
        hidden_triple,
        x_wing,
    ):
        assert technique(board) is None, technique.__name__


def test_naked_single_places_a_cell_with_one_candidate():
    step = naked_single(open_board(r4c5={7}))
    assert step.place == ((3, 4), 7) and step.technique == "naked single"


def test_hidden_single_places_a_value_with_one_place_in_a_unit():
    board = without(Board.of(EMPTY), 7, [(0, c) for c in range(9) if c != 3])
    step = hidden_single(board)
    assert step.place == ((0, 3), 7) and "row 1" in step.text


def test_locked_candidates_clear_the_rest_of_the_row():
    board = without(Board.of(EMPTY), 4, [(r, c) for r in (1, 2) for c in range(3)])
    step = locked_candidates(board)
    assert set(step.eliminate) == {((0, c), 4) for c in range(3, 9)}
    assert set(step.because) == {(0, 0), (0, 1), (0, 2)}


def test_locked_candidates_need_the_value_confined():
    board = without(Board.of(EMPTY), 4, [(r, c) for r in (2,) for c in range(3)])
    assert locked_candidates(board) is None


def test_naked_pair_clears_its_values_from_the_unit():
    step = naked_pair(open_board(r1c1={1, 2}, r1c2={1, 2}))
    assert set(step.eliminate) >= {((0, c), v) for c in range(2, 9) for v in (1, 2)}
    assert step.because == ((0, 0), (0, 1))


def test_no_naked_pair_from_two_different_pairs():
    assert naked_pair(open_board(r1c1={1, 2}, r1c2={1, 3})) is None


def test_naked_triple_clears_its_values_and_a_pair_does_not_see_it():
    board = open_board(r1c1={1, 2}, r1c2={2, 3}, r1c3={1, 3})
    assert naked_pair(board) is None
    step = naked_triple(board)
    assert set(step.eliminate) >= {((0, c), v) for c in range(3, 9) for v in (1, 2, 3)}


def test_hidden_pair_keeps_only_its_values_in_its_cells():
    board = Board.of(EMPTY)
    for value in (1, 2):
        without(board, value, [(0, c) for c in range(2, 9)])
    step = hidden_pair(board)
    assert set(step.eliminate) == {((0, c), v) for c in (0, 1) for v in ALL - {1, 2}}
    board.apply(step)
    assert hidden_pair(board) is None  # once applied, nothing more to take


def test_hidden_triple():
    board = Board.of(EMPTY)
    for value in (1, 2, 3):
        without(board, value, [(0, c) for c in range(3, 9)])
    assert hidden_pair(board) is None
    step = hidden_triple(board)
    assert set(step.eliminate) == {((0, c), v) for c in (0, 1, 2) for v in ALL - {1, 2, 3}}


def test_x_wing_clears_the_two_columns():
    board = Board.of(EMPTY)
    for row in (1, 5):
        without(board, 5, [(row, c) for c in range(9) if c not in (2, 7)])
    step = x_wing(board)
    assert set(step.eliminate) == {((r, c), 5) for r in range(9) if r not in (1, 5) for c in (2, 7)}


def test_no_x_wing_when_the_columns_differ():
    board = Board.of(EMPTY)
    without(board, 5, [(1, c) for c in range(9) if c not in (2, 7)])
    without(board, 5, [(5, c) for c in range(9) if c not in (2, 6)])
    assert x_wing(board) is None


def test_probing_removes_a_candidate_that_leads_to_a_contradiction():
    # r1c1 is 1 or 2; if it were 1, r1c2 (only 1 or 3) is 3 and r1c3 (only 1 or 3) has nothing.
    board = open_board(r1c1={1, 2}, r1c2={1, 3}, r1c3={1, 3})
    step = probing_depth_1(board)
    assert step.eliminate == (((0, 0), 1),)


def test_clashing_givens_are_a_contradiction():
    grid = [[0] * 9 for _ in range(9)]
    grid[0][0] = grid[0][5] = 5
    with pytest.raises(Contradiction):
        Board.of(make_puzzle(grid))


# -- every step agrees with the unique solution ------------------------------------------------
def steps_agree(puzzle) -> None:
    solution = solve(puzzle).solution
    solving = solve_by_ladder(puzzle)
    for step in solving.steps:
        if step.place is not None:
            (r, c), value = step.place
            assert solution[r][c] == value, step
        for (r, c), value in step.eliminate:
            assert solution[r][c] != value, step
    for (r, c), value in solving.board.values.items():
        assert solution[r][c] == value
    hint = hint_json(puzzle)
    if hint is not None:
        assert solution[hint["row"] - 1][hint["col"] - 1] == hint["value"]


def test_the_bundled_puzzles_are_solved_by_correct_steps():
    for line in (REPO / "data" / "sudoku" / "seed.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            steps_agree(SUDOKU.parse_value(line))


def test_printable_puzzles_are_solved_by_correct_steps():
    for puzzle in puzzles(PRINTABLE, 25):
        steps_agree(puzzle)


# -- grades -------------------------------------------------------------------------------------
def test_grades_are_deterministic_and_named():
    for puzzle in puzzles(PRINTABLE, 10):
        first, second = grade(puzzle), grade(puzzle)
        assert first == second
        level, name, used = first
        assert GRADE_NAMES[level] == name and max(LEVELS[t] for t in used) == level


def test_printable_puzzles_grade_below_the_forum_hardest():
    easy = [grade(p)[0] for p in puzzles(PRINTABLE, 10)]
    hard = [grade(p)[0] for p in puzzles("forum_hardest_1106.txt", 2)]
    assert max(easy) < NEEDS_SEARCH and min(hard) > sorted(easy)[len(easy) // 2]


# -- the ladder's fast scans say what the rules' plain definitions say -------------------------------
def first_hidden_single_by_definition(board: Board) -> tuple | None:
    """The first unit, in order, with a value it still needs that has one place: (cell, value)."""
    for unit in board.units:
        placed = {board.values[cell] for cell in unit.cells if cell in board.values}
        for value in range(1, board.size + 1):
            places = [cell for cell in unit.cells if value in board.candidates.get(cell, ())]
            if value not in placed and len(places) == 1:
                return places[0], value
    return None


def first_gap_by_definition(board: Board) -> str | None:
    """The first unit with a value it needs nowhere to go, as Contradiction's message."""
    for unit in board.units:
        placed = {board.values[cell] for cell in unit.cells if cell in board.values}
        for value in range(1, board.size + 1):
            if value not in placed and not any(
                value in board.candidates.get(cell, ()) for cell in unit.cells
            ):
                return f"{value} has no place in {unit.name}"
    return None


SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


@settings(max_examples=60, deadline=None)
@given(
    kept=st.lists(st.booleans(), min_size=81, max_size=81),
    removed=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(1, 9)), max_size=40),
)
def test_hidden_singles_and_gaps_are_found_as_their_definitions_say(kept, removed):
    puzzle = SUDOKU.parse_value("".join(d if keep else "." for d, keep in zip(SOLVED, kept)))
    board = Board.of(puzzle)
    for r, c, value in removed:  # some candidates taken away, as eliminations do
        left = board.candidates.get((r, c))
        if left is not None and len(left) > 1:
            left.discard(value)
    step = hidden_single(board)
    expected = first_hidden_single_by_definition(board)
    assert (step.place if step else None) == expected
    gap = first_gap_by_definition(board)
    if gap is None:
        board.check()
    else:
        with pytest.raises(Contradiction, match=f"^{gap}$"):
            board.check()
