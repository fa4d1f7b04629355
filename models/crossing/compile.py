"""The time-expanded model: the counted state at steps 0..H, a counted move per
step, the rules at every step, start at 0 and goal at H.

Integers are in *order encoding*: a count ``n`` in ``0..k`` is ``k`` literals
``u1 >= u2 >= ... >= uk`` with ``n = u1 + ... + uk``, so every count, load and
weight is a linear sum of literals.  A step may be idle (``act`` false: nothing
moves, the state stays), and idle steps only come last, so the assumption
``-act[T]`` means "a plan of at most T crossings": one model answers every
horizon up to H (incrementally on the ``sat`` engine).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import combinations

from solver.model import Model, is_true
from solver.statespace import OutOfTime

from .layout import Layout, Pattern
from .patterns import conjunctions, counted_names

Units = list[int]
Place = tuple  # ("bank", t, side) | ("boat", t) | ("basket", t, "down"|"up")


@dataclass
class Compiled:
    layout: Layout
    horizon: int
    model: Model = field(default_factory=Model)
    counts: list[list[dict[int, Units]]] = field(default_factory=list)  # [t][type][config]
    moves: list[list[dict[Pattern, Units]]] = field(default_factory=list)  # [t][type][pattern]
    act: list[int] = field(default_factory=list)
    boat: list[int] = field(default_factory=list)  # river: true = boat on the far side
    unary: bool = True
    _cache: dict = field(default_factory=dict)
    _true: int = 0

    # -- reading an assignment ---------------------------------------------
    def length(self, assignment) -> int:
        return sum(1 for a in self.act if is_true(assignment, a))

    def counted_plan(self, assignment) -> tuple[list, list]:
        """``(states, moves)`` of the assignment's plan, in counted form."""
        def value(units: Units) -> int:
            return sum(1 for u in units if is_true(assignment, u))

        steps = self.length(assignment)
        states = [tuple(tuple(value(self.counts[t][ty][c]) for c in sorted(self.counts[t][ty]))
                        for ty in range(len(self.layout.types))) for t in range(steps + 1)]
        moves = []
        for t in range(steps):
            step = {}
            for ty, table in enumerate(self.moves[t]):
                taken = {p: value(units) for p, units in table.items() if value(units)}
                if taken:
                    step[ty] = taken
            moves.append(step)
        return states, moves


def estimated_size(layout: Layout, horizon: int, unary: bool = True) -> int:
    """About how many constraints :func:`compile_model` states (measured on the
    presets, within a factor of about 3): per step and block type, the count
    transitions; unary sums of counts up to ``size`` take about ``size**2`` clauses."""
    per_step = 0
    for t, bt in enumerate(layout.types):
        terms = len(layout.configs(t)) + len(layout.patterns(t))
        per_step += terms * bt.size * (bt.size + 1 if unary else 2)
    return (horizon + 1) * per_step


def compile_model(layout: Layout, horizon: int, unary: bool = True,
                  deadline: float | None = None) -> Compiled:
    """The model of plans of at most ``horizon`` crossings (see the module text).

    ``unary``: state the count arithmetic as clauses between unary sums (best for
    CNF engines) rather than as linear equations (best for CP-SAT, which
    reasons on integers natively).  ``deadline`` (a ``time.perf_counter()``
    value): raise :class:`OutOfTime` once it has passed (checked every step)."""

    def check_clock() -> None:
        if deadline is not None and time.perf_counter() > deadline:
            raise OutOfTime(f"the time limit ran out while building the model of {horizon} steps")

    cm = Compiled(layout, horizon, unary=unary)
    m = cm.model
    cm._true = m.new_var("true")
    m.add_clause([cm._true])
    types = layout.types
    for t in range(horizon + 1):
        cm.counts.append([{c: _counter(m, bt.size) for c in layout.configs(ty)} for ty, bt in enumerate(types)])
        for ty, bt in enumerate(types):  # every block is somewhere
            m.add_exactly([u for units in cm.counts[t][ty].values() for u in units], bt.size)
    for t in range(horizon):
        cm.moves.append([{p: _counter(m, bt.size) for p in layout.patterns(ty)} for ty, bt in enumerate(types)])
        cm.act.append(m.new_var(f"act{t}"))
    for t in range(horizon + 1):
        if layout.spec.is_river:
            cm.boat.append(m.new_var(f"boat{t}"))
    _start_and_goal(cm)
    for t in range(horizon):
        check_clock()
        _step(cm, t)
    for t in range(horizon + 1):
        check_clock()
        for side in (0, 1):
            _safe(cm, ("bank", t, side), "banks")
    for t in range(horizon):
        check_clock()
        if layout.spec.is_river:
            _safe(cm, ("boat", t), "boat")
        else:
            _safe(cm, ("basket", t, "down"), "boat")
            _safe(cm, ("basket", t, "up"), "boat")
    return cm


