"""The solver service through a real server: ``mindgames serve`` on a free loopback port,
spoken to over HTTP with httpx, exactly as a client would."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from mindgames.cli import main as cli
from mindgames.service.testing import Server

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
CLASH = "44....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EMPTY9 = "." * 81


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("service") / "jobs.sqlite3"
    with Server(
        db,
        "--max-puzzles",
        "100",
        "--max-seconds",
        "3",
        "--max-jobs",
        "3",
        "--job-workers",
        "1",
        "--solver-workers",
        "2",
    ) as running:
        yield running


@pytest.fixture(scope="module")
def client(server):
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield http


def cli_json(args: list[str], text: str, tmp_path, capsys) -> list[dict]:
    """What ``mindgames ... --json`` prints for ``text``: one object per line."""
    path = tmp_path / "input.txt"
    path.write_text(text)
    capsys.readouterr()
    assert cli([*args, str(path), "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def without_timing(record: dict) -> dict:
    # stats too: a worker's incremental solver has a history (learnt clauses), a CLI run none
    return {k: v for k, v in record.items() if k not in ("seconds", "stats")}


def is_sudoku_solution(grid: list[list[int]], givens: str) -> bool:
    n = len(grid)
    units = [row for row in grid] + [list(col) for col in zip(*grid)]
    units += [
        [grid[r][c] for r in range(br, br + 3) for c in range(bc, bc + 3)]
        for br in range(0, 9, 3)
        for bc in range(0, 9, 3)
    ]
    kept = all(ch == "." or int(ch) == grid[i // n][i % n] for i, ch in enumerate(givens))
    return kept and all(sorted(unit) == list(range(1, 10)) for unit in units)


# -- the small endpoints ------------------------------------------------------------------------
def test_health_is_ok(client):
    assert client.get("/healthz").json()["status"] == "ok"


def test_kinds_lists_every_kind_with_actions_and_the_limits(client):
    body = client.get("/v1/kinds").json()
    kinds = {k["kind"]: k for k in body["kinds"]}
    assert set(kinds) == {"sudoku", "binairo", "crossing"}
    assert kinds["sudoku"]["actions"] == ["solve", "check", "count"]
    assert body["limits"]["max_puzzles"] == 100
    assert body["limits"]["max_seconds"] == 3


def test_crossing_presets_come_with_their_parameters(client):
    presets = client.get("/v1/crossing/presets").json()["presets"]
    assert presets["wolf-goat-cabbage"]["parameters"] == {"capacity": 2}
    assert presets["missionaries-cannibals"]["parameters"] == {"pairs": 3, "capacity": 2}


def test_the_page_and_its_files_are_served_without_any_cdn(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for path in ("/static/app.js", "/static/style.css"):
        asset = client.get(path)
        assert asset.status_code == 200
        assert "https://" not in asset.text and "http://" not in asset.text
    assert "https://" not in page.text and "http://" not in page.text


def test_the_openapi_schema_describes_the_endpoints(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/v1/{kind}/solve",
        "/v1/{kind}/check",
        "/v1/{kind}/count",
        "/v1/jobs",
        "/v1/jobs/{job_id}",
        "/v1/kinds",
        "/v1/crossing/presets",
        "/healthz",
    ):
        assert path in paths


# -- answers are the CLI's --json objects ----------------------------------------------------------
def test_a_sudoku_solve_is_the_same_object_as_the_cli_json_line(client, tmp_path, capsys):
    answer = client.post("/v1/sudoku/solve", json={"puzzle": HARD})
    assert answer.status_code == 200
    (expected,) = cli_json(["sudoku", "solve"], HARD + "\n", tmp_path, capsys)
    assert without_timing(answer.json()) == without_timing(expected)
    assert is_sudoku_solution(answer.json()["solution"], HARD)


def test_check_and_count_match_the_cli_too(client, tmp_path, capsys):
    puzzle = "1..." + "." * 12  # a 4x4 with many solutions
    for action in ("check", "count"):
        answer = client.post(f"/v1/sudoku/{action}", json={"puzzle": puzzle}).json()
        (expected,) = cli_json(["sudoku", action], puzzle + "\n", tmp_path, capsys)
        assert without_timing(answer) == without_timing(expected)


def test_a_crossing_solve_is_the_cli_json_object(client, tmp_path, capsys):
    answer = client.post(
        "/v1/crossing/solve", json={"puzzle": "missionaries-cannibals", "params": {"pairs": 3, "capacity": 2}}
    )
    capsys.readouterr()
    assert cli(["crossing", "solve", "missionaries-cannibals", "--set", "pairs=3", "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert without_timing(answer.json()) == without_timing(expected)
    assert answer.json()["crossings"] == 11


def test_sudoku_accepts_every_format_the_cli_reads(client):
    rows = [[int(ch) if ch != "." else 0 for ch in HARD[r * 9 : (r + 1) * 9]] for r in range(9)]
    drawn = "\n".join(HARD[r * 9 : (r + 1) * 9] for r in range(9))
    six = {"grid": "1....." + "." * 30, "box": [2, 3]}
    x_sudoku = {"grid": EMPTY9, "diagonals": True}
    for puzzle in (rows, drawn, {"grid": rows}, json.dumps(rows)):
        assert client.post("/v1/sudoku/solve", json={"puzzle": puzzle}).json()["status"] == "solved"
    solved = client.post("/v1/sudoku/solve", json={"puzzle": six}).json()
    assert solved["status"] == "solved" and len(solved["solution"]) == 6
    grid = client.post("/v1/sudoku/solve", json={"puzzle": x_sudoku}).json()["solution"]
    assert sorted(grid[i][i] for i in range(9)) == list(range(1, 10))
    assert sorted(grid[i][8 - i] for i in range(9)) == list(range(1, 10))


def test_a_batch_answers_in_input_order_and_marks_bad_puzzles_invalid(client):
    body = client.post("/v1/sudoku/solve", json={"puzzles": [HARD, "12x", CLASH]}).json()
    results = body["results"]
    assert [r["index"] for r in results] == [0, 1, 2]
    assert [r["status"] for r in results] == ["solved", "invalid", "unsolvable"]
    assert "3 cells do not make a square grid" in results[1]["error"]
    assert "givens clash" in results[2]["message"]


def test_explain_adds_the_clashing_cells_for_the_page(client):
    plain = client.post("/v1/sudoku/solve", json={"puzzle": CLASH}).json()
    explained = client.post("/v1/sudoku/solve?explain=true", json={"puzzle": CLASH}).json()
    assert "clashing_cells" not in plain
    assert explained["clashing_cells"] == [[0, 0], [0, 1]]


def test_each_kinds_options_are_request_fields_and_only_its_own(client):
    x6 = client.post("/v1/sudoku/check", json={"puzzle": "." * 36, "box": "3x2", "diagonals": True})
    assert x6.status_code == 200 and x6.json()["uniqueness"] == "multiple"
    solution = x6.json()["solution"]
    assert sorted(solution[i][i] for i in range(6)) == list(range(1, 7))  # the diagonal holds 1..6
    top_left_box = [solution[r][c] for r in range(3) for c in range(2)]  # 3 rows x 2 columns
    assert sorted(top_left_box) == list(range(1, 7))
    bad = client.post("/v1/sudoku/solve", json={"puzzle": "." * 36, "box": "3x"})
    assert bad.status_code == 422 and bad.json()["error"].startswith("box: ")
    other = client.post("/v1/binairo/solve", json={"puzzle": "1...\n....\n....\n....", "box": "2x2"})
    assert other.status_code == 422 and "box: an option of sudoku puzzles only" in other.json()["error"]
    listed = {k["kind"]: k for k in client.get("/v1/kinds").json()["kinds"]}
    assert {"box", "diagonals"} <= set(listed["sudoku"]["options"]) and "rules" in listed["binairo"][
        "options"
    ]


def test_certify_answers_with_the_checked_certificate(client):
    checked = client.post("/v1/sudoku/check", json={"puzzle": HARD, "certify": True}).json()
    assert checked["uniqueness"] == "unique"
    certificate = checked["certificate"]
    assert certificate["kind"] == "drat" and certificate["checked"] is True and certificate["lemmas"] >= 1
    unsolvable = client.post("/v1/binairo/solve", json={"puzzle": "111.\n....\n....\n....", "certify": True})
    assert unsolvable.json()["status"] == "unsolvable" and unsolvable.json()["certificate"]["checked"]
    assert "certificate" not in client.post("/v1/sudoku/check", json={"puzzle": HARD}).json()


def test_certify_applies_to_solve_and_check_not_to_count(client):
    answer = client.post("/v1/sudoku/count", json={"puzzle": HARD, "certify": True})
    assert answer.status_code == 422 and "certify" in answer.json()["error"]


def test_a_crossing_plan_comes_with_a_checked_proof_that_none_is_shorter(client):
    answer = client.post("/v1/crossing/solve", json={"puzzle": "wolf-goat-cabbage", "certify": True})
    assert answer.status_code == 200, answer.text
    record = answer.json()
    assert record["crossings"] == 7 and record["certificate"]["checked"] is True
    unsolvable = client.post(
        "/v1/crossing/solve",
        json={"puzzle": "jealous-husbands", "params": {"return_capacity": 1}, "certify": True},
    ).json()
    assert unsolvable["status"] == "unsolvable" and unsolvable["certificate"]["checked"] is True


def test_check_gives_two_different_witnesses_for_a_puzzle_with_several_solutions(client):
    answer = client.post("/v1/sudoku/check", json={"puzzle": "." * 16}).json()
    assert answer["uniqueness"] == "multiple"
    first, second = answer["solutions"]
    assert first != second


def test_binairo_solve_check_count_with_both_rule_sets(client):
    puzzle = ["1..0", "....", "....", "...."]
    solved = client.post("/v1/binairo/solve", json={"puzzle": "\n".join(puzzle)}).json()
    assert solved["status"] == "solved" and solved["rules"] == "takuzu"
    assert solved["solution"][0][0] == 1 and solved["solution"][0][3] == 0
    takuzu = client.post("/v1/binairo/count", json={"puzzle": [[None] * 4] * 4}).json()
    unruly = client.post("/v1/binairo/count", json={"puzzle": [[None] * 4] * 4, "rules": "unruly"}).json()
    assert (takuzu["count"], takuzu["complete"]) == (72, True)
    assert unruly["count"] > takuzu["count"] and unruly["rules"] == "unruly"


def test_crossing_takes_a_document_or_puzzle_file_text(client):
    document = client.post("/v1/crossing/export", json={"puzzle": "wolf-goat-cabbage"}).json()
    by_document = client.post("/v1/crossing/solve", json={"puzzle": document}).json()
    toml = (
        'name = "ferry"\nboat = { capacity = 2 }\n'
        '[[actors]]\nname = "farmer"\nrows = true\n[[actors]]\nname = "goat"\n'
    )
    by_text = client.post("/v1/crossing/solve", json={"puzzle": toml}).json()
    assert by_document["crossings"] == 7
    assert by_text["status"] == "solved" and by_text["crossings"] == 1


def test_crossing_explain_gives_the_banks_after_each_step(client):
    answer = client.post("/v1/crossing/solve?explain=true", json={"puzzle": "wolf-goat-cabbage"}).json()
    assert len(answer["banks"]) == answer["crossings"] + 1
    assert answer["banks"][0]["near"] == {"farmer": 1, "wolf": 1, "goat": 1, "cabbage": 1}
    assert answer["banks"][-1]["near"] == {}


# -- errors: JSON, 4xx, the CLI's messages, the limit named ----------------------------------------------
def test_malformed_json_is_a_400(client):
    answer = client.post(
        "/v1/sudoku/solve", content=b'{"puzzle": ', headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("invalid JSON")


def test_an_unknown_kind_is_a_404_naming_the_kinds(client):
    answer = client.post("/v1/chess/solve", json={"puzzle": "x"})
    assert answer.status_code == 404
    assert "sudoku, binairo, crossing" in answer.json()["error"]


def test_a_bad_puzzle_is_a_422_with_the_cli_message(client, tmp_path, capsys):
    bad = "12345678" + "9" * 72 + "Z"
    answer = client.post("/v1/sudoku/solve", json={"puzzle": bad})
    path = tmp_path / "bad.txt"
    path.write_text(bad + "\n")
    assert cli(["sudoku", "solve", str(path)]) == 2
    cli_message = capsys.readouterr().err.strip().removeprefix("mindgames: error: ")
    assert answer.status_code == 422
    assert answer.json()["error"] == cli_message


def test_crossing_errors_name_the_parameter(client):
    answer = client.post("/v1/crossing/solve", json={"puzzle": "wolf-goat-cabbage", "params": {"boats": 2}})
    assert answer.status_code == 422 and "no such parameter" in answer.json()["error"]
    answer = client.post("/v1/crossing/check", json={"puzzle": "wolf-goat-cabbage"})
    assert answer.status_code == 422 and "solved or explained" in answer.json()["error"]


@pytest.mark.parametrize(
    "body, words",
    [
        ({"puzzle": HARD, "engine": "magic"}, "engine"),
        ({"puzzle": HARD, "colour": "red"}, "colour"),
        ({"puzzle": HARD, "puzzles": [HARD]}, "either"),
        ({}, "either"),
        ({"puzzles": []}, "empty"),
        ({"puzzle": HARD, "time_limit": -1}, "time_limit"),
        ({"puzzle": 7}, "puzzle"),
    ],
)
def test_invalid_requests_are_422_saying_what_is_wrong(client, body, words):
    answer = client.post("/v1/sudoku/solve", json=body)
    assert answer.status_code == 422
    assert words in answer.json()["error"]


def test_an_oversized_body_is_a_413_naming_the_limit(client):
    answer = client.post("/v1/sudoku/solve", json={"puzzles": [HARD] * 13_000})  # about 1.1 MB
    assert answer.status_code == 413
    assert answer.json()["limit"] == "max_body_bytes"


def test_too_many_puzzles_is_a_413_naming_the_limit(client):
    answer = client.post("/v1/sudoku/solve", json={"puzzles": [HARD] * 101})
    assert answer.status_code == 413
    assert answer.json()["limit"] == "max_puzzles"


def test_a_time_limit_over_the_cap_is_a_422_naming_the_limit(client):
    answer = client.post("/v1/sudoku/solve", json={"puzzle": HARD, "time_limit": 60})
    assert answer.status_code == 422
    assert answer.json()["limit"] == "max_seconds"


def test_the_time_limit_stops_a_long_count_with_an_incomplete_answer(client):
    answer = client.post("/v1/sudoku/count", json={"puzzle": EMPTY9, "time_limit": 0.5})
    assert answer.status_code == 200
    body = answer.json()
    assert body["complete"] is False and body["count"] > 0


def test_a_batch_past_the_request_cap_answers_every_puzzle_late_ones_unknown(client):
    # Five counts of 2 s each cannot all fit in the server's 3 s cap.
    answer = client.post("/v1/sudoku/count", json={"puzzles": [EMPTY9] * 5, "time_limit": 2})
    results = answer.json()["results"]
    assert len(results) == 5
    assert results[0]["complete"] is False
    assert results[-1]["status"] == "unknown"


def test_absurdly_nested_json_is_a_422_not_a_crash(client):
    nested = b'{"puzzle": {"grid": ' + b"[" * 900 + b"]" * 900 + b"}}"
    answer = client.post("/v1/sudoku/solve", content=nested, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert "nested" in answer.json()["error"]


def test_work_past_the_request_cap_is_stopped_and_the_server_keeps_answering(client):
    # 1000 pairs, boat of 20: far too big to settle within the 3 s cap (100 jealous couples,
    # the example before, now take about 3 s); whether the library's own time limit or the
    # pool's hard stop ends it, the answer is "unknown".
    answer = client.post(
        "/v1/crossing/solve",
        json={"puzzle": "missionaries-cannibals", "params": {"pairs": 1000, "capacity": 20}},
    )
    assert answer.status_code == 200
    assert answer.json()["status"] == "unknown"
    assert client.post("/v1/sudoku/solve", json={"puzzle": HARD}).json()["status"] == "solved"


def test_an_absurdly_big_puzzle_is_refused_or_stopped_and_fails_alone(client):
    # A billion couples: the solver process runs out of its memory cap (422, "too big")
    # or out of time (unknown); either way the next request is answered as usual.
    answer = client.post(
        "/v1/crossing/solve", json={"puzzle": "jealous-husbands", "params": {"couples": 10**9}}
    )
    assert (answer.status_code, answer.json().get("status")) in ((422, None), (200, "unknown"))
    if answer.status_code == 422:
        assert "too big" in answer.json()["error"]
    assert client.post("/v1/sudoku/solve", json={"puzzle": HARD}).json()["status"] == "solved"


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the solver processes")
def test_solver_processes_that_die_are_replaced_without_failing_a_request(server, client):
    for pid in children_of(server.process.pid):
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            if b"mindgames.service.pool" in cmdline.read():
                os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    answers = [client.post("/v1/sudoku/solve", json={"puzzle": HARD}) for _ in range(4)]
    assert [a.status_code for a in answers] == [200] * 4
    assert {a.json()["status"] for a in answers} == {"solved"}


def test_a_client_that_hangs_up_does_not_cost_the_server_a_worker(server, client):
    with pytest.raises(httpx.TimeoutException):
        httpx.post(server.url + "/v1/sudoku/count", json={"puzzle": EMPTY9, "time_limit": 2}, timeout=0.3)
    answers = [client.post("/v1/sudoku/solve", json={"puzzle": HARD}) for _ in range(3)]
    assert {a.json()["status"] for a in answers} == {"solved"}


def test_more_requests_waiting_than_max_waiting_is_a_429_naming_the_limit(tmp_path):
    # One solver process and room for one waiting request: while a 3 s count runs and a
    # second waits for the solver (the health check says so), a third is refused.  Only
    # requests that wait count: the one being answered holds no place in the queue.
    # Waiting for each step, rather than sending all at once, keeps a loaded machine from
    # serving one before the next arrives.
    with Server(
        tmp_path / "jobs.sqlite3", "--solver-workers", "1", "--max-waiting", "1", "--no-inline"
    ) as server:

        def count(_: int) -> httpx.Response:
            return httpx.post(
                server.url + "/v1/sudoku/count", json={"puzzle": EMPTY9, "time_limit": 3}, timeout=60
            )

        def solvers() -> dict:
            return httpx.get(server.url + "/healthz").json()["solvers"]

        with ThreadPoolExecutor(2) as pool:
            first = pool.submit(count, 0)
            while solvers()["waiting"] < 1 and not first.done():
                time.sleep(0.01)
            second = pool.submit(count, 1)
            while solvers()["queued"] < 1 and not second.done():
                time.sleep(0.01)
            answers = [count(2), first.result(), second.result()]
    assert sorted(a.status_code for a in answers) == [200, 200, 429]
    refused = next(a for a in answers if a.status_code == 429)
    answered = next(a for a in answers if a.status_code == 200)
    assert refused.json()["limit"] == "max_waiting"
    assert answered.json()["complete"] is False and answered.json()["count"] > 0


# -- concurrency -------------------------------------------------------------------------------------------------
def relabel(text: str, permutation: str) -> str:
    return "".join(ch if ch == "." else permutation[int(ch) - 1] for ch in text)


def test_fifty_simultaneous_solves_are_all_answered_correctly(server):
    reference = httpx.post(server.url + "/v1/sudoku/solve", json={"puzzle": HARD}, timeout=60).json()[
        "solution"
    ]
    permutations = ["123456789", "987654321", "213456789", "123456798", "912345678"] * 10
    puzzles = [relabel(HARD, p) for p in permutations]

    def solve(puzzle: str) -> dict:
        return httpx.post(server.url + "/v1/sudoku/solve", json={"puzzle": puzzle}, timeout=120).json()

    with ThreadPoolExecutor(50) as pool:
        answers = list(pool.map(solve, puzzles))
    for puzzle, permutation, answer in zip(puzzles, permutations, answers):
        expected = [[int(permutation[v - 1]) for v in row] for row in reference]
        assert answer["status"] == "solved"
        assert answer["solution"] == expected
        assert is_sudoku_solution(answer["solution"], puzzle)


# -- jobs --------------------------------------------------------------------------------------------------------------
def wait_for(client: httpx.Client, job_id: str, statuses: tuple[str, ...], timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] in statuses:
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} never reached {statuses}: {job}")


def test_a_job_answers_at_once_then_reports_every_result(client):
    created = client.post(
        "/v1/jobs", json={"kind": "sudoku", "action": "solve", "puzzles": [HARD, "bad", CLASH]}
    )
    assert created.status_code == 202
    assert created.json()["status"] == "queued"
    job = wait_for(client, created.json()["id"], ("done",))
    assert job["progress"] == {"done": 3, "total": 3, "solutions": None}
    assert [r["status"] for r in job["results"]] == ["solved", "invalid", "unsolvable"]
    assert job["results"][0] == {**job["results"][0], "index": 0}


def test_a_job_counts_every_binairo_grid_of_a_size_as_the_cli_does(client, capsys):
    created = client.post("/v1/jobs", json={"kind": "binairo", "action": "count_grids", "size": "6"}).json()
    job = wait_for(client, created["id"], ("done", "failed"), timeout=120)
    capsys.readouterr()
    assert cli(["binairo", "count", "--size", "6", "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert job["status"] == "done", job
    assert (job["result"]["count"], job["result"]["complete"]) == (expected["count"], True)
    assert job["progress"]["done"] == job["progress"]["total"]


def test_a_running_job_can_be_cancelled_and_keeps_its_progress(client):
    created = client.post("/v1/jobs", json={"kind": "sudoku", "action": "count", "puzzles": [EMPTY9]}).json()
    running = wait_for(client, created["id"], ("running",))
    assert running["progress"]["total"] == 1
    cancelled = client.post(f"/v1/jobs/{created['id']}/cancel", json={}).json()
    assert cancelled["status"] == "cancelled"
    time.sleep(0.5)  # the job's process is gone: nothing changes the row any more
    assert client.get(f"/v1/jobs/{created['id']}").json()["status"] == "cancelled"
    assert (
        client.post(f"/v1/jobs/{created['id']}/cancel", json={}).json()["status"] == "cancelled"
    )  # as it is


def test_deleting_a_running_job_stops_it_and_removes_it(client):
    created = client.post("/v1/jobs", json={"kind": "sudoku", "action": "count", "puzzles": [EMPTY9]}).json()
    wait_for(client, created["id"], ("running",))
    assert client.delete(f"/v1/jobs/{created['id']}").json() == {"id": created["id"], "status": "deleted"}
    assert client.get(f"/v1/jobs/{created['id']}").status_code == 404
    assert client.post(f"/v1/jobs/{created['id']}/cancel", json={}).status_code == 404


def test_a_job_running_past_max_job_seconds_is_stopped_saying_why(tmp_path):
    with (
        Server(tmp_path / "jobs.sqlite3", "--max-job-seconds", "2") as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
    ):
        created = client.post(
            "/v1/jobs", json={"kind": "sudoku", "action": "count", "puzzles": [EMPTY9]}
        ).json()
        job = wait_for(client, created["id"], ("failed", "done"), timeout=60)
    assert job["status"] == "failed"
    assert "max_job_seconds (2 s)" in job["error"]
    assert job["results"] == []  # the count never finished, so no result is claimed


def test_deleting_a_finished_job_removes_it(client):
    created = client.post(
        "/v1/jobs", json={"kind": "binairo", "action": "solve", "puzzles": ["1..0\n....\n....\n...."]}
    ).json()
    wait_for(client, created["id"], ("done",))
    assert client.delete(f"/v1/jobs/{created['id']}").json() == {"id": created["id"], "status": "deleted"}
    assert client.get(f"/v1/jobs/{created['id']}").status_code == 404
    assert created["id"] not in {job["id"] for job in client.get("/v1/jobs").json()["jobs"]}


def test_unknown_jobs_are_404(client):
    assert client.get("/v1/jobs/nosuchjob").status_code == 404
    assert client.delete("/v1/jobs/nosuchjob").status_code == 404


def test_more_jobs_than_max_jobs_is_a_429_naming_the_limit(client):
    ids = []
    try:
        for _ in range(3):  # one runs (job_workers 1), two wait: max_jobs is 3
            answer = client.post("/v1/jobs", json={"kind": "sudoku", "action": "count", "puzzles": [EMPTY9]})
            assert answer.status_code == 202
            ids.append(answer.json()["id"])
        refused = client.post("/v1/jobs", json={"kind": "sudoku", "action": "count", "puzzles": [EMPTY9]})
        assert refused.status_code == 429
        assert refused.json()["limit"] == "max_jobs"
    finally:
        for job_id in ids:
            client.post(f"/v1/jobs/{job_id}/cancel", json={})
    assert {client.get(f"/v1/jobs/{i}").json()["status"] for i in ids} == {"cancelled"}


def test_a_bad_job_request_is_refused_before_it_is_queued(client):
    answer = client.post("/v1/jobs", json={"kind": "sudoku", "action": "count_grids", "size": "6"})
    assert answer.status_code == 422 and "binairo" in answer.json()["error"]
    answer = client.post("/v1/jobs", json={"kind": "chess", "action": "solve", "puzzles": ["x"]})
    assert answer.status_code == 404


# -- restarts: nothing is lost -------------------------------------------------------------------------------------------
def wait_until_gone(command_part: str, timeout: float = 10) -> bool:
    """Whether no process whose command line contains ``command_part`` is left (Linux /proc)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = False
        for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    text = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            alive = alive or command_part in text
        if not alive:
            return True
        time.sleep(0.1)
    return False


