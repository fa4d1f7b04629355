"""The page's finish, in headless Chromium against a real server: results that belong to the
puzzle shown, hinted and suggested cells drawn apart from givens, one meaning per highlight (with
a legend), crossing explain and certify, what a job costs, the token prompt, the examples."""

from __future__ import annotations

import json

from mindgames.service.testing import Server
from tests.test_browser import HARD, browser, cells, page, server, shot  # noqa: F401 (fixtures)

EASY = "....754..........8.8.19....3....1.6........34....6817.2.4...6.39......2.53.2....."
SEVERAL = (
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.......4......"  # HARD less a given
)


def load(page, kind: str, text: str) -> None:
    page.fill(f"#{kind}-paste", text)
    page.click(f"#{kind}-load")


def classed(page, grid: str, cls: str) -> list[int]:
    return [i for i, c in enumerate(cells(page, grid)) if cls in c["classes"]]


def test_a_new_puzzle_clears_the_answer_and_the_comparison_table(page):
    load(page, "sudoku", HARD)
    page.click("#sudoku-compare")
    page.wait_for_selector("#sudoku-comparison table")
    page.click("#sudoku-solve")
    page.wait_for_selector("#sudoku-message.ok >> text=Solved")
    page.click("#sudoku-clear")
    assert page.inner_html("#sudoku-comparison") == ""
    assert page.text_content("#sudoku-message") == ""
    assert classed(page, "sudoku-grid", "solved") == []
    # an edit of one cell is a new puzzle too
    load(page, "sudoku", HARD)
    page.click("#sudoku-compare")
    page.wait_for_selector("#sudoku-comparison table")
    page.click("#sudoku-grid .cell >> nth=1")
    assert page.inner_html("#sudoku-comparison") == ""
    # and so is another binairo rule set
    page.click("#tabs button[data-panel=binairo]")
    load(page, "binairo", "1..0/..../..../....")
    page.click("#binairo-compare")
    page.wait_for_selector("#binairo-comparison table")
    page.select_option("#binairo-rules", "unruly")
    assert page.inner_html("#binairo-comparison") == ""


def test_a_hinted_cell_is_drawn_unlike_a_given_and_can_be_undone(page):
    load(page, "sudoku", EASY)
    page.click("#sudoku-hint")
    page.wait_for_selector("#sudoku-message.ok >> text=Hint")
    drawn = cells(page, "sudoku-grid")
    assert classed(page, "sudoku-grid", "hinted") == [3] and drawn[3]["text"] == "8"
    assert "given" not in drawn[3]["classes"]
    looks = page.eval_on_selector_all(
        "#sudoku-grid .cell",
        "els => [els[3], els[4]].map(e => getComputedStyle(e).color + getComputedStyle(e).fontStyle)",
    )
    assert looks[0] != looks[1]  # r1c4 hinted, r1c5 a given: drawn differently
    # the next hint builds on the first (it is sent with the givens) ...
    page.click("#sudoku-hint")
    page.wait_for_function("document.querySelectorAll('#sudoku-grid .cell.hinted').length === 2")
    # ... Undo hint takes the last one back, Clear solution every one
    page.click("#sudoku-undo")
    assert classed(page, "sudoku-grid", "hinted") == [3]
    page.click("#sudoku-clear-solution")
    assert classed(page, "sudoku-grid", "hinted") == []
    assert cells(page, "sudoku-grid")[3]["text"] == ""
    assert page.is_disabled("#sudoku-undo")
    # so a Compare now asks about the puzzle as loaded, not as hinted
    sent = []
    page.on("request", lambda r: sent.append(r.post_data) if r.url.endswith("/v1/sudoku/compare") else None)
    page.click("#sudoku-compare")
    page.wait_for_selector("#sudoku-comparison table")
    grid = json.loads(sent[0])["puzzle"]["grid"]
    assert "".join(str(v or ".") for row in grid for v in row) == EASY
    shot(page, "sudoku-hint-undone")


def test_explain_draws_the_suggested_givens_with_their_values(page):
    load(page, "sudoku", SEVERAL)
    answers = []
    page.on("response", lambda r: answers.append(r.json()) if r.url.endswith("/v1/sudoku/explain") else None)
    page.click("#sudoku-explain")
    page.wait_for_selector("#sudoku-message.info >> text=several solutions")
    drawn = cells(page, "sudoku-grid")
    suggested = {i: drawn[i]["text"] for i in classed(page, "sudoku-grid", "suggested")}
    wanted = {(g["row"] - 1) * 9 + g["col"] - 1: str(g["value"]) for g in answers[0]["add_givens"]}
    assert suggested == wanted and wanted
    shot(page, "sudoku-explain-suggested")


