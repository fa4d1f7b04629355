"""Sudoku Explainer's ladder (models.sudoku.rating): each technique where it applies and where
it must not, on boards whose candidates are narrowed by hand; every eliminated cell named."""

from __future__ import annotations

from mindgames.models.sudoku import SUDOKU, make_puzzle, solve
from mindgames.models.sudoku.rating import (
    BASE_RATING,
    SE_LADDER,
    claiming,
    direct_claiming,
    direct_hidden_pair,
    direct_pointing,
    dynamic_forcing_chain,
    forcing_chain,
    full_house,
    hidden_quad,
    hidden_single_in_block,
    hidden_single_in_line,
    jellyfish,
    naked_quad,
    pointing,
    rate,
    swordfish,
    unique_loop,
    unique_rectangle,
    unique_rectangle_2_4,
    x_wing,
    xy_wing,
    xyz_wing,
)
from mindgames.models.sudoku.techniques import CHAINS, GRADE_TOPS, Board, grade_of

EMPTY = make_puzzle([[0] * 9 for _ in range(9)])
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def board_with(**candidates: set[int]) -> Board:
    """The empty 9x9 board with some cells' candidates narrowed: ``r1c1={5}``."""
    board = Board.of(EMPTY)
    for name, values in candidates.items():
        row, col = name[1:].split("c")
        board.candidates[int(row) - 1, int(col) - 1] = set(values)
    return board


def without(board: Board, value: int, cells) -> Board:
    for cell in cells:
        board.candidates[cell].discard(value)
    return board


def gone(step) -> set[tuple[int, int, int]]:
    return {(r, c, v) for (r, c), v in step.eliminate}


def test_nothing_applies_on_the_empty_board():
    board = Board.of(EMPTY)
    for _rating, technique in SE_LADDER[:-3]:  # the chain rungs try every candidate: too slow here
        assert technique(board) is None, technique.__name__


def test_the_ladder_climbs_and_grades_are_monotonic_ranges():
    ratings = [rating for rating, _ in SE_LADDER]
    assert ratings == sorted(ratings)
    tops = [GRADE_TOPS[level] for level in sorted(GRADE_TOPS)]
    assert tops == sorted(tops)
    assert [grade_of(rating) for rating in sorted(BASE_RATING.values())] == sorted(
        grade_of(rating) for rating in BASE_RATING.values()
    )


# -- singles --------------------------------------------------------------------------------
def test_full_house_and_hidden_singles_by_unit():
    grid = [[int(d) for d in SOLVED[r * 9 : r * 9 + 9]] for r in range(9)]
    grid[0][0] = 0
    step = full_house(Board.of(make_puzzle(grid)))
    assert step.place == ((0, 0), 5)
    assert full_house(Board.of(EMPTY)) is None
    board = without(Board.of(EMPTY), 7, [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)])
    assert hidden_single_in_block(board).place == ((1, 1), 7)
    assert hidden_single_in_line(board) is None  # 7 still has three places in row 2 and column 2
    line = without(Board.of(EMPTY), 7, [(4, c) for c in range(9) if c != 8])
    assert hidden_single_in_line(line).place == ((4, 8), 7) and hidden_single_in_block(line) is None


# -- intersections, direct and plain --------------------------------------------------------
def pointing_board(second_place_in_box_2: bool) -> Board:
    """Box 1's 5 only in row 1; box 2's 5 in row 1 and r2c4 (and r3c4 if asked)."""
    board = without(Board.of(EMPTY), 5, [(r, c) for r in (1, 2) for c in range(3)])
    keep = {(1, 3), (2, 3)} if second_place_in_box_2 else {(1, 3)}
    return without(board, 5, [(r, c) for r in (1, 2) for c in range(3, 6) if (r, c) not in keep])


def test_pointing_leaves_a_hidden_single_in_a_box_direct_pointing():
    step = direct_pointing(pointing_board(False))
    assert step.place == ((1, 3), 5)
    assert {(0, c, 5) for c in range(3, 9)} == gone(step)