def test_a_server_killed_mid_job_marks_it_interrupted_and_keeps_finished_jobs(tmp_path):
    db = tmp_path / "jobs.sqlite3"
    server = Server(db, "--job-workers", "2").start()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            finished = client.post(
                "/v1/jobs", json={"kind": "sudoku", "action": "solve", "puzzles": [HARD]}
            ).json()
            done = wait_for(client, finished["id"], ("done",))
            long = client.post(
                "/v1/jobs", json={"kind": "sudoku", "action": "count", "puzzles": [HARD, EMPTY9]}
            ).json()
            deadline = time.monotonic() + 60
            while not client.get(f"/v1/jobs/{long['id']}").json()["results"]:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        server.kill()
        assert wait_until_gone(f"mindgames.service.jobs {db}"), "the job's process outlived the server"
        server.start()
        with httpx.Client(base_url=server.url, timeout=60) as client:
            again = client.get(f"/v1/jobs/{finished['id']}").json()
            interrupted = client.get(f"/v1/jobs/{long['id']}").json()
        assert again == done
        assert interrupted["status"] == "interrupted"
        assert "server stopped" in interrupted["message"]
        assert [r["count"] for r in interrupted["results"]] == [1]  # the first count was kept
    finally:
        server.stop()


def test_with_resume_jobs_a_killed_job_continues_after_its_last_result(tmp_path):
    db = tmp_path / "jobs.sqlite3"
    server = Server(db, "--resume-jobs").start()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            job = client.post(
                "/v1/jobs",
                json={
                    "kind": "sudoku",
                    "action": "count",
                    "time_limit": 1,
                    "puzzles": [EMPTY9, EMPTY9, HARD],
                },
            ).json()
            deadline = time.monotonic() + 60
            while not (first := client.get(f"/v1/jobs/{job['id']}").json()["results"]):
                assert time.monotonic() < deadline
                time.sleep(0.05)
        server.kill()
        server.start()
        with httpx.Client(base_url=server.url, timeout=60) as client:
            resumed = wait_for(client, job["id"], ("done",))
        assert len(resumed["results"]) == 3
        assert resumed["results"][0] == first[0]  # kept as it was, not counted again
        assert resumed["results"][2]["count"] == 1
        assert resumed["message"] == "resumed after a server restart"
    finally:
        server.stop()


# -- binding and tokens -------------------------------------------------------------------------------------------------------
def test_binding_beyond_loopback_without_a_token_is_refused_with_the_reason():
    run = subprocess.run(
        [sys.executable, "-m", "mindgames.cli", "serve", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "refusing to listen on 0.0.0.0" in run.stderr
    assert "--token-file" in run.stderr


def test_with_a_token_the_api_needs_the_bearer_header(tmp_path):
    token = "s3cret-token-for-the-tests"
    (tmp_path / "token").write_text(token + "\n")
    with Server(tmp_path / "jobs.sqlite3", "--token-file", str(tmp_path / "token")) as server:
        anonymous = httpx.post(server.url + "/v1/sudoku/solve", json={"puzzle": HARD})
        wrong = httpx.post(
            server.url + "/v1/sudoku/solve", json={"puzzle": HARD}, headers={"Authorization": "Bearer nope"}
        )
        right = httpx.post(
            server.url + "/v1/sudoku/solve",
            json={"puzzle": HARD},
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )
        health = httpx.get(server.url + "/healthz")
    assert anonymous.status_code == wrong.status_code == 401
    assert "Bearer" in anonymous.json()["error"]
    assert right.status_code == 200 and right.json()["status"] == "solved"
    assert health.status_code == 200
