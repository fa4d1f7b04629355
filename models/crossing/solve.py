"""Solving a crossing puzzle: the proven shortest plan (or a proof there is
none), checked, cross-checked, and optionally counted.

Input: a :class:`Spec` and :class:`Options`.  Output: an :class:`Outcome`
whose ``as_json()`` is the ``--json`` contract of ``mindgames crossing solve``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import comb
from typing import Callable

from models.errors import VerificationError
from solver import SolveResult, get_engine
from solver.statespace import TooLarge, build_graph, shortest_paths, simple_paths

from .checker import replay
from .compile import compile_model
from .layout import Layout, reachable_counted_states
from .rules import broken_rule, describe_rule
from .spec import Spec
from .states import Move, is_goal, side_content, start_state, state_space_size, successors

FIRST_HORIZON = 16
REACH_BUDGET = 10.0  # seconds for the reachable-states bound
REACH_WORK = 600_000  # most (state, load) pairs it may look at
Report = Callable[[str], None]


@dataclass
class Options:
    engine: str = "sat"
    time_limit: float | None = None
    count_shortest: bool = False
    simple_paths: bool = False
    cross_check: bool = True
    graph_limit: int = 100_000  # most states the explicit graph may have
    use_symmetry: bool = True
    count_limit: int = 1_000_000  # most counted shortest plans enumerated


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

    def out(self) -> bool:
        return self.limit is not None and time.perf_counter() - self.start >= self.limit

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def solve(spec: Spec, options: Options | None = None, report: Report | None = None) -> Outcome:
    """The proven shortest plan of ``spec`` (see the module text)."""
    options = options or Options()
    report = report or (lambda text: None)
    clock = _Clock(options.time_limit)
    outcome = Outcome(spec.name, engine=options.engine, spec=spec)
    layout = Layout.of(spec, options.use_symmetry)
    bound, exact = layout.safe_state_bound()
    outcome.abstraction = {
        "blocks": layout.describe(),
        "counted_states": layout.number_of_counted_states(),
        "safe_counted_states": bound if exact else None,
        "plans_reported": "concrete actors: the counted plan is concretised by letting the "
        "lowest-numbered interchangeable block make each move, then replayed by the checker",
    }
    _shortest(spec, layout, bound, exact, options, clock, outcome, report)
    if options.cross_check:
        report("cross-checking with the explicit state graph")
        _cross_check(spec, options, clock, outcome)
    if options.simple_paths:
        report("enumerating simple paths")
        found = simple_paths(start_state(spec), _neighbours(spec), lambda s: is_goal(spec, s), clock.left())
        outcome.simple_paths = {"count": found.count, "histogram": found.histogram,
                                "complete": found.complete}
    outcome.seconds = clock.elapsed()
    return outcome


def _shortest(spec, layout, bound, exact, options, clock, outcome, report) -> None:
    start = start_state(spec)
    for side in (0, 1):
        index = broken_rule(spec, side_content(spec, start, side), "banks")
        if index is not None:
            outcome.status = "unsolvable"
            outcome.proof = f"the start already breaks {describe_rule(spec, index)}"
            return
    engine = get_engine(options.engine)
    longest = max(1, bound - 1)  # a shortest plan never repeats a state
    horizon = min(FIRST_HORIZON, longest)
    proven = -1  # no plan has at most `proven` crossings
    tried_reach = False
    why = (f"there are {'only ' + str(bound) if exact else 'at most ' + str(bound)} safe "
           f"counted states (interchangeable actors counted)")
    while True:
        if clock.out():
            outcome.proof = f"time limit: no plan with at most {proven} crossings, the rest unknown"
            return
        report(f"horizon {horizon}: building the model")
        cm = compile_model(layout, horizon, unary=options.engine != "cpsat")
        session = engine.prepare(cm.model)
        report(f"horizon {horizon}: any plan of at most {horizon} crossings?")
        answer = session.solve((), clock.left())
        if answer.status == "unknown":
            outcome.proof = f"time limit: no plan with at most {proven} crossings, the rest unknown"
            return
        if answer.status == "unsat":
            proven = horizon
            if horizon < longest and not tried_reach and _reach_is_cheap(spec, bound):
                # Likely unsolvable: a tighter bound on a shortest plan's length,
                # the counted states reachable at all (budgeted; else keep the bound).
                tried_reach = True
                report("counting the reachable counted states")
                reachable = reachable_counted_states(layout, min(REACH_BUDGET, clock.left()))
                if reachable is not None and reachable - 1 < longest:
                    longest, why = max(1, reachable - 1), (
                        f"only {reachable} counted states are reachable at all (breadth-first "
                        f"over the explicit successor function)")
            if horizon >= longest:
                outcome.status = "unsolvable"
                outcome.proof = (
                    f"no plan of at most {horizon} crossings (unsatisfiable on {options.engine}); "
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
                outcome.proof = (f"time limit: a plan of {outcome.crossings} crossings found, "
                                 f"no plan with at most {proven} crossings, the rest unknown")
                return
            if answer.status == "unsat":
                proven = T
            else:
                best = answer.assignment
        _found(spec, layout, cm, best, outcome)
        outcome.status = "solved"
        length = outcome.crossings
        outcome.proof = (
            f"shortest: no plan with at most {length - 1} crossings (each horizon up to "
            f"{length - 1} unsatisfiable on {options.engine}); the plan of {length} was "
            f"replayed by the independent checker"
        ) if length else "the start is already the goal"
        if options.count_shortest:
            report("counting the shortest plans")
            _count(layout, cm, session, length, options, clock, outcome)
        return


def _reach_is_cheap(spec: Spec, states: int) -> bool:
    """Is a breadth-first pass over the counted states affordable?  (Each state
    enumerates its loads: about sum over k <= capacity of C(copies, k).)"""
    copies = spec.total_copies()
    limit = spec.capacity or copies
    loads = sum(comb(copies, k) for k in range(1, limit + 1))
    if not spec.is_river:
        loads *= loads
    return states * loads <= REACH_WORK


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


def _cross_check(spec, options, clock, outcome) -> None:
    size = state_space_size(spec)
    if size > options.graph_limit:
        outcome.cross_check = {
            "graph_crossings": None, "graph_states": None, "agrees": None,
            "note": f"explicit state graph not built: up to {size} states "
                    f"(limit {options.graph_limit}); the SAT proof stands alone",
        }
        return
    try:
        graph = build_graph(start_state(spec), _neighbours(spec), options.graph_limit, clock.left())
    except TooLarge as error:
        outcome.cross_check = {"graph_crossings": None, "graph_states": None, "agrees": None,
                               "note": f"explicit state graph not built: {error}"}
        return
    length, count, path = shortest_paths(graph, start_state(spec), lambda s: is_goal(spec, s))
    outcome.states = graph.number_of_nodes()
    agrees = length == outcome.crossings if outcome.status in ("solved", "unsolvable") else None
    if outcome.status == "unsolvable":
        agrees = length is None
    check = {"graph_crossings": length, "graph_states": graph.number_of_nodes(),
             "graph_shortest_plans": count, "agrees": agrees}
    if outcome.shortest_plans is not None and outcome.shortest_plans["complete"]:
        check["agrees"] = bool(agrees) and outcome.shortest_plans["count"] == count
    if check["agrees"] is False:
        raise VerificationError(f"the model and the state graph disagree: {check}")
    outcome.cross_check = check
