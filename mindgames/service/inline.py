"""Small requests answered in the API process, without the hop to a solver process.

A solver process costs a round trip per request (pickling the task and the answer, two
socket writes, waking two processes): more than solving a 9x9 Sudoku.  So a request that
cannot run long or use much memory is answered here, by the library, in the event loop:

* one grid puzzle (``"puzzle"``, not a batch), asked ``solve`` or ``check`` on the ``sat``
  engine, without ``certify`` (count, hint, explain, compare, crossings: a solver process);
* given as a short text (at most :data:`MAX_CHARS` characters) or a small list of rows
  (at most :data:`MAX_SIDE` rows of at most :data:`MAX_SIDE` cells, each a number, null or a
  character or two);
* of a shape whose rules are compiled here already: compiling costs 3-50 ms, so a shape is
  compiled here only once it was asked for twice, and at most :data:`MAX_SHAPES` shapes
  per kind ever are (a jigsaw layout per request never gets in);
* answered within :data:`BUDGET_SECONDS`: an answer still ``unknown`` then, or a check
  that did not decide uniqueness (the user's time limit being longer), is dropped, and the
  request goes to a solver process with its whole time limit, as any other.

Whatever else happens here (a library error, a MemoryError) also sends the request to a
solver process, which answers it the usual way; so the answer is the one a solver process
gives, and every limit of the service holds.  Nothing here runs while the solver pool is
broken: then a request is the pool's 503, as before.
"""

from __future__ import annotations

from collections.abc import Hashable

from mindgames.models.actions import ACTIONS, select
from mindgames.models.errors import PuzzleError

from . import kinds
from .replies import Done, Refused, Reply

MAX_CHARS = 200  # a 9x9 line is 81 characters, a 12x12 grid with its newlines 155
MAX_SIDE = 14
MAX_SHAPES = 8  # compiled shapes per kind kept in the API process (each well under 1 MB)
BUDGET_SECONDS = 0.05  # the longest a request may hold the event loop
#: the actions that look for two solutions at most: solve, check
QUICK_ACTIONS = select(ACTIONS, few_solutions=True)
_SEEN_CAP = 1024  # shapes remembered while waiting for their second request


def small(task: dict) -> bool:
    """Whether ``task`` is small enough for the API process (before its puzzle is read)."""
    if (
        task["action"] not in QUICK_ACTIONS
        or task.get("engine", "sat") != "sat"
        or task.get("certify")
        or not task.get("single")
        or len(task["puzzles"]) != 1
    ):
        return False
    value = task["puzzles"][0]
    if isinstance(value, str):
        return len(value) <= MAX_CHARS
    return (
        isinstance(value, list)
        and len(value) <= MAX_SIDE
        and all(
            isinstance(row, str)
            and len(row) <= MAX_SIDE
            or isinstance(row, list)
            and len(row) <= MAX_SIDE
            and all(map(_cell, row))
            for row in value
        )
    )


def _cell(value: object) -> bool:
    """A cell of a list of rows: a number, null, or a character or two (``"."``, ``"12"``)."""
    return value is None or isinstance(value, int) or isinstance(value, str) and len(value) <= 2


def undecided(task: dict, record: dict) -> bool:
    """Whether the answer is not the whole answer: ``unknown``, or a check that found a
    solution but ran out of time before deciding whether it is the only one."""
    return record.get("status") == "unknown" or (
        task["action"] == "check" and record.get("status") == "solved" and record.get("uniqueness") is None
    )


class InlineAnswerer:
    """Answers small tasks in this process (see the module's docstring), or says it will not."""

    def __init__(self) -> None:
        self._answerer: kinds.Answerer | None = None
        self._admitted: dict[str, set[Hashable]] = {}  # kind -> shapes compiled here
        self._seen: set[tuple[str, Hashable]] = set()

    def answer(self, task: dict) -> Reply | None:
        """The reply a solver process would give to ``task``, or None: ask one."""
        if not small(task):
            return None
        kind = kinds.grid_kind(task["kind"])
        if kind is None:
            return None
        try:
            puzzle = kinds.parse_one(task["kind"], task["puzzles"][0], task)
        except PuzzleError as error:
            return Refused(422, str(error))  # what a solver process says of one unreadable puzzle
        except Exception:  # noqa: BLE001 - anything unusual: a solver process answers it
            return None
        if not self._admit(kind.name, kind.shape(puzzle)):
            return None
        asked = task.get("time_limit")
        budget = BUDGET_SECONDS if asked is None else min(asked, BUDGET_SECONDS)
        if self._answerer is None:
            self._answerer = kinds.Answerer()
        try:
            record = self._answerer.answer(task, 0, puzzle, budget)
        except Exception:  # noqa: BLE001 - a library error or MemoryError: a capped process retries
            return None
        if undecided(task, record) and (asked is None or asked > BUDGET_SECONDS):
            return None  # not within the budget: a solver process gets the whole time limit
        return Done([(0, record)])

    def _admit(self, kind: str, shape: Hashable) -> bool:
        """Whether ``shape`` is (now) compiled here: the second time it is asked for, while
        there is room."""
        admitted = self._admitted.setdefault(kind, set())
        if shape in admitted:
            return True
        if len(admitted) >= MAX_SHAPES:
            return False
        if (kind, shape) not in self._seen:
            if len(self._seen) >= _SEEN_CAP:
                self._seen.clear()
            self._seen.add((kind, shape))
            return False
        admitted.add(shape)
        return True
