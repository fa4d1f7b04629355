"""What the service can be asked, per puzzle kind: a thin adapter over :mod:`mindgames.models`.

Nothing here knows a puzzle's rules.  Each kind turns one request value into
a puzzle with the library's own parser (so a bad puzzle gets the library's
message, the same one the CLI prints), and answers it with the library's
solver, whose every solution is verified before it is returned.  The answer
for a puzzle is the very object the CLI prints as a ``--json`` line.

:func:`execute` runs a whole task (one request, or one job) and is what the
worker processes call; it imports neither FastAPI nor anything of the server.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from mindgames.models import registry
from mindgames.models.actions import ACTIONS, select
from mindgames.models.errors import PuzzleError, shorten
from mindgames.models.formats import share_links
from mindgames.models.kind import GridKind, PlanKind, PuzzleKind
from mindgames.models.runner import count_limit

from ..options import unread_fields


class TaskError(Exception):
    """A request that cannot be answered at all: ``status`` is the HTTP code."""

    def __init__(self, status: int, message: str, limit: str | None = None):
        super().__init__(message)
        self.status, self.message, self.limit = status, message, limit


# ---------------------------------------------------------------------------
# The kinds the service answers: every kind of the registry (grid kinds and plan kinds)
# ---------------------------------------------------------------------------
#: the job that counts every grid of a variant, for a kind that can (``GridKind.counts_all_grids``)
COUNT_GRIDS = "count_grids"


def job_actions(kind: GridKind) -> list[str]:
    """What the service offers the kind beyond the shared actions (jobs.py runs them)."""
    return [f"{COUNT_GRIDS} (jobs only)"] if kind.counts_all_grids else []


def job_options(kind: GridKind) -> dict[str, str]:
    """The request fields of those jobs that are not already the kind's own options."""
    if not kind.counts_all_grids:
        return {}
    own = {option.name for option in kind.options}
    return {o.name: f"{COUNT_GRIDS} job: {o.help}" for o in kind.count_all_options if o.name not in own}


def count_grids_kinds() -> list[str]:
    """The kinds that can count every grid of a variant, by name."""
    return [kind.name for kind in grid_kinds() if kind.counts_all_grids]


#: the request fields the service adds to every grid kind's own options
GRID_OPTIONS = {
    "time_limit": "seconds per puzzle",
    "limit": "count: stop at N",
    "certify": "solve, check: prove 'unique' / 'unsolvable' with a checked DRAT proof "
    '(within the same time limit); the answer gains "certificate"',
}


def kind_names() -> tuple[str, ...]:
    """Every kind the service answers, by name (``/v1/{kind}/...``)."""
    return registry.KIND_NAMES


#: (name, "module:attribute" of its registry entry) -> its kind object: the registry imports
#: the kind's module each time it is asked (importlib.import_module), which a request did
#: eight times
_KINDS: dict[tuple[str, str], PuzzleKind] = {}


def kind_of(name: str) -> PuzzleKind | None:
    """The registry's kind called ``name`` (None: no such kind)."""
    if name not in registry.KIND_NAMES:
        return None
    key = (name, registry.KIND_PATHS[name])
    if key not in _KINDS:
        _KINDS[key] = registry.get_kind(name)
    return _KINDS[key]


def grid_kind(name: str) -> GridKind | None:
    """The registry's grid kind called ``name`` (None for a plan kind, or an unknown name)."""
    kind = kind_of(name)
    return kind if isinstance(kind, GridKind) else None


def plan_kind(name: str) -> PlanKind | None:
    """The registry's plan kind called ``name`` (None for a grid kind, or an unknown name)."""
    kind = kind_of(name)
    return kind if isinstance(kind, PlanKind) else None


def grid_kinds() -> list[GridKind]:
    """Every grid kind of the registry, in its order."""
    return [kind for kind in map(grid_kind, kind_names()) if kind is not None]


def plan_kinds() -> list[PlanKind]:
    """Every plan kind of the registry, in its order."""
    return [kind for kind in map(plan_kind, kind_names()) if kind is not None]


