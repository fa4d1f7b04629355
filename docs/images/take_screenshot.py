"""Take docs/images/page.png: the web page with a Sudoku solved, in headless Chromium.

    python docs/images/take_screenshot.py      (from the repository, its venv active)

Starts `mindgames serve` on a free loopback port, loads the page's hard 9x9 example, solves it
and keeps the page as the README shows it.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

from mindgames.service.testing import Server

OUT = Path(__file__).resolve().parent / "page.png"
CHROMIUM = "/usr/bin/chromium"


def main() -> None:
    with Server(OUT.parent / "screenshot-jobs.sqlite3") as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1000, "height": 760})
        page.goto(server.url + "/")
        page.wait_for_selector("#tabs button[data-panel=jobs]")
        page.select_option("#sudoku-example", label="9x9, hard (17 givens)")
        page.click("#sudoku-load-example")
        page.click("#sudoku-solve")
        page.wait_for_selector("#sudoku-message.ok")
        page.screenshot(path=str(OUT))
        browser.close()
    for leftover in OUT.parent.glob("screenshot-jobs.sqlite3*"):
        leftover.unlink()


if __name__ == "__main__":
    main()
