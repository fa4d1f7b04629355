"""Search over an explicit state space given by a successor function.

Puzzle-agnostic helpers for kinds whose answers are paths (e.g. crossing
puzzles): the explicit graph (networkx), shortest path lengths with path
counts, and depth-first enumeration of simple paths (the textbook
backtracking that never revisits a state on the current path).  States are
any hashable values; ``neighbours(state)`` yields the states one step away.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import networkx as nx

from .deadline import Deadline

State = TypeVar("State", bound=Hashable)
Label = TypeVar("Label")
Neighbours = Callable[[State], Iterable[State]]


class TooLarge(Exception):
    """The graph has more states than allowed, or building it ran out of time."""


class OutOfTime(TooLarge):
    """The time limit ran out while exploring the graph."""


class _GoalMet(Exception):
    pass


Progress = Callable[[int, int], None]  # (depth reached, states seen so far)


@dataclass
class Search(Generic[State, Label]):
    """A breadth-first search from one start state.

    ``length`` and ``path``/``labels`` describe a shortest way to a goal (None
    when none was met); ``states`` is how many states were seen and
    ``complete`` says whether that is every reachable state (then
    ``length is None`` proves that no goal is reachable)."""

    length: int | None = None
    path: list[State] | None = None
    labels: list[Label] | None = None
    states: int = 0
    complete: bool = False
    stopped: str = ""  # why the search stopped early
    depth: int = -1  # every state within this many steps of the start was seen
    layers: list[list[State]] | None = None  # with keep_layers: the states at distance 0, 1, ..., depth


def breadth_first(
    start: State,
    successors: Callable[[State], Iterable[tuple[Label, State]]],
    is_goal: Callable[[State], bool],
    max_states: int,
    deadline: Deadline | None = None,
    on_layer: Progress | None = None,
    stop_at_goal: bool = False,
    keep_layers: bool = False,
) -> Search[State, Label]:
    """Every state reachable from ``start``, layer by layer, without building a
    graph object (only a parent link per state): for graphs too big for networkx.
    ``successors(state)`` yields ``(label, next state)``.  Stops early (``complete`` False, ``stopped``
    says why) past ``max_states`` states or the deadline; a goal met before that
    is still a proven shortest one (breadth first).  ``stop_at_goal``: stop as
    soon as a goal is met (then ``complete`` is False).  ``keep_layers``: keep the
    states of every layer seen whole (``layers[d]``: the states at distance ``d``).

    Six states on a ring, each next to two others:

    >>> def successors(n):
    ...     return [(f"to {m}", m) for m in ((n + 1) % 6, (n - 1) % 6)]
    >>> found = breadth_first(0, successors, lambda n: n == 3, max_states=100)
    >>> found.length, found.path, found.labels, found.complete
    (3, [0, 1, 2, 3], ['to 1', 'to 2', 'to 3'], True)
    >>> unreachable = breadth_first(0, successors, lambda n: n == 7, max_states=100)
    >>> unreachable.length, unreachable.states, unreachable.complete  # every state seen: no goal
    (None, 6, True)
    """
    parent: dict[State, tuple[State, Label] | None] = {start: None}
    result: Search[State, Label] = Search(layers=[] if keep_layers else None)
    goal = start if is_goal(start) else None
    frontier = [start]
    depth = 0
    try:
        while frontier:
            if on_layer is not None:
                on_layer(depth, len(parent))
            if result.layers is not None:
                result.layers.append(frontier)
            following: list[State] = []
            for state in frontier:
                for label, nxt in successors(state):
                    # checked per successor: one state may have very many
                    if deadline is not None and deadline.passed():
                        raise OutOfTime(f"the time limit ran out at depth {depth}")
                    if nxt in parent:
                        continue
                    if len(parent) >= max_states:
                        raise TooLarge(f"more than {max_states:,} states")
                    parent[nxt] = (state, label)
                    following.append(nxt)
                    if on_layer is not None and len(parent) % 20_000 == 0:
                        on_layer(depth, len(parent))
                    if goal is None and is_goal(nxt):
                        goal = nxt
                        if stop_at_goal:
                            raise _GoalMet
            frontier = following
            depth += 1
        result.complete = True
    except _GoalMet:
        result.stopped = "a goal was met"
    except TooLarge as error:
        result.stopped = str(error)
    result.depth = depth
    result.states = len(parent)
    if goal is not None:
        path, labels = [goal], []
        while (link := parent[path[-1]]) is not None:
            before, label = link
            path.append(before)
            labels.append(label)
        result.path, result.labels = path[::-1], labels[::-1]
        result.length = len(labels)
    return result


def build_graph(
    start: State,
    neighbours: Neighbours[State],
    max_states: int,
    time_limit: float | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> nx.DiGraph:
    """The graph of every state reachable from ``start`` (breadth first).

    Raises :class:`TooLarge` past ``max_states`` states or ``time_limit`` seconds;
    ``on_progress(states so far)`` is called every 10,000 states.

    >>> ring = lambda n: [(n + 1) % 6, (n - 1) % 6]
    >>> build_graph(0, ring, max_states=100).number_of_nodes()
    6
    >>> build_graph(0, ring, max_states=3)
    Traceback (most recent call last):
    ...
    mindgames.solver.statespace.TooLarge: more than 3 states
    """
    end = None if time_limit is None else time.perf_counter() + time_limit
    graph = nx.DiGraph()
    graph.add_node(start)
    frontier = [start]
    while frontier:
        following: list[State] = []
        for state in frontier:
            if end is not None and time.perf_counter() > end:
                raise OutOfTime("the time limit ran out while building the graph")
            for nxt in neighbours(state):
                if nxt not in graph:
                    if graph.number_of_nodes() >= max_states:
                        raise TooLarge(f"more than {max_states:,} states")
                    following.append(nxt)
                    graph.add_node(nxt)
                    if on_progress is not None and graph.number_of_nodes() % 10_000 == 0:
                        on_progress(graph.number_of_nodes())
                graph.add_edge(state, nxt)
        frontier = following
    return graph


def shortest_paths(
    graph: nx.DiGraph, start: State, is_goal: Callable[[State], bool]
) -> tuple[int, int, list[State]] | tuple[None, int, None]:
    """``(length, count, path)`` of the shortest paths from ``start`` to a goal
    state, by networkx BFS; count is the number of distinct shortest paths
    (a layered count: paths into a state sum over its predecessors one layer up).
    ``(None, 0, None)`` when no goal is reachable.

    >>> graph = build_graph(0, lambda n: [(n + 1) % 6, (n - 1) % 6], max_states=100)
    >>> shortest_paths(graph, 0, lambda n: n == 3)  # both ways round the ring
    (3, 2, [0, 1, 2, 3])
    """
    distance = nx.single_source_shortest_path_length(graph, start)
    goals = [s for s in distance if is_goal(s)]
    if not goals:
        return None, 0, None
    length = min(distance[g] for g in goals)
    ways: dict[State, int] = {start: 1}
    for state in sorted(distance, key=distance.__getitem__):
        if distance[state] == 0:
            continue
        ways[state] = sum(
            ways[p] for p in graph.predecessors(state) if distance.get(p) == distance[state] - 1
        )
    count = sum(ways[g] for g in goals if distance[g] == length)
    target = next(g for g in goals if distance[g] == length)
    return length, count, nx.shortest_path(graph, start, target)


@dataclass
class SimplePaths(Generic[State]):
    """Goal-reaching paths that never repeat a state: how many of each length."""

    count: int = 0
    histogram: dict[int, int] = field(default_factory=dict)
    complete: bool = True
    shortest: list[State] | None = None
    expanded: int = 0  # states whose successors were listed (a state once per path through it)


def simple_paths(
    start: State,
    neighbours: Neighbours[State],
    is_goal: Callable[[State], bool],
    time_limit: float | None = None,
) -> SimplePaths[State]:
    """Depth-first enumeration of simple paths from ``start`` that end at their
    first goal state (the seeds' backtracking); stops early (``complete=False``)
    at the time limit.  Also keeps the shortest path met (the baseline solver).

    >>> paths = simple_paths(0, lambda n: [(n + 1) % 6, (n - 1) % 6], lambda n: n == 3)
    >>> paths.count, paths.histogram, paths.shortest, paths.complete
    (2, {3: 2}, [0, 1, 2, 3], True)
    """
    end = None if time_limit is None else time.perf_counter() + time_limit
    result: SimplePaths[State] = SimplePaths()
    path = [start]
    on_path = {start}
    # An explicit stack of iterators: Python's recursion limit would cap the depth.
    stack: list[Iterator[State]] = [iter(neighbours(start))]
    result.expanded = 1
    if is_goal(start):
        result.count, result.histogram, result.shortest = 1, {0: 1}, [start]
        return result
    checks = 0
    while stack:
        checks += 1
        if end is not None and checks % 256 == 0 and time.perf_counter() > end:
            result.complete = False
            break
        nxt = next(stack[-1], None)
        if nxt is None:
            stack.pop()
            on_path.discard(path.pop())
            continue
        if nxt in on_path:
            continue
        if is_goal(nxt):
            length = len(path)
            result.count += 1
            result.histogram[length] = result.histogram.get(length, 0) + 1
            if result.shortest is None or length < len(result.shortest) - 1:
                result.shortest = [*path, nxt]
            continue
        path.append(nxt)
        on_path.add(nxt)
        stack.append(iter(neighbours(nxt)))
        result.expanded += 1
    result.histogram = dict(sorted(result.histogram.items()))
    return result


__all__ = [
    "OutOfTime",
    "Search",
    "SimplePaths",
    "TooLarge",
    "breadth_first",
    "build_graph",
    "shortest_paths",
    "simple_paths",
]
