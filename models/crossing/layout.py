"""The counted state space: how many blocks of each type are in each configuration.

A block type (see :mod:`models.crossing.symmetry`) of width ``w`` has ``2**w``
*configurations*: bit ``p`` of a configuration is 1 when the block's position
``p`` is on the far side.  A counted state gives, per type, how many of its
blocks are in each configuration (and the boat's side): every concrete state
that differs only by a permutation of interchangeable blocks is one counted
state.  A counted move gives, per type, how many blocks in configuration ``c``
move the positions ``s`` (a non-empty bit set) across.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import product
from math import comb, factorial
from typing import Iterator

from .rules import broken_rule
from .spec import Spec
from .states import Move, start_state, successors
from .symmetry import BlockType, block_types

Pattern = tuple[int, int]  # (configuration, moving positions)


@dataclass
class Layout:
    spec: Spec
    types: list[BlockType]

    @classmethod
    def of(cls, spec: Spec, use_symmetry: bool = True) -> "Layout":
        return cls(spec, block_types(spec, use_symmetry))

    # -- positions ---------------------------------------------------------
    def full(self, t: int) -> int:
        return (1 << self.types[t].width) - 1

    def configs(self, t: int) -> range:
        return range(1 << self.types[t].width)

    def patterns(self, t: int) -> list[Pattern]:
        """The moves one block can make: a river trip takes positions from one
        side only; a pulley move may send some down and bring others up."""
        full = self.full(t)
        found = []
        for c in self.configs(t):
            for s in range(1, full + 1):
                if self.spec.is_river and (s & c) not in (0, s):
                    continue
                found.append((c, s))
        return found

    def position_mask(self, t: int, names: frozenset[str]) -> int:
        """Positions of type ``t`` whose actor is in ``names`` (block 0 stands for
        all: callers ensure the blocks agree, see ``symmetry._split_unliftable``)."""
        return sum(1 << p for p, name in enumerate(self.types[t].blocks[0]) if name in names)

    def locate(self, name: str) -> tuple[int, int, int]:
        """``(type, block, position)`` of an actor (block 0 for identical copies)."""
        for t, bt in enumerate(self.types):
            for b, block in enumerate(bt.blocks):
                if name in block:
                    return t, b, block.index(name)
        raise KeyError(name)

    def weight(self, t: int, mask: int) -> int:
        return sum(self.spec.actor(n).weight for p, n in enumerate(self.types[t].blocks[0]) if mask >> p & 1)

    def has(self, t: int, mask: int, predicate) -> bool:
        return any(predicate(self.spec.actor(n)) for p, n in enumerate(self.types[t].blocks[0]) if mask >> p & 1)

    # -- counted states ----------------------------------------------------
    def start(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(bt.size if c == 0 else 0 for c in self.configs(t))
                     for t, bt in enumerate(self.types))

    def concrete_sides(self, counts: tuple[tuple[int, ...], ...]) -> tuple[dict, dict]:
        """One concrete state of a counted state: the near and far bank contents."""
        near: dict[str, int] = {}
        far: dict[str, int] = {}
        for t, bt in enumerate(self.types):
            blocks = iter(bt.blocks)
            for c, n in enumerate(counts[t]):
                for _ in range(n):
                    for p, name in enumerate(next(blocks)):
                        side = far if c >> p & 1 else near
                        side[name] = side.get(name, 0) + 1
        return near, far

    def number_of_counted_states(self) -> int:
        total = 1
        for t, bt in enumerate(self.types):
            total *= comb(bt.size + len(self.configs(t)) - 1, len(self.configs(t)) - 1)
        return total

    def counted_states(self) -> Iterator[tuple[tuple[int, ...], ...]]:
        per_type = [list(_compositions(bt.size, len(self.configs(t)))) for t, bt in enumerate(self.types)]
        return product(*per_type)

    def safe_state_bound(self, limit: int = 200_000) -> tuple[int, bool]:
        """``(n, exact)``: the number of counted states (boat sides included) whose
        banks are both safe; when there are more than ``limit`` counted states,
        the number of all of them (``exact`` False)."""
        sides = 2 if self.spec.is_river else 1
        total = self.number_of_counted_states()
        if total > limit:
            return total * sides, False
        safe = 0
        for counts in self.counted_states():
            near, far = self.concrete_sides(counts)
            if broken_rule(self.spec, near, "banks") is None and broken_rule(self.spec, far, "banks") is None:
                safe += 1
        return safe * sides, True

    # -- concrete plans ----------------------------------------------------
    def concretise(self, counted_moves: list[dict[int, dict[Pattern, int]]]) -> list[Move]:
        """Concrete moves for a counted plan: in each configuration, the
        lowest-numbered blocks make the moves.  ``counted_moves[i][t][(c, s)]``
        is how many blocks of type ``t`` in configuration ``c`` move ``s``."""
        config = [[0] * bt.size for bt in self.types]
        plan = []
        for step in counted_moves:
            to_far: list[str] = []
            to_near: list[str] = []
            for t, moves in step.items():
                blocks = self.types[t].blocks
                taken: set[int] = set()
                changes = []
                for (c, s), m in sorted(moves.items()):
                    chosen = [b for b in range(len(blocks)) if config[t][b] == c and b not in taken][:m]
                    if len(chosen) < m:
                        raise ValueError("counted move takes more blocks than there are")
                    taken.update(chosen)
                    for b in chosen:
                        changes.append((b, c ^ s))
                        for p, name in enumerate(blocks[b]):
                            if s >> p & 1:
                                (to_near if c >> p & 1 else to_far).append(name)
                for b, new in changes:
                    config[t][b] = new
            plan.append(Move(tuple(sorted(to_far)), tuple(sorted(to_near))))
        return plan

    def multiplicity(self, counts: tuple[tuple[int, ...], ...], moves: dict[int, dict[Pattern, int]]) -> int:
        """How many concrete moves, from one concrete state of ``counts``, the
        counted move stands for: which of the interchangeable (distinct) blocks
        in each configuration make each pattern.  Identical copies: one way."""
        ways = 1
        for t, bt in enumerate(self.types):
            if bt.identical or bt.size == 1:
                continue
            for c in self.configs(t):
                taken = [m for (cc, _), m in moves.get(t, {}).items() if cc == c and m]
                rest = counts[t][c] - sum(taken)
                ways *= factorial(counts[t][c]) // (factorial(rest) * _product(factorial(m) for m in taken))
        return ways

    def describe(self) -> list[str]:
        return [bt.label() for bt in self.types]


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def counted_key(layout: Layout, state) -> tuple:
    """The counted state of a concrete state ``(far, boat)`` (see :mod:`.states`)."""
    far, boat = state
    index = {a.name: i for i, a in enumerate(layout.spec.actors)}
    key = []
    for t, bt in enumerate(layout.types):
        counts = [0] * len(layout.configs(t))
        if bt.identical:
            crossed = far[index[bt.blocks[0][0]]]
            counts[0], counts[1] = bt.size - crossed, crossed
        else:
            for block in bt.blocks:
                counts[sum(1 << p for p, name in enumerate(block) if far[index[name]])] += 1
        key.append(tuple(counts))
    return tuple(key), boat


def representative(layout: Layout, key: tuple):
    """A concrete state ``(far, boat)`` of a counted state."""
    counts, boat = key
    _, far = layout.concrete_sides(counts)
    return tuple(far.get(a.name, 0) for a in layout.spec.actors), boat


def reachable_counted_states(layout: Layout, time_limit: float) -> int | None:
    """How many counted states are reachable from the start (breadth first over
    the explicit successor function, one concrete representative per counted
    state: the rules are symmetric, so any representative has the same counted
    successors); None when ``time_limit`` seconds do not suffice."""
    end = time.perf_counter() + time_limit
    start = counted_key(layout, start_state(layout.spec))
    seen = {start}
    frontier = [start]
    while frontier:
        following = []
        for key in frontier:
            for _, state in successors(layout.spec, representative(layout, key)):
                if time.perf_counter() > end:
                    return None
                nxt = counted_key(layout, state)
                if nxt not in seen:
                    seen.add(nxt)
                    following.append(nxt)
        frontier = following
    return len(seen)
