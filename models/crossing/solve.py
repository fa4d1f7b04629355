"""Solving a crossing puzzle: the proven shortest plan (or a proof there is
none), checked, cross-checked, and optionally counted.

Input: a :class:`Spec` and :class:`Options`.  Output: an :class:`Outcome`
whose ``as_json()`` is the ``--json`` contract of ``mindgames crossing solve``.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from mindgames.models.errors import VerificationError
from mindgames.models.words import plural
from mindgames.solver import Capability, Session, SolveResult, engine_info, get_engine
from mindgames.solver.deadline import Deadline
from mindgames.solver.model import Assignment
from mindgames.solver.statespace import (
    OutOfTime,
    Search,
    TooLarge,
    breadth_first,
    build_graph,
    shortest_paths,
    simple_paths,
)

from .checker import replay
from .compile import INVARIANT_STATES, PlanModel, estimated_size
from .layout import CountedState, Layout
from .problem import CrossingProblem, Move, State
from .spec import Spec
from .words import crossings

FIRST_HORIZON = 16
COUNTED_LIMIT = 1_000_000  # most counted states the breadth-first search may see (~750 MB)
MODEL_LIMIT = 300_000  # most constraints (estimated; about half the real number) a model may have
BUILD_RATE = 60_000  # constraints per second building + preparing a model takes, at worst
SAFE_COUNT_LIMIT = 5_000  # counted states enumerated for `safe_counted_states`
# From this estimated size of the horizon model on, the search's answer is confirmed layer
# by layer on a one-step model instead (many small questions, not one big one)
LAYERED_FROM = 20_000
LAYERED_STATES = 20_000  # most counted states the layer-by-layer confirmation takes
NEXT_STATES_KEPT = 200_000  # most successor states the search keeps for the counted graph's cross-check
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
    certify: bool = False  # also a checked DRAT proof that no shorter plan (or none at all) exists
    proof_dir: str | None = None  # keep the certificate's CNF and proof there
    # models kept warm between solves by a long-lived process (a service worker): see WarmModels
    warm_models: WarmModels | None = None


class WarmModels:
    """Horizon models, each with its engine's prepared session, kept between solves.

    Building and loading the time-expanded model is most of a small puzzle's solve
    (wolf, goat and cabbage: ~4 of ~7 ms); a process that answers the same puzzles again
    and again (a service worker asked for the built-in presets) keeps the last
    ``size`` of them, least recently used first out.  It is a cache of *models* only:
    every solve still searches, asks the model its two questions and replays the plan.
    Only models of at most ``most_constraints`` (estimated) are kept, on engines whose
    sessions answer many questions (``shares_models``), so memory stays bounded (a kept
    model: up to ~6 MB, jealous husbands with 6 couples; 8 of them: ~50 MB).  A model is
    taken out while a solve uses it and put back only when that solve ended normally (an
    error leaves it out).  Not thread-safe: one per process (or thread)."""

    def __init__(self, size: int = 8, most_constraints: int = LAYERED_FROM):
        self.size, self.most_constraints = size, most_constraints
        self._kept: OrderedDict[tuple, tuple[PlanModel, Session]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def take(self, key: tuple) -> tuple[PlanModel, Session] | None:
        return self._kept.pop(key, None)

    def keep(self, key: tuple, plans: PlanModel, session: Session, constraints: int) -> None:
        if constraints > self.most_constraints or self.size <= 0:
            return
        self._kept[key] = (plans, session)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)


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
    spec: Spec = field(kw_only=True)
    methods: list[str] = field(default_factory=list)  # the methods whose answers agree
    confirmation: str = ""  # what the time-expanded model said about the search's answer
    certificate: dict | None = None  # with Options.certify: see models.crossing.certify
    # the engine's search counters (its STATS) summed over every question asked of the
    # time-expanded model in this run; empty when the model was not asked anything
    stats: dict[str, int] = field(default_factory=dict)

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
            "stats": self.stats,
        }
        if self.shortest_plans is not None:
            # the number (up to swapping identical copies); how it was counted alongside
            record["shortest_plans"] = self.shortest_plans["count"]
            record["shortest_plans_detail"] = self.shortest_plans
        if self.simple_paths is not None:
            record["simple_paths"] = self.simple_paths
        if self.certificate is not None:
            record["certificate"] = self.certificate
        return record


@dataclass
class Verdict:
    """What a method proved about the puzzle: the status in words, and the plan it replayed."""

    status: str  # solved | unsolvable | unknown
    proof: str
    methods: list[str] = field(default_factory=list)
    plan: list[Move] | None = None
    banks: list[dict] | None = None
    shortest_plans: dict | None = None  # counted on the model that found the plan


@dataclass
class Horizon:
    """A horizon no plan needs to exceed, and why: a proof that no plan of at most
    ``steps`` crossings exists is a proof that there is no plan at all."""

    steps: int
    why: str


def _assignment(answer: SolveResult) -> Assignment:
    """The assignment of a "sat" answer: every engine gives one with it."""
    assert answer.assignment is not None, f"a {answer.status} answer without an assignment"
    return answer.assignment


def solve(spec: Spec, options: Options | None = None, report: Report | None = None) -> Outcome:
    """The proven shortest plan of ``spec`` (see :class:`Run`)."""
    return Run(spec, options or Options(), report).solve()


class Run:
    """One solve of one puzzle: its problem, options, clock and progress report.

    Counted graph first: a breadth-first search over the counted states
    (interchangeable actors counted) gives the shortest length, or proves
    there is no plan, whenever the reachable counted states fit
    ``options.counted_limit``; the time-expanded model then confirms that
    answer with one or two calls.  Past the limit, the model alone decides,
    horizon by horizon.  Every plan is replayed by the independent checker."""

    def __init__(self, spec: Spec, options: Options, report: Report | None = None):
        self.problem = CrossingProblem(spec)
        self.spec = spec
        self.options = options
        self.report: Report = report or (lambda text: None)
        self.deadline = Deadline(options.time_limit)
        self.started = time.perf_counter()
        self.outcome = Outcome(spec.name, engine=options.engine, spec=spec)
        self._layout: Layout | None = None
        self.longest: Horizon | None = None  # set once a search bounds the plans
        # every reachable counted state, when a complete search found no plan, the run certifies
        # and they are at most INVARIANT_STATES (the certificate proves them an invariant)
        self.reachable: list[CountedState] | None = None
        self._next_states: dict = {}  # counted state -> the states one move away (see the search)
        self._next_states_kept = 0

    @property
    def layout(self) -> Layout:
        """The counted layout: :meth:`solve` makes it before anything asks for it."""
        assert self._layout is not None, "solve() makes the layout first"
        return self._layout

    def _longest(self) -> Horizon:
        """The bound on every plan, which a search that decided without a plan has set."""
        assert self.longest is not None, "a search that found no plan bounds the plans"
        return self.longest

    # -- the clock ------------------------------------------------------------------------
    def seconds_left(self) -> float:
        # Always a number: with a limit, the engines solve in slices and check
        # between them, which is also what lets Ctrl-C through.
        left = self.deadline.remaining()
        return 1e9 if left is None else max(0.001, left)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    @property
    def unary(self) -> bool:
        """Whether the model's counts are order-encoded in unary: for engines without native
        linear constraints, which would otherwise encode them in clauses of their own."""
        return not engine_info(self.options.engine).supports(Capability.NATIVE_LINEAR)

    # -- the whole run -----------------------------------------------------------------------
    def solve(self) -> Outcome:
        outcome = self.outcome
        self.report("finding interchangeable actors")
        try:
            self._layout = layout = Layout.of(self.problem, self.options.use_symmetry, self.deadline)
        except OutOfTime as error:
            outcome.proof = f"time limit: {error}; nothing decided"
            return self._finish()
        bound, exact = layout.safe_state_bound(SAFE_COUNT_LIMIT, self.deadline)
        outcome.abstraction = {
            "blocks": layout.describe(),
            "counted_states": layout.number_of_counted_states(),
            "safe_counted_states": bound if exact else None,
            "reachable_counted_states": None,
            "plans_reported": "concrete actors: the counted plan is concretised by letting the "
            "lowest-numbered interchangeable block make each move, then replayed by the checker",
        }
        verdict = self._start_breaks_a_rule()
        if verdict is None:
            search = self._counted_search()
            if search.length is not None or search.complete:
                self._record(self._counted_verdict(search))
                if self.options.certify and search.length is None and search.states <= INVARIANT_STATES:
                    assert search.layers is not None, "the counted search keeps its layers"
                    self.reachable = [key for layer in search.layers for key in layer]
                self._confirm_on_model(search)
            elif not self.deadline.passed():  # too many counted states: the model alone decides
                search.layers = None  # (the layers are kept for the confirmation only)
                self._record(self._model_alone(bound, exact, search.depth))
            else:
                outcome.proof = (
                    f"time limit: {_none_within(search.depth)} (breadth-first over "
                    f"{plural(search.states, 'counted state')}), the rest unknown"
                )
        else:
            self._record(verdict)
        if self.options.cross_check:
            self._cross_check()
        if self.options.simple_paths:
            self.report("enumerating simple paths")
            found = simple_paths(
                self.problem.initial, self._neighbours(), self.problem.goal_test, self.seconds_left()
            )
            outcome.simple_paths = {
                "count": found.count,
                "histogram": found.histogram,
                "complete": found.complete,
            }
        return self._finish()

    def _finish(self) -> Outcome:
        """The certificate, when asked for, and the time taken."""
        if self.options.certify:
            from .certify import certify_outcome  # only a certifying run loads the proof tools

            self.outcome.certificate = certify_outcome(self)
        self.outcome.seconds = self.elapsed()
        return self.outcome

    def _record(self, verdict: Verdict) -> None:
        """The verdict becomes the outcome's answer (the one place that sets it)."""
        outcome = self.outcome
        outcome.status, outcome.proof, outcome.methods = verdict.status, verdict.proof, verdict.methods
        outcome.plan, outcome.banks = verdict.plan, verdict.banks
        if verdict.shortest_plans is not None:
            outcome.shortest_plans = verdict.shortest_plans

    def _start_breaks_a_rule(self) -> Verdict | None:
        for side in (0, 1):
            index = self.problem.broken_rule(self.problem.side_content(self.problem.initial, side), "banks")
            if index is not None:
                return Verdict(
                    "unsolvable", f"the start already breaks {self.problem.describe_rule(index)}", ["rules"]
                )
        return None

    # -- the counted graph ----------------------------------------------------------------
    def _counted_search(self) -> Search:
        """Breadth-first over the counted state graph (stopping at the first goal met)."""
        layout = self.layout

        def on_layer(depth: int, states: int) -> None:
            self.report(f"breadth-first search: depth {depth}, {states:,} counted states")

        def successors(key: CountedState) -> Iterator[tuple[Any, CountedState]]:
            # moves kept as tuples: a parent link per state is most of the search's memory
            following = []
            for move, nxt in layout.counted_successors(key):
                following.append(nxt)
                yield tuple((ty, tuple(table.items())) for ty, table in move.items()), nxt
            self._remember_next_states(key, following)  # (not reached when the search stops here)

        search = breadth_first(
            layout.counted_start(),
            successors,
            layout.is_counted_goal,
            self.options.counted_limit,
            self.deadline,
            on_layer,
            stop_at_goal=True,
            keep_layers=True,
        )
        if search.labels is not None:
            search.labels = [{ty: dict(table) for ty, table in move} for move in search.labels]
        if search.complete:
            self.outcome.states = search.states
            self.outcome.abstraction["reachable_counted_states"] = search.states
            self.longest = Horizon(
                search.states - 1,
                f"a shortest plan never repeats a state and only "
                f"{plural(search.states, 'counted state')} {'is' if search.states == 1 else 'are'} "
                f"reachable",
            )
        return search

    def _remember_next_states(self, key: CountedState, following: list[CountedState]) -> None:
        """The successors the search listed for ``key``, for the counted graph's
        cross-check (the same successor function: asked once, not twice), while
        at most NEXT_STATES_KEPT of them are kept."""
        if self._next_states_kept + len(following) <= NEXT_STATES_KEPT:
            self._next_states[key] = following
            self._next_states_kept += len(following)

    def _counted_verdict(self, search: Search) -> Verdict:
        """A goal met is a shortest plan (replayed by the checker); a complete
        search without one proves there is none."""
        if search.length is not None:
            assert search.labels is not None, "a goal met comes with the moves to it"
            plan = self.layout.concretise(search.labels)
            banks = replay(self.spec, plan)  # raises VerificationError
            proof = (
                (
                    f"shortest: breadth-first search over the counted state graph (interchangeable "
                    f"actors counted) meets the goal first after {crossings(search.length)} "
                    f"({plural(search.states, 'counted state')} seen); the plan was replayed by the "
                    f"independent checker"
                )
                if search.length
                else "the start is already the goal"
            )
            return Verdict("solved", proof, ["counted-bfs", "checker"], plan, banks)
        every = (
            "the only reachable counted state"
            if search.states == 1
            else f"all {search.states:,} reachable counted states"
        )
        return Verdict(
            "unsolvable",
            f"breadth-first search over {every} (interchangeable actors counted) never meets the goal",
            ["counted-bfs"],
        )

    # -- the time-expanded model ------------------------------------------------------------
    def _affordable(self, horizon: int) -> str:
        """Why a model of ``horizon`` steps should not be built, or "" when it may."""
        options = self.options
        size = estimated_size(self.layout, horizon, unary=self.unary)
        if size > options.model_limit:
            return (
                f"the model of {crossings(horizon)} would have about {size:,} constraints "
                f"(limit {options.model_limit:,})"
            )
        # the build may take a third of the time left: the solving needs the rest
        if options.time_limit is not None and 3 * size / BUILD_RATE > self.seconds_left():
            return (
                f"building the model of {crossings(horizon)} (about {size:,} constraints) "
                f"would not fit in the time left"
            )
        return ""

    def _build(self, horizon: int) -> PlanModel:
        return PlanModel(self.layout, horizon, unary=self.unary, deadline=self.deadline)

    def _confirm_on_model(self, search: Search) -> None:
        """The time-expanded model's word on the search's answer: no plan one
        crossing shorter (UNSAT) and a plan of that length (SAT, replayed); for an
        unsolvable puzzle, no plan as long as a loop-free plan can be (UNSAT)."""
        outcome, engine_name = self.outcome, self.options.engine
        solved = outcome.status == "solved"
        length = search.length if solved else self._longest().steps
        assert length is not None, "a solved search has the plan's length"
        layers, search.layers = search.layers, None  # read here only: not kept any longer
        assert layers is not None, "the counted search keeps its layers"
        if solved and length == 0:
            return

        def unconfirmed(reason: str) -> None:
            outcome.confirmation = f"not confirmed on {engine_name}: {reason}"
            if solved and self.options.count_shortest:
                outcome.confirmation += " (the shortest plans are counted on that model: not counted)"

        size = estimated_size(self.layout, length, self.unary)
        if not self.options.count_shortest and size > LAYERED_FROM:
            return self._confirm_layered(search, layers, length)
        warm, key = self._warm_models(), (self.spec, self.options.use_symmetry, engine_name, length)
        kept = warm.take(key) if warm is not None else None
        if kept is not None:
            plans, session = kept
        else:
            skip = self._affordable(length)
            if skip:
                return unconfirmed(skip)
            self.report(f"confirming on {engine_name}: building the model of {crossings(length)}")
            try:
                plans = self._build(length)
            except OutOfTime as error:
                return unconfirmed(str(error))
            session = get_engine(engine_name).prepare(plans.model)
        self._confirm_with_two_calls(plans, session, length, unconfirmed)
        if warm is not None:  # (not reached when the model disagreed: that model is dropped)
            warm.keep(key, plans, session, size)

    def _warm_models(self) -> WarmModels | None:
        """The options' kept models, when this run's engine can use them."""
        warm = self.options.warm_models
        if warm is None or not engine_info(self.options.engine).supports(Capability.SHARES_MODELS):
            return None
        return warm

    def _confirm_with_two_calls(
        self, plans: PlanModel, session: Session, length: int, unconfirmed: Callable[[str], None]
    ) -> None:
        """The questions of :meth:`_confirm_on_model` on the model of ``length`` steps."""
        outcome, engine_name = self.outcome, self.options.engine
        if outcome.status != "solved":
            self.report(f"confirming on {engine_name}: any plan of at most {crossings(length)}?")
            answer = self._ask(session, ())
            if answer.status == "sat":
                self._found(plans, _assignment(answer))
                raise VerificationError("the model has a plan, the breadth-first search proved there is none")
            if answer.status == "unknown":
                return unconfirmed("the time limit ran out")
            outcome.confirmation = (
                f"confirmed on {engine_name}: no plan of at most {crossings(length)} "
                f"(unsatisfiable); {self._longest().why}, so no plan is longer"
            )
            outcome.methods.append(f"{engine_name}-model")
            return
        self.report(f"confirming on {engine_name}: no plan of {crossings(length - 1)}?")
        shorter = self._ask(session, [-plans.act[length - 1]])
        if shorter.status == "sat":
            self._found(plans, _assignment(shorter))
            raise VerificationError(
                f"the model has a plan shorter than the breadth-first search's {crossings(length)}"
            )
        self.report(f"confirming on {engine_name}: a plan of {crossings(length)}?")
        same = self._ask(session, ()) if shorter.status == "unsat" else shorter
        if same.status == "unsat":
            raise VerificationError(
                f"the model has no plan of {crossings(length)}, the breadth-first search has one"
            )
        if same.status == "unknown":
            return unconfirmed("the time limit ran out")
        found, _ = self._found(plans, _assignment(same))
        if len(found) != length:
            raise VerificationError(
                f"the model's plan has {crossings(len(found))}, the breadth-first search's {length}"
            )
        outcome.confirmation = (
            f"confirmed on {engine_name} with two calls: no plan with at most "
            f"{crossings(length - 1)} (unsatisfiable), a plan of {length} "
            f"(satisfiable, replayed by the checker)"
        )
        outcome.methods.append(f"{engine_name}-model")
        if self.options.count_shortest:
            self.report("counting the shortest plans")
            outcome.shortest_plans = self._count(plans, session, length)

    def _confirm_layered(self, search: Search, layers: list[list], length: int) -> None:
        """The model's word on the search's answer, from the search's distance layers
        checked on a one-step model (the layers only say which questions to ask).

        Solved in ``length``: the model's start is the search's; a move of the model
        from a state within d crossings of the start reaches one within d + 1, for
        every d < length - 1; no state within length - 1 meets the model's goal.  By
        induction on the steps, the model has no plan of at most length - 1 crossings.
        Each crossing of the search's plan is a move of the model, and its last state
        meets the model's goal.  Unsolvable: no move of the model leaves the reachable
        states, and none of them meets the goal, so the model has no plan at all."""
        outcome, engine_name = self.outcome, self.options.engine
        solved = outcome.status == "solved"
        if solved:
            layers = layers[:length]

        def unconfirmed(reason: str) -> None:
            outcome.confirmation = f"not confirmed on {engine_name}: {reason}"

        states = [key for layer in layers for key in layer]
        if len(states) > LAYERED_STATES:
            return unconfirmed(
                f"{plural(len(states), 'counted state')} to check layer by layer (limit {LAYERED_STATES:,})"
            )
        skip = self._affordable(1)
        if skip:
            return unconfirmed(skip)
        self.report(f"confirming on {engine_name}: building the one-step model")
        try:
            plans = PlanModel(self.layout, 1, unary=self.unary, deadline=self.deadline, anchored=False)
            before = [plans.is_state(0, key) for key in states]
            after = [plans.is_state(1, key) for key in states]
        except OutOfTime as error:
            return unconfirmed(str(error))
        m = plans.model
        ends = [0]  # the states within d crossings: states[:ends[d + 1]]
        for layer in layers:
            ends.append(ends[-1] + len(layer))
        from_layer = []  # from_layer[d]: "the state before the step is at distance d"
        for d in range(len(layers)):
            selector = m.new_var()
            m.add_clause([-selector, *before[ends[d] : ends[d + 1]]])
            from_layer.append(selector)
        in_reach = m.new_var()  # "the state after the step is one of the states checked"
        m.add_clause([-in_reach, *after])
        session = get_engine(engine_name).prepare(m)

        def ask(what: str, assumptions: list[int], expected: str) -> bool:
            """True when the engine answers ``expected``; a contrary answer is a bug."""
            if self.deadline.passed():
                return False
            self.report(f"confirming on {engine_name}: {what}")
            answer = self._ask(session, assumptions)
            if answer.status not in ("unknown", expected):
                raise VerificationError(
                    f"the one-step model disagrees with the breadth-first search: {what}: {answer.status}"
                )
            return answer.status == expected

        questions = [("the start", [plans.start_guard, -before[0]], "unsat")]
        if solved:
            questions += [
                (f"moves from distance {d}", [from_layer[d], *(-e for e in after[: ends[d + 2]])], "unsat")
                for d in range(length - 1)
            ]
        else:
            questions += [
                (f"moves from distance {d}", [from_layer[d], *(-e for e in after)], "unsat")
                for d in range(len(layers))
            ]
        questions.append(("the goal", [plans.goal_guard, in_reach], "unsat"))
        if solved:
            path = search.path
            assert path is not None, "a solved search has the plan's states"
            questions += [
                (
                    f"crossing {t + 1} of the plan",
                    [*plans.state_literals(0, path[t]), *plans.state_literals(1, path[t + 1])],
                    "sat",
                )
                for t in range(length)
            ]
            questions.append(
                ("the plan's end", [plans.goal_guard, *plans.state_literals(1, path[-1])], "sat")
            )
        for what, assumptions, expected in questions:
            if not ask(what, assumptions, expected):
                return unconfirmed("the time limit ran out")
        calls = len(questions)
        if solved:
            outcome.confirmation = (
                f"confirmed on {engine_name} layer by layer on a one-step model ({calls} calls): the "
                f"model's moves from the counted states within d crossings of the start reach only "
                f"states within d + 1, and none within {length - 1} meets the goal (unsatisfiable), "
                f"so no plan has at most {crossings(length - 1)}; each of the plan's {crossings(length)} "
                f"is a move of the model (satisfiable)"
            )
        else:
            outcome.confirmation = (
                f"confirmed on {engine_name} on a one-step model ({calls} calls): no move of the "
                f"model leaves the {plural(len(states), 'reachable counted state')} and none of them "
                f"meets the goal (unsatisfiable), so there is no plan"
            )
        outcome.methods.append(f"{engine_name}-model")

    def _model_alone(self, bound: int, exact: bool, proven: int) -> Verdict:
        """The model alone, horizon by horizon (too many counted states for the search);
        ``proven``: no plan has at most that many crossings (from the search)."""
        engine = get_engine(self.options.engine)
        engine_name = self.options.engine
        self.longest = longest = Horizon(
            max(1, bound - 1),  # a shortest plan never repeats a state
            f"a shortest plan never repeats a state and there are "
            f"{'only ' + str(bound) if exact else 'at most ' + str(bound)} safe counted states "
            f"(interchangeable actors counted)",
        )
        horizon = min(max(FIRST_HORIZON, proven + 1), longest.steps)

        def give_up(reason: str) -> Verdict:
            return Verdict("unknown", f"{reason}: {_none_within(proven)}, the rest unknown")

        while True:
            if self.deadline.passed():
                return give_up("time limit")
            skip = self._affordable(horizon)
            if skip:
                return give_up(skip)
            self.report(f"horizon {horizon}: building the model")
            try:
                plans = self._build(horizon)
            except OutOfTime:
                return give_up("time limit")
            session = engine.prepare(plans.model)
            self.report(f"horizon {horizon}: any plan of at most {crossings(horizon)}?")
            answer = self._ask(session, ())
            if answer.status == "unknown":
                return give_up("time limit")
            if answer.status == "unsat":
                proven = horizon
                if horizon >= longest.steps:
                    return Verdict(
                        "unsolvable",
                        (
                            f"no plan of at most {crossings(horizon)} (unsatisfiable on {engine_name}); "
                            f"{longest.why}, so no plan is longer than {longest.steps}"
                        ),
                        [f"{engine_name}-model"],
                    )
                horizon = min(2 * horizon, longest.steps)
                continue
            return self._narrow_down(plans, session, _assignment(answer), proven)

    def _narrow_down(self, plans: PlanModel, session: Session, best: Assignment, proven: int) -> Verdict:
        """From a plan the model found, the shortest: each horizon just above ``proven``
        asked under ``-act[T]`` on the same session until the plan found is proven shortest."""
        engine_name = self.options.engine
        while proven + 1 < plans.length(best):
            shorter = proven + 1
            self.report(f"horizon {shorter}: proving no plan is that short")
            if self.deadline.passed():
                status = "unknown"
            else:
                answer = self._ask(session, [-plans.act[shorter]] if shorter < plans.horizon else [])
                status = answer.status
            if status == "unknown":
                plan, banks = self._found(plans, best)
                return Verdict(
                    "unknown",
                    f"time limit: a plan of {crossings(len(plan))} found, "
                    f"{_none_within(proven)}, the rest unknown",
                    [],
                    plan,
                    banks,
                )
            if status == "unsat":
                proven = shorter
            else:
                best = _assignment(answer)
        plan, banks = self._found(plans, best)
        length = len(plan)
        proof = (
            (
                f"shortest: no plan with at most {crossings(length - 1)} (each horizon up to "
                f"{length - 1} unsatisfiable on {engine_name}); the plan of {length} was "
                f"replayed by the independent checker"
            )
            if length
            else "the start is already the goal"
        )
        counted = None
        if self.options.count_shortest:
            self.report("counting the shortest plans")
            counted = self._count(plans, session, length)
        return Verdict("solved", proof, [f"{engine_name}-model", "checker"], plan, banks, counted)

    def _ask(self, session: Session, assumptions: Sequence[int]) -> SolveResult:
        """One question to the engine on the time left; its search counters are added up."""
        answer = session.solve(assumptions, self.seconds_left())
        self._add_stats(answer.stats)
        return answer

    def _add_stats(self, stats: dict[str, int]) -> None:
        totals = self.outcome.stats
        for name, value in stats.items():
            totals[name] = totals.get(name, 0) + value

    def _found(self, plans: PlanModel, assignment: Assignment) -> tuple[list[Move], list[dict]]:
        """The plan of an assignment, concretised and replayed (with the banks after
        each step); a disagreement is a bug."""
        _, counted_moves = plans.counted_plan(assignment)
        plan = self.layout.concretise(counted_moves)
        banks = replay(self.spec, plan)  # raises VerificationError
        if len(plan) != plans.length(assignment):
            raise VerificationError("decoded plan length differs from the model's")
        return plan, banks

    def _count(self, plans: PlanModel, session: Session, length: int) -> dict:
        """Concrete shortest plans: the sum, over counted shortest plans, of the
        ways to pick which interchangeable blocks make each move."""
        total = 0
        counted = 0

        def add(assignment: Assignment) -> None:
            nonlocal total, counted
            states, moves = plans.counted_plan(assignment)
            ways = 1
            for state, move in zip(states, moves):
                ways *= self.layout.multiplicity(state, move)
            total += ways
            counted += 1

        assumptions = [-plans.act[length]] if length < plans.horizon else []
        found = session.enumerate(
            assumptions, limit=self.options.count_limit, time_limit=self.seconds_left(), on_solution=add
        )
        self._add_stats(found.stats)
        return {"count": total, "counted_plans": counted, "complete": found.complete}

    # -- cross-checks ---------------------------------------------------------------------------
    def _neighbours(self) -> Callable[[State], list[State]]:
        """The successor function as ``state -> next states``, each state's list
        computed once (the depth-first enumeration meets states again and again)."""
        memo: dict = {}

        def neighbours(state: State) -> list[State]:
            if state not in memo:
                memo[state] = [nxt for _, nxt in self.problem.successors(state)]
            return memo[state]

        return neighbours

    def _cross_check(self) -> None:
        """Independent answers from networkx: the counted state graph (its own BFS
        over the same counted successors) and, where it fits, the explicit graph of
        concrete states (an independent successor function).  A disagreement is a bug."""
        outcome = self.outcome
        decided = outcome.status in ("solved", "unsolvable")
        expected = outcome.crossings if outcome.status == "solved" else None
        check: dict = {
            "graph_crossings": None,
            "graph_states": None,
            "graph_shortest_plans": None,
            "counted_graph_crossings": None,
            "counted_graph_states": None,
            "agrees": None,
        }
        notes: list[str] = []

        def compare(length: int | None, method: str) -> None:
            if not decided:
                return
            if length != expected:
                raise VerificationError(
                    f"{method} finds {length} crossings, the solver {expected} ({outcome.status})"
                )
            check["agrees"] = True
            outcome.methods.append(method)

        counted = self._counted_graph(notes)
        if counted is not None:
            length, states = counted
            check.update(counted_graph_crossings=length, counted_graph_states=states)
            outcome.states = states
            outcome.abstraction["reachable_counted_states"] = states
            compare(length, "networkx-counted-graph")
        explicit = self._explicit_graph(notes)
        if explicit is not None:
            length, states, count = explicit
            check.update(graph_crossings=length, graph_states=states, graph_shortest_plans=count)
            compare(length, "networkx-explicit-graph")
            plans = outcome.shortest_plans
            if decided and plans is not None and plans["complete"] and plans["count"] != count:
                raise VerificationError(
                    f"the model counts {plans['count']} shortest plans, the explicit state graph {count}"
                )
        if notes:
            check["note"] = "; ".join(notes)
        outcome.cross_check = check

    def _counted_graph(self, notes: list[str]) -> tuple[int | None, int] | None:
        """(shortest length, states) of the counted state graph, or None (why, in ``notes``)."""
        layout = self.layout
        if self.deadline.passed():
            notes.append("counted state graph not built: the time limit ran out first")
            return None
        self.report("cross-checking with the counted state graph (networkx)")

        def neighbours(key: CountedState) -> list[CountedState]:
            known = self._next_states.get(key)
            return known if known is not None else [nxt for _, nxt in layout.counted_successors(key)]

        try:
            graph = build_graph(
                layout.counted_start(),
                neighbours,
                self.options.graph_limit,
                self.seconds_left(),
                lambda n: self.report(f"cross-check: counted state graph, {n:,} states"),
            )
        except TooLarge as error:
            notes.append(f"counted state graph not built: {error}")
            return None
        length, _, _ = shortest_paths(graph, layout.counted_start(), layout.is_counted_goal)
        return length, graph.number_of_nodes()

    def _explicit_graph(self, notes: list[str]) -> tuple[int | None, int, int] | None:
        """(shortest length, states, shortest plans) of the explicit state graph, or None."""
        problem, limit = self.problem, self.options.graph_limit
        size = problem.state_space_size()
        if size > limit:
            shown = f"{size:,}" if size < 10**12 else f"about 10^{len(str(size)) - 1}"
            notes.append(f"explicit state graph not built: up to {shown} states (limit {limit:,})")
            return None
        if self.deadline.passed():
            notes.append("explicit state graph not built: the time limit ran out first")
            return None
        self.report("cross-checking with the explicit state graph (networkx)")
        try:
            graph = build_graph(
                problem.initial,
                self._neighbours(),
                limit,
                self.seconds_left(),
                lambda n: self.report(f"cross-check: explicit state graph, {n:,} states"),
            )
        except TooLarge as error:
            notes.append(f"explicit state graph not built: {error}")
            return None
        length, count, _ = shortest_paths(graph, problem.initial, problem.goal_test)
        return length, graph.number_of_nodes(), count


def _none_within(proven: int) -> str:
    if proven < 0:
        return "no horizon decided"
    return f"no plan with at most {crossings(proven)}"