def _counter(m: Model, size: int) -> Units:
    """A count in 0..size, order encoded; its literals are primary (they define a plan)."""
    units = m.new_vars(size, primary=True)
    for lower, upper in zip(units, units[1:]):
        m.add_implication(upper, lower)
    return units


def _start_and_goal(cm: Compiled) -> None:
    m, layout, last = cm.model, cm.layout, cm.horizon
    for ty, bt in enumerate(layout.types):
        for c, units in cm.counts[0][ty].items():
            for u in units:
                m.add_clause([u if c == 0 else -u])
        must = layout.position_mask(ty, frozenset(a.name for a in layout.spec.actors if a.must_cross))
        for c, units in cm.counts[last][ty].items():
            if must & ~c:  # someone who must cross is still on the near side
                m.add_clause([-units[0]])
    if cm.boat:
        m.add_clause([-cm.boat[0]])


def _step(cm: Compiled, t: int) -> None:
    """One crossing (or an idle step): transitions, the vehicle's rules."""
    m, layout, spec = cm.model, cm.layout, cm.layout.spec
    act = cm.act[t]
    if t + 1 < cm.horizon:
        m.add_implication(cm.act[t + 1], act)  # idle steps come last
    for ty, table in enumerate(cm.moves[t]):
        before, after = cm.counts[t][ty], cm.counts[t + 1][ty]
        for (c, s), units in table.items():
            m.add_implication(units[0], act)
        for c in layout.configs(ty):
            leaving = [units for (cc, s), units in table.items() if cc == c]
            arriving = [units for (cc, s), units in table.items() if cc ^ s == c]
            if cm.unary:
                # count after + blocks leaving c == count before + blocks arriving in c,
                # as clauses between unary sums (arc consistent, unlike a generic
                # pseudo-Boolean equation)
                size = layout.types[ty].size
                _equal(m, _unary_sum(m, [after[c], *leaving], size),
                       _unary_sum(m, [before[c], *arriving], size))
                # no more blocks leave c than are in c
                out = _unary_sum(m, leaving, size)
                for j, u in enumerate(out):
                    m.add_clause([-u, before[c][j]] if j < len(before[c]) else [-u])
                continue
            # the same two facts as linear constraints
            gone = [u for units in leaving for u in units]
            come = [u for units in arriving for u in units]
            m.add_linear([*after[c], *gone, *before[c], *come],
                         [1] * (len(after[c]) + len(gone)) + [-1] * (len(before[c]) + len(come)), "==", 0)
            m.add_linear([*gone, *before[c]], [1] * len(gone) + [-1] * len(before[c]), "<=", 0)
    if spec.is_river:
        _river_step(cm, t)
    else:
        _pulley_step(cm, t)


def _unary_sum(m: Model, counts: list[Units], cap: int) -> Units:
    """The sum of order-encoded counts, order encoded (a totalizer: pairwise
    merges, each output unit defined both ways).  The sum may not exceed
    ``cap`` (counts of distinct blocks of one type never exceed their number),
    which keeps every merge small."""
    counts = [c for c in counts if c]
    if not counts:
        return []
    while len(counts) > 1:
        merged = [_merge(m, a, b, cap) for a, b in zip(counts[::2], counts[1::2])]
        counts = merged + ([counts[-1]] if len(counts) % 2 else [])
    return counts[0]


