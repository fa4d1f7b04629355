"""The web page and the sites' links, in headless Chromium against a real server: a puzz.link
URL or a game ID pasted into the input box is the puzzle the page asks about; "Share link" shows
(and copies) the link that opens the board's puzzle on each site."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindgames.service.testing import Server

from .test_browser import ARGS, CHROMIUM

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

#: pzprjs' own test fixture (robx/pzprjs, test/script/sudoku.js)
PZPRJS_FIXTURE = "https://puzz.link/p?sudoku/4/4/g1k23k3g"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("links") / "jobs.sqlite3") as server:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.url + "/")
            yield page
            browser.close()
            assert not errors, f"JavaScript errors on the page: {errors}"


def board(page, grid: str) -> str:
    texts = page.eval_on_selector_all(f"#{grid} .cell", "els => els.map(e => e.textContent || '.')")
    return "".join(texts)


def test_a_pasted_puzzlink_url_is_solved_and_share_gives_the_same_url_back(page):
    page.fill("#sudoku-paste", PZPRJS_FIXTURE)
    page.click("#sudoku-load")
    page.wait_for_function("document.querySelector('#sudoku-message').textContent.startsWith('Loaded a 4x4')")
    assert board(page, "sudoku-grid") == ".1.....23.....3."
    page.click("#sudoku-solve")
    page.wait_for_selector("#sudoku-message.ok")
    assert board(page, "sudoku-grid") == "2143431234211234"
    page.click("#sudoku-share")
    page.wait_for_function("document.querySelector('#sudoku-message').textContent.includes('puzzlink:')")
    said = page.text_content("#sudoku-message")
    assert PZPRJS_FIXTURE in said and "solo.html#2x2:a1e2_3e3a" in said


def test_a_malformed_link_says_where_it_is_wrong(page):
    page.fill("#sudoku-paste", "https://puzz.link/p?sudoku/4/4/g1k2!k3g")
    page.click("#sudoku-load")  # said at once
    page.wait_for_selector("#sudoku-message.bad")
    assert "character 36: unexpected '!'" in page.text_content("#sudoku-message")


def test_a_pasted_unruly_id_loads_with_its_rules(page):
    page.click("text=Binairo")
    page.fill("#binairo-paste", "6x6:CgbbbBmae")
    page.click("#binairo-load")
    page.wait_for_function("document.querySelector('#binairo-message').textContent.startsWith('Loaded')")
    assert page.input_value("#binairo-rules") == "unruly"
    assert board(page, "binairo-grid") == "..1......0.0.0.0.1............00...."
    page.click("#binairo-share")
    page.wait_for_function("document.querySelector('#binairo-message').textContent.includes('tatham:')")
    assert "unruly.html#6x6:CgbbbBmae" in page.text_content("#binairo-message")
