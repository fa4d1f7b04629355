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
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from typing_extensions import TypeVar as TypeVarWithDefault  # PEP 696 before Python 3.13

from mindgames.solver import Assignment, Model
from mindgames.solver.deadline import Deadline

from .errors import NotSupported, PuzzleError, shorten

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

    def require(self) -> P:
        """The puzzle; its error raised if it has none."""
        if self.error is not None:
            raise self.error
        assert self.puzzle is not None, "a Parsed item holds a puzzle or an error"
        return self.puzzle

    @classmethod
    def attempt(cls, parse: Any, *args: Any, **kwargs: Any) -> Parsed[P]:
        """``parse(*args, **kwargs)`` as a puzzle, or its PuzzleError as the error."""
        try:
            return cls(puzzle=parse(*args, **kwargs))
        except PuzzleError as error:
            return cls(error=error)


class Encoding:
    """What :meth:`GridKind.compile` returns: the model, and whatever decoding needs (a
    kind's encoding subclasses this one, a dataclass say, adding its choices of cells)."""

    #: the rules as an engine-neutral model (no givens: they come as assumptions)
    model: Model
    #: literals every question about the shape assumes besides the givens: where one model
    #: serves several shapes (every jigsaw layout of a size), they say which shape it is
    fixed: tuple[int, ...] = ()


class PuzzleKind(ABC):
    """What every kind declares about itself."""

    #: the kind's name on the command line and in URLs (``mindgames sudoku``, ``/v1/sudoku``)
    name: ClassVar[str]
    #: one line for ``mindgames --help`` and ``GET /v1/kinds``
    summary: ClassVar[str]
    #: what the kind can be asked: names of :data:`mindgames.models.actions.ACTIONS`
    #: (``solve``, ``check``, ...), which say what each action is
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


#: a kind's encoding type (its own subclass of :class:`Encoding`); ``GridKind[P]`` alone means
#: any encoding, so a caller need not name it
E = TypeVarWithDefault("E", bound=Encoding, default=Any)


