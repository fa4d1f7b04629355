"""Answers written for other programs and sites: the command line's ``--format NAME`` and
``--link SITE`` (mindgames/commands/writing.py, from each kind's WRITERS and LINKS), a link or
game ID given as FILE, and the service's ``links`` and ``POST /v1/KIND/read``."""

from __future__ import annotations

import json

import pytest

from mindgames.cli import main
from mindgames.models.binairo import BINAIRO
from mindgames.models.sudoku import SUDOKU, parse

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
#: pzprjs' own test fixture (robx/pzprjs, test/script/sudoku.js)
PZPRJS_FIXTURE = "https://puzz.link/p?sudoku/4/4/g1k23k3g"
SOLO_PAGE = "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/solo.html"
UNRULY_ID = "6x6u:CgbbbBmae"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_kind_offers_its_writers_and_links_as_choices() -> None:
    assert list(SUDOKU.writers) == [
        "line",
        "grid",
        "json",
        "puzzlink",
        "tatham",
        "sdk",
        "sdm",
        "sukaku",
        "candidates",
        "fpuzzles",
    ]
    assert list(SUDOKU.links) == ["puzzlink", "tatham", "fpuzzles", "sudokupad"]
    assert list(BINAIRO.links) == ["tatham"]


def test_every_link_opens_the_puzzle_it_was_made_of() -> None:
    puzzle = parse(PZPRJS_FIXTURE)
    for site, link in SUDOKU.links.items():
        assert SUDOKU.parse_value(link(puzzle)) == puzzle, site
    unruly = BINAIRO.parse_value(UNRULY_ID)
    assert BINAIRO.parse_value(BINAIRO.links["tatham"](unruly)) == unruly


def test_solve_with_format_writes_the_solution_alone_ready_to_paste(tmp_path, capsys) -> None:
    path = tmp_path / "one.txt"
    path.write_text(HARD + "\n")
    code, out, _ = run(capsys, "sudoku", "solve", str(path), "--format", "line")
    assert code == 0 and out == HARD_SOLUTION + "\n"
    code, out, _ = run(capsys, "sudoku", "check", str(path), "--format", "tatham")
    assert out == "3x3:4e8a5a3j7f2e6e8a4f1g6a3a7a5b2e1a4f\n"


def test_a_link_as_file_is_the_puzzle_and_link_gives_the_puzzle_and_the_solved_grid(capsys) -> None:
    code, out, _ = run(capsys, "sudoku", "solve", PZPRJS_FIXTURE, "--link", "puzzlink")
    assert code == 0
    assert out.splitlines() == [PZPRJS_FIXTURE, "https://puzz.link/p?sudoku/4/4/2143431234211234"]
    code, out, _ = run(capsys, "sudoku", "check", "2x2:a1e2_3e3a", "--link", "tatham")
    assert out == f"{SOLO_PAGE}#2x2:a1e2_3e3a\n"


def test_a_collection_is_written_after_comments_so_it_reads_back(tmp_path, capsys) -> None:
    path = tmp_path / "two.txt"
    path.write_text(f"{HARD}\n{'55' + HARD[2:]}\n")
    code, out, _ = run(capsys, "sudoku", "solve", str(path), "--format", "sdm")
    assert out.splitlines() == ["# puzzle 1: solved", HARD_SOLUTION, "# puzzle 2: unsolvable"]
    assert [item.require() for item in SUDOKU.read(out)] == [parse(HARD_SOLUTION)]


def test_a_format_that_cannot_carry_the_puzzle_is_an_error_alone_and_a_comment_in_a_collection(
    tmp_path, capsys
) -> None:
    six = "1....." + "." * 30
    path = tmp_path / "six.txt"
    path.write_text(six + "\n")
    code, out, err = run(capsys, "sudoku", "check", str(path), "--format", "sdk")
    assert (
        code == 2
        and err.strip() == "mindgames: error: .sdk holds a 9x9 Sudoku with 3x3 boxes, not 6x6, 2x3 boxes"
    )
    path.write_text(f"{six}\n{HARD}\n")
    code, out, _ = run(capsys, "sudoku", "check", str(path), "--format", "sdk")
    assert out.startswith("# puzzle 1: multiple solutions (.sdk holds a 9x9 Sudoku")


def test_an_unknown_format_or_site_names_the_ones_there_are(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["sudoku", "solve", HARD, "--link", "nowhere"])
    assert stop.value.code == 2
    assert "invalid choice: 'nowhere' (choose from 'puzzlink', 'tatham', 'fpuzzles', 'sudokupad')" in (
        capsys.readouterr().err
    )


def test_a_malformed_link_is_one_line_naming_the_character_exit_2(capsys) -> None:
    code, out, err = run(capsys, "sudoku", "solve", "https://puzz.link/p?sudoku/4/4/g1k2!k3g")
    assert code == 2 and out == ""
    assert err == "mindgames: error: line 1, character 36: unexpected '!' in the puzz.link cells\n"


def test_json_records_gain_what_was_written_and_the_links(capsys) -> None:
    code, out, _ = run(
        capsys, "sudoku", "solve", PZPRJS_FIXTURE, "--json", "--format", "line", "--link", "puzzlink"
    )
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert record["written"] == "2143431234211234"
    assert record["links"] == {
        "puzzlink": {"puzzle": PZPRJS_FIXTURE, "solution": "https://puzz.link/p?sudoku/4/4/2143431234211234"}
    }


