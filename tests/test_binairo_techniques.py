"""binairo's deduction ladder: each technique where it applies and where it must not; every
step agrees with the unique solution; grades are deterministic."""

from __future__ import annotations

from mindgames.models.binairo import BINAIRO
from mindgames.models.binairo.rules import families
from mindgames.models.binairo.techniques import (
    UNRULY_LEVELS,
    Step,
    balance,
    completions,
    distinct_lines,
    grade,
    hint_json,
    no_three,
    pair_completions,
    solve_by_ladder,
    unruly_level,
    unruly_level_of,
)
from mindgames.models.runner import PuzzleSolver
from tests.conftest import REPO

N = None


def position(*rows: str) -> list[list[int | None]]:
    return [[None if ch == "." else int(ch) for ch in row] for row in rows]


def units(pos):
    rows, cols = families(len(pos), len(pos[0]))
    return rows + cols


def test_no_three_in_a_row_beside_and_around():
    pos = position("00....", "......", "......", "......", "......", "......")
    assert no_three(pos, units(pos)).place == ((0, 2), 1)
    pos = position("1.1...", "......", "......", "......", "......", "......")
    assert no_three(pos, units(pos)).place == ((0, 1), 0)
    pos = position("01.0..", "......", "......", "......", "......", "......")
    assert no_three(pos, units(pos)) is None


def test_balance_fills_the_rest_of_a_half_full_line():
    pos = position("0.0.0.", "......", "......", "......", "......", "......")
    assert balance(pos, units(pos)).place == ((0, 1), 1)
    pos = position("0.0...", "......", "......", "......", "......", "......")
    assert balance(pos, units(pos)) is None


def test_pair_completions():
    # 1....1 completes as 100101 or 101001 only: r1c2 is 0 (no three, no balance yet)
    pos = position("1....1", "......", "......", "......", "......", "......")
    assert no_three(pos, units(pos)) is None and balance(pos, units(pos)) is None
    assert sorted(completions([1, N, N, N, N, 1])) == [(1, 0, 0, 1, 0, 1), (1, 0, 1, 0, 0, 1)]
    assert pair_completions(pos, units(pos)).place == ((0, 1), 0)
    pos = position("......", "......", "......", "......", "......", "......")
    assert pair_completions(pos, units(pos)) is None


def test_distinct_rows_exclude_a_completion_equal_to_a_full_row():
    # 01.01. completes as 011010 (row 1 already) or 010011
    pos = position("011010", "01.01.", "......", "......", "......", "......")
    assert pair_completions([pos[1]], [families(1, 6)[0][0]]) is None
    step = distinct_lines(pos, families(6, 6))
    assert step.place == ((1, 2), 0) and "row 1" in step.text
    pos = position("011011", "01.01.", "......", "......", "......", "......")
    assert distinct_lines(pos, families(6, 6)) is None  # no full row to differ from


def steps_agree(puzzle) -> None:
    solution = PuzzleSolver(BINAIRO).solve(puzzle).solution
    steps, _grade = solve_by_ladder(puzzle)
    for step in steps:
        (r, c), value = step.place
        assert solution[r][c] == value, step
    hint = hint_json(puzzle)
    if hint is not None:
        assert solution[hint["row"] - 1][hint["col"] - 1] == hint["value"]


def test_bundled_puzzles_are_solved_by_correct_steps_and_graded_the_same_twice():
    for path in sorted((REPO / "data" / "binairo").glob("*.txt")):
        for item in BINAIRO.read(path.read_text()):
            steps_agree(item.puzzle)
            assert grade(item.puzzle) == grade(item.puzzle)


def test_unruly_never_uses_distinct_lines():
    for item in BINAIRO.read((REPO / "data" / "binairo" / "unruly_8x8.txt").read_text()):
        assert "distinct rows and columns" not in grade(item.puzzle)[2]


# -- Unruly's levels (Simon Tatham's unruly.c solver) ---------------------------------------
def test_unruly_levels_name_the_deduction_unruly_needs():
    # two equal cells beside an empty one, and a line's last empty cell: trivial
    pos = position("00....", "......", "......", "......", "......", "......")
    assert UNRULY_LEVELS[unruly_level_of(pos, no_three(pos, units(pos)))] == "trivial"
    pos = position("01010.", "......", "......", "......", "......", "......")
    assert UNRULY_LEVELS[unruly_level_of(pos, balance(pos, units(pos)))] == "trivial"
    # a line with all its 0s and two cells open: easy
    pos = position("0.0.01", "......", "......", "......", "......", "......")
    assert UNRULY_LEVELS[unruly_level_of(pos, balance(pos, units(pos)))] == "easy"
    # a completion argument in a line missing one 0 is Unruly's normal; missing two of each, beyond
    missing_one = Step("pair completions", ((0, 0), 1), ((0, 3), (0, 5)), "")
    assert UNRULY_LEVELS[unruly_level_of(position("...0.0"), missing_one)] == "normal"
    missing_two = Step("pair completions", ((0, 0), 1), ((0, 3), (0, 4)), "")
    assert UNRULY_LEVELS[unruly_level_of(position("...01."), missing_two)] == "beyond normal"


def test_unruly_level_follows_the_grade_and_names_its_technique():
    for path in sorted((REPO / "data" / "binairo").glob("*.txt")):
        for item in BINAIRO.read(path.read_text()):
            level, technique = unruly_level(item.puzzle)
            number, _name, used = grade(item.puzzle)
            assert level in UNRULY_LEVELS and technique in used + ["no three in a row"]
            if number == 5:
                assert (level, technique) == ("beyond normal", "needs search")
            if number <= 2:
                assert level in ("trivial", "easy")


def test_explain_names_the_unruly_level_beside_the_grade():
    from mindgames.models.explain import Explainer

    item = next(iter(BINAIRO.read((REPO / "data" / "binairo" / "unruly_8x8.txt").read_text())))
    reply = Explainer(BINAIRO).explain(item.puzzle).to_json()
    assert reply["grade"] == 3 and reply["unruly_level"] == "normal"
    assert reply["unruly_technique"] == "pair completions" and "Unruly normal" in reply["text"]
