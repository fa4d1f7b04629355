"""The web page in headless Chromium (Debian's /usr/bin/chromium, driven by Playwright),
against a real server: type a Sudoku, solve it, read the cells back; step through a
crossing plan; run and cancel a job.  Screenshots are kept in artifacts/."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from mindgames.service.testing import Server

CHROMIUM = os.environ.get("MINDGAMES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("browser") / "jobs.sqlite3", "--job-workers", "1") as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    yield page
    page.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def cells(page, grid: str) -> list[dict]:
    return page.eval_on_selector_all(
        f"#{grid} .cell",
        "els => els.map(e => ({text: e.textContent, classes: [...e.classList]}))",
    )


def test_a_sudoku_typed_into_the_grid_is_solved_givens_black_solution_red(page):
    page.click("#sudoku-grid .cell >> nth=0")
    page.keyboard.type(HARD)  # one symbol per cell, '.' leaves a blank and moves on
    typed = cells(page, "sudoku-grid")
    assert "".join(c["text"] or "." for c in typed) == HARD
    page.click("#sudoku-solve")
    page.wait_for_selector("#sudoku-message.ok")
    assert page.text_content("#sudoku-message").startswith("Solved")
    solved = cells(page, "sudoku-grid")
    grid = [[int(solved[r * 9 + c]["text"]) for c in range(9)] for r in range(9)]
    for r in range(9):
        assert sorted(grid[r]) == list(range(1, 10))
        assert sorted(grid[i][r] for i in range(9)) == list(range(1, 10))
    for ch, cell in zip(HARD, solved):
        assert ("given" in cell["classes"]) == (ch != ".")
        assert ("solved" in cell["classes"]) == (ch == ".")
    colors = page.eval_on_selector_all(
        "#sudoku-grid .cell", "els => els.slice(0, 2).map(e => getComputedStyle(e).color)"
    )
    assert colors[0] != colors[1]  # r1c1 is a given, r1c2 was solved: drawn differently
    shot(page, "sudoku-solved")


def test_clashing_givens_are_reported_and_highlighted(page):
    page.fill("#sudoku-paste", "44" + HARD[2:])
    page.click("#sudoku-load")
    page.click("#sudoku-solve")
    page.wait_for_selector("#sudoku-message.bad")
    assert "givens clash" in page.text_content("#sudoku-message")
    clashing = [i for i, c in enumerate(cells(page, "sudoku-grid")) if "clash" in c["classes"]]
    assert clashing == [0, 1]
    shot(page, "sudoku-clash")


def test_check_with_certify_shows_the_checked_certificate(page):
    page.fill("#sudoku-paste", HARD)
    page.click("#sudoku-load")
    page.check("#sudoku-certify")
    page.click("#sudoku-check")
    page.wait_for_selector("#sudoku-message.ok")
    said = page.text_content("#sudoku-message")
    assert said.startswith("Unique solution (certified: DRAT, checked; ") and "lemma" in said
    shot(page, "sudoku-certified")


def test_compare_engines_shows_a_table_with_bars_and_the_agreement(page):
    page.fill("#sudoku-paste", HARD)
    page.click("#sudoku-load")
    page.click("#sudoku-compare")
    page.wait_for_selector("#sudoku-comparison table")
    assert page.text_content("#sudoku-message").startswith("agreement: the engines agree")
    rows = page.eval_on_selector_all("#sudoku-comparison tr", "els => els.map(e => e.innerText)")
    assert [row.split("\t")[0] for row in rows[1:]] == ["sat", "cpsat", "backtrack"]
    assert "unique" in rows[1] and "propagations" in rows[1]
    assert len(page.query_selector_all("#sudoku-comparison .bar")) == 3
    shot(page, "sudoku-compare")


def test_the_tabs_are_the_kinds_the_server_lists_then_jobs(page, server):
    import httpx

    listed = [k["kind"] for k in httpx.get(server.url + "/v1/kinds").json()["kinds"]]
    page.wait_for_selector("#tabs button[data-panel=jobs]")
    tabs = page.eval_on_selector_all("#tabs button", "els => els.map(e => e.dataset.panel)")
    assert tabs == listed + ["jobs"]


def test_a_kind_the_page_does_not_know_gets_a_tab_and_a_text_panel(browser, server):
    # The server is made to list one more grid kind (as a kind object and a registry line
    # would); the page makes its tab and panel from GET /v1/kinds alone.
    import json

    import httpx

    listed = httpx.get(server.url + "/v1/kinds").json()
    listed["kinds"].insert(
        2,
        {
            "kind": "row",
            "summary": "a row of N cells holding 1..N",
            "actions": ["solve", "check", "count"],
            "engines": ["sat", "cpsat"],
            "formats": ["N cells of '.' or 1..N"],
            "options": {"title": "a name"},
        },
    )
    asked = []

    def answer(route):
        asked.append(json.loads(route.request.post_data))
        route.fulfill(
            json={
                "index": 0,
                "status": "solved",
                "solution": [1, 2, 3],
                "uniqueness": "unique",
                "engine": "sat",
                "seconds": 0.001,
                "certificate": {
                    "kind": "drat",
                    "checked": True,
                    "lemmas": 2,
                    "seconds": {"solve": 0.001, "proof": 0.001, "check": 0.001},
                },
            }
        )

    page = browser.new_page()
    page.route("**/v1/kinds", lambda route: route.fulfill(json=listed))
    page.route("**/v1/row/check", answer)
    page.goto(server.url + "/")
    page.click("#tabs button[data-panel=row]")
    page.fill("#row .puzzle-text", "1.3")
    page.check("#row .certify")
    page.click("#row-check")
    page.wait_for_selector("#row-message.ok")
    assert asked == [{"puzzle": "1.3", "engine": "sat", "certify": True}]
    assert page.text_content("#row-message").startswith("Unique solution (certified: DRAT, checked; 2 lemmas")
    assert page.text_content("#row .answer") == "1 2 3"
    page.close()


def test_clicking_a_binairo_cell_cycles_blank_zero_one(page):
    page.click("#tabs button[data-panel=binairo]")
    first = "#binairo-grid .cell >> nth=0"
    seen = []
    for _ in range(3):
        page.click(first)
        seen.append(page.text_content(first))
    assert seen == ["0", "1", ""]
    page.fill("#binairo-paste", "1..0/..../..../....")
    page.click("#binairo-load")
    page.click("#binairo-check")
    page.wait_for_selector("#binairo-message:has-text('Multiple solutions')")
    assert all(c["text"] in ("0", "1") for c in cells(page, "binairo-grid"))
    shot(page, "binairo-check")


def test_stepping_through_a_crossing_plan(page):
    page.click("#tabs button[data-panel=crossing]")
    page.wait_for_selector("#crossing-preset option[value=wolf-goat-cabbage]", state="attached")
    page.select_option("#crossing-preset", "wolf-goat-cabbage")
    page.click("#crossing-solve")
    page.wait_for_selector("#crossing-player:not([hidden])")
    assert "7 crossings" in page.text_content("#crossing-message")
    assert page.get_attribute("#scene", "data-step") == "0"
    assert page.is_disabled("#crossing-prev")
    page.click("#crossing-next")
    page.wait_for_selector("#scene[data-step='1'][data-moving='0']")  # the boat has crossed
    far = page.eval_on_selector_all(".bank.far .actor", "els => els.map(e => e.dataset.actor).sort()")
    assert far == ["farmer", "goat"]
    shot(page, "crossing-step-1")
    page.click("#crossing-prev")
    assert page.get_attribute("#scene", "data-step") == "0"
    page.click("#crossing-play")
    page.wait_for_selector("#scene[data-step='7'][data-moving='0']", timeout=30_000)
    assert page.text_content("#crossing-play") == "Play"  # it stopped at the end
    near = page.eval_on_selector_all(".bank.near .actor", "els => els.length")
    assert near == 0
    assert page.is_disabled("#crossing-next")
    shot(page, "crossing-done")


def test_a_count_job_shows_progress_and_can_be_cancelled(page):
    page.fill("#sudoku-paste", "." * 81)
    page.click("#sudoku-load")
    page.click("#tabs button[data-panel=jobs]")
    page.fill("#job-limit", "100000000")
    page.click("#job-sudoku-count")
    row = "#job-table tbody tr >> nth=0"
    page.wait_for_selector(f"{row} >> text=so far", timeout=60_000)
    shot(page, "job-running")
    page.click(f"{row} >> button:has-text('Cancel')")
    page.wait_for_selector(f"{row} >> td.status-cancelled")
    page.click("#job-binairo-grids")  # 8x8: done in seconds
    page.wait_for_selector("#job-table tbody tr >> nth=0 >> td.status-done", timeout=120_000)
    assert "4,111,116 grids" in page.text_content("#job-table tbody tr >> nth=0")
    shot(page, "jobs")
    rows = page.eval_on_selector_all("#job-table tbody tr", "els => els.length")
    page.click("#job-table tbody tr >> nth=0 >> button:has-text('Delete')")  # a finished job
    page.wait_for_function(f"document.querySelectorAll('#job-table tbody tr').length === {rows - 1}")


def test_crossing_presets_appear_once_a_token_is_entered_after_a_401(browser, tmp_path):
    token = "s3cret-token-for-the-browser"
    (tmp_path / "token").write_text(token + "\n")
    with Server(tmp_path / "jobs.sqlite3", "--token-file", str(tmp_path / "token")) as server:
        page = browser.new_page()
        try:
            page.goto(server.url + "/")
            page.wait_for_selector("#token-box:not([hidden])")  # the presets got a 401
            assert page.eval_on_selector_all("#crossing-preset option", "els => els.length") == 0
            page.fill("#token", token)
            page.press("#token", "Enter")
            page.dispatch_event("#token", "change")
            page.wait_for_selector("#crossing-preset option[value=wolf-goat-cabbage]", state="attached")
        finally:
            page.close()