class GridKind(PuzzleKind, Generic[P, E]):
    """A grid puzzle with givens, answered on any engine by :class:`mindgames.models.runner.PuzzleSolver`.

    The abstract methods are what every kind states; the others are optional hooks, each
    with a default that serves a kind without more to say (``units``: the whole text read
    at once; ``compile_alone``, ``compile_puzzle``: the shape's model; ``explain_unsolvable``,
    ``clashing_cells``: no words, no cells; ``grade``, ``hint``: no ladder).  Callers call
    the hooks, never ask whether a kind has them."""

    actions = ("solve", "check", "count", "explain", "hint", "generate")

    # -- reading and writing ------------------------------------------------------------
    @abstractmethod
    def read(self, text: str, *args: Any, **options: Any) -> list[Parsed[P]]:
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
    def parse_value(self, value: Any, *args: Any, **options: Any) -> P:
        """One puzzle from one JSON value (a string in any text format, or a JSON form),
        as the service receives it; raises PuzzleError naming what is wrong."""

    @abstractmethod
    def write(self, puzzle: P) -> str:
        """The puzzle as text that :meth:`read` reads back to the same puzzle
        (variant and rules included, by a ``# mindgames KIND key=value`` header)."""

    @abstractmethod
    def to_json(self, puzzle: P) -> dict[str, Any]:
        """The puzzle as a JSON object that :meth:`parse_value` reads back."""

    #: ``--format NAME``: the formats the kind writes a puzzle in, by name (each function's
    #: text reads back as the same puzzle; PuzzleError for a puzzle the format cannot carry)
    writers: ClassVar[Mapping[str, Callable[[Any], str]]] = {}
    #: ``--link SITE`` and the service's ``links``: the sites whose link opens a puzzle, by name
    links: ClassVar[Mapping[str, Callable[[Any], str]]] = {}

    # -- the rules, for the runner ------------------------------------------------------
    @abstractmethod
    def shape(self, puzzle: P) -> Hashable:
        """A key shared by puzzles with the same rules: they share one compiled model."""

    @abstractmethod
    def compile(self, shape: Any) -> E:
        """The rules of ``shape`` as a model (no givens: they come as assumptions)."""

    def compile_alone(self, shape: Any) -> E:
        """The rules of ``shape`` as a model of that shape alone, for an engine that keeps
        no warm solver per model: where :meth:`compile` gives a model shared by several
        shapes (told apart by :attr:`Encoding.fixed`), such an engine gains nothing from
        sharing and prunes better on the shape's own rules (a jigsaw's regions).
        By default the same as :meth:`compile`."""
        return self.compile(shape)

    def compile_puzzle(self, puzzle: P) -> E | None:
        """A model of this one puzzle (its givens built in: :meth:`givens` then gives none),
        for a puzzle that shares no model with the next one (a jigsaw's layout); the runner
        asks it of a fresh session, kept by no cache, unless the shape's model is prepared
        already or the answer is certified.  None (the default): the shape's model."""
        return None

    @abstractmethod
    def givens(self, encoding: E, puzzle: P) -> list[int]:
        """The puzzle's givens as literals, assumed by the engine."""

    @abstractmethod
    def decode(self, encoding: E, assignment: Assignment) -> Any:
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

    def rules_in_clash(self, puzzle: P, solvable: Callable[[P], bool]) -> list[str]:
        """The puzzle's own rules (a Sudoku's cages, thermos...: rules that vary from puzzle to
        puzzle) that its clash needs, minimal, by name; ``puzzle`` has the clashing givens
        only and ``solvable`` answers for it with fewer rules.  [] (the default): no rule of
        the kind varies, the givens clash under the kind's rules alone."""
        return []

    def result_fields(self, puzzle: P) -> dict[str, Any]:
        """Fields every JSON result for this puzzle carries besides the common ones."""
        return {}

    # -- a deduction ladder, for explain and hint (models.explain) -------------------------
    def grade(self, puzzle: P, deadline: Deadline = Deadline(None)) -> tuple[int, str, list[str]] | None:
        """How hard a puzzle with one solution is, by the kind's ladder of techniques:
        (grade, its name, the techniques used).  None (the default): the kind has no ladder,
        and ``explain`` says only that the solution is unique."""
        return None

    def rating(self, puzzle: P, deadline: Deadline = Deadline(None)) -> dict[str, Any] | None:
        """A puzzle's rating on a scale setters know, as JSON fields beside the grade (Sudoku:
        Sudoku Explainer's ``rating``, ``rating_ep``, ``rating_ed``; binairo: Unruly's
        ``unruly_level`` and the ``unruly_technique`` deciding it).  None (the default): none."""
        return None

    def hint(self, puzzle: P, deadline: Deadline = Deadline(None)) -> dict[str, Any] | None:
        """The next step the kind's ladder deduces, as JSON (``row``, ``col``, ``value`` or
        ``eliminate``, ``technique``, ``because``, ``text``).  None: no ladder (the default),
        or it is stuck; ``hint`` then gives a cell's value from the solution."""
        return None

    # -- what generation needs (the one generate/minimize loop, models.generate) -----------
    #: the settings that choose what to generate (Sudoku: box, diagonals; binairo: size, rules)
    generate_options: ClassVar[tuple[Option, ...]] = ()

    @abstractmethod
    def empty(self, *args: Any, **options: Any) -> P:
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
        cross_check: int | None = None,
        **backend: Any,
    ) -> GridCount:
        """Every complete grid of the variant ``options`` describe (values as
        :attr:`count_all_options` parse them, or their text), counted exactly.

        ``jobs`` worker processes; finished parts kept in ``checkpoint`` (the same call
        resumes from it); ``on_progress(done, total)`` as parts finish; ``deadline`` ends
        the count, incomplete; ``cross_check``: when complete, recount that many random
        parts by a second method (CrossCheckFailed when one differs; None: the kind's default
        for the size, the same for the command line and the service); ``backend``: the
        kind's own settings.  PuzzleError names a bad option; NotSupported (this default)
        when the kind cannot count every grid (:attr:`counts_all_grids` is False)."""
        raise NotSupported(f"{self.name}: counting every grid is not supported by this kind")

    def check_count_all(self, options: dict[str, Any], method: str | None = None) -> None:
        """Refuse now what :meth:`count_all` would refuse (a size beyond the counter, a bad
        option): PuzzleError naming it, so that the service answers 422 before queueing a
        job, as the command line refuses at once.  NotSupported (this default) when the
        kind cannot count every grid."""
        raise NotSupported(f"{self.name}: counting every grid is not supported by this kind")


class GridCount(Protocol):
    """What :meth:`GridKind.count_all` returns."""

    count: int | None
    complete: bool

    def to_json(self) -> dict[str, Any]:
        """The count as ``count --size --json`` writes it."""
        ...


