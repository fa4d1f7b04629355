"""The page's Explain and Hint buttons, in headless Chromium against a real server."""

from __future__ import annotations

from tests.test_browser import HARD, browser, cells, page, server, shot  # noqa: F401 (fixtures)

EASY = "....754..........8.8.19....3....1.6........34....6817.2.4...6.39......2.53.2....."


def test_explain_highlights_clashing_givens(page):
    page.fill("#sudoku-paste", "44" + HARD[2:])
    page.click("#sudoku-load")
    page.click("#sudoku-explain")
    page.wait_for_selector("#sudoku-message.bad")
    assert "givens clash" in page.text_content("#sudoku-message")
    assert [i for i, c in enumerate(cells(page, "sudoku-grid")) if "clash" in c["classes"]] == [0, 1]


def test_explain_marks_open_cells_and_the_givens_that_fix_them(page):
    page.fill("#sudoku-paste", "." * 81)
    page.click("#sudoku-load")
    page.click("#sudoku-explain")
    page.wait_for_selector("#sudoku-message.info >> text=several solutions")
    marked = cells(page, "sudoku-grid")
    assert any("open" in c["classes"] for c in marked) and any("suggested" in c["classes"] for c in marked)


def test_hint_fills_one_cell_and_says_why(page):
    page.fill("#sudoku-paste", EASY)
    page.click("#sudoku-load")
    page.click("#sudoku-hint")
    page.wait_for_selector("#sudoku-message.ok >> text=Hint")
    hinted = [i for i, c in enumerate(cells(page, "sudoku-grid")) if "hinted" in c["classes"]]
    assert hinted == [3] and cells(page, "sudoku-grid")[3]["text"] == "8"  # r1c4 is 8 (hidden single)
    assert "hidden single" in page.text_content("#sudoku-message")
    shot(page, "sudoku-hint")
