"""What a puzzle kind is: one object per kind, all of them in :mod:`mindgames.models.registry`.

A kind says everything the library, the command line, the service and the web
page need to know about one family of puzzles, and nothing about how they are
shown or served: the command line and the service are generated from the
registry, so a capability added here (a new action, an option, a format)
reaches every interface at once, and adding a kind touches ``models/`` only.

Two families:

:class:`GridKind`
    a grid with givens, answered by :class:`mindgames.models.runner.PuzzleSolver` on any
    engine (solve, check, count, generate): Sudoku, binairo.  It compiles the
    rules of a *shape* once into a :class:`mindgames.solver.Model`; a puzzle's givens are
    literals assumed per question; an engine's assignment is decoded into a
    solution that :meth:`GridKind.verify` checks by the rules alone.
:class:`PlanKind`
    a search for the shortest sequence of moves (crossing puzzles): an initial
    state, actions, a goal, and a time-expanded model per horizon.

Reading follows one convention everywhere: :meth:`GridKind.read` returns
:class:`Parsed` items in input order, each a puzzle or the error that names
what is wrong with it (line, cell, value), so one bad puzzle in a collection
is a result (``invalid``) and the others are still answered.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from mindgames.solver import Assignment, Model
from mindgames.solver.deadline import Deadline

from .errors import NotSupported, PuzzleError

P = TypeVar("P")  # a kind's puzzle type
Cell = tuple[int, int]  # (row, column), 0-based


@dataclass(frozen=True)
class Option:
    """A setting of a kind (binairo's rule set, Sudoku's box shape, ...), declared once.

    The command line turns it into ``--name`` (``choices``, ``default``,
    ``help``), the service into a request field, ``GET /v1/kinds`` lists it.
    ``flag``: a switch that is on or not stated (``--diagonals``), no value;
    ``parse``: turns the text given into the value (``box=3x2`` -> ``(3, 2)``),
    raising PuzzleError naming what is wrong; None keeps the text.  ``required``: there is no
    default, the option must be given (binairo's size, to generate)."""

    name: str
    help: str
    choices: tuple[str, ...] | None = None
    default: Any = None
    flag: bool = False
    parse: Callable[[str], Any] | None = None
    required: bool = False

    def value(self, text: str) -> Any:
        """The option's value from the text a user gave."""
        return text if self.parse is None else self.parse(text)


@dataclass(frozen=True)
class Parsed(Generic[P]):
    """One item of an input: the puzzle, or the error saying what is wrong with it."""

    puzzle: P | None = None
    error: PuzzleError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @classmethod
    def attempt(cls, parse: Any, *args: Any, **kwargs: Any) -> Parsed[P]:
        """``parse(*args, **kwargs)`` as a puzzle, or its PuzzleError as the error."""
        try:
            return cls(puzzle=parse(*args, **kwargs))
        except PuzzleError as error:
            return cls(error=error)


class Encoding(Protocol):
    """What :meth:`GridKind.compile` returns: the model, and whatever decoding needs."""

    model: Model


class PuzzleKind(ABC):
    """What every kind declares about itself."""

    #: the kind's name on the command line and in URLs (``mindgames sudoku``, ``/v1/sudoku``)
    name: ClassVar[str]
    #: one line for ``mindgames --help`` and ``GET /v1/kinds``
    summary: ClassVar[str]
    #: what the kind can be asked (``solve``, ``check``, ...)
    actions: ClassVar[tuple[str, ...]]
    #: the input formats, in words, for help texts and ``GET /v1/kinds``
    formats: ClassVar[tuple[str, ...]] = ()
    #: settings of the kind that apply to reading and answering (e.g. binairo's rules)
    options: ClassVar[tuple[Option, ...]] = ()

    def __repr__(self) -> str:
        return f"<{self.name} kind>"

    def describe_kind(self) -> dict[str, Any]:
        """The kind as ``GET /v1/kinds`` shows it."""
        return {
            "kind": self.name,
            "summary": self.summary,
            "actions": list(self.actions),
            "formats": list(self.formats),
            "options": {o.name: o.help for o in self.options},
        }


class GridKind(PuzzleKind, Generic[P]):
    """A grid puzzle with givens, answered on any engine by :class:`mindgames.models.runner.PuzzleSolver`."""

    actions = ("solve", "check", "count", "generate")

    # -- reading and writing ------------------------------------------------------------
    @abstractmethod
    def read(self, text: str, **options: Any) -> list[Parsed[P]]:
        """Every puzzle of ``text`` (a collection in any format the kind reads), in order.

        ``options`` are the kind's :attr:`options` given by the user; a header
        written by :meth:`write` sets them for the puzzles after it, and an
        option that contradicts a header is an error.  Raises PuzzleError only
        when the text as a whole is unusable (a header for another kind, say)."""

    def units(self, lines: Iterable[str], **options: Any) -> Iterator[Any]:
        """The puzzles of an input as its ``lines`` come (line ends kept), one unit each,
        cut apart but not parsed: what ``--jobs`` sends its workers, each unit read by
        :meth:`parse_unit`.  Raises PuzzleError as :meth:`read` does, when reached.

        This default reads the whole text and its units are the parsed items; a kind
        whose formats can be cut line by line overrides both to stream (Sudoku)."""
        yield from self.read("".join(lines), **options)

    def parse_unit(self, unit: Any) -> Parsed[P]:
        """The puzzle of one unit of :meth:`units`, or the error naming what is wrong."""
        return unit

    @abstractmethod
    def parse_value(self, value: Any, **options: Any) -> P:
        """One puzzle from one JSON value (a string in any text format, or a JSON form),
        as the service receives it; raises PuzzleError naming what is wrong."""

    @abstractmethod
    def write(self, puzzle: P) -> str:
        """The puzzle as text that :meth:`read` reads back to the same puzzle
        (variant and rules included, by a ``# mindgames KIND key=value`` header)."""

    @abstractmethod
    def to_json(self, puzzle: P) -> dict[str, Any]:
        """The puzzle as a JSON object that :meth:`parse_value` reads back."""

    # -- the rules, for the runner ------------------------------------------------------
    @abstractmethod
    def shape(self, puzzle: P) -> Hashable:
        """A key shared by puzzles with the same rules: they share one compiled model."""

    @abstractmethod
    def compile(self, shape: Hashable) -> Encoding:
        """The rules of ``shape`` as a model (no givens: they come as assumptions)."""

    @abstractmethod
    def givens(self, encoding: Encoding, puzzle: P) -> list[int]:
        """The puzzle's givens as literals, assumed by the engine."""

    @abstractmethod
    def decode(self, encoding: Encoding, assignment: Assignment) -> Any:
        """An engine's assignment as the kind's solution (a grid)."""

    @abstractmethod
    def verify(self, puzzle: P, solution: Any) -> list[str]:
        """The rules checked on the solution alone, without the model: the problems found."""

    # -- words for people ---------------------------------------------------------------
    @abstractmethod
    def describe(self, puzzle: P) -> str:
        """A short title: ``9x9, 3x3 boxes``, ``8x8 takuzu``."""

    @abstractmethod
    def draw(self, puzzle: P, solution: Any = None, color: bool = False) -> list[str]:
        """The puzzle (filled in with ``solution`` if given) as lines of text; with
        ``color``, givens bold and filled-in cells red (ANSI), for a terminal."""

    def explain_unsolvable(self, puzzle: P) -> str | None:
        """Where the givens clash, in words, when that is plain to see; else None."""
        return None

    def clashing_cells(self, puzzle: P) -> list[tuple[int, int]]:
        """Given cells (row, column; 0-based) that already break a rule, for highlighting."""
        return []

    def result_fields(self, puzzle: P) -> dict[str, Any]:
        """Fields every JSON result for this puzzle carries besides the common ones."""
        return {}

    # -- what generation needs (the one generate/minimize loop, models.generate) -----------
    #: the settings that choose what to generate (Sudoku: box, diagonals; binairo: size, rules)
    generate_options: ClassVar[tuple[Option, ...]] = ()

    @abstractmethod
    def empty(self, **options: Any) -> P:
        """A puzzle without givens, of the variant ``generate_options`` describe."""

    @abstractmethod
    def given_cells(self, puzzle: P) -> dict[Cell, Any]:
        """The givens: cell -> value."""

    @abstractmethod
    def with_givens(self, puzzle: P, givens: dict[Cell, Any]) -> P:
        """The same puzzle (variant, rules) with exactly these givens."""

    # -- counting every grid of a variant (no givens), far beyond what enumerating reaches ------
    #: whether :meth:`count_all` answers (the service then offers the job ``count_grids``)
    counts_all_grids: ClassVar[bool] = False
    #: the settings that choose what :meth:`count_all` counts (binairo: size, rules)
    count_all_options: ClassVar[tuple[Option, ...]] = ()
    #: the ways :meth:`count_all` can count, the first the default
    count_all_methods: ClassVar[tuple[str, ...]] = ()

    def count_all(
        self,
        options: dict[str, Any],
        method: str | None = None,
        *,
        jobs: int | None = None,
        checkpoint: str | None = None,
        on_progress: Callable[[int, int], None] | None = None,
        deadline: Deadline | None = None,
        cross_check: int = 0,
        **backend: Any,
    ) -> GridCount:
        """Every complete grid of the variant ``options`` describe (values as
        :attr:`count_all_options` parse them, or their text), counted exactly.

        ``jobs`` worker processes; finished parts kept in ``checkpoint`` (the same call
        resumes from it); ``on_progress(done, total)`` as parts finish; ``deadline`` ends
        the count, incomplete; ``cross_check``: when complete, recount that many random
        parts by a second method (CrossCheckFailed when one differs); ``backend``: the
        kind's own settings.  PuzzleError names a bad option; NotSupported (this default)
        when the kind cannot count every grid (:attr:`counts_all_grids` is False)."""
        raise NotSupported(f"{self.name}: counting every grid is not supported by this kind")


class GridCount(Protocol):
    """What :meth:`GridKind.count_all` returns."""

    count: int | None
    complete: bool

    def to_json(self) -> dict[str, Any]:
        """The count as ``count --size --json`` writes it."""
        ...


class PlanKind(PuzzleKind):
    """A shortest-plan puzzle: answered by a search and a time-expanded model, not by the runner."""

    actions = ("solve",)


__all__ = ["Cell", "Encoding", "GridCount", "GridKind", "Option", "Parsed", "PlanKind", "PuzzleKind"]
