"""The service under misuse (issue 8, items 11-19), through a real ``mindgames serve``:
requests a careless or hostile client sends, and what the server must do about them."""

from __future__ import annotations

import glob
import os
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from mindgames.service.testing import Server

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EMPTY9 = "." * 81


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("misuse") / "jobs.sqlite3"
    with Server(
        db, "--max-seconds", "3", "--job-workers", "1", "--solver-workers", "2", "--max-body-bytes", "100000"
    ) as running:
        yield running


@pytest.fixture(scope="module")
def client(server):
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield http


def wait_for(client: httpx.Client, job_id: str, statuses: tuple[str, ...], timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job.get("status") in statuses:
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} never reached {statuses}: {job}")


# -- 11: no puzzle work in the API process --------------------------------------------------------
def test_a_huge_export_does_not_hold_up_the_server_and_is_a_422(server, client):
    answers: list[httpx.Response] = []
    export = threading.Thread(
        target=lambda: answers.append(
            client.post(
                "/v1/crossing/export", json={"puzzle": "jealous-husbands", "params": {"couples": 4000}}
            )
        )
    )
    export.start()
    try:
        time.sleep(0.3)  # the export is being built meanwhile
        health = httpx.get(server.url + "/healthz", timeout=5)  # generous: it used to wait 11 s
        assert health.status_code == 200
    finally:
        export.join(60)
    assert answers[0].status_code == 422
    assert answers[0].json()["error"]


def test_presets_list_each_parameter_range_and_a_value_beyond_it_is_a_422_naming_it(client):
    from mindgames.models.crossing import presets

    if not hasattr(presets, "BOUNDS"):
        pytest.skip("the crossing library does not declare parameter bounds yet")
    listed = client.get("/v1/crossing/presets").json()["presets"]
    low, high = listed["jealous-husbands"]["bounds"]["couples"]
    for action in ("export", "solve"):
        answer = client.post(
            f"/v1/crossing/{action}", json={"puzzle": "jealous-husbands", "params": {"couples": high + 1}}
        )
        assert answer.status_code == 422
        assert "couples" in answer.json()["error"] and str(high) in answer.json()["error"]
    job = client.post(
        "/v1/jobs",
        json={
            "kind": "crossing",
            "action": "solve",
            "puzzles": ["wolf-goat-cabbage", {"preset": "jealous-husbands", "params": {"couples": high + 1}}],
        },
    )
    assert job.status_code == 422 and "couples" in job.json()["error"]  # refused before it is queued


def test_an_export_error_from_the_library_is_a_422_with_its_message(client):
    answer = client.post("/v1/crossing/export", json={"puzzle": "jealous-husbands", "params": {"nosuch": 1}})
    assert answer.status_code == 422
    assert "nosuch" in answer.json()["error"]
    good = client.post("/v1/crossing/export", json={"puzzle": "wolf-goat-cabbage"})
    assert good.status_code == 200 and good.json()["boat"] == {"capacity": 2}


# -- 12: job processes have a memory cap ---------------------------------------------------------------
def test_a_job_that_reaches_its_memory_cap_fails_saying_so(tmp_path):
    with (
        Server(tmp_path / "jobs.sqlite3", "--job-memory-mb", "80") as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
    ):
        created = client.post(
            "/v1/jobs",
            json={"kind": "sudoku", "action": "solve", "time_limit": 30, "puzzles": ["." * 35 * 35]},
        ).json()
        job = wait_for(client, created["id"], ("failed", "done"), timeout=120)
        assert client.get("/v1/kinds").json()["limits"]["job_memory_mb"] == 80
    assert job["status"] == "failed"
    assert "memory cap (80 MB" in job["error"]


# -- 13: cross-site use of a loopback server -------------------------------------------------------------
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_post_that_is_not_json_is_a_415_and_does_nothing(client, content_type):
    before = len(client.get("/v1/jobs").json()["jobs"])
    headers = {"content-type": content_type} if content_type else {}
    body = b'{"kind": "sudoku", "action": "solve", "puzzles": ["' + HARD.encode() + b'"]}'
    answer = client.post("/v1/jobs", content=body, headers=headers)
    assert answer.status_code == 415
    assert "application/json" in answer.json()["error"]
    assert len(client.get("/v1/jobs").json()["jobs"]) == before