def test_pointing_without_a_single_is_plain_pointing_not_direct():
    board = pointing_board(True)
    assert direct_pointing(board) is None
    assert gone(pointing(board)) == {(0, c, 5) for c in range(3, 9)}


def test_claiming_clears_the_box_and_direct_claiming_needs_a_single():
    board = without(Board.of(EMPTY), 4, [(0, c) for c in range(3, 9)])  # row 1's 4 in box 1
    assert gone(claiming(board)) == {(r, c, 4) for r in (1, 2) for c in range(3)}
    assert direct_claiming(board) is None


def test_direct_hidden_pair_places_the_single_it_leaves():
    # Row 1: 1 and 2 only in r1c1, r1c2; box 1's 3 only in r1c1, r1c2 and r2c1 ... r1c1/r1c2
    # lose 3: box 1's 3 is left in r2c1 alone.
    board = without(Board.of(EMPTY), 1, [(0, c) for c in range(2, 9)])
    without(board, 2, [(0, c) for c in range(2, 9)])
    without(board, 3, [(r, c) for r in range(3) for c in range(3) if (r, c) not in {(0, 0), (0, 1), (1, 0)}])
    step = direct_hidden_pair(board)
    assert step.place == ((1, 0), 3)
    assert (0, 0, 3) in gone(step) and (0, 1, 3) in gone(step)


# -- fish -----------------------------------------------------------------------------------
def test_x_wing_names_every_cell_it_clears():
    board = Board.of(EMPTY)
    without(board, 5, [(1, c) for c in range(9) if c not in (2, 7)])
    without(board, 5, [(5, c) for c in range(9) if c not in (2, 7)])
    step = x_wing(board)
    assert gone(step) == {(r, c, 5) for r in range(9) for c in (2, 7) if r not in (1, 5)}
    for r, c, _ in gone(step):
        assert f"r{r + 1}c{c + 1}" in step.text


def test_swordfish_and_not_when_a_row_strays():
    board = Board.of(EMPTY)
    for row, cols in ((0, (0, 4)), (3, (4, 8)), (6, (0, 8))):
        without(board, 6, [(row, c) for c in range(9) if c not in cols])
    step = swordfish(board)
    assert gone(step) == {(r, c, 6) for r in range(9) for c in (0, 4, 8) if r not in (0, 3, 6)}
    assert x_wing(board) is None
    stray = Board.of(EMPTY)
    for row, cols in ((0, (0, 4)), (3, (4, 8)), (6, (0, 7))):
        without(stray, 6, [(row, c) for c in range(9) if c not in cols])
    assert swordfish(stray) is None


def test_jellyfish():
    board = Board.of(EMPTY)
    cols = (0, 2, 4, 6)
    for row in (1, 3, 5, 7):
        without(board, 9, [(row, c) for c in range(9) if c not in cols])
    step = jellyfish(board)
    assert gone(step) == {(r, c, 9) for r in range(9) for c in cols if r not in (1, 3, 5, 7)}
    assert swordfish(board) is None


# -- subsets of four -------------------------------------------------------------------------
def test_naked_quad_and_not_with_a_fifth_value():
    board = board_with(r1c1={1, 2}, r1c2={2, 3}, r1c3={3, 4}, r1c4={4, 1})
    assert gone(naked_quad(board)) == {(0, c, v) for c in range(4, 9) for v in (1, 2, 3, 4)}
    assert naked_quad(board_with(r1c1={1, 2}, r1c2={2, 3}, r1c3={3, 4}, r1c4={4, 5})) is None


def test_hidden_quad():
    board = Board.of(EMPTY)
    for value in (1, 2, 3, 4):
        without(board, value, [(0, c) for c in range(4, 9)])
    step = hidden_quad(board)
    assert gone(step) == {(0, c, v) for c in range(4) for v in range(5, 10)}


