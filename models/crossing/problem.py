"""A crossing puzzle as a search problem (AIMA's ``Problem``): initial state,
actions, result, goal test; the explicit state graph is made of it.

A state is ``(far, boat)``: ``far[i]`` copies of actor ``i`` (in spec order)
are on the far side (right bank / ground), the rest on the near side (left
bank / top of the tower); ``boat`` is 0 or 1, the side the boat is on (always
0 for a pulley, whose two baskets simply swap).  A move is the multiset of
actors that go to the far side and the multiset that come back; a river move
has one of them empty.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from .rules import Content, describe_rule, present_names
from .spec import Spec

State = tuple[tuple[int, ...], int]
Load = tuple[int, ...]  # copies per actor (in spec order) aboard
MEMO_LIMIT = 200_000  # most remembered safety checks per kind (then forgotten and started over)


@dataclass(frozen=True)
class Move:
    """Actors (names, repeated for copies, sorted) going far and coming near."""

    to_far: tuple[str, ...] = ()
    to_near: tuple[str, ...] = ()

    def as_json(self, spec: Spec, step: int) -> dict:
        if spec.is_river:
            direction = "right" if self.to_far else "left"
            return {"step": step, "direction": direction, "actors": list(self.to_far or self.to_near)}
        return {"step": step, "down": list(self.to_far), "up": list(self.to_near)}


class CrossingProblem:
    """The puzzle's states and legal moves, with what every move needs worked out once.

    >>> from mindgames.models.crossing import CrossingProblem, parse_document, presets
    >>> problem = CrossingProblem(parse_document(presets.build("wolf-goat-cabbage")))
    >>> [actor.name for actor in problem.actors], problem.initial
    (['farmer', 'wolf', 'goat', 'cabbage'], ((0, 0, 0, 0), 0))
    >>> list(problem.successors(problem.initial))  # only the goat may go first
    [(Move(to_far=('farmer', 'goat'), to_near=()), ((1, 0, 1, 0), 1))]
    >>> problem.goal_test(((1, 1, 1, 1), 1))
    True
    """

    def __init__(self, spec: Spec):
        self.spec = spec
        self.actors = spec.actors
        self.rules = spec.rules
        self.rowers: frozenset[str] = spec.rowers()
        self.initial: State = (tuple(0 for _ in spec.actors), 0)
        self._rows = tuple(a.name in self.rowers for a in spec.actors)
        self._weights = tuple(a.weight for a in spec.actors)
        self._persons = tuple(not a.cargo for a in spec.actors)
        # the same loads and states come up again and again in the explicit graph
        self._safe_loads: dict[Load, bool] = {}
        self._safe_states: dict[State, bool] = {}
        self._boat_loads: dict[Load, bool] = {}
        self._rule_index: dict[str, dict[str, list[int]]] = {}  # place kind -> actor -> rules

    # -- AIMA's Problem ---------------------------------------------------------
    def actions(self, state: State) -> list[Move]:
        return [move for move, _ in self.successors(state)]

    def result(self, state: State, move: Move) -> State:
        """The state after ``move`` (not checked: :meth:`successors` yields only legal ones)."""
        far, boat = state
        index = {a.name: i for i, a in enumerate(self.actors)}
        after = list(far)
        for name in move.to_far:
            after[index[name]] += 1
        for name in move.to_near:
            after[index[name]] -= 1
        return tuple(after), (1 - boat if self.spec.is_river else 0)

    def goal_test(self, state: State) -> bool:
        far, _ = state
        return all(n == a.count for n, a in zip(far, self.actors) if a.must_cross)

    # -- the successor function: actions and results in one pass -------------------
    def successors(self, state: State) -> Iterator[tuple[Move, State]]:
        """Every legal move from ``state`` and the state it leads to."""
        if self.spec.is_river:
            return self._river_successors(state)
        return self._pulley_successors(state)

    def _river_successors(self, state: State) -> Iterator[tuple[Move, State]]:
        far, boat = state
        spec = self.spec
        here = far if boat else self._near(far)
        crossed = operator.sub if boat else operator.add  # the load leaves the boat's side
        for load in _loads(list(here), spec.min_load, spec.capacity_towards(far=not boat)):
            if not self.boat_load_ok(load):
                continue
            after = (tuple(map(crossed, far, load)), 1 - boat)
            if self.banks_safe(after):
                names = self._names(load)
                yield (Move(to_far=names) if not boat else Move(to_near=names)), after

    def _pulley_successors(self, state: State) -> Iterator[tuple[Move, State]]:
        far, _ = state
        capacity = self.spec.capacity
        nobody = tuple(0 for _ in far)
        ups = [load for load in _loads(list(far), 0, capacity) if load == nobody or self.load_safe(load)]
        for down in _loads(self._near(far), 1, capacity):
            if not self.load_safe(down):
                continue
            w_down = self.weight(down)
            for up in ups:
                if not self.pulley_move_ok(down, up, w_down):
                    continue
                after = (tuple(f + d - u for f, d, u in zip(far, down, up)), 0)
                if self.banks_safe(after):
                    yield Move(self._names(down), self._names(up)), after

    # -- places and rules -----------------------------------------------------------
    def side_content(self, state: State, side: int) -> dict[str, int]:
        """Who is on the near (0) or far (1) side in ``state``."""
        far, _ = state
        return {
            a.name: (n if side else a.count - n)
            for a, n in zip(self.actors, far)
            if (n if side else a.count - n)
        }

    def broken_rule(self, content: Content, place_kind: str) -> int | None:
        """The first rule ``content`` breaks at a place of kind ``place_kind``, or None.
        Only the rules that someone present can trigger are read (the same answer as
        :func:`.rules.broken_rule`, which reads them all: a few aboard, many rules)."""
        present = present_names(content)
        for index in self._triggered(present, place_kind):
            if self.rules[index].broken_among(content, present):
                return index
        return None

    def _triggered(self, present: frozenset[str], place_kind: str) -> list[int]:
        """The indexes, in order, of the rules at ``place_kind`` that need one of ``present``."""
        if place_kind not in self._rule_index:
            by_name: dict[str, list[int]] = {}
            for index, rule in enumerate(self.rules):
                if rule.applies_at(place_kind):
                    for name in rule.needs_one_of:
                        by_name.setdefault(name, []).append(index)
            self._rule_index[place_kind] = by_name
        by_name = self._rule_index[place_kind]
        found = {index for name in present for index in by_name.get(name, ())}
        return sorted(found)

    def describe_rule(self, index: int) -> str:
        return describe_rule(self.rules, index)

    def banks_safe(self, state: State) -> bool:
        """Does ``state`` keep every rule on both banks?  (Remembered, like :meth:`load_safe`.)"""
        safe = self._safe_states.get(state)
        if safe is None:
            safe = _remembered(
                self._safe_states,
                state,
                lambda: all(
                    self.broken_rule(self.side_content(state, side), "banks") is None for side in (0, 1)
                ),
            )
        return safe

    def boat_load_ok(self, load: Load) -> bool:
        """Can ``load`` cross in the boat: someone aboard rows and it keeps every rule aboard?"""
        ok = self._boat_loads.get(load)
        if ok is None:
            ok = _remembered(
                self._boat_loads,
                load,
                lambda: any(n and rows for n, rows in zip(load, self._rows)) and self.load_safe(load),
            )
        return ok

    def load_safe(self, load: Load) -> bool:
        """Does ``load`` keep every rule that holds aboard?"""
        return _remembered(
            self._safe_loads, load, lambda: self.broken_rule(self._content(load), "boat") is None
        )

    def weight(self, load: Load) -> int:
        return sum(w * n for w, n in zip(self._weights, load))

    def pulley_move_ok(self, down: Load, up: Load, w_down: int) -> bool:
        """The heavier basket descends; with a person aboard, not too fast."""
        difference = w_down - self.weight(up)
        if difference <= 0:
            return False
        person_aboard = any((d or u) and person for person, d, u in zip(self._persons, down, up))
        return not person_aboard or difference <= self.spec.max_difference

    def state_space_size(self) -> int:
        """How many states the explicit graph could have (an upper bound, before the rules)."""
        size = 2 if self.spec.is_river else 1
        for a in self.actors:
            size *= a.count + 1
        return size

    # -- loads ------------------------------------------------------------------------
    def _near(self, far: tuple[int, ...]) -> list[int]:
        return [a.count - n for a, n in zip(self.actors, far)]

    def _names(self, load: Load) -> tuple[str, ...]:
        return tuple(sorted(a.name for a, n in zip(self.actors, load) for _ in range(n)))

    def _content(self, load: Load) -> dict[str, int]:
        return {a.name: n for a, n in zip(self.actors, load) if n}


Key = TypeVar("Key", bound=Hashable)


def _remembered(memo: dict[Key, bool], key: Key, check: Callable[[], bool]) -> bool:
    """``check()``, remembered in ``memo`` under ``key`` (at most MEMO_LIMIT answers kept)."""
    if key not in memo:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = check()
    return memo[key]


def _loads(available: list[int], low: int, high: int | None) -> Iterator[Load]:
    """Every load (copies per actor) with ``low..high`` copies, drawn from ``available``,
    in increasing lexicographic order (lazily: the loads can be too many to list)."""
    limit = sum(available) if high is None else high
    present = [i for i, n in enumerate(available) if n]  # the others always take 0
    load = [0] * len(available)
    total = 0
    while True:
        if total >= low:
            yield tuple(load)
        # the next load: the last actor that can take one more copy does, those after it none
        for i in reversed(present):
            if load[i] < available[i] and total < limit:
                load[i] += 1
                total += 1
                break
            total -= load[i]
            load[i] = 0
        else:
            return