def foreign_options(name: str) -> list[tuple[str, str]]:
    """The options of other grid kinds that kind ``name`` does not have, in the registry's
    order, each with the message a request giving it gets (the same for every request:
    worked out once per set of kinds)."""
    key = (registry.KIND_NAMES, name)
    if key not in _FOREIGN_OPTIONS:
        kind = grid_kind(name)
        own = {option.name for option in kind.options} if kind else set()
        foreign = []
        for other in grid_kinds():
            for option in other.options:
                if option.name not in own:
                    having = [k.name for k in grid_kinds() if option in k.options]
                    foreign.append(
                        (option.name, f"{option.name}: an option of {' and '.join(having)} puzzles only")
                    )
        _FOREIGN_OPTIONS[key] = foreign
    return _FOREIGN_OPTIONS[key]


_FOREIGN_OPTIONS: dict[tuple, list[tuple[str, str]]] = {}


def options_error(name: str, request: dict[str, Any]) -> str | None:
    """What is wrong with the kind options of a request for kind ``name``, else None: an
    option of other kinds only, or a value the kind cannot read (``"box": "3x"``)."""
    for option, message in foreign_options(name):
        if request.get(option) is not None:
            return message
    kind = grid_kind(name)
    try:
        stated_options(kind, request) if kind else None
    except PuzzleError as error:
        return str(error)
    return None


def solver_actions(kind: GridKind) -> tuple[str, ...]:
    """The kind's actions a solver answers puzzle by puzzle (``POST /v1/KIND/ACTION``, jobs)."""
    return select(kind.actions, per_puzzle=True, explains=False)


def puzzle_actions(kind: GridKind) -> tuple[str, ...]:
    """Every action of the kind that ``POST /v1/KIND/ACTION`` answers: a solver's and the
    explanations (models.explain)."""
    return select(kind.actions, per_puzzle=True)


def describe_engines() -> list[dict[str, Any]]:
    """What ``GET /v1/kinds`` says of every engine: its name, summary and capabilities."""
    from mindgames.solver import engines

    return [
        {
            "engine": info.name,
            "summary": info.summary,
            "capabilities": sorted(c.value for c in info.capabilities),
        }
        for info in engines()
    ]


def describe() -> list[dict[str, Any]]:
    """What ``GET /v1/kinds`` says: each kind as it describes itself, plus what the service adds
    (its actions here, engines, the request fields)."""
    from mindgames.solver import engine_names

    described = []
    for name in kind_names():
        plan = plan_kind(name)
        if plan is not None:  # a plan kind describes itself whole (models.kind.PlanKind)
            described.append(plan.describe_kind())
            continue
        kind = grid_kind(name)
        if kind is None:
            continue
        entry = kind.describe_kind()
        entry["actions"] = [*solver_actions(kind), *job_actions(kind)]
        entry["explain_actions"] = list(select(kind.actions, explains=True))  # POST only, not jobs
        entry["engines"] = list(engine_names())
        entry["options"] = {**entry["options"], **GRID_OPTIONS, **job_options(kind)}
        # POST /v1/KIND/generate: the settings of what it makes (the page may ignore them)
        entry["generate_options"] = {option.name: option.help for option in kind.generate_options}
        described.append(entry)
    return described


@functools.lru_cache(maxsize=8)
def presets_of(kind: PlanKind) -> dict[str, Any]:
    """Each built-in puzzle's name, description and parameters with their defaults and
    bounds (built once: the defaults are small puzzles, and this is the API process)."""
    return kind.describe_presets()


def preset_params_error(kind: PlanKind, puzzles: list, params: dict | None) -> str | None:
    """The library's message for the first built-in puzzle parameter out of its bounds,
    else None.  Only compares numbers with the kind's declared ranges (no puzzle is
    built), so the API can refuse a request, or a job, before it is queued."""
    names = kind.preset_names()
    for value in puzzles:
        name, given = value, params
        if isinstance(value, dict) and "preset" in value:
            name, given = value.get("preset"), value.get("params")
        if not isinstance(name, str) or name.strip() not in names or not isinstance(given, dict):
            continue
        bounds = kind.preset_bounds(name.strip())
        for key, number in given.items():
            if key in bounds:
                try:
                    kind.check_parameter(name.strip(), key, number)
                except PuzzleError as error:
                    return str(error)
    return None


def generate_options(kind: GridKind, given: dict[str, Any]) -> dict[str, Any]:
    """The kind's generate options as a request gives them (``"3x2"``, ``8``, ``true``), read
    by the kind; PuzzleError names the field that is missing or that the kind cannot read."""
    read = {}
    for option in kind.generate_options:
        value = given.get(option.name)
        if value is None:
            if option.required:
                raise PuzzleError(f"{option.name}: needed to generate {kind.name} puzzles ({option.help})")
            continue
        if not option.flag and not option.choices:
            try:
                value = option.value(str(value))
            except PuzzleError as error:
                raise PuzzleError(f"{option.name}: {error}") from None
        read[option.name] = value
    return read


