"""A new grid kind needs its kind object and one registry line, nothing in mindgames/.

The specification of "the command line and the service are generated from the
registry": a tiny kind written here (a row of N cells holding 1..N, each once,
some given) and registered for the test gets ``solve``, ``check``, ``count``,
``explain`` and ``hint`` on the command line (its own options, its own drawing,
``--certify``) and on the service (``GET /v1/kinds``, ``/v1/row/solve|check|count``),
with no line of mindgames/ naming it.  Of the optional hooks of
:class:`~mindgames.models.kind.GridKind` it declares one, ``hint`` (a ladder of one
technique); the others keep their defaults (no grades: ``explain`` says "one solution").
The service runs in this process here, its solver pool replaced by one that answers
in-process with the workers' own code (:func:`mindgames.service.pool.answer_task`): the
process boundary knows no kind."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import pytest

from mindgames.cli import main
from mindgames.models import registry
from mindgames.models.errors import PuzzleError
from mindgames.models.kind import Encoding, GridKind, Option, Parsed
from mindgames.solver import Model

# -- the kind ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    cells: tuple[int, ...]  # 0: blank
    name: str = "row"  # the Option's value, to show options reach the kind


@dataclass
class RowEncoding(Encoding):
    model: Model
    choices: list


def parse_row(text: str, where: str, title: str | None) -> Row:
    text = text.strip()
    if not 2 <= len(text) <= 9:
        raise PuzzleError(f"{where}: a row has 2 to 9 cells, not {len(text)}")
    cells = []
    for at, char in enumerate(text, 1):
        if char == ".":
            cells.append(0)
        elif char.isdigit() and 1 <= int(char) <= len(text):
            cells.append(int(char))
        else:
            raise PuzzleError(f"{where}, cell {at}: {char!r} is not '.' or 1..{len(text)}")
    return Row(tuple(cells), title or "row")


TITLE = Option("title", "what to call the row in the output")


class RowKind(GridKind[Row]):
    name = "row"
    summary = "a row of N cells holding 1..N, each once"
    formats = ("one row per line: N cells of '.' or 1..N",)
    options = (TITLE,)

    def read(self, text: str, title: str | None = None) -> list[Parsed[Row]]:
        return [
            Parsed.attempt(parse_row, line, f"line {number}", title)
            for number, line in enumerate(text.splitlines(), 1)
            if line.strip()
        ]

    def parse_value(self, value: Any, title: str | None = None) -> Row:
        if not isinstance(value, str):
            raise PuzzleError("a row is a string")
        return parse_row(value, "puzzle", title)

    def write(self, puzzle: Row) -> str:
        return "".join(str(v) if v else "." for v in puzzle.cells) + "\n"

    def to_json(self, puzzle: Row) -> dict[str, Any]:
        return {"cells": list(puzzle.cells)}

    def shape(self, puzzle: Row) -> int:
        return len(puzzle.cells)

    def compile(self, shape: int) -> RowEncoding:
        model = Model()
        choices = [model.new_choice(range(1, shape + 1), primary=True) for _ in range(shape)]
        model.add_all_different(choices)
        return RowEncoding(model, choices)

    def givens(self, encoding: RowEncoding, puzzle: Row) -> list[int]:
        return [choice.is_(v) for choice, v in zip(encoding.choices, puzzle.cells) if v]

    def decode(self, encoding: RowEncoding, assignment: Any) -> list[list[int]]:
        """The solution as a grid, as every grid kind's is: here of one row."""
        return [[choice.value(assignment) for choice in encoding.choices]]

    def verify(self, puzzle: Row, solution: Any) -> list[str]:
        (values,) = solution
        problems = [] if sorted(values) == list(range(1, len(values) + 1)) else ["not 1..N once each"]
        return problems + [
            f"cell {i + 1} is not its given"
            for i, (g, v) in enumerate(zip(puzzle.cells, values))
            if g and g != v
        ]

    def describe(self, puzzle: Row) -> str:
        return f"{puzzle.name} of {len(puzzle.cells)}"

    def draw(self, puzzle: Row, solution: Any = None, color: bool = False) -> list[str]:
        return ["".join(str(v) if v else "." for v in (solution[0] if solution else puzzle.cells))]

    def clashing_cells(self, puzzle: Row) -> list[tuple[int, int]]:
        seen = [v for v in puzzle.cells if v]
        return [(0, c) for c, v in enumerate(puzzle.cells) if v and seen.count(v) > 1]

    def result_fields(self, puzzle: Row) -> dict[str, Any]:
        return {"cells": len(puzzle.cells)}

    def hint(self, puzzle: Row, deadline: Any = None) -> dict[str, Any] | None:
        """An optional hook: the kind's ladder, here one technique (the last blank cell
        holds the one number missing); None when it does not apply."""
        blanks = [c for c, v in enumerate(puzzle.cells) if not v]
        if len(blanks) != 1:
            return None
        (missing,) = set(range(1, len(puzzle.cells) + 1)) - set(puzzle.cells)
        return {
            "row": 1,
            "col": blanks[0] + 1,
            "value": missing,
            "technique": "last cell",
            "because": [],
            "text": f"cell {blanks[0] + 1} is {missing}: the one number missing",
        }

    def empty(self, **options: Any) -> Row:
        return Row((0, 0, 0))

    def given_cells(self, puzzle: Row) -> dict:
        return {(0, c): v for c, v in enumerate(puzzle.cells) if v}

    def with_givens(self, puzzle: Row, givens: dict) -> Row:
        return Row(tuple(givens.get((0, c), 0) for c in range(len(puzzle.cells))), puzzle.name)


