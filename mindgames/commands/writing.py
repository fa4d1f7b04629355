"""``--format NAME`` and ``--link SITE``: an answer written for another program or site.

The names are the kind's (:attr:`GridKind.writers`, :attr:`GridKind.links`), so a new
format or site is one line in the kind's writers module.  What is written is the answer's
grid: the solution for ``solve`` (the puzzle when there is none), the puzzle for ``check``,
``count``, ``explain`` (its ``--fix``-ed puzzle with ``--fix``) and ``generate``.  With
``--link``, ``solve`` writes two links: the puzzle's, then the filled grid's.

Text output: a single puzzle's text alone (ready to paste); for several, each after a
comment ``# puzzle N: STATUS``, so the output reads back as a collection.  A puzzle the
format cannot carry is that comment with the reason (alone, an error: exit 2).  With
``--json`` the record gains ``written`` (the text) and ``links``.
"""

from __future__ import annotations

import argparse
from typing import Any

from mindgames.models.errors import PuzzleError
from mindgames.models.formats import share_links, solved_puzzle
from mindgames.models.kind import GridKind


def add_options(sub: argparse.ArgumentParser, kind: GridKind) -> None:
    """``--format`` and ``--link`` with the kind's names as choices (an unknown one: exit 2 naming them)."""
    if kind.writers:
        sub.add_argument(
            "--format",
            choices=list(kind.writers),
            help="write each answer's grid in this format (solve: the solution) instead of drawing it",
        )
    if kind.links:
        sub.add_argument(
            "--link",
            choices=list(kind.links),
            help="write the link that opens the puzzle on this site (solve: and the solved grid)",
        )


def asked(args: argparse.Namespace) -> bool:
    """Was ``--format`` or ``--link`` given?"""
    return bool(vars(args).get("format") or vars(args).get("link"))


def written(kind: GridKind, args: argparse.Namespace, puzzle: Any, solution: Any = None) -> list[str]:
    """The texts ``--format`` and ``--link`` ask for; PuzzleError when the format or the site
    cannot carry the puzzle."""
    shown = solved_puzzle(kind, puzzle, solution) if solution is not None else puzzle
    texts = []
    if vars(args).get("format"):
        texts.append(kind.writers[args.format](shown))
    if vars(args).get("link"):
        link = kind.links[args.link]
        texts.append(link(puzzle))
        if solution is not None:
            texts.append(link(shown))
    return texts


def print_written(
    kind: GridKind, args: argparse.Namespace, puzzle: Any, solution: Any, status: str, head: str
) -> None:
    """One answer as ``--format`` / ``--link`` ask: after ``# HEAD STATUS`` when numbered
    (``head`` not empty) or when there is nothing to write."""
    texts: list[str] = []
    problem = ""
    if puzzle is not None:
        try:
            texts = written(kind, args, puzzle, solution)
        except PuzzleError as error:
            if not head:
                raise
            problem = f" ({error})"
    if head or not texts:
        print(f"# {head}{status}{problem}")
    for text in texts:
        print(text)
    if head and any("\n" in text for text in texts):
        print()  # a blank line between puzzles drawn over several lines


def json_fields(
    kind: GridKind, args: argparse.Namespace, puzzle: Any, solution: Any = None
) -> dict[str, Any]:
    """What ``--json`` records gain: ``written`` (the ``--format`` text) and ``links`` (the
    ``--link`` site's entry, as the service's ``links`` have it)."""
    fields: dict[str, Any] = {}
    if puzzle is None:
        return fields
    if vars(args).get("format"):
        shown = solved_puzzle(kind, puzzle, solution) if solution is not None else puzzle
        try:
            fields["written"] = kind.writers[args.format](shown)
        except PuzzleError as error:
            fields["written_error"] = str(error)
    if vars(args).get("link"):
        fields["links"] = {args.link: share_links(kind, puzzle, solution)[args.link]}
    return fields
