"""Argument types shared by every command: each says what is wrong with a bad value;
and what a kind's options come to when a puzzle could not be read."""

from __future__ import annotations

import argparse
from typing import Any

from mindgames.models.kind import GridKind


def positive_float(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number of seconds")
    return value


def nonnegative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    return value


def positive_int(text: str) -> int:
    value = nonnegative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def unread_fields(kind: GridKind, stated: dict[str, Any]) -> dict[str, Any]:
    """What the result of a puzzle that could not be read still says (CLI and service alike):
    the setting it was to be read with, for each option that always has a value (one of its
    ``choices``: as ``stated``, else the default, else the first choice), e.g. binairo's rules."""
    return {
        o.name: stated.get(o.name) or (o.default if o.default is not None else o.choices[0])
        for o in kind.options
        if o.choices
    }
