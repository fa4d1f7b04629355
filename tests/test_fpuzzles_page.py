"""A Sudoku pasted as an f-puzzles link, through a real server: the service reads it (422 with
the command line's message when it is damaged) and its answer carries the puzzle's rules; the
page (headless Chromium, as tests/test_browser.py drives it) draws the killer cage and the
thermometer over the grid and shows the solution."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from mindgames.models.sudoku import make_puzzle, parse, solve
from mindgames.models.sudoku.fpuzzles import to_fpuzzles
from mindgames.models.sudoku.variants import Cage, Constraints, Thermo
from mindgames.service.testing import Server

REPO = Path(__file__).resolve().parents[1]
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def killer_thermo_link() -> tuple[str, list[list[int]]]:
    """HARD with a killer cage on r1c2-r1c3 and a thermo along three rising neighbours of its
    solution: an f-puzzles link of a unique puzzle with both rules, and that solution."""
    classic = parse(HARD)
    solution = solve(classic).solution
    n = 9
    runs = [((r, c), (r, c + 1), (r, c + 2)) for r in range(n) for c in range(n - 2)]
    rising = next(
        cells
        for cells in runs
        if solution[cells[0][0]][cells[0][1]]
        < solution[cells[1][0]][cells[1][1]]
        < solution[cells[2][0]][cells[2][1]]
    )
    cage = ((0, 1), (0, 2))
    rules = Constraints(cages=(Cage(cage, sum(solution[r][c] for r, c in cage)),), thermos=(Thermo(rising),))
    return to_fpuzzles(make_puzzle(classic.grid, constraints=rules)), solution


LINK, SOLUTION = killer_thermo_link()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("fpuzzles") / "jobs.sqlite3", "--job-workers", "1") as running:
        yield running


def test_the_service_checks_a_link_and_its_answer_carries_the_rules(server) -> None:
    answer = httpx.post(server.url + "/v1/sudoku/check", json={"puzzle": LINK}, timeout=60).json()
    assert answer["uniqueness"] == "unique" and answer["solution"] == SOLUTION
    drawn = answer["drawing"]  # the puzzle as read, in mindgames' JSON: its rules included
    assert [len(drawn["cages"]), len(drawn["thermos"])] == [1, 1]
    assert drawn["cages"][0]["cells"] == ["r1c2", "r1c3"]
    assert parse(json.dumps(drawn)) == parse(LINK)


def test_a_damaged_link_is_a_422_with_the_command_line_message(server) -> None:
    broken = LINK[:120]
    answer = httpx.post(server.url + "/v1/sudoku/solve", json={"puzzle": broken}, timeout=60)
    done = subprocess.run(
        [sys.executable, "-m", "mindgames.cli", "sudoku", "solve", "-"],
        input=broken + "\n",
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert answer.status_code == 422 and done.returncode == 2
    assert done.stderr.strip() == f"mindgames: error: {answer.json()['error']}"


CHROMIUM = os.environ.get("MINDGAMES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def test_the_page_draws_a_pasted_links_cage_and_thermo_and_solves_it(server) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    from tests.test_browser import ARGS, shot

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.url + "/")
        page.fill("#sudoku-paste", LINK)
        page.click("#sudoku-load")
        page.click("#sudoku-check")
        page.wait_for_selector("#sudoku-message.ok")
        assert "Unique solution" in page.text_content("#sudoku-message")
        assert page.locator("#sudoku-variants .v-cage").count() == 1
        assert page.locator("#sudoku-variants .v-thermo").count() == 1
        assert page.text_content("#sudoku-variants .v-cage .v-total") == str(SOLUTION[0][1] + SOLUTION[0][2])
        cells = page.eval_on_selector_all(
            "#sudoku-grid .cell",
            "els => els.map(e => ({text: e.textContent, given: e.classList.contains('given')}))",
        )
        assert "".join(cell["text"] for cell in cells) == "".join(str(v) for row in SOLUTION for v in row)
        assert (
            "".join(cell["text"] if cell["given"] else "." for cell in cells) == HARD
        )  # givens drawn as givens
        shot(page, "fpuzzles-killer-thermo")
        # a cage drawn where its cells are: the dashed outline lies over r1c2 and r1c3
        box = page.locator("#sudoku-variants .v-cage").bounding_box()
        first, third = (page.locator("#sudoku-grid .cell").nth(i).bounding_box() for i in (1, 3))
        assert first["x"] <= box["x"] and box["x"] + box["width"] <= third["x"] + 1
        browser.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