ROW = RowKind()


@pytest.fixture
def row_kind(monkeypatch):
    """ROW in the registry: its one line, as a new kind's module would add it."""
    monkeypatch.setitem(registry.KIND_PATHS, "row", f"{__name__}:ROW")
    monkeypatch.setattr(registry, "KIND_NAMES", (*registry.KIND_NAMES, "row"))
    return ROW


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- the command line --------------------------------------------------------------------------------


def test_a_new_kind_gets_solve_check_and_count_on_the_command_line(row_kind, tmp_path, capsys):
    path = tmp_path / "rows.txt"
    path.write_text("1.3\n..\n11.\n")
    code, out, _ = run(capsys, "row", "solve", str(path), "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [r["status"] for r in records] == ["solved", "solved", "unsolvable"]
    assert records[0]["solution"] == [[1, 2, 3]] and records[0]["cells"] == 3  # the kind's own field
    code, out, _ = run(capsys, "row", "check", str(path), "--json")
    assert [json.loads(line)["uniqueness"] for line in out.splitlines()] == ["unique", "multiple", None]
    code, out, _ = run(capsys, "row", "count", str(path), "--json")
    assert [json.loads(line)["count"] for line in out.splitlines()] == [1, 2, 0]


def test_its_text_output_is_the_kinds_description_and_drawing(row_kind, tmp_path, capsys):
    path = tmp_path / "row.txt"
    path.write_text(".2.\n")
    code, out, _ = run(capsys, "row", "check", str(path), "--title", "my row")
    assert code == 0
    first, drawn = out.splitlines()[:2]
    assert re.match(r"my row of 3: multiple solutions, [\d.]+ ms \[sat\]$", first)  # --title: its Option
    assert drawn.split() == [".2.", "123", "321"]  # the puzzle beside both witnesses


def test_its_bad_input_is_one_line_exit_2(row_kind, tmp_path, capsys):
    path = tmp_path / "row.txt"
    path.write_text("1x\n")
    code, _, err = run(capsys, "row", "solve", str(path))
    assert code == 2 and "cell 2: 'x' is not" in err and len(err.splitlines()) == 1


def test_its_answers_can_be_certified(row_kind, tmp_path, capsys):
    pytest.importorskip("mindgames.solver.proof").CertificationError  # the runner's certify=...
    import inspect

    from mindgames.models.runner import PuzzleSolver

    if "certify" not in inspect.signature(PuzzleSolver.check).parameters:
        pytest.skip("the runner does not certify yet")
    path = tmp_path / "row.txt"
    path.write_text("1.3\n11.\n")
    code, out, _ = run(
        capsys, "row", "check", str(path), "--certify", "--proof-dir", str(tmp_path / "proofs")
    )
    assert code == 0
    lines = out.splitlines()
    assert "unique (certified: DRAT, checked)" in lines[0]
    assert "unsolvable (certified: DRAT, checked)" in [l for l in lines if l.startswith("puzzle 2")][0]
    assert (tmp_path / "proofs" / "puzzle-1.drat").exists()


def test_its_own_hook_gives_hints_and_the_defaults_do_the_rest(row_kind, tmp_path, capsys):
    path = tmp_path / "rows.txt"
    path.write_text("12.\n1..\n")
    code, out, _ = run(capsys, "row", "hint", str(path), "--json")
    by_ladder, several = (json.loads(line) for line in out.splitlines())
    assert code == 0
    assert (by_ladder["col"], by_ladder["value"], by_ladder["technique"]) == (3, 3, "last cell")
    assert several["explanation"] == "open"  # no hint: two solutions, and why
    code, out, _ = run(capsys, "row", "explain", str(path), "--json")
    unique = json.loads(out.splitlines()[0])
    assert (unique["explanation"], unique["text"]) == ("unique", "one solution")  # no grades


def unique_and_minimal(puzzle: Row, solution: list[int]) -> bool:
    """Exactly one solution, ``solution``, and every given needed for that: verified by a
    solver of its own, given by given."""
    from mindgames.models.runner import PuzzleSolver

    solver = PuzzleSolver(ROW, "sat")
    checked = solver.check(puzzle)
    if checked.uniqueness != "unique" or checked.solution != solution:
        return False
    givens = ROW.given_cells(puzzle)
    return all(
        solver.check(ROW.with_givens(puzzle, {c: v for c, v in givens.items() if c != cell})).uniqueness
        == "multiple"
        for cell in givens
    )


def test_a_new_kind_gets_generate_on_the_command_line(row_kind, capsys):
    code, out, _ = run(capsys, "row", "generate", "--seed", "3", "--count", "4", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(records) == 4
    for index, record in enumerate(records):
        assert (record["index"], record["status"], record["seed"]) == (index, "generated", 3 + index)
        puzzle = ROW.parse_value("".join(str(v) if v else "." for v in record["puzzle"]["cells"]))
        assert record["givens"] == len(ROW.given_cells(puzzle)) and record["cells"] == 3
        assert unique_and_minimal(puzzle, record["solution"])
    again = [
        json.loads(line)
        for line in run(capsys, "row", "generate", "--seed", "3", "--count", "4", "--json")[1].splitlines()
    ]
    assert [r["puzzle"] for r in again] == [r["puzzle"] for r in records]  # the seed repeats them


def test_its_generated_puzzles_in_text_are_its_description_and_drawing(row_kind, capsys):
    code, out, _ = run(capsys, "row", "generate", "--seed", "1")
    first, drawn = out.splitlines()[:2]
    assert code == 0
    assert re.match(r"puzzle 1: row of 3: 2 givens, unique, minimal, seed 1, [\d.]+ s$", first)
    assert re.fullmatch(r"[.1-3]{3}", drawn) and drawn.count(".") == 1


def test_ctrl_c_keeps_the_puzzles_written_and_exits_130(row_kind, monkeypatch, capsys):
    from mindgames.models.generate import Generator

    made = Generator.generate

    def interrupted_at_the_second(self, empty, rng, *more):
        if self.checks:  # the first puzzle asked its questions
            raise KeyboardInterrupt
        return made(self, empty, rng, *more)

    monkeypatch.setattr(Generator, "generate", interrupted_at_the_second)
    code, out, err = run(capsys, "row", "generate", "--count", "3", "--json")
    assert code == 130 and len(out.splitlines()) == 1 and json.loads(out)["status"] == "generated"
    assert "interrupted: 1 puzzle of 3 generated" in err


# -- the service -------------------------------------------------------------------------------------


@pytest.fixture
def service(row_kind, monkeypatch, tmp_path):
    fastapi = pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from mindgames.service import app as app_module
    from mindgames.service.settings import Settings
    from mindgames.service.testing import InProcessPool

    monkeypatch.setattr(app_module, "SolverPool", InProcessPool)
    settings = Settings(db=str(tmp_path / "jobs.sqlite3"), allowed_hosts=("testserver",))
    with TestClient(app_module.create_app(settings)) as client:
        yield client
    assert fastapi


def test_a_new_kind_is_listed_by_the_service(service):
    listed = {k["kind"]: k for k in service.get("/v1/kinds").json()["kinds"]}
    assert listed["row"]["actions"] == ["solve", "check", "count"]
    assert listed["row"]["explain_actions"] == ["explain", "hint"]
    assert listed["row"]["summary"] == ROW.summary and "title" in listed["row"]["options"]


def test_a_new_kind_is_answered_by_the_service(service):
    solved = service.post("/v1/row/solve", json={"puzzle": "1.3"}).json()
    assert solved["status"] == "solved" and solved["solution"] == [[1, 2, 3]] and solved["cells"] == 3
    checked = service.post("/v1/row/check", json={"puzzles": ["..", "1x"]}).json()["results"]
    assert checked[0]["uniqueness"] == "multiple" and checked[1]["status"] == "invalid"
    assert service.post("/v1/row/count", json={"puzzle": "..."}).json()["count"] == 6
    clash = service.post("/v1/row/solve?explain=true", json={"puzzle": "11."}).json()
    assert clash["status"] == "unsolvable" and clash["clashing_cells"] == [[0, 0], [0, 1]]
    assert service.post("/v1/row/solve", json={"puzzle": "1x"}).status_code == 422
    assert service.post("/v1/row/solve", json={"puzzle": "1.", "rules": "unruly"}).status_code == 422
    hint = service.post("/v1/row/hint", json={"puzzle": "2.1"}).json()
    assert (hint["value"], hint["technique"]) == (3, "last cell")


def test_a_new_kind_is_generated_by_the_service(service):
    made = service.post("/v1/row/generate", json={"seed": 8, "count": 2})
    assert made.status_code == 200
    for index, record in enumerate(made.json()["results"]):
        assert (record["status"], record["seed"]) == ("generated", 8 + index)
        puzzle = Row(tuple(record["puzzle"]["cells"]))
        assert unique_and_minimal(puzzle, record["solution"])
