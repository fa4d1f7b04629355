"""The time-expanded model: the counted state at steps 0..H, a counted move per
step, the rules at every place of every step, start at 0 and goal at H.

Integers are in *order encoding* (:meth:`mindgames.solver.model.Model.new_count`): a count
``n`` in ``0..k`` is ``k`` literals ``u1 >= u2 >= ... >= uk`` with ``n = u1 + ... + uk``,
so every count, load and weight is a linear sum of literals.  A step may be idle
(``act[t]`` false: nothing moves, the state stays), and idle steps only come
last, so ``act[t]`` means "the plan has more than t crossings" and the assumption
``-act[T]`` means "a plan of at most T crossings": one model answers every
horizon up to H (incrementally on the ``sat`` engine).

Throughout, ``t`` is a time step and ``ty`` a block type (see :mod:`.layout`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import ClassVar, Union

from mindgames.solver.deadline import Deadline
from mindgames.solver.model import Assignment, Model, Units, count_value, is_true
from mindgames.solver.statespace import OutOfTime

from .layout import CountedMove, CountedState, Layout, Pattern
from .rules import Conjunction, NotOutnumbered

Condition = tuple[int, frozenset[int], int, bool]
"""``(type, allowed patterns, at least r, holds?)``: "at least r blocks of the type
show one of the allowed patterns" is true (``holds``) or false."""

#: most reachable counted states a certificate proves an inductive invariant (the run keeps
#: them only up to this many; models/crossing/certify.py proves them closed under moves)
INVARIANT_STATES = 20_000


# -- places: where the rules are stated ------------------------------------------------
@dataclass(frozen=True)
class Bank:
    """A bank after step ``step``: ``side`` 0 is the near side, 1 the far side."""

    step: int
    side: int
    kind: ClassVar[str] = "banks"


@dataclass(frozen=True)
class Boat:
    """The boat's load during the crossing of step ``step`` (river puzzles)."""

    step: int
    kind: ClassVar[str] = "boat"

    def shows(self, config: int, moving: int) -> int:
        """The positions of a block aboard, for a block in ``config`` moving ``moving``."""
        return moving


@dataclass(frozen=True)
class Basket:
    """A pulley basket during step ``step``: the descending one (``down``) or the rising one."""

    step: int
    down: bool
    kind: ClassVar[str] = "boat"  # the rules for vehicles hold in each basket

    def shows(self, config: int, moving: int) -> int:
        # near (top) positions descend, far (ground) ones rise
        return moving & ~config if self.down else moving & config


Place = Union[Bank, Boat, Basket]