class PlanKind(PuzzleKind, Generic[P]):
    """A shortest-plan puzzle: answered by its own search and a time-expanded model, not by the runner.

    A puzzle is a *document* (a JSON object: a TOML or JSON file's contents) or a built-in
    puzzle (a *preset*) with whole-number parameters within declared bounds.  The command line
    (:mod:`mindgames.commands.plan`: ``mindgames KIND list|solve|explain|export``) and the
    service (``POST /v1/KIND/solve|explain``, ``GET /v1/KIND/presets``, ``POST /v1/KIND/export``)
    are made from what is declared here: each of :attr:`options` is a ``--flag`` and a request
    field (a switch on by default is turned off by ``--no-NAME``, its help then "skip " + help),
    and the kind is answered by :meth:`solve` and :meth:`explain`."""

    actions = ("solve", "explain", "export", "compare")
    #: what a request may give as a puzzle, in words, for ``GET /v1/kinds`` (:attr:`formats`: files)
    request_formats: ClassVar[tuple[str, ...]] = ()
    #: ``GET /v1/kinds``'s words for the ``params`` of a request (a built-in puzzle's parameters)
    params_help: ClassVar[str] = ""
    #: what ``mindgames compare KIND`` sets side by side (engines, or other methods), and its help
    compare_methods: ClassVar[tuple[str, ...]] = ()
    compare_help: ClassVar[str] = ""

    # -- reading ---------------------------------------------------------------------------
    @abstractmethod
    def load_document(self, text: str, source: str = "puzzle") -> dict[str, Any]:
        """The document of a puzzle file's text (TOML, or JSON starting with ``{``), not yet
        checked as a puzzle; PuzzleError naming ``source`` when the text cannot be read."""

    @abstractmethod
    def parse_document(self, document: dict[str, Any]) -> P:
        """The puzzle a document states; PuzzleError naming the key and value that are wrong."""

    def read(self, text: str, source: str = "puzzle") -> P:
        """The puzzle of a file's text."""
        return self.parse_document(self.load_document(text, source))

    @abstractmethod
    def write(self, document: dict[str, Any]) -> str:
        """A document as a puzzle file (TOML) that :meth:`load_document` reads back."""

    def parse_value(self, value: Any, params: dict[str, Any] | None = None) -> P:
        """One puzzle from one JSON value, as the service receives it: a built-in name (with
        ``params``), ``{"preset": NAME, "params": {...}}``, a document, or a file's text;
        PuzzleError naming what is wrong."""
        names = self.preset_names()
        params = params or {}
        if isinstance(value, dict) and "preset" in value:
            unknown = sorted(set(value) - {"preset", "params"})
            if unknown:
                raise PuzzleError(
                    f'unknown key {shorten(unknown[0])!r} next to "preset" (known: preset, params)'
                )
            name, params = value["preset"], value.get("params") or {}
            if not isinstance(name, str):
                raise PuzzleError(f'"preset" must be a built-in puzzle name, not {shorten(repr(name))}')
            if not isinstance(params, dict):
                raise PuzzleError('"params" must be an object of parameter values')
            value = name
        if isinstance(value, str) and value.strip() in names:
            return self.preset(value.strip(), params)
        if params:
            raise PuzzleError(f'"params" apply to built-in puzzles only; built-in: {", ".join(names)}')
        if isinstance(value, str):
            if "=" not in value and "{" not in value and "\n" not in value.strip():
                raise PuzzleError(
                    f"{shorten(repr(value), 60)}: no built-in puzzle of that name (built-in: {', '.join(names)})"
                )
            return self.read(value, "puzzle")
        if isinstance(value, dict):
            return self.parse_document(value)
        raise PuzzleError(f"a {self.name} puzzle is a built-in name, a puzzle document (object) or its text")

    # -- built-in puzzles ------------------------------------------------------------------
    @abstractmethod
    def preset_names(self) -> tuple[str, ...]:
        """The built-in puzzles, in the order they are listed."""

    @abstractmethod
    def preset_parameters(self, name: str) -> dict[str, Any]:
        """A built-in puzzle's parameters and their defaults."""

    @abstractmethod
    def preset_bounds(self, name: str) -> dict[str, tuple[int, int]]:
        """Each parameter's allowed range (lowest, highest)."""

    @abstractmethod
    def check_parameter(self, name: str, key: str, value: Any) -> None:
        """PuzzleError naming the parameter, the value and its range when ``value`` is not a
        whole number within ``key``'s bounds: checked before any puzzle is built."""

    @abstractmethod
    def preset_document(self, name: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """The document of a built-in puzzle with ``params`` set (PuzzleError when out of bounds)."""

    @abstractmethod
    def preset_summary(self, name: str) -> str:
        """What a built-in puzzle is, in a sentence (its parameters not filled in)."""

    @abstractmethod
    def preset_description(self, name: str) -> str:
        """The built-in puzzle's description with its default parameters filled in."""

    def preset(self, name: str, params: dict[str, Any] | None = None) -> P:
        """A built-in puzzle with its parameters set (PuzzleError when out of bounds)."""
        return self.parse_document(self.preset_document(name, params))

    def describe_presets(self) -> dict[str, Any]:
        """Each built-in puzzle's parameters with their defaults and bounds, its summary and
        its title, as ``GET /v1/KIND/presets`` lists them."""
        return {
            name: {
                "parameters": self.preset_parameters(name),
                "bounds": {key: list(pair) for key, pair in self.preset_bounds(name).items()},
                "description": self.preset_summary(name),
                "name": self.preset_document(name).get("name", name),
            }
            for name in self.preset_names()
        }

    # -- answering -------------------------------------------------------------------------
    @abstractmethod
    def solve(
        self,
        puzzle: P,
        settings: dict[str, Any],
        time_limit: float | None = None,
        certify: bool = False,
        proof_dir: str | None = None,
        report: Callable[[str], None] | None = None,
        warm: Any = None,
    ) -> PlanAnswer:
        """The proven shortest plan, or a proof there is none (or, out of time, ``unknown``).

        ``settings``: a value for each of :attr:`options` (by name); ``certify``: prove the
        answer with a checked proof (its files kept in ``proof_dir``); ``report``: progress
        in words; ``warm``: what :meth:`warm_models` made, kept between puzzles."""

    @abstractmethod
    def explain(self, puzzle: P, time_limit: float | None = None) -> PlanExplanation:
        """Why there is no plan, or no shorter one."""

    @abstractmethod
    def compare_rows(
        self,
        puzzle: P,
        methods: Sequence[str],
        time_limit: float | None = None,
        on_step: Callable[[int, str], None] | None = None,
    ) -> Iterable[Any]:
        """The puzzle answered by each of ``methods`` (:attr:`compare_methods`), one
        :class:`mindgames.models.compare.Row` each, as they finish; ``on_step(0, method)``
        as each starts."""

    def warm_models(self) -> Any:
        """What a long-lived process keeps between solves so a puzzle asked again is answered
        without building its model again (passed to :meth:`solve` as ``warm``); None: nothing."""
        return None

    # -- words and pictures for people -------------------------------------------------------
    @abstractmethod
    def describe(self, puzzle: P) -> str:
        """The puzzle's title."""

    @abstractmethod
    def answer_lines(self, answer: Any) -> list[str]:
        """An answer of :meth:`solve` as lines of text (the plan, its proof, the checks)."""

    def picture(self, puzzle: P, answer: Any) -> str | None:
        """The plan as a picture (SVG), None when there is no plan."""
        return None

    def page_fields(self, puzzle: P, answer: Any) -> dict[str, Any]:
        """What the web page needs to play the plan back, added to the answer's JSON."""
        return {}

    def engines(self) -> tuple[str, ...]:
        """The engines it answers on: the choices of its option ``engine``."""
        return next((option.choices or () for option in self.options if option.name == "engine"), ())

    @staticmethod
    def request_help(option: Option) -> str:
        """An option's words as a request field states it (a switch on unless turned off says so)."""
        return option.help + (" (default true)" if option.flag and option.default is True else "")

    def describe_kind(self) -> dict[str, Any]:
        """The kind as ``GET /v1/kinds`` shows it: what it answers (``actions``; ``explain_actions``:
        ``POST /v1/KIND/explain``), its engines, request formats and fields, and built-in puzzles."""
        fields = {"params": self.params_help}
        fields.update((o.name, self.request_help(o)) for o in self.options if o.name != "engine")
        fields["time_limit"] = "seconds per puzzle"
        return {
            "kind": self.name,
            "summary": self.summary,
            "actions": [name for name in self.actions if name == "solve"],
            "explain_actions": [name for name in self.actions if name == "explain"],
            "engines": list(self.engines()),
            "formats": list(self.request_formats),
            "options": fields,
            "presets": list(self.preset_names()),
        }


class PlanAnswer(Protocol):
    """What :meth:`PlanKind.solve` returns: the answer, whose JSON is the ``--json`` object."""

    status: str
    plan: Any

    def as_json(self) -> dict[str, Any]: ...


class PlanExplanation(Protocol):
    """What :meth:`PlanKind.explain` returns: why, in a word (``explanation``) and a sentence (``text``)."""

    explanation: str
    text: str

    def to_json(self) -> dict[str, Any]: ...


__all__ = [
    "Cell",
    "Encoding",
    "GridCount",
    "GridKind",
    "Option",
    "Parsed",
    "PlanAnswer",
    "PlanExplanation",
    "PlanKind",
    "PuzzleKind",
]
