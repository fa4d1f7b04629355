"""A crossing puzzle compared across methods: the engines that search plans, networkx's
breadth-first search on the graph of concrete states, and the seeds' depth-first search.

Rows are :class:`mindgames.models.compare.Row` objects, as for grid kinds, so that the
summary, agreement and tables of :mod:`mindgames.models.compare` apply unchanged."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mindgames.solver.registry import Capability, engines_with

from ..compare import Row
from .problem import CrossingProblem
from .solve import Options, solve

#: besides the engines that search plans (the time-expanded model alone, horizon by horizon):
#: bfs, networkx on the graph of concrete states; dfs, the seeds' depth-first search over
#: every plan that repeats no state
SEARCH_METHODS = ("bfs", "dfs")
#: every way to compare a crossing puzzle, the registry's plan engines first (those registered
#: when this module is imported: a plug-in registers its engine as it is imported)
CROSSING_METHODS = (*engines_with(Capability.PLAN_SEARCH), *SEARCH_METHODS)
GRAPH_LIMIT = 2_000_000  # most states the networkx graph may hold


def _plan_answer(length: int | None, complete: bool) -> tuple[str, str]:
    """(status, answer) from a shortest length found, or none found."""
    if length is not None:
        return "solved", f"{length} crossings"
    return ("unsolvable", "unsolvable") if complete else ("unknown", "unknown")


def crossing_rows(
    spec: Any,
    methods: Sequence[str] = CROSSING_METHODS,
    time_limit: float | None = None,
    on_step: Callable[[int, str], None] | None = None,
) -> Iterable[Row]:
    """One crossing puzzle by each method: the shortest plan's length (or unsolvable), with
    ``stats``: bfs ``states`` and ``edges`` of the graph; dfs ``expanded`` (states whose
    moves were listed, once per path reaching them) and ``paths`` (goal-reaching plans)."""
    from mindgames.solver.statespace import TooLarge, build_graph, shortest_paths, simple_paths

    memo: dict = {}

    def neighbours(state: Any) -> list:
        if state not in memo:
            memo[state] = [nxt for _, nxt in problem.successors(state)]
        return memo[state]

    for method in methods:
        if on_step is not None:
            on_step(0, method)
        # each method pays for its own successor lists and rule checks (a problem remembers
        # the safety checks it made)
        memo.clear()
        problem = CrossingProblem(spec)
        started = time.perf_counter()
        stats: dict[str, int] = {}
        if method not in SEARCH_METHODS:  # an engine
            # counted_limit=1: the breadth-first search stops at once, the model alone decides
            outcome = solve(
                spec, Options(engine=method, time_limit=time_limit, cross_check=False, counted_limit=1)
            )
            status, answer = (
                outcome.status,
                (f"{outcome.crossings} crossings" if outcome.status == "solved" else outcome.status),
            )
        elif method == "bfs":
            try:
                graph = build_graph(problem.initial, neighbours, GRAPH_LIMIT, time_limit)
                length, _, _ = shortest_paths(graph, problem.initial, problem.goal_test)
                stats = {"states": graph.number_of_nodes(), "edges": graph.number_of_edges()}
                status, answer = _plan_answer(length, True)
            except TooLarge:
                status, answer = "unknown", "unknown"
        else:
            found = simple_paths(problem.initial, neighbours, problem.goal_test, time_limit)
            stats = {"expanded": found.expanded, "paths": found.count}
            length = None if found.shortest is None or not found.complete else len(found.shortest) - 1
            status, answer = _plan_answer(length, found.complete)
        seconds = time.perf_counter() - started
        crossings = int(answer.split()[0]) if status == "solved" else None
        yield Row(
            0,
            method,
            status,
            answer,
            seconds,
            stats,
            {"name": spec.name, "status": status, "crossings": crossings},
        )
