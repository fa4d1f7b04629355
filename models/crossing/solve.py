"""Solving a crossing puzzle: the proven shortest plan (or a proof there is
none), checked, cross-checked, and optionally counted.

Input: a :class:`Spec` and :class:`Options`.  Output: an :class:`Outcome`
whose ``as_json()`` is the ``--json`` contract of ``mindgames crossing solve``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from models.errors import VerificationError
from solver import SolveResult, get_engine
from solver.statespace import (OutOfTime, Search, TooLarge, breadth_first, build_graph,
                               shortest_paths, simple_paths)

from .checker import replay
from .compile import compile_model, estimated_size
from .layout import Layout
from .rules import broken_rule, describe_rule
from .spec import Spec
from .states import Move, is_goal, side_content, start_state, state_space_size, successors

FIRST_HORIZON = 16
COUNTED_LIMIT = 1_000_000  # most counted states the breadth-first search may see (~750 MB)
MODEL_LIMIT = 300_000  # most constraints (estimated; about half the real number) a model may have
BUILD_RATE = 60_000  # constraints per second building + preparing a model takes, at worst
SAFE_COUNT_LIMIT = 5_000  # counted states enumerated for `safe_counted_states`
Report = Callable[[str], None]


@dataclass
class Options:
    engine: str = "sat"
    time_limit: float | None = None
    count_shortest: bool = False
    simple_paths: bool = False
    cross_check: bool = True
    graph_limit: int = 100_000  # most states a networkx graph (explicit or counted) may have
    use_symmetry: bool = True
    count_limit: int = 1_000_000  # most counted shortest plans enumerated
    counted_limit: int = COUNTED_LIMIT
    model_limit: int = MODEL_LIMIT


@dataclass
class Outcome:
    name: str
    status: str = "unknown"  # solved | unsolvable | unknown
    plan: list[Move] | None = None
    banks: list[dict] | None = None  # after each step, from the checker's replay
    proof: str = ""
    shortest_plans: dict | None = None
    simple_paths: dict | None = None
    states: int | None = None
    cross_check: dict = field(default_factory=dict)
    abstraction: dict = field(default_factory=dict)
    engine: str = ""
    seconds: float = 0.0
    spec: Spec | None = None
    methods: list[str] = field(default_factory=list)  # the methods whose answers agree
    confirmation: str = ""  # what the time-expanded model said about the search's answer

    @property
    def crossings(self) -> int | None:
        return None if self.plan is None else len(self.plan)

    def as_json(self) -> dict:
        record = {
            "name": self.name,
            "status": self.status,
            "crossings": self.crossings if self.status == "solved" else None,
            "moves": [m.as_json(self.spec, i) for i, m in enumerate(self.plan or [], start=1)],
            "states": self.states,
            "proof": self.proof,
            "methods": self.methods,
            "confirmation": self.confirmation,
            "cross_check": self.cross_check,
            "abstraction": self.abstraction,
            "engine": self.engine,
            "seconds": round(self.seconds, 4),
        }
        if self.shortest_plans is not None:
            # the number (up to swapping identical copies); how it was counted alongside
            record["shortest_plans"] = self.shortest_plans["count"]
            record["shortest_plans_detail"] = self.shortest_plans
        if self.simple_paths is not None:
            record["simple_paths"] = self.simple_paths
        return record


class _Clock:
    def __init__(self, limit: float | None):
        self.start = time.perf_counter()
        self.limit = limit

    def left(self) -> float:
        # Always a number: with a limit, the engines solve in slices and check
        # between them, which is also what lets Ctrl-C through.
        if self.limit is None:
            return 1e9
        return max(0.001, self.limit - (time.perf_counter() - self.start))

    def deadline(self) -> float | None:
        return None if self.limit is None else self.start + self.limit

    def out(self) -> bool:
        return self.limit is not None and time.perf_counter() - self.start >= self.limit

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def plural(n: int | None, thing: str) -> str:
    """"1 crossing", "3 crossings", "1,234 states"."""
    shown = f"{n:,}" if isinstance(n, int) else str(n)
    return f"{shown} {thing}" if n == 1 else f"{shown} {thing}s"


def crossings(n: int | None) -> str:
    return plural(n, "crossing")


def solve(spec: Spec, options: Options | None = None, report: Report | None = None) -> Outcome:
    """The proven shortest plan of ``spec`` (see the module text).

    Counted graph first: a breadth-first search over the counted states
    (interchangeable actors counted) gives the shortest length, or proves
    there is no plan, whenever the reachable counted states fit
    ``options.counted_limit``; the time-expanded model then confirms that
    answer with one or two calls.  Past the limit, the model alone decides,
    horizon by horizon.  Every plan is replayed by the independent checker."""
    options = options or Options()
    report = report or (lambda text: None)
    clock = _Clock(options.time_limit)
    outcome = Outcome(spec.name, engine=options.engine, spec=spec)
    report("finding interchangeable actors")
    try:
        layout = Layout.of(spec, options.use_symmetry, clock.deadline())
    except OutOfTime as error:
        outcome.proof = f"time limit: {error}; nothing decided"
        outcome.seconds = clock.elapsed()
        return outcome
    bound, exact = layout.safe_state_bound(SAFE_COUNT_LIMIT, clock.deadline())
    outcome.abstraction = {
        "blocks": layout.describe(),
        "counted_states": layout.number_of_counted_states(),
        "safe_counted_states": bound if exact else None,
        "reachable_counted_states": None,
        "plans_reported": "concrete actors: the counted plan is concretised by letting the "
        "lowest-numbered interchangeable block make each move, then replayed by the checker",
    }
    if not _start_breaks_a_rule(spec, outcome):
        search = _counted_search(layout, options, clock, outcome, report)
        if search.length is not None or search.complete:
            _confirm_on_model(layout, search, options, clock, outcome, report)
        elif not clock.out():  # too many counted states: the model alone decides
            _shortest(spec, layout, bound, exact, options, clock, outcome, report, search.depth)
        else:
            outcome.proof = (f"time limit: {_none_within(search.depth)} (breadth-first over "
                             f"{plural(search.states, 'counted state')}), the rest unknown")
    if options.cross_check:
        _cross_check(spec, layout, options, clock, outcome, report)
    if options.simple_paths:
        report("enumerating simple paths")
        found = simple_paths(start_state(spec), _neighbours(spec), lambda s: is_goal(spec, s), clock.left())
        outcome.simple_paths = {"count": found.count, "histogram": found.histogram,
                                "complete": found.complete}
    outcome.seconds = clock.elapsed()
    return outcome


def _none_within(proven: int) -> str:
    if proven < 0:
        return "no horizon decided"
    return f"no plan with at most {crossings(proven)}"


def _start_breaks_a_rule(spec: Spec, outcome: Outcome) -> bool:
    start = start_state(spec)
    for side in (0, 1):
        index = broken_rule(spec, side_content(spec, start, side), "banks")
        if index is not None:
            outcome.status = "unsolvable"
            outcome.proof = f"the start already breaks {describe_rule(spec, index)}"
            outcome.methods = ["rules"]
            return True
    return False


def _counted_search(layout, options, clock, outcome, report) -> Search:
    """Breadth-first over the counted state graph; a goal met is a shortest plan
    (replayed by the checker), a complete search without one proves there is none."""

    def on_layer(depth: int, states: int) -> None:
        report(f"breadth-first search: depth {depth}, {states:,} counted states")

    def successors(key):
        # moves kept as tuples: a parent link per state is most of the search's memory
        for move, nxt in layout.counted_successors(key):
            yield tuple((t, tuple(table.items())) for t, table in move.items()), nxt

    search = breadth_first(layout.counted_start(), successors, layout.is_counted_goal,
                           options.counted_limit, clock.deadline(), on_layer, stop_at_goal=True)
    if search.labels is not None:
        search.labels = [{t: dict(table) for t, table in move} for move in search.labels]
    if search.complete:
        outcome.states = search.states
        outcome.abstraction["reachable_counted_states"] = search.states
    if search.length is not None:
        plan = layout.concretise(search.labels)
        outcome.banks = replay(layout.spec, plan)  # raises VerificationError
        outcome.plan = plan
        outcome.status = "solved"
        outcome.methods = ["counted-bfs", "checker"]
        outcome.proof = (
            f"shortest: breadth-first search over the counted state graph (interchangeable "
            f"actors counted) meets the goal first after {crossings(search.length)} "
            f"({plural(search.states, 'counted state')} seen); the plan was replayed by the "
            f"independent checker"
        ) if search.length else "the start is already the goal"
    elif search.complete:
        outcome.status = "unsolvable"
        outcome.methods = ["counted-bfs"]
        every = ("the only reachable counted state" if search.states == 1
                 else f"all {search.states:,} reachable counted states")
        outcome.proof = (f"breadth-first search over {every} (interchangeable actors counted) "
                         f"never meets the goal")
    return search


def _affordable(layout, horizon: int, options, clock) -> str:
    """Why a model of ``horizon`` steps should not be built, or "" when it may."""
    size = estimated_size(layout, horizon, unary=options.engine != "cpsat")
    if size > options.model_limit:
        return (f"the model of {crossings(horizon)} would have about {size:,} constraints "
                f"(limit {options.model_limit:,})")
    # the build may take a third of the time left: the solving needs the rest
    if options.time_limit is not None and 3 * size / BUILD_RATE > clock.left():
        return (f"building the model of {crossings(horizon)} (about {size:,} constraints) "
                f"would not fit in the time left")
    return ""


def _confirm_on_model(layout, search: Search, options, clock, outcome, report) -> None:
    """The time-expanded model's word on the search's answer: no plan one
    crossing shorter (UNSAT) and a plan of that length (SAT, replayed); for an
    unsolvable puzzle, no plan as long as a loop-free plan can be (UNSAT)."""
    solved = outcome.status == "solved"
    length = search.length if solved else search.states - 1
    if solved and length == 0:
        return
    engine_name = options.engine

    def unconfirmed(reason: str) -> None:
        outcome.confirmation = f"not confirmed on {engine_name}: {reason}"
        if solved and options.count_shortest:
            outcome.confirmation += " (the shortest plans are counted on that model: not counted)"

    skip = _affordable(layout, length, options, clock)
    if skip:
        return unconfirmed(skip)
    report(f"confirming on {engine_name}: building the model of {crossings(length)}")
    try:
        cm = compile_model(layout, length, unary=engine_name != "cpsat", deadline=clock.deadline())
    except OutOfTime as error:
        return unconfirmed(str(error))
    session = get_engine(engine_name).prepare(cm.model)
    if solved:
        report(f"confirming on {engine_name}: no plan of {crossings(length - 1)}?")
        shorter = session.solve([-cm.act[length - 1]], clock.left())
        if shorter.status == "sat":
            _found(layout.spec, layout, cm, shorter.assignment, Outcome(outcome.name, spec=layout.spec))
            raise VerificationError(f"the model has a plan shorter than the breadth-first search's "
                                    f"{crossings(length)}")
        report(f"confirming on {engine_name}: a plan of {crossings(length)}?")
        same = session.solve((), clock.left()) if shorter.status == "unsat" else shorter
        if same.status == "unsat":
            raise VerificationError(f"the model has no plan of {crossings(length)}, the "
                                    f"breadth-first search has one")
        if same.status == "unknown":
            return unconfirmed("the time limit ran out")
        check = Outcome(outcome.name, spec=layout.spec)
        _found(layout.spec, layout, cm, same.assignment, check)
        if check.crossings != length:
            raise VerificationError(f"the model's plan has {crossings(check.crossings)}, "
                                    f"the breadth-first search's {length}")
        outcome.confirmation = (f"confirmed on {engine_name} with two calls: no plan with at most "
                                f"{crossings(length - 1)} (unsatisfiable), a plan of {length} "
                                f"(satisfiable, replayed by the checker)")
        outcome.methods.append(f"{engine_name}-model")
        if options.count_shortest:
            report("counting the shortest plans")
            _count(layout, cm, session, length, options, clock, outcome)
        return
    report(f"confirming on {engine_name}: any plan of at most {crossings(length)}?")
    answer = session.solve((), clock.left())
    if answer.status == "sat":
        _found(layout.spec, layout, cm, answer.assignment, Outcome(outcome.name, spec=layout.spec))
        raise VerificationError("the model has a plan, the breadth-first search proved there is none")
    if answer.status == "unknown":
        return unconfirmed("the time limit ran out")
    outcome.confirmation = (
        f"confirmed on {engine_name}: no plan of at most {crossings(length)} (unsatisfiable); "
        f"a shortest plan never repeats a state and only {plural(search.states, 'counted state')} "
        f"{'is' if search.states == 1 else 'are'} reachable, so no plan is longer")
    outcome.methods.append(f"{engine_name}-model")


def _shortest(spec, layout, bound, exact, options, clock, outcome, report, proven: int) -> None:
    """The model alone, horizon by horizon (too many counted states for the search);
    ``proven``: no plan has at most that many crossings (from the search)."""
    engine = get_engine(options.engine)
    longest = max(1, bound - 1)  # a shortest plan never repeats a state
    horizon = min(max(FIRST_HORIZON, proven + 1), longest)
    why = (f"there are {'only ' + str(bound) if exact else 'at most ' + str(bound)} safe "
           f"counted states (interchangeable actors counted)")

    def give_up(reason: str) -> None:
        outcome.proof = f"{reason}: {_none_within(proven)}, the rest unknown"

    while True:
        if clock.out():
            return give_up("time limit")
        skip = _affordable(layout, horizon, options, clock)
        if skip:
            return give_up(skip)
        report(f"horizon {horizon}: building the model")
        try:
            cm = compile_model(layout, horizon, unary=options.engine != "cpsat",
                               deadline=clock.deadline())
        except OutOfTime:
            return give_up("time limit")
        session = engine.prepare(cm.model)
        report(f"horizon {horizon}: any plan of at most {crossings(horizon)}?")
        answer = session.solve((), clock.left())
        if answer.status == "unknown":
            return give_up("time limit")
        if answer.status == "unsat":
            proven = horizon
            if horizon >= longest:
                outcome.status = "unsolvable"
                outcome.methods = [f"{options.engine}-model"]
                outcome.proof = (
                    f"no plan of at most {crossings(horizon)} (unsatisfiable on {options.engine}); "
                    f"a shortest plan never repeats a state and {why}, so no plan is longer "
                    f"than {longest}"
                )
                return
            horizon = min(2 * horizon, longest)
            continue
        best = answer.assignment
        while proven + 1 < cm.length(best):
            T = proven + 1
            report(f"horizon {T}: proving no plan is that short")
            if clock.out():
                answer = SolveResult("unknown")
            else:
                answer = session.solve([-cm.act[T]] if T < horizon else [], clock.left())
            if answer.status == "unknown":
                _found(spec, layout, cm, best, outcome)
                outcome.status = "unknown"
                outcome.proof = (f"time limit: a plan of {crossings(outcome.crossings)} found, "
                                 f"{_none_within(proven)}, the rest unknown")
                return
            if answer.status == "unsat":
                proven = T
            else:
                best = answer.assignment
        _found(spec, layout, cm, best, outcome)
        outcome.status = "solved"
        outcome.methods = [f"{options.engine}-model", "checker"]
        length = outcome.crossings
        outcome.proof = (
            f"shortest: no plan with at most {crossings(length - 1)} (each horizon up to "
            f"{length - 1} unsatisfiable on {options.engine}); the plan of {length} was "
            f"replayed by the independent checker"
        ) if length else "the start is already the goal"
        if options.count_shortest:
            report("counting the shortest plans")
            _count(layout, cm, session, length, options, clock, outcome)
        return


def _found(spec, layout, cm, assignment, outcome) -> None:
    """Decode, concretise and replay a plan; a disagreement is a bug."""
    _, counted_moves = cm.counted_plan(assignment)
    plan = layout.concretise(counted_moves)
    outcome.banks = replay(spec, plan)  # raises VerificationError
    if len(plan) != cm.length(assignment):
        raise VerificationError("decoded plan length differs from the model's")
    outcome.plan = plan


def _count(layout, cm, session, length, options, clock, outcome) -> None:
    """Concrete shortest plans: the sum, over counted shortest plans, of the
    ways to pick which interchangeable blocks make each move."""
    total = 0
    counted = 0

    def add(assignment) -> None:
        nonlocal total, counted
        states, moves = cm.counted_plan(assignment)
        ways = 1
        for state, move in zip(states, moves):
            ways *= layout.multiplicity(state, move)
        total += ways
        counted += 1

    assumptions = [-cm.act[length]] if length < cm.horizon else []
    found = session.enumerate(assumptions, limit=options.count_limit, time_limit=clock.left(),
                              on_solution=add)
    outcome.shortest_plans = {"count": total, "counted_plans": counted, "complete": found.complete}


def _neighbours(spec: Spec):
    """The successor function as ``state -> next states``, each state's list
    computed once (the depth-first enumeration meets states again and again)."""
    memo: dict = {}

    def neighbours(state):
        if state not in memo:
            memo[state] = [nxt for _, nxt in successors(spec, state)]
        return memo[state]

    return neighbours


def _cross_check(spec, layout, options, clock, outcome, report) -> None:
    """Independent answers from networkx: the counted state graph (its own BFS
    over the same counted successors) and, where it fits, the explicit graph of
    concrete states (an independent successor function).  A disagreement is a bug."""
    decided = outcome.status in ("solved", "unsolvable")
    expected = outcome.crossings if outcome.status == "solved" else None
    check: dict = {"graph_crossings": None, "graph_states": None, "graph_shortest_plans": None,
                   "counted_graph_crossings": None, "counted_graph_states": None, "agrees": None}
    notes = []

    def compare(length: int | None, method: str) -> None:
        if not decided:
            return
        if length != expected:
            raise VerificationError(f"{method} finds {length} crossings, the solver "
                                    f"{expected} ({outcome.status})")
        check["agrees"] = True
        outcome.methods.append(method)

    def neighbours(key):
        return [nxt for _, nxt in layout.counted_successors(key)]

    if clock.out():
        notes.append("counted state graph not built: the time limit ran out first")
    else:
        report("cross-checking with the counted state graph (networkx)")
        try:
            graph = build_graph(layout.counted_start(), neighbours, options.graph_limit, clock.left(),
                                lambda n: report(f"cross-check: counted state graph, {n:,} states"))
            length, _, _ = shortest_paths(graph, layout.counted_start(), layout.is_counted_goal)
            check["counted_graph_crossings"] = length
            check["counted_graph_states"] = graph.number_of_nodes()
            outcome.states = graph.number_of_nodes()
            outcome.abstraction["reachable_counted_states"] = graph.number_of_nodes()
            compare(length, "networkx-counted-graph")
        except TooLarge as error:
            notes.append(f"counted state graph not built: {error}")
    size = state_space_size(spec)
    if size > options.graph_limit:
        shown = f"{size:,}" if size < 10**12 else f"about 10^{len(str(size)) - 1}"
        notes.append(f"explicit state graph not built: up to {shown} states "
                     f"(limit {options.graph_limit:,})")
    elif clock.out():
        notes.append("explicit state graph not built: the time limit ran out first")
    else:
        report("cross-checking with the explicit state graph (networkx)")
        try:
            graph = build_graph(start_state(spec), _neighbours(spec), options.graph_limit, clock.left(),
                                lambda n: report(f"cross-check: explicit state graph, {n:,} states"))
        except TooLarge as error:
            notes.append(f"explicit state graph not built: {error}")
        else:
            length, count, _ = shortest_paths(graph, start_state(spec), lambda s: is_goal(spec, s))
            check.update(graph_crossings=length, graph_states=graph.number_of_nodes(),
                         graph_shortest_plans=count)
            compare(length, "networkx-explicit-graph")
            plans = outcome.shortest_plans
            if decided and plans is not None and plans["complete"] and plans["count"] != count:
                raise VerificationError(f"the model counts {plans['count']} shortest plans, "
                                        f"the explicit state graph {count}")
    if notes:
        check["note"] = "; ".join(notes)
    outcome.cross_check = check
