"""solve / check / count read their input as it comes: a long input is never held whole.

The reader cuts the input into one unit per puzzle as the lines come (``kind.units``)
and parses each unit on its own (``kind.parse_unit``, in a worker with ``--jobs``);
what it reads is exactly what reading the whole text reads.  Peak memory does not grow
with the input's length; a problem met late in a long input (a header for another
kind, bytes that are no text) ends the run there with a one-line error, exit 2, the
answers before it written.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.cli import main
from mindgames.io import InputLines
from mindgames.models.errors import PuzzleError
from mindgames.models.registry import get_kind
from mindgames.models.sudoku import formats
from mindgames.models.sudoku.formats import Variant
from tests.conftest import REPO

SUDOKU = get_kind("sudoku")
SEED = [
    line.strip()
    for line in (REPO / "data" / "sudoku" / "seed.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]


def mindgames(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mindgames.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        **kwargs,
    )


def streamed(kind, path: Path, **options) -> list:
    """The items of a file read as the command line reads it: as it comes."""
    return [kind.parse_unit(unit) for unit in kind.units(InputLines(str(path)), **options)]


def as_compared(items: list) -> list:
    return [(item.puzzle, str(item.error)) for item in items]


# --- what is read: the same as reading the whole text ----------------------------------------
LINES = st.sampled_from(
    [
        *SEED,
        "." * 16,
        "1234" + "." * 12,
        "." * 40 + "?" + "." * 40,
        "12345",
        "x" * 81,  # puzzles, bad ones
        "# a comment",
        "# mindgames sudoku box=2x2",
        "# mindgames sudoku",
        "",
        "   ",  # comments, headers, blank
        "12|34",
        "34|12",
        "--+--",
        "21|43",
        "43|21",  # rows of a grid drawn over lines
        '{"grid": "' + "." * 16 + '", "box": [2, 2]}',
        '{"grid": [[1]]',
        "[[1, 2], [3, 4]]",  # JSON Lines, broken
    ]
)
ENDS = st.sampled_from(["\n", "\r\n", "\r"])


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.tuples(LINES, ENDS), max_size=40), bom=st.booleans())
def test_reading_as_it_comes_reads_what_reading_the_whole_text_reads(tmp_path_factory, lines, bom):
    text = ("\ufeff" if bom else "") + "".join(line + end for line, end in lines)
    path = tmp_path_factory.mktemp("stream") / "input.txt"
    path.write_bytes(text.encode())
    if not text.strip("\ufeff").strip():
        return  # an empty input is an error (below)
    assert as_compared(streamed(SUDOKU, path)) == as_compared(SUDOKU.read(text.removeprefix("\ufeff")))


def test_a_json_document_over_several_lines_is_still_one_document(tmp_path):
    path = tmp_path / "list.json"
    path.write_text(json.dumps([{"grid": "." * 16}, SEED[0]], indent=2))
    items = streamed(SUDOKU, path)
    assert [item.ok for item in items] == [True, True] and items[1].puzzle.size == 9


def test_a_kind_that_does_not_cut_its_input_is_read_whole_as_before(tmp_path):
    binairo = get_kind("binairo")
    path = REPO / "data" / "binairo" / "takuzu_8x8.txt"
    assert as_compared(streamed(binairo, path)) == as_compared(binairo.read(path.read_text()))


SYMBOLS = "0123456789.ABCDEFGZabz_ ?\u00e9-"


@settings(max_examples=300, deadline=None)
@given(
    size=st.sampled_from([4, 6, 9, 16]),
    data=st.data(),
    variant=st.sampled_from(
        [
            None,
            Variant((2, 2), None, "--box"),
            Variant((2, 3), True, "a header"),
            Variant(None, True, "--diagonals"),
            Variant((3, 3), None, "--box"),
        ]
    ),
)
def test_the_usual_line_read_at_once_is_the_line_read_in_full(size, data, variant):
    cells = st.sampled_from(SYMBOLS[: size + 2]) | st.sampled_from(SYMBOLS)
    line = "".join(data.draw(st.lists(cells, min_size=size * size, max_size=size * size)))

    def read(line: str):
        try:
            return formats.parse_line(line, "line 3", variant)
        except PuzzleError as error:
            return str(error)

    at_once = read(line)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(formats, "_plain_line", lambda line, variant: None)  # always the full reader
        assert read(line) == at_once


# --- memory: bounded however long the input ------------------------------------------------------
def peak_rss_mib(*args: str) -> float:
    """Peak resident memory (MiB) of the command and every process it started."""
    measure = (
        "import resource, subprocess, sys; "
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    done = subprocess.run(
        [sys.executable, "-c", measure, sys.executable, "-m", "mindgames.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return int(done.stdout) / 1024


def long_input(path: Path, lines: int) -> Path:
    """``lines`` lines of the bundled puzzles: each tenth one with a symbol broken (an
    ``invalid`` answer: cheap, yet a result like any other), the others as comments
    (read and passed over: as long as a puzzle line, nothing to answer)."""
    broken = [puzzle[:40] + "?" + puzzle[41:] for puzzle in SEED]
    with path.open("w") as out:
        for number in range(lines):
            puzzle = broken[number % len(broken)]
            out.write(f"{puzzle}\n" if number % 10 == 0 else f"# {puzzle}\n")
    return path


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_peak_memory_of_a_million_lines_is_that_of_ten_thousand(tmp_path, jobs):
    # Held whole, a million lines (83 MB) and their 100,000 answers would add well over
    # 100 MiB; read as they come, they add nothing measurable.
    short = long_input(tmp_path / "short.txt", 10_000)
    long = long_input(tmp_path / "long.txt", 1_000_000)
    baseline = peak_rss_mib("sudoku", "solve", str(short), "--json", "--jobs", jobs)
    assert peak_rss_mib("sudoku", "solve", str(long), "--json", "--jobs", jobs) < baseline + 8


def test_standard_input_is_read_as_it_comes_too(tmp_path):
    source = long_input(tmp_path / "input.txt", 20_000)
    with source.open() as stdin:
        done = mindgames("sudoku", "solve", "-", "--json", "--jobs", "1", stdin=stdin)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and len(answers) == 2_000
    assert answers[-1]["index"] == 1_999 and "line 19991" in answers[-1]["error"]


# --- a problem met late: one line, exit 2, the answers before it written -----------------------
@pytest.mark.parametrize(
    "late, message",
    [
        ("# mindgames binairo rules=takuzu", "line 1002: the header is for binairo puzzles, not Sudoku"),
        ("\0", "not a text file (a NUL byte at offset"),
        ("\xff", "not a UTF-8 text file"),
    ],
)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_problem_met_late_ends_the_run_after_the_answers_before_it(tmp_path, late, message, jobs):
    source = tmp_path / "late.txt"
    lines = [SEED[0] if n % 2 else "." * 40 + "?" + "." * 40 for n in range(1001)]
    source.write_bytes(("\n".join(lines) + "\n").encode() + late.encode("latin-1") + b"\n" + SEED[1].encode())
    done = mindgames("sudoku", "solve", str(source), "--json", "--jobs", jobs)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["index"] for a in answers] == list(range(len(answers)))  # in order, none cut short


# --- progress: a long input read as it comes shows the puzzle and the share read -------------
class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_long_input_on_a_terminal_shows_which_puzzle_and_how_much_is_read(
    tmp_path, monkeypatch, capsys, jobs
):
    source = long_input(tmp_path / "input.txt", 6_000)  # 600 puzzles: more than is read ahead
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["sudoku", "solve", str(source), "--json", "--jobs", jobs]) == 0
    shown = terminal.getvalue()
    assert "sudoku solve" in shown and "%" in shown
    assert "puzzle 600" in shown if jobs == "1" else "(2 processes)" in shown
    assert len(capsys.readouterr().out.splitlines()) == 600  # stdout stays clean JSON


# --- limits: a kind that reads its input whole keeps the limit on the input's length ---------
def test_only_a_kind_read_whole_has_a_limit_on_the_input_length(tmp_path, monkeypatch, capsys):
    import mindgames.commands.grid as grid

    monkeypatch.setattr(grid, "MAX_INPUT_BYTES", 2**20)  # 1 MiB, as if it were 256
    binairo = tmp_path / "binairo.txt"
    binairo.write_text(("." * 16 + "\n") * 70_000)  # 1.2 MB
    assert main(["binairo", "solve", str(binairo), "--json"]) == 2
    assert "larger than 1 MiB" in capsys.readouterr().err
    sudoku = long_input(tmp_path / "sudoku.txt", 20_000)  # 1.7 MB, read as it comes
    assert main(["sudoku", "solve", str(sudoku), "--json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2_000
