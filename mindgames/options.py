"""Argument types shared by every command: each says what is wrong with a bad value; a
kind's options as arguments; and what they come to when a puzzle could not be read."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from mindgames.models.errors import PuzzleError
from mindgames.models.kind import GridKind, Option


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


def add_kind_options(parser: argparse.ArgumentParser, options: tuple[Option, ...]) -> None:
    """Each of the kind's options as ``--name``; left unset, the file (a header) decides."""
    for option in options:
        flag = f"--{option.name.replace('_', '-')}"
        if option.flag:
            parser.add_argument(flag, action="store_true", default=None, help=option.help)
        else:
            parser.add_argument(
                flag,
                type=argument_type(option),
                choices=option.choices,
                metavar=None if option.choices else option.name.upper(),
                required=option.required,
                help=option.help,
            )


def argument_type(option: Option) -> Callable[[str], Any]:
    """``option.value`` with its PuzzleError as argparse's own kind of error (exit 2, usage)."""

    def value(text: str) -> Any:
        try:
            return option.value(text)
        except PuzzleError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    value.__name__ = option.name  # argparse names the type in "invalid NAME value"
    return value