def _merge(m: Model, a: Units, b: Units, cap: int) -> Units:
    out = m.new_vars(min(len(a) + len(b), cap))
    for i in range(len(a) + 1):
        for j in range(len(b) + 1):
            # a >= i and b >= j  ->  out >= i + j  (past the cap: impossible; the
            # sums just past it suffice, the order encoding implies the rest)
            if i + j:
                head = [*([-a[i - 1]] if i else []), *([-b[j - 1]] if j else [])]
                if i + j <= len(out):
                    m.add_clause([*head, out[i + j - 1]])
                elif i + j == len(out) + 1 or not i or not j:
                    m.add_clause(head)
            # a <= i and b <= j  ->  out <= i + j
            if i + j < len(out):
                m.add_clause([*([a[i]] if i < len(a) else []), *([b[j]] if j < len(b) else []), -out[i + j]])
    return out


def _equal(m: Model, left: Units, right: Units) -> None:
    for j in range(max(len(left), len(right))):
        if j < len(left) and j < len(right):
            m.add_clause([-left[j], right[j]])
            m.add_clause([left[j], -right[j]])
        else:
            m.add_clause([-(left[j] if j < len(left) else right[j])])


def _river_step(cm: Compiled, t: int) -> None:
    m, layout, spec = cm.model, cm.layout, cm.layout.spec
    act, here = cm.act[t], cm.boat[t]
    m.add_xor(cm.boat[t + 1], here, act)  # the boat crosses on every active step
    # Redundant but a great help to propagation: active steps come first, so
    # after an active step t the boat is on the far side exactly when t is even.
    m.add_clause([-act, cm.boat[t + 1] if t % 2 == 0 else -cm.boat[t + 1]])
    rowers = spec.rowers()
    load_lits, load_weights, rowing = [], [], []
    for ty, table in enumerate(cm.moves[t]):
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
    if out == back:
        m.add_linear(load_lits, load_weights, "<=", out)
    else:  # the capacity that applies depends on the direction
        m.add_linear(load_lits + [here], load_weights + [-big], "<=", out)
        m.add_linear(load_lits + [-here], load_weights + [-big], "<=", back)


def _pulley_step(cm: Compiled, t: int) -> None:
    m, layout, spec = cm.model, cm.layout, cm.layout.spec
    act = cm.act[t]
    diff_lits, diff_weights, riders, down_n, up_n = [], [], [], [], []
    for ty, table in enumerate(cm.moves[t]):
        for (c, s), units in table.items():
            down, up = s & ~c, s & c  # near (top) positions descend, far (ground) ones rise
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


# -- places and the rules ----------------------------------------------------
def _occupancy(cm: Compiled, place: Place, ty: int, q: int) -> Units:
    """The literals whose sum is the number of blocks of type ``ty`` whose
    positions at ``place`` are exactly ``q`` (``q`` > 0 for the vehicle)."""
    layout = cm.layout
    full = layout.full(ty)
    if place[0] == "bank":
        _, t, side = place
        return [u for c, units in cm.counts[t][ty].items() if (c if side else full & ~c) == q for u in units]
    t = place[1]
    table = cm.moves[t][ty]
    if place[0] == "boat":
        return [u for (c, s), units in table.items() if s == q for u in units]
    pick = (lambda c, s: s & ~c) if place[2] == "down" else (lambda c, s: s & c)
    return [u for (c, s), units in table.items() if pick(c, s) == q for u in units]


def _at_least(cm: Compiled, place: Place, ty: int, allowed: frozenset[int], r: int) -> int:
    """A literal true exactly when at least ``r`` blocks of type ``ty`` show one of
    the ``allowed`` patterns at ``place`` (defined both ways: counts stay exact)."""
    key = (place, ty, allowed, r)
    if key in cm._cache:
        return cm._cache[key]
    m = cm.model
    size = cm.layout.types[ty].size
    if 0 in allowed and place[0] != "bank":
        # blocks not aboard show the empty pattern: count the others instead
        others = frozenset(q for q in range(1, cm.layout.full(ty) + 1) if q not in allowed)
        lit = -_at_least(cm, place, ty, others, size - r + 1)
    else:
        units = [u for q in sorted(allowed) for u in _occupancy(cm, place, ty, q)]
        if r <= 0:
            lit = cm._true
        elif r > size or not units:
            lit = -cm._true
        elif r == 1:  # at least one: some count's first unit
            lit = m.new_var()
            firsts = _first_units(cm, place, ty, allowed)
            m.add_or(lit, firsts)
        else:
            lit = m.new_var()
            m.add_linear(units + [lit], [1] * len(units) + [-r], ">=", 0)
            m.add_linear(units + [lit], [1] * len(units) + [-(len(units) - r + 1)], "<=", r - 1)
    cm._cache[key] = lit
    return lit