def foreign_generate_options(kind: GridKind) -> dict[str, str]:
    """The generate options of other grid kinds that ``kind`` does not have, each with the
    message a request giving it gets."""
    own = {option.name for option in kind.generate_options}
    foreign: dict[str, str] = {}
    for other in grid_kinds():
        for option in other.generate_options:
            if option.name not in own and option.name not in foreign:
                having = [k.name for k in grid_kinds() if option.name in {o.name for o in k.generate_options}]
                foreign[option.name] = f"{option.name}: an option of {' and '.join(having)} puzzles only"
    return foreign


def task_size(task: dict) -> int:
    """How many records a task answers: its puzzles, or the puzzles it generates."""
    return task["count"] if task["action"] == "generate" else len(task["puzzles"])


# ---------------------------------------------------------------------------
# Parsing: one request value -> one puzzle, or PuzzleError
# ---------------------------------------------------------------------------
def stated_options(kind: GridKind, task: dict) -> dict[str, Any]:
    """The kind's options as the request gives them, read by the kind (``"3x2"`` -> ``(3, 2)``);
    None: as the puzzle says.  PuzzleError names a value the kind cannot read."""
    stated = {}
    for option in kind.options:
        value = task.get(option.name)
        if isinstance(value, str):
            try:
                value = option.value(value)
            except PuzzleError as error:
                raise PuzzleError(f"{option.name}: {error}") from None
        stated[option.name] = value
    return stated


def parse_one(kind: str, value: Any, task: dict) -> Any:
    try:
        grid = grid_kind(kind)
        if grid is None:
            plan = plan_kind(kind)
            assert plan is not None  # task_of let only the registry's kinds through
            return plan.parse_value(value, task.get("params"))
        return grid.parse_value(value, **stated_options(grid, task))
    except PuzzleError:
        raise
    except RecursionError:
        raise PuzzleError("the puzzle is nested too deeply") from None
    except (TypeError, ValueError, KeyError, AttributeError) as error:
        # A value of a shape no parser expected (e.g. a number where rows belong).
        raise PuzzleError(f"not a {kind} puzzle ({shorten(str(error), 80)})") from None


