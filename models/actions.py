"""Every action mindgames can be asked, declared once: the list the interfaces are made from.

A kind says which of these it answers (``PuzzleKind.actions``, names from
:data:`ACTIONS`); the command line, the service, ``compare`` and the web page
read what an action is from here (its help text, whether its answer can carry
a proof, whether it answers each puzzle of a collection) instead of keeping
lists of their own.

>>> ACTIONS["check"].certifiable
True
>>> select(ACTIONS, comparable=True)
('solve', 'check', 'count')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Action:
    """One thing a puzzle can be asked.

    ``per_puzzle``: answers each puzzle of a collection in turn (a result per puzzle),
    as opposed to making puzzles (``generate``) or describing one (``export``);
    ``certifiable``: its answer can come with a proof our own checker verifies
    (``--certify``, ``"certify": true``); ``comparable``: ``mindgames compare`` can
    run it on several engines and set the answers side by side; ``job``: the
    service may run it as a background job (large collections, long counts);
    ``explains``: its answer is an explanation for people (:mod:`mindgames.models.explain`),
    not a solver's result; ``few_solutions``: it looks for two solutions at most (solve:
    one, check: two), so a small puzzle's answer is quick (the service answers such a
    request in its API process)."""

    name: str
    help: str
    per_puzzle: bool = True
    certifiable: bool = False
    comparable: bool = False
    job: bool = True
    explains: bool = False
    few_solutions: bool = False


SOLVE = Action("solve", "solve each puzzle", certifiable=True, comparable=True, few_solutions=True)
CHECK = Action(
    "check",
    "unique / multiple (two witnesses) / unsolvable",
    certifiable=True,
    comparable=True,
    few_solutions=True,
)
COUNT = Action("count", "count solutions (up to --limit)", comparable=True)
EXPLAIN = Action(
    "explain",
    "why: the clashing givens / the open cells and givens that fix it / the grade",
    job=False,
    explains=True,
)
HINT = Action("hint", "the next cell that can be deduced, and why", job=False, explains=True)
GENERATE = Action("generate", "puzzles with exactly one solution and no removable given", per_puzzle=False)
EXPORT = Action("export", "the puzzle written as a puzzle file", per_puzzle=False, job=False)
COMPARE = Action("compare", "each puzzle on several engines (or methods): time, work, agreement", job=False)

#: every action, by name, in the order interfaces list them
ACTIONS: dict[str, Action] = {
    action.name: action for action in (SOLVE, CHECK, COUNT, EXPLAIN, HINT, GENERATE, EXPORT, COMPARE)
}


def get_action(name: str) -> Action:
    """The action called ``name``; ValueError naming the known ones otherwise."""
    try:
        return ACTIONS[name]
    except KeyError:
        raise ValueError(f"unknown action {name!r}; known: {', '.join(ACTIONS)}") from None


def select(names: Iterable[str], **wanted: bool) -> tuple[str, ...]:
    """The names among ``names`` (each an action's, in their order) whose action has every
    field of ``wanted`` as given: ``select(kind.actions, explains=True)``.

    >>> select(("solve", "count", "hint"), per_puzzle=True, explains=False)
    ('solve', 'count')
    """
    known = {field.name for field in fields(Action)}
    unknown = set(wanted) - known
    if unknown:
        raise TypeError(f"Action has no field {sorted(unknown)[0]!r}")
    return tuple(
        name
        for name in names
        if all(getattr(get_action(name), key) == value for key, value in wanted.items())
    )


__all__ = ["ACTIONS", "Action", "get_action", "select"]
