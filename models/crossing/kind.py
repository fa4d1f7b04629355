"""Crossing puzzles as a kind of the registry: a plan kind beside the grid kinds."""

from __future__ import annotations

from typing import Any

from mindgames.models.kind import Option, PlanKind
from mindgames.solver import Capability, engine_info, engines_with

from . import presets
from .checker import replay
from .problem import CrossingProblem, Move
from .solve import Options, Outcome, Report, solve
from .spec import Spec, parse_document, parse_text


def plan_engines_help() -> str:
    """The engines that search plans, each with its summary (the engine option's help)."""
    return "; ".join(f"{name}: {engine_info(name).summary}" for name in engines_with(Capability.PLAN_SEARCH))


class CrossingKind(PlanKind):
    """River-crossing and pulley puzzles: a puzzle is a :class:`Spec`, an answer a proven
    shortest plan (or a proof there is none), see :mod:`mindgames.models.crossing.solve`."""

    name = "crossing"
    summary = "river-crossing and pulley puzzles: proven shortest plans"
    actions = ("solve",)
    formats = (
        "a built-in puzzle name with its parameters (mindgames crossing list)",
        "a puzzle document in TOML",
        "a puzzle document in JSON (text starting with '{')",
    )
    options = (  # the fields of models.crossing.Options a user sets
        Option("engine", plan_engines_help(), engines_with(Capability.PLAN_SEARCH), "sat"),
        Option("count_shortest", "also count the distinct shortest plans", default=False, flag=True),
        Option("simple_paths", "also count the plans that never repeat a state", default=False, flag=True),
        Option("cross_check", "cross-check with the counted and explicit state graphs", default=True),
        Option(
            "certify", "a checked DRAT proof that no shorter plan (or none) exists", default=False, flag=True
        ),
    )

    # -- reading ---------------------------------------------------------------------------
    def read(self, text: str, source: str = "puzzle") -> Spec:
        """A puzzle from TOML or JSON text; PuzzleError naming the key and value otherwise."""
        return parse_text(text, source)

    def parse_document(self, document: dict[str, Any]) -> Spec:
        return parse_document(document)

    def preset(self, name: str, settings: dict[str, Any] | None = None) -> Spec:
        """A built-in puzzle with its parameters set (PuzzleError when out of bounds)."""
        return parse_document(presets.build(name, settings))

    def problem(self, spec: Spec) -> CrossingProblem:
        """The puzzle as a search problem: initial state, actions, result, goal test."""
        return CrossingProblem(spec)

    # -- answering -------------------------------------------------------------------------
    def solve(self, spec: Spec, options: Options | None = None, report: Report | None = None) -> Outcome:
        return solve(spec, options, report)

    def verify(self, spec: Spec, plan: list[Move]) -> list[dict]:
        """Replay ``plan`` by the rules alone: the banks after each step, or VerificationError."""
        return replay(spec, plan)

    def describe(self, spec: Spec) -> str:
        return spec.name


CROSSING = CrossingKind()
