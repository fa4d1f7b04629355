"""What ``mindgames crossing`` has beyond every plan kind's ``list|solve|explain|export``
(:mod:`.plan`): its longer description."""

from __future__ import annotations

import argparse

from mindgames.models.kind import PlanKind


def extend(
    parser: argparse.ArgumentParser,
    actions: argparse._SubParsersAction,
    parsers: dict[str, argparse.ArgumentParser],
    kind: PlanKind,
) -> None:
    parser.description = (
        "Crossing puzzles: shortest plans proven by a breadth-first search over "
        "counted states, confirmed on a time-expanded SAT model."
    )
