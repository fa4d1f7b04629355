"""The counted state space: how many blocks of each type are in each configuration.

A block type (see :mod:`mindgames.models.crossing.symmetry`) of width ``w`` has ``2**w``
*configurations*: bit ``p`` of a configuration is 1 when the block's position
``p`` is on the far side.  A counted state gives, per type, how many of its
blocks are in each configuration (and the boat's side): every concrete state
that differs only by a permutation of interchangeable blocks is one counted
state.  A counted move gives, per type, how many blocks in configuration ``c``
move the positions ``s`` (a non-empty bit set) across.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import product
from math import comb, factorial

from mindgames.solver.deadline import Deadline

from .problem import CrossingProblem, Move, State
from .spec import Actor, Spec
from .symmetry import BlockType, block_types

Pattern = tuple[int, int]  # (configuration, moving positions)
MEMO_LIMIT = 200_000  # most remembered rule checks per kind (then forgotten and started over)
Counts = tuple[tuple[int, ...], ...]  # blocks per configuration, per block type
CountedState = tuple[Counts, int]  # (counts, boat)
CountedMove = dict[int, dict[Pattern, int]]  # type -> (configuration, moving positions) -> blocks


@dataclass
class Layout:
    """The puzzle's actors as block types (``ty`` indexes :attr:`types`), and its counted states."""

    problem: CrossingProblem
    types: list[BlockType]
    _memo: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(
        cls, puzzle: Spec | CrossingProblem, use_symmetry: bool = True, deadline: Deadline | None = None
    ) -> Layout:
        problem = puzzle if isinstance(puzzle, CrossingProblem) else CrossingProblem(puzzle)
        return cls(problem, block_types(problem.spec, use_symmetry, deadline))

    @property
    def spec(self) -> Spec:
        return self.problem.spec

    # -- positions ---------------------------------------------------------
    def full(self, ty: int) -> int:
        return (1 << self.types[ty].width) - 1

    def configs(self, ty: int) -> range:
        return range(1 << self.types[ty].width)

    def patterns(self, ty: int) -> list[Pattern]:
        """The moves one block can make: a river trip takes positions from one
        side only; a pulley move may send some down and bring others up."""
        key = ("patterns", ty)
        if key not in self._memo:
            self._memo[key] = self._patterns(ty)
        return self._memo[key]

    def _patterns(self, ty: int) -> list[Pattern]:
        full = self.full(ty)
        found = []
        for c in self.configs(ty):
            for s in range(1, full + 1):
                if self.spec.is_river and (s & c) not in (0, s):
                    continue
                found.append((c, s))
        return found

    def position_mask(self, ty: int, names: frozenset[str]) -> int:
        """Positions of type ``ty`` whose actor is in ``names`` (block 0 stands for
        all: callers ensure the blocks agree, see ``symmetry._split_unliftable``)."""
        return sum(1 << p for p, name in enumerate(self.types[ty].blocks[0]) if name in names)

    def locate(self, name: str) -> tuple[int, int, int]:
        """``(type, block, position)`` of an actor (block 0 for identical copies)."""
        for ty, bt in enumerate(self.types):
            for b, block in enumerate(bt.blocks):
                if name in block:
                    return ty, b, block.index(name)
        raise KeyError(name)

    def weight(self, ty: int, mask: int) -> int:
        return sum(self.spec.actor(n).weight for p, n in enumerate(self.types[ty].blocks[0]) if mask >> p & 1)

    def has(self, ty: int, mask: int, predicate: Callable[[Actor], bool]) -> bool:
        return any(
            predicate(self.spec.actor(n)) for p, n in enumerate(self.types[ty].blocks[0]) if mask >> p & 1
        )

    # -- counted states ----------------------------------------------------
    def start(self) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(bt.size if c == 0 else 0 for c in self.configs(ty)) for ty, bt in enumerate(self.types)
        )

    def concrete_sides(self, counts: Counts) -> tuple[dict[str, int], dict[str, int]]:
        """One concrete state of a counted state: the near and far bank contents."""
        near: dict[str, int] = {}
        far: dict[str, int] = {}
        for ty, bt in enumerate(self.types):
            if bt.identical:  # copies of one actor: no need to walk them one by one
                name = bt.blocks[0][0]
                for side, n in ((near, counts[ty][0]), (far, counts[ty][1])):
                    if n:
                        side[name] = side.get(name, 0) + n
                continue
            start = 0  # the blocks in configuration order: counts[ty][0] in 0, then 1, ...
            for c, n in enumerate(counts[ty]):
                if n:
                    for p, names in enumerate(self._names_at(ty)):
                        side = far if c >> p & 1 else near
                        for name in names[start : start + n]:
                            side[name] = side.get(name, 0) + 1
                    start += n
        return near, far

    def _names_at(self, ty: int) -> list[tuple[str, ...]]:
        """Per position, the actors of type ``ty``'s blocks there, in block order."""
        key = ("names at", ty)
        if key not in self._memo:
            self._memo[key] = list(zip(*self.types[ty].blocks))
        return self._memo[key]

    def number_of_counted_states(self) -> int:
        total = 1
        for ty, bt in enumerate(self.types):
            total *= comb(bt.size + len(self.configs(ty)) - 1, len(self.configs(ty)) - 1)
        return total

    def counted_states(self) -> Iterator[tuple[tuple[int, ...], ...]]:
        per_type = [list(_compositions(bt.size, len(self.configs(ty)))) for ty, bt in enumerate(self.types)]
        return product(*per_type)

    def safe_state_bound(self, limit: int = 200_000, deadline: Deadline | None = None) -> tuple[int, bool]:
        """``(n, exact)``: the number of counted states (boat sides included) whose
        banks are both safe; when there are more than ``limit`` counted states, or
        counting them runs past ``deadline``, the number of all of them (``exact`` False)."""
        sides = 2 if self.spec.is_river else 1
        total = self.number_of_counted_states()
        if total > limit:
            return total * sides, False
        safe = 0
        for seen, counts in enumerate(self.counted_states()):
            if deadline is not None and seen % 256 == 0 and deadline.passed():
                return total * sides, False
            near, far = self.concrete_sides(counts)
            if (
                self.problem.broken_rule(near, "banks") is None
                and self.problem.broken_rule(far, "banks") is None
            ):
                safe += 1
        return safe * sides, True

    # -- concrete plans ----------------------------------------------------
    def concretise(self, counted_moves: list[dict[int, dict[Pattern, int]]]) -> list[Move]:
        """Concrete moves for a counted plan: in each configuration, the
        lowest-numbered blocks make the moves.  ``counted_moves[i][ty][(c, s)]``
        is how many blocks of type ``ty`` in configuration ``c`` move ``s``."""
        config = [[0] * bt.size for bt in self.types]
        plan = []
        for step in counted_moves:
            to_far: list[str] = []
            to_near: list[str] = []
            for ty, moves in step.items():
                blocks = self.types[ty].blocks
                taken: set[int] = set()
                changes = []
                for (c, s), m in sorted(moves.items()):
                    chosen = [b for b in range(len(blocks)) if config[ty][b] == c and b not in taken][:m]
                    if len(chosen) < m:
                        raise ValueError("counted move takes more blocks than there are")
                    taken.update(chosen)
                    for b in chosen:
                        changes.append((b, c ^ s))
                        for p, name in enumerate(blocks[b]):
                            if s >> p & 1:
                                (to_near if c >> p & 1 else to_far).append(name)
                for b, new in changes:
                    config[ty][b] = new
            plan.append(Move(tuple(sorted(to_far)), tuple(sorted(to_near))))
        return plan

    def multiplicity(self, counts: tuple[tuple[int, ...], ...], moves: dict[int, dict[Pattern, int]]) -> int:
        """How many concrete moves, from one concrete state of ``counts``, the
        counted move stands for: which of the interchangeable (distinct) blocks
        in each configuration make each pattern.  Identical copies: one way."""
        ways = 1
        for ty, bt in enumerate(self.types):
            if bt.identical or bt.size == 1:
                continue
            for c in self.configs(ty):
                taken = [m for (cc, _), m in moves.get(ty, {}).items() if cc == c and m]
                rest = counts[ty][c] - sum(taken)
                ways *= factorial(counts[ty][c]) // (factorial(rest) * _product(factorial(m) for m in taken))
        return ways

    # -- the counted state graph -------------------------------------------
    def counted_start(self) -> CountedState:
        return self.start(), 0

    def is_counted_goal(self, key: CountedState) -> bool:
        _, far = self.concrete_sides(key[0])
        return all(far.get(a.name, 0) == a.count for a in self.spec.actors if a.must_cross)

    def counted_successors(self, key: CountedState) -> Iterator[tuple[CountedMove, CountedState]]:
        """Every legal counted move from the counted state ``key`` and the state
        it leads to.  Each candidate is made concrete on one representative
        (the rules treat interchangeable blocks alike, so any one will do) and
        checked with the same plain reading of the rules as the explicit graph;
        the work per state grows with the loads, not with the number of copies."""
        counts, boat = key
        spec = self.spec
        river = spec.is_river
        if river:
            cap = spec.capacity_towards(far=not boat)
            cap = spec.total_copies() if cap is None else cap
        else:
            cap = spec.capacity if spec.capacity is not None else spec.total_copies()
        # (type, configuration, moving positions, persons going far, persons coming near)
        options = []
        for ty in range(len(self.types)):
            for c, s in self.patterns(ty):
                if counts[ty][c] == 0:
                    continue
                if river and (s & c) != (s if boat else 0):
                    continue  # a river trip leaves from the boat's side
                options.append((ty, c, s, bin(s & ~c).count("1"), bin(s & c).count("1")))
        chosen = [0] * len(options)
        left = [list(row) for row in counts]  # blocks still free in each configuration

        def fill(i: int, going: int, coming: int) -> Iterator[None]:
            if i == len(options):
                yield
                return
            ty, c, s, down, up = options[i]
            free = left[ty][c]
            m = 0
            while (
                m <= free
                and going + m * down <= cap
                and coming + m * up <= cap
                and (not river or going + coming + m * (down + up) <= cap)
            ):
                chosen[i] = m
                left[ty][c] = free - m
                yield from fill(i + 1, going + m * down, coming + m * up)
                m += 1
            left[ty][c] = free
            chosen[i] = 0

        for _ in fill(0, 0, 0):
            move: dict[int, dict[Pattern, int]] = {}
            for (ty, c, s, _, _), m in zip(options, chosen):
                if m:
                    move.setdefault(ty, {})[(c, s)] = m
            if not move:
                continue
            checked = self._check_move(counts, boat, move)
            if checked is not None:
                yield move, checked

    def _check_move(self, counts: Counts, boat: int, move: CountedMove) -> CountedState | None:
        """The counted state after ``move``, or None when a rule forbids it."""
        spec = self.spec
        going: dict[str, int] = {}
        coming: dict[str, int] = {}
        after = [list(row) for row in counts]
        for ty, table in move.items():
            first = {}  # the representative: blocks in configuration order
            start = 0
            for c, n in enumerate(counts[ty]):
                first[c] = start
                start += n
            blocks = self.types[ty].blocks
            for (c, s), m in sorted(table.items()):
                for b in range(first[c], first[c] + m):
                    for p, name in enumerate(blocks[b]):
                        if s >> p & 1:
                            side = coming if c >> p & 1 else going
                            side[name] = side.get(name, 0) + 1
                first[c] += m
                after[ty][c] -= m
                after[ty][c ^ s] += m
        state = tuple(tuple(row) for row in after)
        if spec.is_river:
            load = going or coming
            if sum(load.values()) < spec.min_load:
                return None
            if not any(name in self.problem.rowers for name in load):
                return None
            if not self._safe(load, "boat"):
                return None
            nxt = (state, 1 - boat)
        else:
            if not going or not self._safe(going, "boat"):
                return None
            if coming and not self._safe(coming, "boat"):
                return None
            index = {a.name: i for i, a in enumerate(spec.actors)}
            down = [0] * len(spec.actors)
            up = [0] * len(spec.actors)
            for name, n in going.items():
                down[index[name]] = n
            for name, n in coming.items():
                up[index[name]] = n
            if not self.problem.pulley_move_ok(tuple(down), tuple(up), self.problem.weight(tuple(down))):
                return None
            nxt = (state, 0)
        if not self._banks_safe(state):
            return None
        return nxt

    def _safe(self, content: dict[str, int], place: str) -> bool:
        """Does ``content`` keep every rule at a place of kind ``place``?  Remembered:
        the same loads come up from state after state (the rules are read plainly,
        which costs a pass over every rule's names)."""
        memo = self._memo.setdefault(place, {})
        key = tuple(sorted(content.items()))
        if key not in memo:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = self.problem.broken_rule(content, place) is None
        return memo[key]

    def _banks_safe(self, counts: Counts) -> bool:
        memo = self._memo.setdefault("states", {})
        if counts not in memo:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            # (remembered by counts: a bank's content comes from one counted state only)
            near, far = self.concrete_sides(counts)
            memo[counts] = all(self.problem.broken_rule(side, "banks") is None for side in (near, far))
        return memo[counts]

    def describe(self) -> list[str]:
        return [bt.label() for bt in self.types]


def _product(values: Iterable[int]) -> int:
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


def counted_key(layout: Layout, state: State) -> CountedState:
    """The counted state of a concrete state ``(far, boat)`` (see :mod:`.problem`)."""
    far, boat = state
    index = {a.name: i for i, a in enumerate(layout.spec.actors)}
    key = []
    for ty, bt in enumerate(layout.types):
        counts = [0] * len(layout.configs(ty))
        if bt.identical:
            crossed = far[index[bt.blocks[0][0]]]
            counts[0], counts[1] = bt.size - crossed, crossed
        else:
            for block in bt.blocks:
                counts[sum(1 << p for p, name in enumerate(block) if far[index[name]])] += 1
        key.append(tuple(counts))
    return tuple(key), boat


def representative(layout: Layout, key: CountedState) -> State:
    """A concrete state ``(far, boat)`` of a counted state."""
    counts, boat = key
    _, far = layout.concrete_sides(counts)
    return tuple(far.get(a.name, 0) for a in layout.spec.actors), boat
