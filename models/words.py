"""Counted nouns in messages: ``1 given``, ``2 givens``, ``1,024 solutions``.

The library writes messages (the crossing's proofs, progress reports) as the command
line does, so the one rule for a counted noun lives here and :mod:`mindgames.render`
re-exports it."""

from __future__ import annotations


def plural(count: int, word: str, words: str | None = None) -> str:
    """``count`` with thousands separators and ``word``, or its plural ``words``
    (by default ``word + "s"``) unless ``count`` is 1.

    >>> plural(1, "given")
    '1 given'
    >>> plural(1024, "solution")
    '1,024 solutions'
    >>> plural(0, "process", "processes")
    '0 processes'
    """
    return f"{count:,} {word if count == 1 else (words or word + 's')}"


__all__ = ["plural"]
