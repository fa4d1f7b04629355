"""Generated requests against the OpenAPI schema (schemathesis), with every check it has (as
`schemathesis run --checks all`): the server never answers a 500, answers only documented
statuses with bodies of the documented shape, accepts what the schema allows, refuses what it
does not, answers an undeclared method 405 with the right Allow; and never hangs (every call
has a time limit).  The settings the CLI reads (schemathesis.toml, beside pyproject.toml) are
read here too."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.service.testing import Server

schemathesis = pytest.importorskip("schemathesis")
from schemathesis.config import SchemathesisConfig  # noqa: E402

CONFIG = Path(__file__).resolve().parent.parent / "schemathesis.toml"
# Bounded, so that the whole file takes a minute or two on a loaded 2-core machine.
GENERATED = settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "jobs.sqlite3"
    # Small caps so that generated work stays short: 1 s per request, jobs stopped after 3 s.
    with Server(
        db,
        "--max-seconds",
        "1",
        "--max-job-seconds",
        "3",
        "--max-jobs",
        "4",
        "--job-workers",
        "1",
        "--max-puzzles",
        "20",
    ) as server:
        yield server


@pytest.fixture(scope="module")
def api_schema(fuzz_server):
    return schemathesis.openapi.from_url(
        fuzz_server.url + "/openapi.json", config=SchemathesisConfig.from_path(CONFIG)
    )


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@GENERATED
def test_every_generated_request_passes_every_check(case):
    case.call_and_validate(timeout=30)  # no `checks`: every check schemathesis has


def test_call_sequences_following_the_links_pass_every_check(api_schema):
    # POST /v1/jobs (and a generate of many puzzles) links its 202 to the job's GET and DELETE.
    machine = api_schema.as_state_machine()
    machine.run(
        settings=settings(
            max_examples=10, stateful_step_count=4, deadline=None, suppress_health_check=list(HealthCheck)
        )
    )


# Hand-made strategies for what the schema cannot describe: puzzles of every shape.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 40) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(
            st.sampled_from(
                [
                    "grid",
                    "box",
                    "regions",
                    "diagonals",
                    "rules",
                    "preset",
                    "params",
                    "name",
                    "boat",
                    "actors",
                    "capacity",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=30,
)


@given(
    kind=st.sampled_from(["sudoku", "binairo", "crossing"]),
    action=st.sampled_from(["solve", "check", "count"]),
    puzzle=json_values,
)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_puzzle_value_is_answered_or_refused_never_a_500(fuzz_server, kind, action, puzzle):
    answer = httpx.post(f"{fuzz_server.url}/v1/{kind}/{action}", json={"puzzle": puzzle}, timeout=30)
    assert answer.status_code in (200, 422)
    body = answer.json()
    if answer.status_code == 422:
        assert body["error"]
    else:
        assert body["status"] in ("solved", "unsolvable", "unknown")
