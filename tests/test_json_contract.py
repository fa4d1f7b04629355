"""What every command prints as JSON on the bundled data stays what it was recorded to be.

The snapshots in tests/snapshots/ are the output contract (timings left out); a
change to them is a change users see, made on purpose with
``python -m tests.snapshots NAME`` and reviewed in the diff."""

from __future__ import annotations

import json

import pytest

from tests import snapshots


@pytest.mark.parametrize("name", list(snapshots.COMMANDS))
def test_json_output_matches_the_recorded_contract(name):
    recorded = snapshots.path(name)
    if not recorded.exists():
        pytest.fail(f"no snapshot for {name}: record it with python -m tests.snapshots {name}")
    expected = json.loads(recorded.read_text())
    assert snapshots.run(snapshots.COMMANDS[name]) == expected
