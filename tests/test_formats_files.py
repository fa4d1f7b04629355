"""Sudoku in the classic files and pencil-mark forms (models/sudoku/pencilmarks.py,
models/sudoku/writers.py): SadMan and SudoCue ``.sdk`` / ``.sdm``, Sukaku lines and candidate
grids, each read wherever a Sudoku is read and written so that it reads back; every writer of
``--format`` round-trips; malformed files name the line, column or character."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.models.errors import PuzzleError
from mindgames.models.sudoku import SUDOKU, check, count, make_puzzle, parse, read
from mindgames.models.sudoku.pencilmarks import claims_sukaku, to_candidate_grid, to_sukaku
from mindgames.models.sudoku.variants import Candidates, Constraints
from mindgames.models.sudoku.writers import LINKS, WRITERS

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"

# ---------------------------------------------------------------------------
# .sdk and .sdm
# ---------------------------------------------------------------------------
#: SudoCue's own example of a .sdk file (sudocue.net/fileformats.php, "Sudoku Puzzle (.sdk)"):
#: its "#" lines are metadata (author, description, ...), then nine rows
SUDOCUE_SDK = """\
#ARuud
#DA random puzzle created by SudoCue
#CJust start plugging in the numbers
#B03-08-2006
#SSudoCue
#LEasy
#Uhttp://www.sudocue.net/
2..1.5..3
.54...71.
.1.2.3.8.
6.28.73.4
.........
1.53.98.6
.2.7.1.6.
.81...24.
7..4.2..1
"""
SUDOCUE_ROWS = SUDOCUE_SDK.splitlines()[7:]


def test_sudocues_sdk_example_reads_and_writes_back_byte_for_byte() -> None:
    puzzle = parse(SUDOCUE_SDK)
    assert puzzle.grid[0] == (2, 0, 0, 1, 0, 5, 0, 0, 3)
    assert WRITERS["sdk"](puzzle) == "\n".join(SUDOCUE_ROWS)


def test_sadmans_puzzle_section_is_read_and_its_other_sections_passed_over() -> None:
    # SadMan Sudoku keeps the puzzle under [Puzzle] and the player's progress under [State]
    sadman = "[Puzzle]\n" + "\n".join(SUDOCUE_ROWS) + "\n[State]\n" + "\n".join(SUDOCUE_ROWS[::-1]) + "\n"
    found = list(read(sadman))
    assert len(found) == 1 and found[0].require() == parse(SUDOCUE_SDK)


def test_a_first_line_in_brackets_is_a_section_not_json() -> None:
    # before: "[Puzzle]" at the start was taken for a JSON document
    assert parse("[Puzzle]\n" + HARD) == parse(HARD)
    assert [item.ok for item in read("[[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]")] == [True]


def test_an_sdm_collection_is_one_puzzle_a_line() -> None:
    collection = f"{HARD}\n{WRITERS['sdm'](parse(SUDOCUE_SDK))}\n"
    assert [item.require() for item in read(collection)] == [parse(HARD), parse(SUDOCUE_SDK)]


def test_sdk_and_sdm_refuse_what_they_cannot_hold() -> None:
    with pytest.raises(PuzzleError, match="9x9 Sudoku with 3x3 boxes, not 6x6"):
        WRITERS["sdk"](make_puzzle([[0] * 6 for _ in range(6)]))
    with pytest.raises(PuzzleError, match="diagonals"):
        WRITERS["sdm"](make_puzzle(parse(HARD).grid, with_diagonals=True))


# ---------------------------------------------------------------------------
# Pencil marks
# ---------------------------------------------------------------------------
def marked(solution: str, givens: str, second: dict[int, int]) -> str:
    """A Sukaku line: givens alone, the open cells of ``second`` marked with the solution's digit
    and that one, the other open cells with every digit."""
    groups = []
    for i, (clue, digit) in enumerate(zip(givens, solution)):
        digits = {int(clue)} if clue != "." else {int(digit), second[i]} if i in second else set(range(1, 10))
        groups.append("".join(str(d) if d in digits else "." for d in range(1, 10)))
    return "".join(groups)


SECOND = {1: 9, 2: 2, 3: 6, 10: 1}  # r1c2 is 1 or 9, r1c3 7 or 2, r1c4 3 or 6, r2c2 3 or 1 (a given)
SUKAKU = marked(HARD_SOLUTION, HARD, SECOND)


def test_a_sukaku_line_is_told_from_a_27x27_line_by_its_content() -> None:
    assert claims_sukaku(SUKAKU) and claims_sukaku("123456789" * 81)
    assert not claims_sukaku("." * 700 + "R" + "." * 28)  # R: a 27x27 symbol
    assert not claims_sukaku("2" + "." * 728)  # a 2 at the place of a 1
    assert parse("2" + "." * 728).size == 27
    assert parse("123456789" * 81).size == 9


def test_a_sukaku_line_reads_as_givens_and_candidate_rules() -> None:
    puzzle = parse(SUKAKU)
    assert puzzle.grid == parse(HARD).grid
    rules = {rule.cell: rule.digits for rule in puzzle.constraints.candidates}
    assert rules == {(0, 1): {1, 9}, (0, 2): {7, 2}, (0, 3): {3, 6}}  # r2c2 is a given: no rule
    assert to_sukaku(puzzle) == SUKAKU


def test_the_candidate_rules_are_answered_by_every_question() -> None:
    result = check(parse(SUKAKU))
    assert result.uniqueness == "unique"
    assert "".join(map(str, sum(result.solution, []))) == HARD_SOLUTION
    # a mark that leaves out the solution's digit makes the puzzle unsolvable
    wrong = SUKAKU[:9] + ".2......9" + SUKAKU[18:]  # r1c2 is 2 or 9, not the 1 it must be
    assert count(parse(wrong), limit=2).count == 0


HODOKU_GRID = """\
.-----------.-----------.-----------.
| 5  3  4   | 6  7  8   | 9  1  2   |
| 6  7  2   | 1  9  5   | 3  4  8   |
| 1  9  8   | 3  4  2   | 5  6  7   |
:-----------+-----------+-----------:
| 8  5  9   | 7  6  1   | 4  2  3   |
| 4  2  6   | 8  5  3   | 7  9  1   |
| 7  1  3   | 9  2  4   | 8  5  6   |
:-----------+-----------+-----------:
| 9  6  1   | 5  3  7   | 2  8  4   |
| 2  8  7   | 4  1  9   | 6  3  5   |
| 3  4  5   | 2  8  6   | 1  79 79  |
'-----------'-----------'-----------'
"""


def test_a_framed_candidate_grid_reads_as_candidate_rules() -> None:
    puzzle = parse(HODOKU_GRID)
    assert {rule.cell: rule.digits for rule in puzzle.constraints.candidates} == {
        (8, 7): {7, 9},
        (8, 8): {7, 9},
    }
    assert check(puzzle).uniqueness == "unique"
    assert parse(to_candidate_grid(puzzle)) == puzzle


def test_a_plain_grid_of_numbers_is_no_candidate_grid() -> None:
    # a 16x16 grid of numbers has two-digit numbers and 16 rows: numbers, not candidates
    rows = [" ".join(str((r * 4 + r // 4 + c) % 16 + 1) for c in range(16)) for r in range(16)]
    assert parse("\n".join(rows)).grid[0][9] == 10
    # a 4x4 grid written without spaces: "1234" is a row, not a group
    assert parse("1234\n3412\n2143\n4321").grid[0] == (1, 2, 3, 4)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("15 3 4 1\n3 4 1 2\n2 1 4 3\n4 3 2 1", "line 1, column 1: '15' is not a group of candidates 1..4"),
        ("12 3 4 1\n3 4 1 2\n2 1 x 3\n4 3 2 1", "line 3, column 3: 'x' is not a group of candidates"),
        ("12 3 4 1\n3 4 1 2\n2 1 0 3\n4 3 2 1", "line 3, column 3: '0' is not a group of candidates"),
        ("1........" + "." * 9 + "123456789" * 79, "line 1: r1c2 has no candidate"),
    ],
)
def test_malformed_pencil_marks_name_the_line_and_column(text: str, message: str) -> None:
    (found,) = read(text)
    assert message in str(found.error)


# ---------------------------------------------------------------------------
# Every writer reads back
# ---------------------------------------------------------------------------
@st.composite
def sudokus(draw: st.DrawFn) -> object:
    """A puzzle of 4x4, 6x6, 9x9 or 16x16 (its default box, or 3x2 for 6x6), maybe diagonals,
    maybe candidate rules (two to N-1 digits) on blank cells, in reading order as the readers
    give them; the givens need not be solvable."""
    size = draw(st.sampled_from([4, 6, 9, 16]))
    box = draw(st.sampled_from([None, (3, 2)])) if size == 6 else None
    grid = [
        [draw(st.sampled_from([0, 0, 0, draw(st.integers(1, size))])) for _ in range(size)]
        for _ in range(size)
    ]
    marks = []
    if size <= 9 and draw(st.booleans()):
        blanks = [(r, c) for r in range(size) for c in range(size) if not grid[r][c]]
        for cell in (
            sorted(draw(st.lists(st.sampled_from(blanks), unique=True, max_size=5))) if blanks else []
        ):
            digits = draw(st.frozensets(st.integers(1, size), min_size=2, max_size=size - 1))
            marks.append(Candidates(cell, digits))
    diagonals = draw(st.booleans())
    return make_puzzle(grid, box, None, diagonals, constraints=Constraints(candidates=tuple(marks)))


@settings(max_examples=80, deadline=None)
@given(sudokus(), st.sampled_from(sorted(WRITERS)))
def test_what_every_writer_writes_reads_back_as_the_same_puzzle(puzzle: object, name: str) -> None:
    try:
        text = WRITERS[name](puzzle)
    except PuzzleError:
        return  # a form that cannot carry this puzzle says so (tested above); nothing is dropped
    assert SUDOKU.parse_value(text) == puzzle


@settings(max_examples=60, deadline=None)
@given(sudokus(), st.sampled_from(sorted(LINKS)))
def test_every_link_opens_the_same_puzzle(puzzle: object, site: str) -> None:
    try:
        link = LINKS[site](puzzle)
    except PuzzleError:
        return  # a site that cannot show this puzzle says so
    assert SUDOKU.parse_value(link) == puzzle


def test_each_writer_says_what_it_cannot_carry() -> None:
    marked_puzzle = parse(SUKAKU)
    with pytest.raises(PuzzleError, match=r"holds no variant rules \(candidates\): write it as json"):
        WRITERS["line"](marked_puzzle)
    with pytest.raises(PuzzleError, match="puzz.link"):
        WRITERS["puzzlink"](marked_puzzle)
    with pytest.raises(PuzzleError, match="Sukaku line has no diagonals"):
        WRITERS["sukaku"](make_puzzle(parse(HARD).grid, with_diagonals=True))


@pytest.mark.parametrize("diagonals", [False, True])
@pytest.mark.parametrize("name", sorted(WRITERS) + [f"link {site}" for site in sorted(LINKS)])
def test_a_jigsaw_is_written_whole_or_refused(name: str, diagonals: bool) -> None:
    labels = [list("1112"), list("3122"), list("3342"), list("3444")]
    puzzle = make_puzzle([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]], None, labels, diagonals)
    write = LINKS[name[5:]] if name.startswith("link ") else WRITERS[name]
    try:
        text = write(puzzle)
    except PuzzleError as error:
        assert "jigsaw" in str(error)  # what the form lacks, named
        return
    assert SUDOKU.parse_value(text) == puzzle