def _first_units(cm: Compiled, place: Place, ty: int, allowed: frozenset[int]) -> list[int]:
    """The first literal of each count at ``place`` showing an allowed pattern."""
    firsts = []
    layout = cm.layout
    full = layout.full(ty)
    if place[0] == "bank":
        _, t, side = place
        return [units[0] for c, units in cm.counts[t][ty].items() if (c if side else full & ~c) in allowed]
    table = cm.moves[place[1]][ty]
    for (c, s), units in table.items():
        shown = s if place[0] == "boat" else (s & ~c if place[2] == "down" else s & c)
        if shown in allowed:
            firsts.append(units[0])
    return firsts


def lifted_conditions(layout: Layout, where: str) -> list[list[tuple[int, frozenset[int], int, bool]]]:
    """Every ``not_together`` conjunction of the rules that apply at ``where`` lifted to counts: a list of conditions
    ``(type, allowed patterns, at least r, holds?)`` that together make a place
    unsafe.  Distinct blocks of one type must play the conjunction's roles: by
    Hall's theorem, distinct blocks exist exactly when every set R of roles has
    at least |R| blocks showing a pattern one of them allows.  Duplicates (the
    images of one conjunction under the symmetry) collapse into one."""
    spec = layout.spec
    found: dict[frozenset, list] = {}
    for rule in spec.rules:
        if rule.kind != "not_together" or where not in rule.where:
            continue
        for present, absent in conjunctions(spec, rule):
            roles: dict[tuple[int, int], list[int]] = {}
            conditions: set[tuple[int, frozenset[int], int, bool]] = set()
            for names, flag in ((present, True), (absent, False)):
                for name in names:
                    ty, block, pos = layout.locate(name)
                    if layout.types[ty].identical:
                        conditions.add((ty, frozenset({1}), 1, flag))
                    else:
                        roles.setdefault((ty, block), [0, 0])[0 if flag else 1] |= 1 << pos
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
            key = frozenset(conditions)
            found.setdefault(key, sorted(conditions, key=repr))
    return list(found.values())


def _safe(cm: Compiled, place: Place, where: str) -> None:
    """No rule that applies at places of kind ``where`` is broken at ``place``."""
    m, layout, spec = cm.model, cm.layout, cm.layout.spec
    key = ("lifted", where)
    if key not in cm._cache:
        cm._cache[key] = lifted_conditions(layout, where)
    for conditions in cm._cache[key]:
        m.add_clause([-_at_least(cm, place, ty, allowed, r) if flag else _at_least(cm, place, ty, allowed, r)
                      for ty, allowed, r, flag in conditions])
    for rule in spec.rules:
        if rule.kind == "not_outnumbered" and where in rule.where:
            _not_outnumbered(cm, place, counted_names(spec, rule.protect), counted_names(spec, rule.by))


def _headcount(cm: Compiled, place: Place, names: frozenset[str]) -> dict[int, int]:
    """literal -> weight such that the weighted sum is the copies of ``names`` at ``place``."""
    weights: dict[int, int] = {}
    for ty in range(len(cm.layout.types)):
        mask = cm.layout.position_mask(ty, names)
        if not mask:
            continue
        for q in range(1, cm.layout.full(ty) + 1):
            if q & mask:
                for u in _occupancy(cm, place, ty, q):
                    weights[u] = weights.get(u, 0) + bin(q & mask).count("1")
    return weights


def _not_outnumbered(cm: Compiled, place: Place, protect: frozenset[str], by: frozenset[str]) -> None:
    """Where any of ``protect`` is, the copies of ``by`` do not exceed theirs."""
    m = cm.model
    guarded = _headcount(cm, place, protect)
    if not guarded:
        return
    present = m.new_var()
    m.add_or(present, [u for u in guarded])  # order encoding: any unit true means someone is there
    total: dict[int, int] = dict(_headcount(cm, place, by))
    for u, w in guarded.items():
        total[u] = total.get(u, 0) - w
    big = cm.layout.spec.total_copies()
    lits = list(total) + [present]
    m.add_linear(lits, [total[u] for u in total] + [big], "<=", big)
