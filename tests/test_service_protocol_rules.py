"""HTTP's own rules, kept (issue 24, item 6): Allow on 405, one Host per request,
Retry-After on every 429, and max_waiting counting only requests that wait."""

from __future__ import annotations

import socket

import httpx
import pytest

from mindgames.service.testing import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("rules") / "jobs.sqlite3"
    with Server(db, "--max-jobs", "1", "--job-workers", "1") as running:
        yield running


def test_a_wrong_method_gets_405_with_allow(server):
    reply = httpx.delete(server.url + "/v1/kinds", timeout=10)
    assert reply.status_code == 405
    assert "GET" in reply.headers["allow"]
    assert "error" in reply.json()


@pytest.mark.parametrize(
    "method, path, allow",
    [
        ("PUT", "/v1/kinds", "GET"),  # a body method the route does not take: not held to JSON first
        ("PATCH", "/v1/jobs/3f2a9c0d1e4b5a67", "DELETE, GET"),
        ("POST", "/v1/kinds", "GET"),  # no Content-Type either: the method is what is wrong
        ("OPTIONS", "/healthz", "GET, HEAD"),  # every method of the path, not the first route's
    ],
)
def test_a_method_the_path_does_not_take_is_a_405_naming_every_method_it_does(server, method, path, allow):
    reply = httpx.request(method, server.url + path, timeout=10)
    assert reply.status_code == 405
    assert reply.headers["allow"] == allow
    assert reply.json()["error"]


def test_a_post_the_route_takes_without_json_is_still_a_415(server):
    reply = httpx.post(server.url + "/v1/sudoku/solve", content=b"puzzle=1", timeout=10)
    assert reply.status_code == 415


def raw(server: Server, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(request)
        received = b""
        while chunk := conn.recv(65536):
            received += chunk
        return received


def test_two_host_headers_are_a_bad_request_whichever_comes_first(server):
    good = b"127.0.0.1:%d" % server.port
    for first, second in ((good, b"evil.example"), (b"evil.example", good)):
        answer = raw(
            server,
            b"GET /healthz HTTP/1.1\r\nHost: %s\r\nHost: %s\r\nConnection: close\r\n\r\n" % (first, second),
        )
        assert answer.startswith(b"HTTP/1.1 400"), answer[:80]


def test_max_jobs_reached_says_when_to_try_again(server):
    blank = "." * 81
    job = {"kind": "sudoku", "action": "count", "puzzles": [blank], "limit": 1_000_000}
    first = httpx.post(server.url + "/v1/jobs", json=job, timeout=10)
    assert first.status_code == 202
    try:
        second = httpx.post(server.url + "/v1/jobs", json=job, timeout=10)
        assert second.status_code == 429
        assert int(second.headers["retry-after"]) > 0
    finally:
        httpx.delete(server.url + f"/v1/jobs/{first.json()['id']}", timeout=10)
