"""Connections that send nothing, or too slowly, are let go (issue 24, item 3).

The server is started with short deadlines so that the test waits seconds, not minutes."""

from __future__ import annotations

import socket
import time

import httpx
import pytest

from mindgames.service.testing import Server

HEADER_S, BODY_S, IDLE_S = 1.0, 1.5, 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("timeouts") / "jobs.sqlite3"
    with Server(
        db, "--header-timeout", str(HEADER_S), "--body-timeout", str(BODY_S), "--idle-timeout", str(IDLE_S)
    ) as running:
        yield running


def host(server: Server) -> bytes:
    return b"Host: 127.0.0.1:%d\r\n" % server.port


def connect(server: Server) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return conn


def read_until_closed(conn: socket.socket, within: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and when it closed."""
    started, received = time.monotonic(), b""
    conn.settimeout(within)
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return received, time.monotonic() - started
        received += chunk


def test_a_connection_that_sends_nothing_is_closed_after_the_header_deadline(server):
    with connect(server) as conn:
        received, after = read_until_closed(conn, within=10)
    assert received.startswith(b"HTTP/1.1 408")
    assert HEADER_S * 0.5 <= after < HEADER_S + 5


def test_headers_that_never_end_are_cut_off(server):
    with connect(server) as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\n" + host(server))  # no blank line: more to come
        received, _ = read_until_closed(conn, within=10)
    assert received.startswith(b"HTTP/1.1 408")


def test_a_body_that_stops_half_way_is_cut_off(server):
    with connect(server) as conn:
        conn.sendall(
            b"POST /v1/sudoku/solve HTTP/1.1\r\n" + host(server) + b"content-type: application/json\r\n"
            b"content-length: 200\r\n\r\n" + b'{"puzzle": "'
        )
        received, after = read_until_closed(conn, within=10)
    assert received.startswith(b"HTTP/1.1 408")
    assert after < BODY_S + 5


def test_an_idle_kept_alive_connection_is_closed_and_requests_on_time_are_answered(server):
    with connect(server) as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\n" + host(server) + b"\r\n")
        received, after = read_until_closed(conn, within=10)
    assert received.startswith(b"HTTP/1.1 200") and b'"status"' in received
    assert after < IDLE_S + 5  # answered, then closed when left idle


def test_a_slow_but_steady_client_gets_its_answer(server):
    puzzle = (
        b'{"puzzle": "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."}'
    )
    with connect(server) as conn:
        conn.sendall(
            b"POST /v1/sudoku/solve HTTP/1.1\r\n" + host(server) + b"content-type: application/json\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n" % len(puzzle)
        )
        for start in range(0, len(puzzle), 30):  # in three parts, each well within the deadline
            conn.sendall(puzzle[start : start + 30])
            time.sleep(BODY_S / 5)
        received, _ = read_until_closed(conn, within=30)
    assert received.startswith(b"HTTP/1.1 200") and b'"solved"' in received


def test_many_idle_connections_are_all_released(server):
    conns = [connect(server) for _ in range(200)]
    try:
        time.sleep(HEADER_S + 1.5)
        closed = 0
        for conn in conns:
            conn.settimeout(5)
            try:
                closed += conn.recv(65536).startswith(b"HTTP/1.1 408")
            except OSError:
                pass
        assert closed == len(conns)
    finally:
        for conn in conns:
            conn.close()
    assert httpx.get(server.url + "/healthz", timeout=10).status_code == 200