def test_check_and_explain_mark_the_cells_two_solutions_differ_in_alike(page):
    load(page, "sudoku", SEVERAL)
    page.click("#sudoku-check")
    page.wait_for_selector("#sudoku-message >> text=Multiple solutions")
    after_check = classed(page, "sudoku-grid", "open")
    page.click("#sudoku-explain")
    page.wait_for_selector("#sudoku-message >> text=several solutions")
    after_explain = classed(page, "sudoku-grid", "open")
    assert after_check and after_explain  # one class, one look, one meaning
    legend = page.text_content("#sudoku .legend")
    for meaning in (
        "given",
        "solved",
        "hinted",
        "suggests",
        "clashing givens",
        "two solutions differ",
        "reason",
    ):
        assert meaning in legend


def test_crossing_explain_and_certify_on_the_page(page):
    page.click("#tabs button[data-panel=crossing]")
    page.wait_for_selector("#crossing-preset option[value=jealous-husbands]", state="attached")
    page.select_option("#crossing-preset", "jealous-husbands")
    page.fill("#crossing-params input[data-param=return_capacity]", "1")
    page.click("#crossing-explain")
    page.wait_for_selector("#crossing-message.ok >> text=no plan exists")
    needed = page.eval_on_selector_all("#crossing-explanation li", "els => els.map(e => e.textContent)")
    assert (
        len(needed) == 4
        and "at most 1 may cross back at once: without it, a plan of 11 crossings" in needed[3]
    )
    page.select_option("#crossing-preset", "wolf-goat-cabbage")
    assert page.inner_html("#crossing-explanation") == ""  # another puzzle: the explanation went
    page.check("#crossing-certify")
    page.click("#crossing-solve")
    page.wait_for_selector("#crossing-message.ok")
    assert "7 crossings, proven shortest (certified: DRAT, checked; " in page.text_content(
        "#crossing-message"
    )
    shot(page, "crossing-certified")


def test_the_jobs_tab_states_the_cost_and_refuses_what_exceeds_the_job_cap(page):
    page.wait_for_selector("#tabs button[data-panel=jobs]")
    page.click("#tabs button[data-panel=jobs]")
    assert "about a second" in page.text_content("#job-binairo-cost")
    assert not page.is_disabled("#job-binairo-grids")
    page.select_option("#job-binairo-size", "12")
    assert page.is_disabled("#job-binairo-grids")
    said = page.text_content("#job-binairo-cost")
    assert "6.5 CPU hours" in said and "more than this server allows a job (60 minutes" in said
    assert "1,000,000 solutions" in page.text_content("#job-sudoku-cost")
    shot(page, "jobs-refused")


def test_every_example_loads_and_is_answered(page):
    for kind, answer in (("sudoku", "Solved"), ("binairo", "Solved")):
        page.click(f"#tabs button[data-panel={kind}]")
        options = page.eval_on_selector_all(f"#{kind}-example option", "els => els.map(e => e.value)")
        assert len(options) >= 5
        for value in options:
            page.select_option(f"#{kind}-example", value)
            page.click(f"#{kind}-load-example")
            page.wait_for_selector(f"#{kind}-message >> text=Loaded")
            label = page.eval_on_selector(f"#{kind}-example", "s => s.selectedOptions[0].textContent")
            page.click(f"#{kind}-solve")
            if "clashing" in label:
                page.wait_for_selector(f"#{kind}-message.bad >> text=Unsolvable")
            else:
                page.wait_for_selector(f"#{kind}-message.ok >> text={answer}")
    assert page.is_checked("#sudoku-diagonals") is False  # the last Sudoku example (jigsaw) has none
    page.click("#tabs button[data-panel=crossing]")
    page.wait_for_selector("#crossing-preset option[value=queens-tower]", state="attached")
    page.select_option("#crossing-preset", "queens-tower")
    page.click("#crossing-load-example")
    page.wait_for_selector("#crossing-message >> text=Loaded the document")
    assert json.loads(page.input_value("#crossing-file"))["pulley"]
    page.click("#crossing-solve")
    page.wait_for_selector("#crossing-message.ok >> text=10 crossings")


def test_with_a_token_file_the_page_says_why_it_is_empty(browser, tmp_path):
    token = "a-token-for-the-prompt"
    (tmp_path / "token").write_text(token + "\n")
    with Server(tmp_path / "jobs.sqlite3", "--token-file", str(tmp_path / "token")) as server:
        page = browser.new_page()
        try:
            page.goto(server.url + "/")
            page.wait_for_selector("#token-needed:not([hidden])")
            assert "asks for a token" in page.text_content("#token-needed")
            assert page.eval_on_selector_all("#tabs button", "els => els.length") == 0
            page.fill("#token", token)
            page.dispatch_event("#token", "change")
            page.wait_for_selector("#tabs button[data-panel=jobs]")
            assert page.is_hidden("#token-needed")
        finally:
            page.close()