# ---------------------------------------------------------------------------
# Answering
# ---------------------------------------------------------------------------
class Answerer:
    """Keeps one library solver per (kind, engine, rules), so a worker that answers many
    same-shaped puzzles compiles their rules once (the library's own fast path); and, per plan
    kind, what it keeps between solves (:meth:`PlanKind.warm_models`: the last models it
    confirmed a plan on), so a plan puzzle asked again is answered without building its model."""

    def __init__(self) -> None:
        self._solvers: dict[tuple, Any] = {}
        self._warm: dict[str, Any] = {}  # plan kind -> its warm models, made at its first solve

    MAX_SHAPES = 32  # compiled shapes kept per solver: a long-lived worker must not grow forever

    def solver(self, kind: GridKind, engine: str) -> Any:
        key = (kind.name, engine)
        if key not in self._solvers:
            from mindgames.models.runner import PuzzleSolver

            self._solvers[key] = PuzzleSolver(kind, engine, max_shapes=self.MAX_SHAPES)
        return self._solvers[key]

    def answer(
        self,
        task: dict,
        index: int,
        puzzle: Any,
        time_limit: float | None,
        on_solution: Callable[[Any], None] | None = None,
    ) -> dict[str, Any]:
        action, engine = task["action"], task.get("engine") or "sat"
        kind = grid_kind(task["kind"])
        if kind is None:
            plan = plan_kind(task["kind"])
            assert plan is not None  # task_of let only the registry's kinds through
            if action == "explain":
                return {"index": index, **plan.explain(puzzle, time_limit).to_json()}
            return self._plan(plan, task, puzzle, time_limit)
        if action == "compare":
            return self._compare(task, kind, index, puzzle, time_limit)
        solver = self.solver(kind, engine)
        if ACTIONS[action].explains:
            return self._explain(kind, solver, action, index, puzzle, time_limit)
        # certify: within the same time limit; the runner adds "certificate" to the answer
        certify = {"certify": True, "name": f"puzzle-{index + 1}"} if task.get("certify") else {}
        if action == "solve":
            result = solver.solve(puzzle, time_limit, **certify)
        elif action == "check":
            result = solver.check(puzzle, time_limit, **certify)
        else:
            result = solver.count(puzzle, count_limit(task.get("limit")), time_limit, on_solution=on_solution)
        result.index = index
        result.extra.update(kind.result_fields(puzzle))
        record = result.to_json()
        if task.get("links"):
            record["links"] = share_links(kind, puzzle, result.solution if action == "solve" else None)
        if task.get("explain") and record["status"] == "unsolvable":
            record["clashing_cells"] = [list(cell) for cell in kind.clashing_cells(puzzle)]
        return record

    def _compare(
        self, task: dict, kind: GridKind, index: int, puzzle: Any, time_limit: float | None
    ) -> dict[str, Any]:
        """``POST /v1/KIND/compare``: the puzzle on each engine, the time shared out evenly."""
        from mindgames.models import compare
        from mindgames.models.kind import Parsed

        engines = task.get("engines") or list(compare.default_engines())
        each = None if time_limit is None else time_limit / len(engines)
        rows = []
        for row in compare.grid_rows(
            kind,
            [Parsed(puzzle)],
            engines,
            task.get("question") or "check",
            each,
            count_limit(task.get("limit")),
            solver_for=lambda k, engine: self.solver(k, engine),
        ):
            row.index = row.fields["index"] = index
            rows.append(row.to_json())
        return {"index": index, "rows": rows}

    @staticmethod
    def _explain(
        kind: GridKind, solver: Any, action: str, index: int, puzzle: Any, time_limit: float | None
    ) -> dict[str, Any]:
        """``explain`` / ``hint`` (models.explain): the CLI's ``--json`` object."""
        from mindgames.models.errors import TimeLimitReached
        from mindgames.models.explain import Explainer

        explainer = Explainer(kind, solver)
        try:
            reply = (
                explainer.hint(puzzle, time_limit)
                if action == "hint"
                else explainer.explain(puzzle, time_limit).to_json()
            )
        except TimeLimitReached as stop:
            return {"index": index, "status": "unknown", "message": str(stop)}
        return {"index": index, **reply}

    def _plan(self, kind: PlanKind, task: dict, puzzle: Any, time_limit: float | None) -> dict[str, Any]:
        """``solve`` of a plan kind: the ``KIND solve --json`` object (with ``explain``, what
        the page needs to play the plan back)."""
        if kind.name not in self._warm:
            self._warm[kind.name] = kind.warm_models()
        settings = {
            option.name: option.default if task.get(option.name) is None else task[option.name]
            for option in kind.options
        }
        answer = kind.solve(
            puzzle, settings, time_limit, certify=bool(task.get("certify")), warm=self._warm[kind.name]
        )
        record = answer.as_json()
        if task.get("explain"):
            record.update(kind.page_fields(puzzle, answer))
        return record


def unanswered(task: dict, index: int, message: str) -> dict[str, Any]:
    """The record of a puzzle that got no answer (time limit, memory, a crash): ``unknown``."""
    if grid_kind(task["kind"]) is None:
        return {"index": index, "status": "unknown", "message": message}
    from mindgames.models.runner import Result

    return Result(
        index=index, status="unknown", engine=task.get("engine") or "sat", message=message
    ).to_json()


def invalid(task: dict, index: int, error: str) -> dict[str, Any]:
    """The record of a puzzle that could not be read, naming what is wrong with it."""
    from mindgames.models.runner import Result

    result = Result(index=index, status="invalid", engine=task.get("engine") or "sat", error=error)
    kind = grid_kind(task["kind"])
    if kind is not None:
        result.extra.update(unread_fields(kind, stated_options(kind, task)))
    return result.to_json()


