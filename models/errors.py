"""Errors a user can cause, and the one error only a bug can cause."""

from __future__ import annotations


class PuzzleError(ValueError):
    """Input that is not a puzzle: the message names the line, cell or key and the value."""


class NotSupported(PuzzleError):
    """Something this kind does not offer (counting every grid, say): the message names the kind."""


class CrossCheckFailed(AssertionError):
    """A count recounted in part by a second method came out different: a bug, so the count
    is not to be trusted.  The message names the parts that differ."""


class TimeLimitReached(Exception):
    """A whole-run time limit passed before the work was done (a result, not an error)."""


class VerificationError(AssertionError):
    """An engine returned a solution that breaks the puzzle's rules: always a bug."""


def shorten(text: object, limit: int = 24) -> str:
    """A value fit to quote in a one-line message, however long the input was."""
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"
