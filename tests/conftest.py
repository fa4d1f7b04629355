"""Shared test fixtures: where the public data sets are (they may be absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


def shared_file(*parts: str) -> Path:
    """A file of ../shared/data, or skip the test when it is absent (a user's fresh clone)."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared data sets are not beside this clone)")
    return path
