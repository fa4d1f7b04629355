"""The plan checker: replays a plan move by move against the rules.

It uses neither the model nor the state graph's successor function: it keeps
its own bank contents (name -> copies) and checks each move as the puzzle
text states it.  Any disagreement is a bug and raises VerificationError.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from mindgames.models.errors import VerificationError

from .problem import Move
from .rules import broken_rule, describe_rule
from .spec import Spec


def replay(spec: Spec, moves: Sequence[Move]) -> list[dict[str, dict[str, int]]]:
    """Replay ``moves`` from the start; return the banks after each step
    (``{"near": {...}, "far": {...}}``, the start first).  Raises
    :class:`VerificationError` on the first broken rule, or if the goal is not reached."""
    near = Counter({a.name: a.count for a in spec.actors})
    far: Counter = Counter()
    boat_far = False  # where the boat is (river only)
    history = [_snapshot(near, far)]
    for step, move in enumerate(moves, start=1):
        where = f"step {step}"
        going, coming = Counter(move.to_far), Counter(move.to_near)
        for name in going | coming:
            if name not in near and name not in far and not any(a.name == name for a in spec.actors):
                raise VerificationError(f"{where}: {name!r} is no actor")
        if spec.is_river:
            if bool(going) == bool(coming):
                raise VerificationError(f"{where}: a boat trip goes one way, with someone aboard")
            load, source, target = (going, near, far) if going else (coming, far, near)
            if boat_far != (not going):
                raise VerificationError(f"{where}: the boat is not on the side the trip starts from")
            size = sum(load.values())
            limit = spec.capacity_towards(far=bool(going))
            if size < spec.min_load or (limit is not None and size > limit):
                raise VerificationError(f"{where}: {size} aboard, allowed {spec.min_load}..{limit}")
            if not any(name in spec.rowers() for name in load):
                raise VerificationError(f"{where}: nobody aboard can row")
            _take(source, load, where)
            _check_place(spec, load, "boat", where)
            target.update(load)
            boat_far = not boat_far
        else:
            _check_pulley(spec, going, coming, where)
            _take(near, going, where)
            _take(far, coming, where)
            far.update(going)
            near.update(coming)
        _check_place(spec, near, "banks", f"{where}, {spec.sides[0]}")
        _check_place(spec, far, "banks", f"{where}, {spec.sides[1]}")
        history.append(_snapshot(near, far))
    for a in spec.actors:
        if a.must_cross and far[a.name] != a.count:
            raise VerificationError(f"after the plan, {a.name!r} has not crossed")
    return history


def _take(place: Counter, load: Counter, where: str) -> None:
    for name, n in load.items():
        if place[name] < n:
            raise VerificationError(f"{where}: {name!r} is not on the departure side")
        place[name] -= n
        if not place[name]:
            del place[name]


def _check_place(spec: Spec, content: Counter, place: str, where: str) -> None:
    index = broken_rule(spec.rules, content, place)
    if index is not None:
        raise VerificationError(f"{where}: breaks {describe_rule(spec.rules, index)}")


def _check_pulley(spec: Spec, down: Counter, up: Counter, where: str) -> None:
    weight = {a.name: a.weight for a in spec.actors}
    cargo = {a.name for a in spec.actors if a.cargo}
    if not down:
        raise VerificationError(f"{where}: the descending basket is empty")
    for basket in (down, up):
        if spec.capacity is not None and sum(basket.values()) > spec.capacity:
            raise VerificationError(f"{where}: a basket holds more than {spec.capacity}")
        _check_place(spec, basket, "boat", f"{where}, basket")
    difference = sum(weight[n] * k for n, k in down.items()) - sum(weight[n] * k for n, k in up.items())
    if difference <= 0:
        raise VerificationError(f"{where}: the top basket is not heavier, it cannot descend")
    riders = [n for n in (down | up) if n not in cargo]
    if riders and difference > spec.max_difference:
        raise VerificationError(
            f"{where}: {', '.join(riders)} ride a descent {difference} heavier (max {spec.max_difference})"
        )


def _snapshot(near: Counter, far: Counter) -> dict[str, dict[str, int]]:
    return {"near": dict(sorted(near.items())), "far": dict(sorted(far.items()))}
