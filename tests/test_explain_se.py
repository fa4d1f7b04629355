"""Explanations on Sudoku Explainer's scale: a complete grid is a result, hints say only what
they need, the whole path replays to the solution, the rating stays calibrated on SE's."""

from __future__ import annotations

import json

import pytest

from benchmarks.rating import calibrate, read_rated
from mindgames.cli import main
from mindgames.models.binairo import BINAIRO
from mindgames.models.explain import SOLVED_TEXT, Explainer
from mindgames.models.runner import PuzzleSolver
from mindgames.models.sudoku import SUDOKU, solve
from mindgames.models.sudoku.ladder import hint, hint_json
from mindgames.models.sudoku.rating import path_json, rate
from mindgames.models.sudoku.techniques import GRADE_TOPS, Board
from tests.conftest import REPO, shared_file

SE_RATED = shared_file("sudoku", "se_rated_87.tsv")
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
PUZZLE = "..9..2....3..9.....5.78...9.4.3..2....72.85....1..5.6.6...79.8.....2..5....4..7.."


# -- a complete grid is solved, not an error -------------------------------------------------
def test_hint_and_explain_of_a_complete_sudoku_say_solved():
    explainer = Explainer(SUDOKU)
    full = SUDOKU.parse_value(SOLVED)
    assert explainer.hint(full) == {"explanation": "solved", "text": SOLVED_TEXT}
    explained = explainer.explain(full)
    assert explained.explanation == "solved" and explained.to_json()["text"] == SOLVED_TEXT
    assert "grade" not in explained.to_json()


def test_hint_of_a_complete_binairo_says_solved():
    explainer = Explainer(BINAIRO)
    loose = BINAIRO.empty((6, 6))
    fixed = explainer.fixed(loose, explainer.explain(loose))
    solution = PuzzleSolver(BINAIRO).solve(fixed).solution
    full = BINAIRO.with_givens(
        fixed, {(r, c): v for r, row in enumerate(solution) for c, v in enumerate(row)}
    )
    assert explainer.hint(full)["explanation"] == "solved"
    assert explainer.explain(full).explanation == "solved"


