"""Crossing puzzles as a kind of the registry: a plan kind beside the grid kinds."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mindgames.models.kind import Option, PlanKind
from mindgames.solver import Capability, engine_info, engines_with

from . import presets
from .checker import replay
from .compare import CROSSING_METHODS, crossing_rows
from .problem import CrossingProblem, Move
from .solve import Options, Outcome, Report, WarmModels, solve
from .spec import Spec, load_document, parse_document
from .toml_writer import to_toml


def plan_engines_help() -> str:
    """The engines that search plans (the registry's, when this module is imported), each with
    its summary: the engine option's help."""
    return "; ".join(
        f"{name}: {engine_info(name).summary}{' (default)' if name == 'sat' else ''}"
        for name in engines_with(Capability.PLAN_SEARCH)
    )


class CrossingKind(PlanKind[Spec]):
    """River-crossing and pulley puzzles: a puzzle is a :class:`Spec`, an answer a proven
    shortest plan (or a proof there is none), see :mod:`mindgames.models.crossing.solve`."""

    name = "crossing"
    summary = "river-crossing and pulley puzzles: proven shortest plans"
    formats = (
        "a built-in puzzle name with its parameters (mindgames crossing list)",
        "a puzzle document in TOML",
        "a puzzle document in JSON (text starting with '{')",
    )
    request_formats = (
        'a built-in puzzle name with "params" (see /v1/crossing/presets)',
        "a puzzle document (the TOML/JSON puzzle file as an object, or its text)",
        '{"preset": NAME, "params": {...}} (in a batch)',
    )
    params_help = (
        "parameters of a built-in puzzle: JSON integers within the bounds "
        "listed by /v1/crossing/presets (beyond them: 422 naming the parameter)"
    )
    compare_methods = CROSSING_METHODS
    compare_help = "compare the SAT model, BFS and the seeds' DFS"
    options = (  # the fields of models.crossing.Options a user sets
        Option("engine", plan_engines_help(), engines_with(Capability.PLAN_SEARCH), "sat"),
        Option("count_shortest", "also count the distinct shortest plans", default=False, flag=True),
        Option(
            "simple_paths",
            "also count the plans that never repeat a state (with a length histogram)",
            default=False,
            flag=True,
        ),
        Option(
            "cross_check",
            "the networkx cross-checks (counted and explicit state graphs)",
            default=True,
            flag=True,
        ),
        Option(
            "symmetry",
            "the counting of interchangeable actors (then every actor is tracked one by one)",
            default=True,
            flag=True,
        ),
    )

    # -- reading ---------------------------------------------------------------------------
    def load_document(self, text: str, source: str = "puzzle") -> dict[str, Any]:
        return load_document(text, source)

    def parse_document(self, document: dict[str, Any]) -> Spec:
        return parse_document(document)

    def write(self, document: dict[str, Any]) -> str:
        return to_toml(document)

    def problem(self, spec: Spec) -> CrossingProblem:
        """The puzzle as a search problem: initial state, actions, result, goal test."""
        return CrossingProblem(spec)

    # -- built-in puzzles ------------------------------------------------------------------
    def preset_names(self) -> tuple[str, ...]:
        return tuple(presets.PRESETS)

    def preset_parameters(self, name: str) -> dict[str, Any]:
        return presets.parameters(name)

    def preset_bounds(self, name: str) -> dict[str, tuple[int, int]]:
        return presets.BOUNDS[name]

    def check_parameter(self, name: str, key: str, value: Any) -> None:
        presets.check_value(name, key, value)

    def preset_document(self, name: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return presets.build(name, params)

    def preset_summary(self, name: str) -> str:
        return " ".join((presets.PRESETS[name].__doc__ or "").split())

    def preset_description(self, name: str) -> str:
        return presets.describe(name)

    # -- answering -------------------------------------------------------------------------
    def solve(
        self,
        puzzle: Spec,
        settings: dict[str, Any] | None = None,
        time_limit: float | None = None,
        certify: bool = False,
        proof_dir: str | None = None,
        report: Report | None = None,
        warm: Any = None,
    ) -> Outcome:
        chosen = {option.name: option.default for option in self.options} | (settings or {})
        options = Options(
            engine=chosen["engine"],
            time_limit=time_limit,
            count_shortest=bool(chosen["count_shortest"]),
            simple_paths=bool(chosen["simple_paths"]),
            cross_check=chosen["cross_check"] is not False,
            use_symmetry=chosen["symmetry"] is not False,
            certify=certify,  # the plan's "none shorter" or "none at all", proved
            proof_dir=proof_dir,
            warm_models=warm,
        )
        return solve(puzzle, options, report)

    def explain(self, puzzle: Spec, time_limit: float | None = None) -> Any:
        from .explain import explain  # the rules' minimal sets: only when asked

        return explain(puzzle, time_limit)

    def compare_rows(
        self,
        puzzle: Spec,
        methods: Sequence[str],
        time_limit: float | None = None,
        on_step: Callable[[int, str], None] | None = None,
    ) -> Iterable[Any]:
        return crossing_rows(puzzle, methods, time_limit, on_step=on_step)

    def warm_models(self) -> WarmModels:
        return WarmModels()

    def verify(self, spec: Spec, plan: list[Move]) -> list[dict]:
        """Replay ``plan`` by the rules alone: the banks after each step, or VerificationError."""
        return replay(spec, plan)

    # -- words and pictures ----------------------------------------------------------------
    def describe(self, spec: Spec) -> str:
        return spec.name

    def answer_lines(self, answer: Outcome) -> list[str]:
        from .text import outcome_lines

        return outcome_lines(answer)

    def picture(self, spec: Spec, answer: Outcome) -> str | None:
        if answer.plan is None:
            return None
        from .svg import storyboard

        assert answer.banks is not None  # a plan comes with the checker's replay
        return storyboard(spec.name, spec.is_river, answer.banks, answer.plan)

    def page_fields(self, spec: Spec, answer: Outcome) -> dict[str, Any]:
        """For the page's animation: the checker's replay (bank contents after each step)."""
        return {
            "sides": list(spec.sides),
            "river": spec.is_river,
            "banks": answer.banks,
            "actors": [
                {"name": a.name, "count": a.count, "weight": a.weight, "cargo": a.cargo} for a in spec.actors
            ],
        }


CROSSING = CrossingKind()