def execute(
    task: dict,
    emit: Callable[[int, dict], None],
    answerer: Answerer | None = None,
    deadline: float | None = None,
    start: int = 0,
    on_count: Callable[[int], None] | None = None,
    fail_on_memory: bool = False,
) -> None:
    """Answer every puzzle of ``task`` in order, calling ``emit(index, record)`` for each.

    ``task``: ``kind``, ``action``, ``puzzles`` (a list), ``single`` (one puzzle:
    an unparsable one raises :class:`TaskError` 422 instead of an ``invalid``
    record), ``engine``, ``time_limit`` (per puzzle), ``limit`` and the kind's
    options.  ``deadline`` (a ``time.monotonic()`` value) bounds the whole task:
    each puzzle gets at most the time left, and puzzles not reached get an
    ``unknown`` record.  ``start`` skips puzzles already answered (a resumed job).
    A MemoryError (the process's memory cap) makes that puzzle's record ``unknown``, or
    with ``fail_on_memory`` (a job, which then fails saying so) propagates.

    The action ``export`` (a plan kind) emits the puzzle document of a built-in puzzle with
    its params: building it is puzzle work too, so it is done here, not in the API."""
    answerer = answerer or Answerer()
    if task["action"] == "generate":
        _generate(task, emit, deadline, start)
        return
    kind = task["kind"]
    puzzles = task["puzzles"]
    if task["action"] == "export":
        plan = plan_kind(kind)
        assert plan is not None  # the export route is made for plan kinds only
        emit(0, _export(plan, puzzles[0], task.get("params") or {}))
        return
    for index in range(start, len(puzzles)):
        try:
            puzzle = parse_one(kind, puzzles[index], task)
        except MemoryError:
            if fail_on_memory or task.get("single"):
                raise
            emit(index, unanswered(task, index, "too big to answer here (MemoryError)"))
            continue
        except PuzzleError as error:
            if task.get("single"):
                raise TaskError(422, str(error)) from None
            emit(index, invalid(task, index, str(error)))
            continue
        limit = task.get("time_limit")
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0.01:
                emit(index, unanswered(task, index, "not attempted: the request's time limit was reached"))
                continue
            limit = left if limit is None else min(limit, left)
        counted = [0]

        def seen(_solution: Any, counted: list[int] = counted) -> None:
            counted[0] += 1
            if on_count is not None:
                on_count(counted[0])

        try:
            record = answerer.answer(task, index, puzzle, limit, seen if on_count else None)
        except MemoryError:
            if fail_on_memory or task.get("single"):
                raise
            record = unanswered(task, index, "too big to answer here (MemoryError)")
        except RecursionError as error:
            record = unanswered(task, index, f"too big to answer here ({type(error).__name__})")
        except Exception as error:  # a library bug (e.g. VerificationError): say so, go on
            record = unanswered(
                task, index, f"the solver failed: {type(error).__name__}: {shorten(str(error), 200)}"
            )
        emit(index, record)


def _generate(task: dict, emit: Callable[[int, dict], None], deadline: float | None, start: int) -> None:
    """``POST /v1/KIND/generate`` (and its job): ``count`` puzzles of the variant ``options``
    describe, puzzle ``i`` from ``seed + i`` (a resumed job goes on from ``start``), within
    ``time_limit`` for them all; the puzzles not made by then are ``unknown``."""
    from mindgames.models.generate import generate_puzzles
    from mindgames.solver.deadline import Deadline

    kind = grid_kind(task["kind"])
    if kind is None:
        raise TaskError(422, f"generate: {task['kind']} is not a grid kind")
    limit = task.get("time_limit")
    if deadline is not None:
        left = max(0.0, deadline - time.monotonic())
        limit = left if limit is None else min(limit, left)
    count, made = task["count"], start
    try:
        empty = kind.empty(**generate_options(kind, task["options"]))
        for item in generate_puzzles(
            kind, empty, count, task["seed"], task.get("engine") or "sat", Deadline(limit), first=start
        ):
            record = item.to_json(kind)
            if task.get("links"):
                record["links"] = share_links(kind, item.puzzle, record.get("solution"))
            emit(item.index, record)
            made = item.index + 1
    except PuzzleError as error:  # a variant the kind cannot make, or one without any solution
        raise TaskError(422, str(error)) from None
    for index in range(made, count):
        emit(index, unanswered(task, index, "not generated: the time limit was reached"))


def _export(kind: PlanKind, name: Any, params: dict) -> dict[str, Any]:
    """The document of built-in puzzle ``name`` with ``params``, checked by the kind's own
    reader (a PuzzleError, naming the parameter, is the request's 422)."""
    names = kind.preset_names()
    if not isinstance(name, str) or name not in names:
        raise TaskError(422, f"puzzle: a built-in puzzle name ({', '.join(names)})")
    try:
        document = kind.preset_document(name, params)
        kind.parse_document(document)
    except PuzzleError as error:
        raise TaskError(422, str(error)) from None
    return document