def test_generate_and_binairo_write_their_formats(capsys) -> None:
    code, out, _ = run(capsys, "sudoku", "generate", "--box", "2x2", "--seed", "1", "--format", "puzzlink")
    assert out.startswith("https://puzz.link/p?sudoku/4/4/") and parse(out.strip()).size == 4
    code, out, _ = run(capsys, "binairo", "solve", UNRULY_ID, "--format", "tatham")
    assert out.startswith("6x6u:") and BINAIRO.parse_value(out.strip()).givens == 36
    code, out, _ = run(capsys, "binairo", "check", UNRULY_ID, "--link", "tatham")
    assert out == f"https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/unruly.html#{UNRULY_ID}\n"


def test_explain_fix_writes_the_fixed_puzzle_in_the_format(tmp_path, capsys) -> None:
    path = tmp_path / "open.txt"
    path.write_text("1..." + "." * 12 + "\n")
    code, out, _ = run(capsys, "sudoku", "explain", str(path), "--fix", "--format", "tatham")
    assert code == 0 and out.startswith("2x2:") and SUDOKU.parse_value(out.strip()).grid[0][0] == 1


# ---------------------------------------------------------------------------
# The service
# ---------------------------------------------------------------------------
@pytest.fixture
def service(monkeypatch, tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from mindgames.service import app as app_module
    from mindgames.service.settings import Settings
    from mindgames.service.testing import InProcessPool

    monkeypatch.setattr(app_module, "SolverPool", InProcessPool)
    settings = Settings(db=str(tmp_path / "jobs.sqlite3"), allowed_hosts=("testserver",))
    with TestClient(app_module.create_app(settings)) as client:
        yield client


def test_the_service_accepts_a_pasted_link_and_gives_links_only_when_asked(service) -> None:
    plain = service.post("/v1/sudoku/solve", json={"puzzle": PZPRJS_FIXTURE}).json()
    assert plain["status"] == "solved" and "links" not in plain
    linked = service.post("/v1/sudoku/solve", json={"puzzle": PZPRJS_FIXTURE, "links": True}).json()
    assert linked["links"]["puzzlink"] == {
        "puzzle": PZPRJS_FIXTURE,
        "solution": "https://puzz.link/p?sudoku/4/4/2143431234211234",
    }
    assert linked["links"]["tatham"]["puzzle"] == f"{SOLO_PAGE}#2x2:a1e2_3e3a"


def test_a_site_that_cannot_show_the_puzzle_says_why(service) -> None:
    jigsaw = {"grid": [[0] * 4] * 4, "regions": "1122112233443344"}
    links = service.post("/v1/sudoku/check", json={"puzzle": jigsaw, "links": True}).json()["links"]
    assert links["puzzlink"] == {"error": "puzz.link Sudoku has no jigsaw regions nor diagonals"}
    assert links["tatham"]["puzzle"].startswith(f"{SOLO_PAGE}#4j:")


def test_a_malformed_link_is_422_naming_the_character(service) -> None:
    reply = service.post("/v1/sudoku/check", json={"puzzle": "https://puzz.link/p?sudoku/4/4/g1k2!k3g"})
    assert reply.status_code == 422
    assert reply.json()["error"] == "line 1, character 36: unexpected '!' in the puzz.link cells"
    crossing = service.post("/v1/crossing/solve", json={"puzzle": "wolf-goat-cabbage", "links": True})
    assert crossing.status_code == 422 and "only grid puzzles have links" in crossing.json()["error"]
    for route in ("hint", "explain", "compare"):
        refused = service.post(f"/v1/sudoku/{route}", json={"puzzle": PZPRJS_FIXTURE, "links": True})
        assert (
            refused.status_code == 422
            and "solve, check, count answers carry links" in refused.json()["error"]
        )


def test_pencil_marks_pasted_to_the_service_are_answered_with_their_rules(service) -> None:
    sukaku = "".join(
        "".join(str(d) if d == int(ch) else "." for d in range(1, 10)) if ch != "." else "123456789"
        for ch in HARD
    )
    sukaku = sukaku[:9] + "1.......9" + sukaku[18:]  # r1c2: 1 or 9 (the solution's 1)
    reply = service.post("/v1/sudoku/check", json={"puzzle": sukaku, "links": True}).json()
    assert reply["uniqueness"] == "unique"
    assert "cannot take variant rules" in reply["links"]["puzzlink"]["error"]
    assert (
        "fpuzzles" in reply["links"] and "puzzle" in reply["links"]["fpuzzles"]
    )  # f-puzzles holds pencil marks


def test_read_gives_the_puzzle_and_its_links_without_solving(service) -> None:
    reply = service.post("/v1/binairo/read", json={"puzzle": UNRULY_ID, "links": True})
    assert reply.status_code == 200
    assert reply.json()["puzzle"]["rules"] == "takuzu"
    assert reply.json()["links"]["tatham"]["puzzle"].endswith(f"#{UNRULY_ID}")
    assert service.post("/v1/sudoku/read", json={"puzzle": "3x3:zz!"}).status_code == 422
    unknown = service.post("/v1/crossing/read", json={"puzzle": "x"})
    assert unknown.status_code == 422 and "grid kinds: sudoku, binairo" in unknown.json()["error"]


def test_generated_puzzles_come_with_their_links_when_asked(service) -> None:
    plain = service.post("/v1/sudoku/generate", json={"box": "2x2", "seed": 1}).json()["results"][0]
    assert "links" not in plain
    (record,) = service.post("/v1/binairo/generate", json={"size": "6", "seed": 1, "links": True}).json()[
        "results"
    ]
    unruly = record["links"]["tatham"]
    assert BINAIRO.parse_value(unruly["puzzle"]) == BINAIRO.parse_value(record["puzzle"])
    assert BINAIRO.parse_value(unruly["solution"]).givens == 36