def raw_get(port: int, host_header: str, path: str = "/healthz") -> int:
    """The status of a GET sent with exactly this Host header."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n".encode())
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    return int(reply.split(b" ", 2)[1])


def test_only_requests_naming_this_server_in_their_host_are_answered(server):
    port = server.port
    assert raw_get(port, "attacker.example") == 421
    assert raw_get(port, f"attacker.example:{port}", "/v1/kinds") == 421
    assert raw_get(port, f"127.0.0.1:{port}") == 200
    assert raw_get(port, f"localhost:{port}") == 200
    assert raw_get(port, "localhost:1") == 421  # another port: not this server


def test_allowed_host_and_cors_origin_are_opt_in(tmp_path, server):
    plain = httpx.get(server.url + "/v1/kinds", headers={"Origin": "http://evil.example"})
    assert "access-control-allow-origin" not in plain.headers
    with Server(
        tmp_path / "jobs.sqlite3", "--allowed-host", "puzzles.example", "--cors-origin", "http://ok.example"
    ) as opened:
        assert raw_get(opened.port, "puzzles.example") == 200
        assert raw_get(opened.port, "other.example") == 421
        preflight = httpx.options(
            opened.url + "/v1/sudoku/solve",
            headers={
                "Origin": "http://ok.example",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
            },
        )
        assert preflight.headers.get("access-control-allow-origin") == "http://ok.example"
        foreign = httpx.get(opened.url + "/v1/kinds", headers={"Origin": "http://evil.example"})
        assert "access-control-allow-origin" not in foreign.headers


# -- 14: waiting, queueing, hanging up ---------------------------------------------------------------------
def count(server: Server, seconds: float, timeout: float = 120) -> httpx.Response:
    return httpx.post(
        server.url + "/v1/sudoku/count", json={"puzzle": EMPTY9, "time_limit": seconds}, timeout=timeout
    )


def test_time_spent_waiting_for_a_solver_is_not_taken_from_the_time_limit(tmp_path):
    # One solver process: the second count waits the whole of the first, then still gets
    # its 3 s (it used to come back untried, and its worker was killed and respawned).
    with Server(tmp_path / "jobs.sqlite3", "--solver-workers", "1", "--max-seconds", "3") as server:
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda _: count(server, 3), range(2)))
        health = httpx.get(server.url + "/healthz").json()
    assert [a.status_code for a in answers] == [200, 200]
    assert all(a.json()["count"] > 0 and a.json()["complete"] is False for a in answers)
    assert health["solvers"]["respawns"] == 0  # no timeout needed a kill


def test_a_full_queue_is_a_503_with_retry_after_not_a_silent_unknown(tmp_path):
    with Server(tmp_path / "jobs.sqlite3", "--solver-workers", "1", "--max-queue-seconds", "1") as server:
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda _: count(server, 4), range(2)))
    assert sorted(a.status_code for a in answers) == [200, 503]
    refused = next(a for a in answers if a.status_code == 503)
    assert refused.json()["limit"] == "max_queue_seconds"
    assert int(refused.headers["retry-after"]) > 0


def test_a_429_for_too_many_waiting_says_when_to_retry(tmp_path):
    with Server(tmp_path / "jobs.sqlite3", "--solver-workers", "1", "--max-waiting", "1") as server:
        with ThreadPoolExecutor(2) as pool:  # one answered, one waiting, then one refused

            def solvers() -> dict:
                return httpx.get(server.url + "/healthz").json()["solvers"]

            first = pool.submit(count, server, 2)
            while solvers()["waiting"] < 1 and not first.done():
                time.sleep(0.01)
            second = pool.submit(count, server, 2)
            while solvers()["queued"] < 1 and not second.done():
                time.sleep(0.01)
            answers = [count(server, 2), first.result(), second.result()]
    refused = next(a for a in answers if a.status_code == 429)
    assert int(refused.headers["retry-after"]) > 0


def test_a_client_that_hangs_up_frees_its_seat_and_stops_its_work(tmp_path):
    # Room for one request: the abandoned count must not keep it (it used to: 429).
    with Server(
        tmp_path / "jobs.sqlite3", "--solver-workers", "1", "--max-waiting", "1", "--max-seconds", "10"
    ) as server:
        with pytest.raises(httpx.TimeoutException):
            count(server, 10, timeout=0.5)
        time.sleep(0.5)
        answer = httpx.post(server.url + "/v1/sudoku/solve", json={"puzzle": HARD}, timeout=60)
        health = httpx.get(server.url + "/healthz").json()
    assert answer.status_code == 200 and answer.json()["status"] == "solved"
    assert health["solvers"]["respawns"] == 1  # the abandoned count's process was stopped


def test_a_short_request_is_served_before_heavy_ones_that_came_just_before(tmp_path):
    with Server(tmp_path / "jobs.sqlite3", "--solver-workers", "1", "--max-seconds", "3") as server:
        finished: list[str] = []

        def heavy(_: int) -> None:
            count(server, 3)
            finished.append("heavy")

        def short() -> None:
            httpx.post(server.url + "/v1/sudoku/solve", json={"puzzle": HARD, "time_limit": 0.5}, timeout=120)
            finished.append("short")

        with ThreadPoolExecutor(4) as pool:
            pool.submit(heavy, 0)
            time.sleep(0.5)  # the first heavy count has the worker
            pool.submit(heavy, 1)
            pool.submit(heavy, 2)
            time.sleep(0.3)
            pool.submit(short)
    assert finished.index("short") <= 1  # right after the count that had the worker


# -- 15: workers never import from the server's working directory ----------------------------------------
def test_a_resource_py_in_the_working_directory_does_not_break_the_solvers(tmp_path):
    (tmp_path / "resource.py").write_text("raise SystemExit('the wrong resource module')\n")
    with Server(tmp_path / "jobs.sqlite3", cwd=tmp_path) as server:
        answer = httpx.post(server.url + "/v1/sudoku/solve", json={"puzzle": HARD}, timeout=60)
        job = httpx.post(
            server.url + "/v1/jobs", json={"kind": "sudoku", "action": "solve", "puzzles": [HARD]}
        ).json()
        with httpx.Client(base_url=server.url, timeout=60) as client:
            done = wait_for(client, job["id"], ("done", "failed"))
    assert answer.status_code == 200 and answer.json()["status"] == "solved"
    assert done["status"] == "done"


def test_solver_processes_that_cannot_start_are_a_503_and_show_in_healthz(tmp_path, monkeypatch):
    # A broken installation: a module the solver processes need (and the server does not)
    # fails to import, so every worker dies as it starts.
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "resource.py").write_text("raise SystemExit('a broken resource module')\n")
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(shadow), os.environ.get("PYTHONPATH")]))
    )
    server = Server(tmp_path / "jobs.sqlite3")
    server.start(healthy=False)  # its solver processes may be known broken before the first look
    try:
        deadline = time.monotonic() + 60
        while (health := httpx.get(server.url + "/healthz")).status_code == 200:
            assert time.monotonic() < deadline, health.json()
            time.sleep(0.2)
        answer = httpx.post(server.url + "/v1/sudoku/solve", json={"puzzle": HARD}, timeout=60)
        head = httpx.head(server.url + "/healthz")
    finally:
        server.stop()
    assert health.status_code == 503 and health.json()["status"] == "broken"
    assert "fail as they start" in health.json()["error"]
    assert answer.status_code == 503 and "retry-after" in answer.headers
    assert head.status_code == 503


# -- 16: limits and types checked when the request comes in ------------------------------------------------
def test_a_chunked_body_over_the_limit_is_a_413_naming_it(client):
    def chunks():
        for _ in range(200):
            yield b" " * 10_000  # 2 MB in all, with no Content-Length

    answer = client.post("/v1/sudoku/solve", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["limit"] == "max_body_bytes"
    assert "100000 bytes" in answer.json()["error"]


@pytest.mark.parametrize("size", ["abc", "0", "-4", "7", 0])
def test_a_count_grids_job_with_a_bad_size_is_refused_at_once(client, size):
    answer = client.post("/v1/jobs", json={"kind": "binairo", "action": "count_grids", "size": size})
    assert answer.status_code == 422
    assert answer.json()["error"].startswith("size")


def test_head_healthz_is_200(client):
    assert client.head("/healthz").status_code == 200


@pytest.mark.parametrize(
    "body, field",
    [
        ({"puzzle": "missionaries-cannibals", "params": {"pairs": "3"}}, "params.pairs"),
        ({"puzzle": "missionaries-cannibals", "params": {"pairs": 3.5}}, "params.pairs"),
        ({"puzzle": "missionaries-cannibals", "params": {"pairs": True}}, "params.pairs"),
        ({"puzzle": "missionaries-cannibals", "count_shortest": 1}, "count_shortest"),
        ({"puzzle": "missionaries-cannibals", "limit": "5"}, "limit"),
    ],
)
def test_numbers_and_flags_must_have_their_json_type(client, body, field):
    answer = client.post("/v1/crossing/solve", json=body)
    assert answer.status_code == 422
    assert answer.json()["error"].startswith(field)


def test_a_whole_number_written_with_a_point_is_that_number_as_the_schema_says(client):
    # The OpenAPI document says "integer", which JSON Schema reads as any number without a
    # fraction: 2.0 is one.
    answer = client.post("/v1/binairo/count", json={"puzzle": "." * 16, "limit": 2.0})
    assert answer.status_code == 200
    assert answer.json()["count"] == 2
    crossing = client.post(
        "/v1/crossing/solve", json={"puzzle": "missionaries-cannibals", "params": {"pairs": 3.0}}
    )
    assert crossing.status_code == 200


def test_every_error_the_document_lists_has_the_shape_the_server_answers(client):
    schema = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method == "post":
                assert "415" in operation["responses"], f"{method.upper()} {path}"
    answer = client.get("/v1/jobs", params={"limit": 0})
    assert answer.status_code == 422
    body = answer.json()
    assert body["error"] == "query.limit: Input should be greater than or equal to 1"
    assert body["detail"] == [
        {"loc": ["query", "limit"], "msg": "Input should be greater than or equal to 1"}
    ]
    assert set(body) <= set(schema["components"]["schemas"]["ErrorBody"]["properties"])


# -- 17: jobs do not pile up -----------------------------------------------------------------------------------
def test_finished_jobs_are_deleted_after_the_retention_period(tmp_path):
    with (
        Server(tmp_path / "jobs.sqlite3", "--retention-days", "0.00002") as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
    ):  # 1.7 s
        created = client.post(
            "/v1/jobs", json={"kind": "sudoku", "action": "solve", "puzzles": [HARD]}
        ).json()
        wait_for(client, created["id"], ("done",))
        deadline = time.monotonic() + 60
        while client.get(f"/v1/jobs/{created['id']}").status_code != 404:
            assert time.monotonic() < deadline, "the finished job was never deleted"
            time.sleep(0.2)


def test_a_cancelled_count_grids_job_leaves_no_checkpoint_file(tmp_path):
    db = tmp_path / "jobs.sqlite3"
    with Server(db) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        created = client.post(
            "/v1/jobs", json={"kind": "binairo", "action": "count_grids", "size": "14"}
        ).json()
        deadline = time.monotonic() + 90
        while not glob.glob(f"{db}.*.checkpoint.jsonl"):
            assert time.monotonic() < deadline, client.get(f"/v1/jobs/{created['id']}").json()
            time.sleep(0.1)
        assert client.post(f"/v1/jobs/{created['id']}/cancel", json={}).json()["status"] == "cancelled"
        assert glob.glob(f"{db}.*.checkpoint.jsonl") == []
        assert client.delete(f"/v1/jobs/{created['id']}").json()["status"] == "deleted"
        assert client.get(f"/v1/jobs/{created['id']}").status_code == 404


# -- 18: the docs work offline, and say what params is -------------------------------------------------------
def test_the_docs_page_and_its_assets_come_from_this_server(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert "https://" not in page.text and "http://" not in page.text
    assert client.get("/docs-assets/swagger-ui-bundle.js").status_code == 200
    assert client.get("/docs-assets/swagger-ui.css").status_code == 200


def test_every_operation_has_an_example_and_params_is_documented(client):
    schema = client.get("/openapi.json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            success = {k: v for k, v in operation["responses"].items() if k.startswith("2")}
            assert "example" in str(success), f"{method.upper()} {path} has no example answer"
            if "requestBody" in operation:
                ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                body = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
                assert body.get("examples"), f"{method.upper()} {path} has no example request"
    params = schema["components"]["schemas"]["SolveRequest"]["properties"]["params"]
    assert "/v1/crossing/presets" in params["description"]