# -- wings and uniqueness --------------------------------------------------------------------
def test_xy_wing_and_not_without_a_shared_third_value():
    step = xy_wing(board_with(r1c1={1, 2}, r1c5={1, 3}, r5c1={2, 3}))
    assert gone(step) == {(4, 4, 3)}
    assert xy_wing(board_with(r1c1={1, 2}, r1c5={1, 3}, r5c1={2, 4})) is None


def test_xyz_wing_and_not_when_a_pincer_is_outside():
    step = xyz_wing(board_with(r1c1={1, 2, 3}, r1c2={1, 3}, r2c1={2, 3}))
    assert gone(step) == {(r, c, 3) for r in range(3) for c in range(3)} - {(0, 0, 3), (0, 1, 3), (1, 0, 3)}
    assert xyz_wing(board_with(r1c1={1, 2, 3}, r1c2={1, 3}, r2c1={2, 4})) is None


def test_unique_rectangle_on_two_boxes_only():
    step = unique_rectangle(board_with(r1c1={1, 2}, r1c4={1, 2}, r2c1={1, 2}, r2c4={1, 2, 5}))
    assert gone(step) == {(1, 3, 1), (1, 3, 2)}
    assert unique_rectangle(board_with(r1c1={1, 2}, r1c4={1, 2}, r4c1={1, 2}, r4c4={1, 2, 5})) is None


# -- the chain rungs -------------------------------------------------------------------------
def test_contradictions_remove_only_wrong_candidates():
    puzzle = SUDOKU.parse_value(
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    )
    solution = solve(puzzle).solution
    rated = rate(puzzle)
    used = {step.technique for step in rated.steps}
    assert used & set(CHAINS)
    for step in rated.steps:
        assert all(solution[r][c] != v for (r, c), v in step.eliminate)
    # r1c1 is 1 or 2; if it were 1, r1c2 and r1c3 (each 1 or 3) would both be 3: a forcing chain
    board = board_with(r1c1={1, 2}, r1c2={1, 3}, r1c3={1, 3})
    assert forcing_chain(board).eliminate == (((0, 0), 1),)
    assert dynamic_forcing_chain(board).eliminate == (((0, 0), 1),)


def test_unique_rectangle_types_2_and_4():
    # type 2: a floor of 1/2 in row 1, a roof of 1/2/7 in row 2: one roof cell is 7
    step = unique_rectangle_2_4(board_with(r1c1={1, 2}, r1c4={1, 2}, r2c1={1, 2, 7}, r2c4={1, 2, 7}))
    assert gone(step) == {(1, c, 7) for c in range(9) if c not in (0, 3)} and step.rating == 4.6
    # type 4: the roof's extras differ, but row 2's 1 is only in the roof: neither roof cell is 2
    board = board_with(r1c1={1, 2}, r1c4={1, 2}, r2c1={1, 2, 7}, r2c4={1, 2, 8})
    without(board, 1, [(1, c) for c in range(9) if c not in (0, 3)])
    assert gone(unique_rectangle_2_4(board)) == {(1, 0, 2), (1, 3, 2)}
    # not on four boxes, and not when the roof's extras differ with 1 free in row 2
    assert unique_rectangle_2_4(board_with(r1c1={1, 2}, r1c4={1, 2}, r4c1={1, 2, 7}, r4c4={1, 2, 7})) is None
    assert unique_rectangle_2_4(board_with(r1c1={1, 2}, r1c4={1, 2}, r2c1={1, 2, 7}, r2c4={1, 2, 8})) is None


def test_no_uniqueness_technique_where_a_diagonal_can_forbid_the_swap():
    board = Board.of(make_puzzle([[0] * 9 for _ in range(9)], (3, 3), None, True))
    for name, values in {(0, 0): {1, 2}, (0, 3): {1, 2}, (1, 0): {1, 2}, (1, 3): {1, 2, 5}}.items():
        board.candidates[name] = set(values)
    assert unique_rectangle(board) is None and unique_rectangle_2_4(board) is None
    assert unique_loop(board) is None