def test_one_solved_puzzle_does_not_stop_a_collection(tmp_path, capsys):
    path = tmp_path / "mixed.txt"
    path.write_text(f"{SOLVED}\n{PUZZLE}\n")
    for action in ("hint", "explain"):
        assert main(["sudoku", action, "--json", str(path)]) == 0
        first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
        assert first["explanation"] == "solved"
        assert second["index"] == 1 and ("value" in second or second["explanation"] == "unique")
    assert main(["sudoku", "explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "solved: every cell" in out and "grade 1 (easy): \n" not in out


# -- hints say only what they need -----------------------------------------------------------
def absent(board: Board, needed) -> bool:
    """Whether every (cell, value) of ``needed`` is no candidate (a filled cell holds none)."""
    return all(value not in board.candidates.get(cell, ()) for cell, value in needed)


def justified(puzzle, steps, last) -> bool:
    """Replay ``steps`` from the givens, each only where the candidates it requires gone are
    gone (its pattern holds), then check ``last`` likewise and that it places a single: its
    cell has one candidate or its value one place in a unit."""
    board = Board.of(puzzle)
    for step in steps:
        if not (absent(board, step.requires) if step.requires is not None else step.recheck(board)):
            return False
        board.apply(step)
    if not absent(board, last.requires):
        return False
    for gone_cell, gone_value in last.eliminate:  # a direct technique's own eliminations
        board.eliminate(gone_cell, gone_value)
    (cell, value) = last.place
    if board.candidates[cell] == {value}:
        return True
    return any(cell in unit.cells and board.places(unit, value) == [cell] for unit in board.units)


def positions_with_long_hints(how_many: int):
    """Positions along the paths of the SE-rated puzzles whose hint needs eliminations first."""
    found = []
    for puzzle_line, er, *_ in read_rated(SE_RATED):
        if not 2.6 <= er <= 7:
            continue
        puzzle = SUDOKU.parse_value(puzzle_line)
        grid = [list(row) for row in puzzle.grid]
        for step in rate(puzzle).steps:
            current = SUDOKU.parse_value("".join(str(v or ".") for row in grid for v in row))
            placed, before = hint(current)
            if before:
                found.append((current, placed, before))
                break
            if step.place is not None:
                (r, c), value = step.place
                grid[r][c] = value
        if len(found) >= how_many:
            break
    return found


def test_hints_are_pruned_to_the_steps_they_depend_on():
    cases = positions_with_long_hints(6)
    assert cases
    for puzzle, placed, before in cases:
        assert justified(puzzle, before, placed)
        for index in range(len(before)):  # removing any listed step breaks the justification
            assert not justified(puzzle, before[:index] + before[index + 1 :], placed)


def test_hint_json_names_every_eliminated_cell():
    for puzzle, _placed, before in positions_with_long_hints(3):
        reply = hint_json(puzzle)
        listed = {(e["row"], e["col"], e["value"]) for e in reply["eliminate"]}
        chain = [*before, _placed]
        assert listed == {(r + 1, c + 1, v) for step in chain for (r, c), v in step.eliminate}
        assert len(reply["steps"]) == len(before) + 1
        solution = solve(puzzle).solution
        assert all(solution[r - 1][c - 1] != v for r, c, v in listed)


# -- the whole path replays to the solution -----------------------------------------------------
def replay(puzzle_line: str, path: dict) -> list[list[int]]:
    """An independent checker: places each step's value on a plain grid, refusing a filled
    cell or a value its row, column or box already has; returns the grid."""
    grid = [[int(ch) if ch.isdigit() else 0 for ch in puzzle_line[r * 9 : r * 9 + 9]] for r in range(9)]
    for step in path["steps"]:
        if "place" not in step:
            continue
        r, c, v = step["place"]["row"] - 1, step["place"]["col"] - 1, step["place"]["value"]
        assert grid[r][c] == 0, step
        box = [
            grid[i][j] for i in range(r // 3 * 3, r // 3 * 3 + 3) for j in range(c // 3 * 3, c // 3 * 3 + 3)
        ]
        assert v not in grid[r] and v not in [row[c] for row in grid] and v not in box, step
        grid[r][c] = v
    return grid


@pytest.mark.parametrize("row", range(0, 60, 4))  # the 17-clue puzzles, SE 1.5-7.1
def test_the_path_replayed_by_a_checker_reaches_the_solution(row):
    puzzle_line = read_rated(SE_RATED)[row][0]
    puzzle = SUDOKU.parse_value(puzzle_line)
    path = path_json(puzzle)
    assert path["solved"]
    solution = solve(puzzle).solution
    assert replay(puzzle_line, path) == [list(r) for r in solution]
    for step in path["steps"]:
        assert all(solution[e["row"] - 1][e["col"] - 1] != e["value"] for e in step["eliminate"])


def test_cli_path_text_and_json(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(PUZZLE + "\n")
    assert main(["sudoku", "path", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1. " in out and "ER " in out
    assert main(["sudoku", "path", "--json", str(path)]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["steps"][0]["step"] == 1 and {"rating", "rating_ep", "rating_ed", "solved"} <= set(reply)


# -- the rating on Sudoku Explainer's scale ------------------------------------------------------
def test_explain_json_carries_the_rating_beside_the_grade():
    reply = Explainer(SUDOKU).explain(SUDOKU.parse_value(PUZZLE)).to_json()
    assert reply["rating"] >= reply["rating_ep"] >= reply["rating_ed"] > 0
    assert reply["rating"] <= GRADE_TOPS[reply["grade"]]


#: what benchmarks/rating.py measured on the 75 puzzles SE rates below 10 when this was
#: calibrated (Spearman 0.986, 94.7 % within 0.3, 100 % within 1.0 since unique loops; all 87:
#: 0.990, 95 %, 100 %): the test fails on a drift below
CALIBRATED = {"spearman": 0.986, "within_0.3": 0.946, "within_1.0": 1.0}


def test_the_rating_stays_calibrated_on_sudoku_explainer_ratings():
    figures = calibrate(SE_RATED, below=10)  # the 12 above take minutes: the test below has two
    for measure, floor in CALIBRATED.items():
        assert figures[measure] >= floor, (measure, figures[measure])


def test_the_rating_holds_on_sudoku_explainers_ratings_of_the_top_95():
    # SE's own ratings (serate) of magictour's top 95, made for this; the 44 below SE 7 (the rest
    # take minutes: benchmarks/rating.py reports all 95: Spearman 0.984, 93 % within 0.3)
    figures = calibrate(REPO / "benchmarks" / "se_rated_top95.tsv", below=7)
    assert figures["spearman"] >= 0.96 and figures["within_0.3"] >= 0.93 and figures["within_1.0"] == 1


def test_the_hardest_puzzles_rate_as_sudoku_explainer_rates_them():
    hardest = [row for row in read_rated(SE_RATED) if row[1] >= 10][:2]
    for puzzle, se_rating, *_ in hardest:
        assert abs(rate(SUDOKU.parse_value(puzzle)).er - se_rating) <= 0.3
