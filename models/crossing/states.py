"""Concrete states and moves, and the successor function of the explicit state graph.

A state is ``(far, boat)``: ``far[i]`` copies of actor ``i`` (in spec order)
are on the far side (right bank / ground), the rest on the near side (left
bank / top of the tower); ``boat`` is 0 or 1, the side the boat is on (always
0 for a pulley, whose two baskets simply swap).  A move is the multiset of
actors that go to the far side and the multiset that come back; a river move
has one of them empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from .rules import broken_rule
from .spec import Spec

State = tuple[tuple[int, ...], int]


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


def start_state(spec: Spec) -> State:
    return tuple(0 for _ in spec.actors), 0


def is_goal(spec: Spec, state: State) -> bool:
    far, _ = state
    return all(n == a.count for n, a in zip(far, spec.actors) if a.must_cross)


def side_content(spec: Spec, state: State, side: int) -> dict[str, int]:
    far, _ = state
    return {
        a.name: (n if side else a.count - n)
        for a, n in zip(spec.actors, far)
        if (n if side else a.count - n)
    }


def _loads(spec: Spec, available: list[int], low: int, high: int | None) -> Iterator[tuple[int, ...]]:
    """Every load (copies per actor) with ``low..high`` copies, drawn from ``available``."""
    limit = sum(available) if high is None else high
    counts = [0] * len(available)

    def fill(i: int, total: int) -> Iterator[tuple[int, ...]]:
        if i == len(available):
            if total >= low:
                yield tuple(counts)
            return
        for n in range(min(available[i], limit - total) + 1):
            counts[i] = n
            yield from fill(i + 1, total + n)
        counts[i] = 0

    yield from fill(0, 0)


def _names(spec: Spec, load: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(sorted(a.name for a, n in zip(spec.actors, load) for _ in range(n)))


def _content(spec: Spec, load: tuple[int, ...]) -> dict[str, int]:
    return {a.name: n for a, n in zip(spec.actors, load) if n}


def successors(spec: Spec, state: State) -> Iterator[tuple[Move, State]]:
    """Every legal move from ``state`` and the state it leads to."""
    far, boat = state
    near_copies = [a.count - n for a, n in zip(spec.actors, far)]
    if spec.is_river:
        here = far if boat else near_copies
        capacity = spec.capacity_towards(far=not boat)
        rowers = spec.rowers()
        for load in _loads(spec, list(here), spec.min_load, capacity):
            if not any(n and a.name in rowers for a, n in zip(spec.actors, load)):
                continue
            if broken_rule(spec, _content(spec, load), "boat") is not None:
                continue
            sign = -1 if boat else 1
            after = (tuple(f + sign * n for f, n in zip(far, load)), 1 - boat)
            if _banks_safe(spec, after):
                names = _names(spec, load)
                yield (Move(to_far=names) if not boat else Move(to_near=names)), after
        return
    cap = spec.capacity
    zero = tuple(0 for _ in far)
    ups = [
        load for load in _loads(spec, list(far), 0, cap)
        if load == zero or broken_rule(spec, _content(spec, load), "boat") is None
    ]
    for down in _loads(spec, near_copies, 1, cap):
        if broken_rule(spec, _content(spec, down), "boat") is not None:
            continue
        w_down = _weight(spec, down)
        for up in ups:
            if not pulley_move_ok(spec, down, up, w_down):
                continue
            after = (tuple(f + d - u for f, d, u in zip(far, down, up)), 0)
            if _banks_safe(spec, after):
                yield Move(_names(spec, down), _names(spec, up)), after


def _weight(spec: Spec, load: tuple[int, ...]) -> int:
    return sum(a.weight * n for a, n in zip(spec.actors, load))


def pulley_move_ok(spec: Spec, down: tuple[int, ...], up: tuple[int, ...], w_down: int) -> bool:
    """The heavier basket descends; with a person aboard, not too fast."""
    difference = w_down - _weight(spec, up)
    if difference <= 0:
        return False
    person_aboard = any((d or u) and not a.cargo for a, d, u in zip(spec.actors, down, up))
    return not person_aboard or difference <= spec.max_difference


def _banks_safe(spec: Spec, state: State) -> bool:
    return all(broken_rule(spec, side_content(spec, state, side), "banks") is None for side in (0, 1))


def state_space_size(spec: Spec) -> int:
    """How many states the explicit graph could have (an upper bound, before the rules)."""
    size = 2 if spec.is_river else 1
    for a in spec.actors:
        size *= a.count + 1
    return size