# -- unique loops ----------------------------------------------------------------------------
#: six cells on 4/6, two in each of rows 4, 6, 7, columns 4, 6, 8 and boxes 5, 6, 8, at an odd
#: distance along the loop r4c6-r4c8-r6c8-r6c4-r7c4-r7c6: 4 and 6 could swap
LOOP = ("r4c6", "r4c8", "r6c8", "r6c4", "r7c4", "r7c6")


def loop_board(**extras: set[int]) -> Board:
    return board_with(**{cell: {4, 6} | extras.get(cell, set()) for cell in LOOP})


def test_unique_loop_type_1_the_one_cell_with_extras_is_neither_value():
    step = unique_loop(loop_board(r6c8={3}))
    assert step.technique == "unique loop" and len(step.because) == 6
    assert gone(step) == {(5, 7, 4), (5, 7, 6)} and step.rating == 4.6


def test_unique_loop_type_2_no_cell_seeing_every_extra_cell_holds_their_extra():
    step = unique_loop(loop_board(r4c8={3}, r6c8={3}))
    # r4c8 and r6c8 share column 8 and box 6: one of them is 3
    column = {(r, 7, 3) for r in range(9) if r not in (3, 5)}
    box = {(r, c, 3) for r in range(3, 6) for c in range(6, 9) if c != 7}
    assert gone(step) == column | box and step.rating == 4.6


def test_unique_loop_type_4_a_value_locked_in_the_extra_cells_rules_out_the_other():
    board = without(loop_board(r7c4={8}, r7c6={9}), 4, [(6, c) for c in range(9) if c not in (3, 5)])
    assert gone(unique_loop(board)) == {(6, 3, 6), (6, 5, 6)}


def test_unique_loop_type_3_the_extra_cells_act_as_one_cell_of_a_naked_set():
    # one of r7c4 (4/6/8) and r7c6 (4/6/9) is 8 or 9: with r7c8 (8/9) a naked pair in row 7
    board = loop_board(r7c4={8}, r7c6={9})
    board.candidates[6, 7] = {8, 9}
    step = unique_loop(board)
    assert gone(step) == {(6, c, v) for c in (0, 1, 2, 4, 6, 8) for v in (8, 9)}
    assert step.rating == 4.7  # a 6-cell loop's 4.6 and a tenth for the pair
    board.candidates[6, 7] = {7, 8, 9}  # three values in two "cells": no naked set
    assert unique_loop(board) is None


def test_no_unique_loop_where_the_pattern_can_be_broken_or_is_a_rectangle():
    # the extra cells hold different values, neither locked: nothing follows
    assert unique_loop(loop_board(r4c8={3}, r6c8={5})) is None
    # six cells in six boxes: another 4 or 6 of a box can break the swap
    assert (
        unique_loop(
            board_with(r1c1={4, 6}, r1c4={4, 6}, r4c4={4, 6}, r4c7={4, 6}, r7c7={4, 6}, r7c1={3, 4, 6})
        )
        is None
    )
    # four cells are a unique rectangle, not a loop
    assert unique_loop(board_with(r1c1={1, 2}, r1c4={1, 2}, r2c1={1, 2}, r2c4={1, 2, 5})) is None
    # a diagonal can forbid the swap
    board = Board.of(make_puzzle([[0] * 9 for _ in range(9)], (3, 3), None, True))
    for name in LOOP:
        row, col = name[1:].split("c")
        board.candidates[int(row) - 1, int(col) - 1] = {4, 6} | ({3} if name == "r6c8" else set())
    assert unique_loop(board) is None


def test_puzzles_sudoku_explainer_solves_with_a_unique_loop_rate_4_6():
    for puzzle in (
        "...5..7..8.....3......4.....6.....4.3..7.............1...3..27..14.6......8......",
        ".......416...5......8......5....36...7.1.....2..........1...3...4.2........7...2.",
    ):
        rated = rate(SUDOKU.parse_value(puzzle))
        assert rated.solved and rated.er == 4.6
        assert "unique loop" in {step.technique for step in rated.steps}