def most_moving(layout: Layout, ty: int, pattern: Pattern) -> int:
    """The most blocks of type ``ty`` that can make ``pattern`` in one step: the
    blocks there are, and no more than the vehicle carries (each carries the
    pattern's positions): larger counts are impossible, so they are not stated."""
    spec, size = layout.spec, layout.types[ty].size
    config, moving = pattern
    if spec.is_river:  # a river trip takes positions from one side: its direction is known
        capacity = spec.capacity_towards(far=not moving & config)
        aboard = bin(moving).count("1")
    else:  # each basket carries its part of the pattern
        capacity = spec.capacity
        aboard = max(bin(moving & ~config).count("1"), bin(moving & config).count("1"))
    # at least one unit: a pattern too big for the vehicle is forbidden by the load's own bound
    return size if capacity is None else min(size, max(1, capacity // aboard))


def estimated_size(layout: Layout, horizon: int, unary: bool = True) -> int:
    """About how many constraints :class:`PlanModel` states (measured on the
    presets, within a factor of about 3): per step and block type, the count
    transitions; unary sums of counts up to ``size`` take about ``size**2`` clauses."""
    per_step = 0
    for ty, bt in enumerate(layout.types):
        terms = len(layout.configs(ty)) + len(layout.patterns(ty))
        per_step += terms * bt.size * (bt.size + 1 if unary else 2)
    return (horizon + 1) * per_step


class PlanModel:
    """The model of plans of at most ``horizon`` crossings (see the module text).

    ``unary``: state the count arithmetic as clauses between unary sums (best for
    CNF engines) rather than as linear equations (best for CP-SAT, which
    reasons on integers natively).  ``deadline``: raise :class:`OutOfTime` once
    it has passed (checked every step).

    ``counts[t][ty][config]``: blocks of type ``ty`` in ``config`` after ``t`` steps;
    ``moves[t][ty][pattern]``: blocks making ``pattern`` in step ``t``;
    ``act[t]``: step ``t`` is a crossing (not idle); ``boat[t]`` (river): the boat
    is on the far side after ``t`` steps.

    ``anchored`` False: the start at step 0 and the goal at the last step hold only
    under the assumptions ``start_guard`` and ``goal_guard``, so the steps can be
    asked about from any state (see :meth:`state_literals`)."""

    def __init__(
        self,
        layout: Layout,
        horizon: int,
        unary: bool = True,
        deadline: Deadline | None = None,
        anchored: bool = True,
    ):
        self.layout, self.horizon, self.unary = layout, horizon, unary
        self.deadline = deadline
        self.anchored = anchored
        self.start_guard = self.goal_guard = 0  # 0: not guarded (an anchored model)
        self.model = Model()
        self.counts: list[list[dict[int, Units]]] = []
        self.moves: list[list[dict[Pattern, Units]]] = []
        self.act: list[int] = []
        self.boat: list[int] = []
        self._at_least_cache: dict[tuple[Place, int, frozenset[int], int], int] = {}
        self._lifted: dict[tuple[Conjunction, ...], list[list[Condition]]] = {}
        self._stated: dict[Place, set[frozenset[Condition]]] = {}
        # not_together rules first: the order the model has always been built in
        # (the numbering of variables, hence which plan an engine finds, follows it)
        problem = layout.problem
        self._rules_at = {
            kind: sorted(
                (r for r in problem.rules if r.applies_at(kind)), key=lambda r: isinstance(r, NotOutnumbered)
            )
            for kind in ("banks", "boat")
        }
        self._build()

    # -- building ------------------------------------------------------------------
    def _build(self) -> None:
        m, layout, horizon = self.model, self.layout, self.horizon
        self._true = m.new_var("true")
        m.add_clause([self._true])
        for t in range(horizon + 1):
            self.counts.append(
                [
                    {c: m.new_count(bt.size, primary=True) for c in layout.configs(ty)}
                    for ty, bt in enumerate(layout.types)
                ]
            )
            if not self.anchored:
                continue  # asked only about given states (the transitions keep every block)
            for ty, bt in enumerate(layout.types):  # every block is somewhere
                m.add_exactly([u for units in self.counts[t][ty].values() for u in units], bt.size)
        for t in range(horizon):
            self.moves.append(
                [
                    {p: m.new_count(most_moving(layout, ty, p), primary=True) for p in layout.patterns(ty)}
                    for ty in range(len(layout.types))
                ]
            )
            self.act.append(m.new_var(f"act{t}"))
        if layout.spec.is_river:
            self.boat = [m.new_var(f"boat{t}") for t in range(horizon + 1)]
        self._start_and_goal()
        for t in range(horizon):
            self._check_clock()
            self._step(t)
        for t in range(horizon + 1):
            self._check_clock()
            for side in (0, 1):
                self._state_rules(Bank(t, side))
        for t in range(horizon):
            self._check_clock()
            if layout.spec.is_river:
                self._state_rules(Boat(t))
            else:
                self._state_rules(Basket(t, down=True))
                self._state_rules(Basket(t, down=False))

    def _check_clock(self) -> None:
        if self.deadline is not None and self.deadline.passed():
            raise OutOfTime(f"the time limit ran out while building the model of {self.horizon} steps")

    def _start_and_goal(self) -> None:
        m, layout, last = self.model, self.layout, self.horizon
        if not self.anchored:
            self.start_guard, self.goal_guard = m.new_var("start"), m.new_var("goal")
        start = [-self.start_guard] if self.start_guard else []
        goal = [-self.goal_guard] if self.goal_guard else []
        for ty in range(len(layout.types)):
            for c, units in self.counts[0][ty].items():
                for u in units:
                    m.add_clause([*start, u if c == 0 else -u])
            must = layout.position_mask(ty, frozenset(a.name for a in layout.spec.actors if a.must_cross))
            for c, units in self.counts[last][ty].items():
                if must & ~c:  # someone who must cross is still on the near side
                    m.add_clause([*goal, -units[0]])
        if self.boat:
            m.add_clause([*start, -self.boat[0]])

    def _step(self, t: int) -> None:
        """One crossing (or an idle step): transitions, the vehicle's rules."""
        m, layout = self.model, self.layout
        act = self.act[t]
        if t + 1 < self.horizon:
            m.add_implication(self.act[t + 1], act)  # idle steps come last
        for ty, table in enumerate(self.moves[t]):
            before, after = self.counts[t][ty], self.counts[t + 1][ty]
            for units in table.values():
                m.add_implication(units[0], act)
            for c in layout.configs(ty):
                leaving = [units for (cc, s), units in table.items() if cc == c]
                arriving = [units for (cc, s), units in table.items() if cc ^ s == c]
                if self.unary:
                    # count after + blocks leaving c == count before + blocks arriving in c,
                    # and no more blocks leave c than are in c
                    size = layout.types[ty].size
                    m.add_equal_counts(
                        m.unary_sum([after[c], *leaving], size), m.unary_sum([before[c], *arriving], size)
                    )
                    m.add_at_most_count(m.unary_sum(leaving, size), before[c])
                    continue
                # the same two facts as linear constraints
                gone = [u for units in leaving for u in units]
                come = [u for units in arriving for u in units]
                m.add_linear(
                    [*after[c], *gone, *before[c], *come],
                    [1] * (len(after[c]) + len(gone)) + [-1] * (len(before[c]) + len(come)),
                    "==",
                    0,
                )
                m.add_linear([*gone, *before[c]], [1] * len(gone) + [-1] * len(before[c]), "<=", 0)
        if layout.spec.is_river:
            self._river_step(t)
        else:
            self._pulley_step(t)

    def _river_step(self, t: int) -> None:
        m, layout, spec = self.model, self.layout, self.layout.spec
        act, here = self.act[t], self.boat[t]
        m.add_xor(self.boat[t + 1], here, act)  # the boat crosses on every active step
        if self.anchored:
            # Redundant but a great help to propagation: active steps come first and the
            # boat starts near, so after an active step t it is far exactly when t is even.
            m.add_clause([-act, self.boat[t + 1] if t % 2 == 0 else -self.boat[t + 1]])
        rowers = layout.problem.rowers
        load_lits, load_weights, rowing = [], [], []
        for ty, table in enumerate(self.moves[t]):
            for (c, s), units in table.items():
                # a trip leaves from the boat's side: s is on the far side exactly when the boat is
                m.add_implication(units[0], here if s & c else -here)
                load_lits += units
                load_weights += [bin(s).count("1")] * len(units)
                if layout.has(ty, s, lambda a: a.name in rowers):
                    rowing += units
        m.add_linear(load_lits + [act], load_weights + [-spec.min_load], ">=", 0)
        m.add_linear(rowing + [act], [1] * len(rowing) + [-1], ">=", 0)  # someone rows
        big = spec.total_copies()
        out, back = spec.capacity_towards(True), spec.capacity_towards(False)
        assert out is not None and back is not None, "a boat has a capacity (boat.capacity is required)"
        if out == back:
            m.add_linear(load_lits, load_weights, "<=", out)
        else:  # the capacity that applies depends on the direction
            m.add_linear(load_lits + [here], load_weights + [-big], "<=", out)
            m.add_linear(load_lits + [-here], load_weights + [-big], "<=", back)

    def _pulley_step(self, t: int) -> None:
        m, layout, spec = self.model, self.layout, self.layout.spec
        act = self.act[t]
        down_basket, up_basket = Basket(t, down=True), Basket(t, down=False)
        diff_lits, diff_weights, riders, down_n, up_n = [], [], [], [], []
        for ty, table in enumerate(self.moves[t]):
            for (c, s), units in table.items():
                down, up = down_basket.shows(c, s), up_basket.shows(c, s)
                diff_lits += units
                diff_weights += [layout.weight(ty, down) - layout.weight(ty, up)] * len(units)
                if layout.has(ty, s, lambda a: not a.cargo):
                    riders.append(units[0])
                down_n += [(u, bin(down).count("1")) for u in units]
                up_n += [(u, bin(up).count("1")) for u in units]
        m.add_linear(diff_lits + [act], diff_weights + [-1], ">=", 0)  # the top basket is heavier
        riding = m.new_var(f"riding{t}")
        m.add_or(riding, riders)
        big = sum(a.weight * a.count for a in spec.actors)
        m.add_linear(diff_lits + [riding], diff_weights + [big], "<=", spec.max_difference + big)
        if spec.capacity is not None:
            for basket in (down_n, up_n):
                m.add_linear([u for u, _ in basket], [w for _, w in basket], "<=", spec.capacity)

    # -- the rules at a place -----------------------------------------------------------
    def _state_rules(self, place: Place) -> None:
        """No rule that holds at places of ``place``'s kind is broken at ``place``."""
        for rule in self._rules_at[place.kind]:
            rule.clauses(self, place)

    def forbid_conjunctions(self, place: Place, conjunctions: tuple[Conjunction, ...]) -> None:
        """None of ``conjunctions`` (present names, absent names) holds at ``place``,
        stated on counts (:meth:`lift`); a condition stated once at a place is not repeated."""
        if conjunctions not in self._lifted:
            self._lifted[conjunctions] = self.lift(conjunctions)
        stated = self._stated.setdefault(place, set())
        for conditions in self._lifted[conjunctions]:
            if frozenset(conditions) in stated:
                continue
            stated.add(frozenset(conditions))
            self.model.add_clause(
                [
                    -self._at_least(place, ty, allowed, r) if holds else self._at_least(place, ty, allowed, r)
                    for ty, allowed, r, holds in conditions
                ]
            )

    def lift(self, conjunctions: tuple[Conjunction, ...]) -> list[list[Condition]]:
        """Conjunctions of names lifted to counts: for each, the conditions that together
        make a place unsafe.  Distinct blocks of one type must play the conjunction's
        roles: by Hall's theorem, distinct blocks exist exactly when every set R of
        roles has at least |R| blocks showing a pattern one of them allows.
        Duplicates (the images of one conjunction under the symmetry) collapse into one."""
        layout = self.layout
        found: dict[frozenset[Condition], list[Condition]] = {}
        for present, absent in conjunctions:
            roles: dict[tuple[int, int], list[int]] = {}
            conditions: set[Condition] = set()
            for names, holds in ((present, True), (absent, False)):
                for name in names:
                    ty, block, pos = layout.locate(name)
                    if layout.types[ty].identical:
                        conditions.add((ty, frozenset({1}), 1, holds))
                    else:
                        roles.setdefault((ty, block), [0, 0])[0 if holds else 1] |= 1 << pos
            if any(p & a for p, a in roles.values()):
                continue
            by_type: dict[int, list[frozenset[int]]] = {}
            for (ty, _), (p, a) in sorted(roles.items()):
                allowed = frozenset(q for q in layout.configs(ty) if q & p == p and not q & a)
                by_type.setdefault(ty, []).append(allowed)
            for ty, role_sets in by_type.items():
                for size in range(1, len(role_sets) + 1):
                    for group in combinations(role_sets, size):
                        if size > 1 and all(not x & y for x, y in combinations(group, 2)):
                            continue  # implied by the single roles
                        conditions.add((ty, frozenset().union(*group), size, True))
            found.setdefault(frozenset(conditions), sorted(conditions, key=repr))
        return list(found.values())

    def not_outnumbered(self, place: Place, protect: frozenset[str], by: frozenset[str]) -> None:
        """Where any of ``protect`` is, the copies of ``by`` do not exceed theirs."""
        m = self.model
        guarded = self._headcount(place, protect)
        if not guarded:
            return
        present = m.new_var()
        m.add_or(present, [u for u in guarded])  # order encoding: any unit true means someone is there
        total: dict[int, int] = dict(self._headcount(place, by))
        for u, w in guarded.items():
            total[u] = total.get(u, 0) - w
        big = self.layout.spec.total_copies()
        lits = list(total) + [present]
        m.add_linear(lits, [total[u] for u in total] + [big], "<=", big)

    # -- counting blocks at a place --------------------------------------------------------
    def _shown(self, place: Place, ty: int) -> list[tuple[int, Units]]:
        """Each count of type ``ty`` that bears on ``place``, with the positions its
        blocks show there (a vehicle: the positions aboard, 0 for a block not aboard)."""
        if isinstance(place, Bank):
            full = self.layout.full(ty)
            return [
                (c if place.side else full & ~c, units) for c, units in self.counts[place.step][ty].items()
            ]
        return [(place.shows(c, s), units) for (c, s), units in self.moves[place.step][ty].items()]

    def _occupancy(self, place: Place, ty: int, q: int) -> Units:
        """The literals whose sum is the number of blocks of type ``ty`` whose
        positions at ``place`` are exactly ``q`` (``q`` > 0 for the vehicle)."""
        return [u for shown, units in self._shown(place, ty) if shown == q for u in units]

    def _at_least(self, place: Place, ty: int, allowed: frozenset[int], r: int) -> int:
        """A literal true exactly when at least ``r`` blocks of type ``ty`` show one of
        the ``allowed`` patterns at ``place`` (defined both ways: counts stay exact)."""
        key = (place, ty, allowed, r)
        if key in self._at_least_cache:
            return self._at_least_cache[key]
        m = self.model
        size = self.layout.types[ty].size
        if 0 in allowed and not isinstance(place, Bank):
            # blocks not aboard show the empty pattern: count the others instead
            others = frozenset(q for q in range(1, self.layout.full(ty) + 1) if q not in allowed)
            lit = -self._at_least(place, ty, others, size - r + 1)
        else:
            units = [u for q in sorted(allowed) for u in self._occupancy(place, ty, q)]
            if r <= 0:
                lit = self._true
            elif r > size or not units:
                lit = -self._true
            elif r == 1:  # at least one: some count's first unit
                lit = m.new_var()
                m.add_or(lit, [units[0] for shown, units in self._shown(place, ty) if shown in allowed])
            else:
                lit = m.new_var()
                m.add_linear(units + [lit], [1] * len(units) + [-r], ">=", 0)
                m.add_linear(units + [lit], [1] * len(units) + [-(len(units) - r + 1)], "<=", r - 1)
        self._at_least_cache[key] = lit
        return lit

    def _headcount(self, place: Place, names: frozenset[str]) -> dict[int, int]:
        """literal -> weight such that the weighted sum is the copies of ``names`` at ``place``."""
        weights: dict[int, int] = {}
        for ty in range(len(self.layout.types)):
            mask = self.layout.position_mask(ty, names)
            if not mask:
                continue
            for q in range(1, self.layout.full(ty) + 1):
                if q & mask:
                    for u in self._occupancy(place, ty, q):
                        weights[u] = weights.get(u, 0) + bin(q & mask).count("1")
        return weights

    # -- counted states as literals -------------------------------------------------------
    def state_literals(self, t: int, key: CountedState) -> list[int]:
        """Literals that together say "the counted state after ``t`` steps is ``key``"
        (each count is pinned by two units of its order encoding; the boat's side)."""
        counts, boat = key
        literals = []
        for ty, row in enumerate(counts):
            for c, n in enumerate(row):
                units = self.counts[t][ty][c]
                if n > 0:
                    literals.append(units[n - 1])
                if n < len(units):
                    literals.append(-units[n])
        if self.boat:
            literals.append(self.boat[t] if boat else -self.boat[t])
        return literals

    def is_state(self, t: int, key: CountedState) -> int:
        """A new literal true exactly when the counted state after ``t`` steps is ``key``."""
        literal = self.model.new_var()
        self.model.add_and(literal, self.state_literals(t, key))
        return literal

    # -- reading an assignment ------------------------------------------------------------
    def length(self, assignment: Assignment) -> int:
        """The crossings of the assignment's plan (its active steps)."""
        return sum(1 for a in self.act if is_true(assignment, a))

    def counted_plan(self, assignment: Assignment) -> tuple[list, list[CountedMove]]:
        """``(states, moves)`` of the assignment's plan, in counted form."""
        steps = self.length(assignment)
        types = range(len(self.layout.types))
        states = [
            tuple(
                tuple(count_value(assignment, self.counts[t][ty][c]) for c in sorted(self.counts[t][ty]))
                for ty in types
            )
            for t in range(steps + 1)
        ]
        moves = []
        for t in range(steps):
            step = {}
            for ty, table in enumerate(self.moves[t]):
                taken = {p: n for p, units in table.items() if (n := count_value(assignment, units))}
                if taken:
                    step[ty] = taken
            moves.append(step)
        return states, moves


def compile_model(
    layout: Layout, horizon: int, unary: bool = True, deadline: Deadline | None = None
) -> PlanModel:
    """The model of plans of at most ``horizon`` crossings (see :class:`PlanModel`)."""
    return PlanModel(layout, horizon, unary, deadline)
