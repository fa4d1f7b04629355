"""Interchangeable actors, found from the puzzle itself.

Two sources of interchangeability:

* identical copies (``count = k``): one actor, ``k`` indistinguishable copies;
* symmetric actors: distinct actors that the rules treat alike, in *blocks*
  that can be permuted as wholes (the couples of the jealous husbands, the
  two sons of the dangerous family, the wolf and the cabbage).

Symmetric blocks are found by colour refinement (1-dimensional
Weisfeiler-Leman) on the actor/rule incidence graph, with one actor
individualised to find the actors bound to it; every candidate symmetry is
then *verified*: swapping two blocks must map the set of rules onto itself.
Unverified candidates are dropped, so the result is always sound (at worst,
actors are tracked one by one).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

from mindgames.solver.deadline import Deadline
from mindgames.solver.statespace import OutOfTime

from .rules import NotOutnumbered
from .spec import Spec

ROLES = ("who", "with_any", "unless_any", "protect", "by")  # every kind's roles, in one order


@dataclass(frozen=True)
class BlockType:
    """``len(blocks)`` interchangeable blocks; each block is a tuple of actor
    names, one per *position* (block i's position p plays the part of block
    j's position p).  ``identical``: the blocks are copies of one actor."""

    blocks: tuple[tuple[str, ...], ...]
    identical: bool = False

    @property
    def size(self) -> int:
        return len(self.blocks)

    @property
    def width(self) -> int:
        return len(self.blocks[0])

    def label(self) -> str:
        if self.identical:
            return f"{self.size} x {self.blocks[0][0]}"
        if self.size == 1:
            return "+".join(self.blocks[0])
        return " ~ ".join("(" + "+".join(b) + ")" for b in self.blocks)


def block_types(spec: Spec, use_symmetry: bool = True, deadline: Deadline | None = None) -> list[BlockType]:
    """Partition the actors into block types (see the module text).  ``deadline``:
    raise OutOfTime once it has passed (the search for symmetric blocks refines
    colours once per candidate actor)."""
    types: list[BlockType] = []
    singles = [a.name for a in spec.actors if a.count == 1]
    for a in spec.actors:
        if a.count > 1:
            types.append(BlockType(tuple((a.name,) for _ in range(a.count)), identical=True))
    assigned: set[str] = set()
    if use_symmetry:
        graph = Incidence(spec)
        colours = graph.refine(_initial_colours(spec))
        for cls in _classes(colours, singles):
            if len(cls) < 2 or cls[0] in assigned:
                continue
            found = _blocks_for(spec, graph, colours, cls, singles, assigned, deadline)
            if found is None:
                continue
            types.append(BlockType(tuple(found)))
            assigned.update(name for block in found for name in block)
    for name in singles:
        if name not in assigned:
            types.append(BlockType(((name,),)))
    return _split_unliftable(spec, types)


Node = tuple[str, str | int]  # ("actor", name) or ("rule", its index)
Colours = dict[Node, int]  # a refined colouring: node -> colour number


def _initial_colours(spec: Spec) -> dict[Node, Hashable]:
    rowers = spec.rowers()
    colours: dict[Node, Hashable] = {}
    for a in spec.actors:
        key = (a.count, tuple(sorted(a.groups)), a.name in rowers, a.weight, a.cargo, a.must_cross)
        colours[("actor", a.name)] = key if a.count == 1 else key + (a.name,)
    for i, rule in enumerate(spec.rules):
        groups = tuple(
            tuple(sorted(r for r in names if r.startswith("@"))) for names in map(rule.names, ROLES)
        )
        colours[("rule", i)] = (rule.kind, tuple(sorted(rule.where)), groups)
    return colours


class Incidence:
    """The actor/rule incidence graph: a node per actor ``("actor", name)`` and per
    rule ``("rule", i)``, an edge per actor a rule's role names (labelled by the role,
    and by its direction as seen from each end).

    :meth:`refine` is colour refinement (1-dimensional Weisfeiler-Leman) to the
    coarsest *equitable* partition: every two nodes of a colour have, for each label
    and each colour, as many neighbours of that colour along that label.  It splits
    cells by their neighbours in one *splitter* cell at a time, and when a cell
    splits, the largest part need not be a splitter (its counts are the old cell's
    minus the other parts'): so the work is about ``edges * log(nodes)``, and
    individualising one actor of a refined colouring only touches what it changes
    (Cardon and Crochemore's algorithm, the one nauty's refinement follows)."""

    def __init__(self, spec: Spec):
        self.nodes: list[Node] = [("actor", a.name) for a in spec.actors]
        self.nodes += [("rule", i) for i in range(len(spec.rules))]
        self.index = {node: i for i, node in enumerate(self.nodes)}
        # adjacent[u]: (v, the label of the edge as v sees it), once per edge
        self.adjacent: list[list[tuple[int, tuple[str, str]]]] = [[] for _ in self.nodes]
        for i, rule in enumerate(spec.rules):
            r = self.index[("rule", i)]
            for role in ROLES:
                for ref in rule.names(role):
                    if not ref.startswith("@"):
                        a = self.index[("actor", ref)]
                        self.adjacent[a].append((r, ("to", role)))
                        self.adjacent[r].append((a, ("from", role)))
        # each rule as (kind, places, the names of each role): what a symmetry must preserve
        self.rule_forms = [
            (rule.kind, tuple(sorted(rule.where)), tuple(frozenset(rule.names(role)) for role in ROLES))
            for rule in spec.rules
        ]

    def refine(self, colours: dict[Node, Hashable]) -> Colours:
        """The coarsest equitable partition finer than ``colours`` (node -> any
        hashable value), as node -> colour number (equal numbers: equal roles)."""
        cells: dict[int, set[int]] = {}
        first: dict[Hashable, int] = {}
        cell_of = [0] * len(self.nodes)
        for i, node in enumerate(self.nodes):
            c = first.setdefault(colours[node], len(first))
            cell_of[i] = c
            cells.setdefault(c, set()).add(i)
        return self._equitable(cell_of, cells, list(cells))

    def individualised(self, colours: Colours, name: str) -> Colours:
        """The refinement of an equitable ``colours`` (from :meth:`refine`) with the
        actor ``name`` given a colour of its own."""
        cell_of = [colours[node] for node in self.nodes]
        cells: dict[int, set[int]] = {}
        for i, c in enumerate(cell_of):
            cells.setdefault(c, set()).add(i)
        v = self.index[("actor", name)]
        if len(cells[cell_of[v]]) == 1:
            return dict(colours)
        cells[cell_of[v]].discard(v)
        alone = max(cells) + 1
        cells[alone] = {v}
        cell_of[v] = alone
        # the old cell was a stable splitter: the new singleton is the only one needed
        return self._equitable(cell_of, cells, [alone])

    def _equitable(self, cell_of: list[int], cells: dict[int, set[int]], pending: list[int]) -> Colours:
        waiting = set(pending)
        fresh = max(cells) + 1
        while pending:
            splitter = pending.pop()
            waiting.discard(splitter)
            counts: dict[int, dict[tuple[str, str], int]] = {}
            for u in cells[splitter]:
                for v, label in self.adjacent[u]:
                    seen = counts.setdefault(v, {})
                    seen[label] = seen.get(label, 0) + 1
            by_cell: dict[int, dict[tuple, list[int]]] = {}
            for v, seen in counts.items():
                by_cell.setdefault(cell_of[v], {}).setdefault(tuple(sorted(seen.items())), []).append(v)
            for x, groups in by_cell.items():
                parts = [set(group) for group in groups.values()]
                untouched = cells[x].difference(*parts)  # no neighbour in the splitter
                if untouched:
                    parts.append(untouched)
                if len(parts) == 1:
                    continue
                parts.sort(key=len, reverse=True)
                cells[x] = parts[0]  # the largest part keeps the cell's number
                for part in parts[1:]:
                    cells[fresh] = part
                    for v in part:
                        cell_of[v] = fresh
                    pending.append(fresh)
                    waiting.add(fresh)
                    fresh += 1
        return {node: cell_of[i] for i, node in enumerate(self.nodes)}


def _classes(colours: Colours, names: list[str]) -> list[list[str]]:
    by_colour: dict[int, list[str]] = {}
    for name in names:
        by_colour.setdefault(colours[("actor", name)], []).append(name)
    return list(by_colour.values())


def _blocks_for(
    spec: Spec,
    graph: Incidence,
    colours: Colours,
    cls: list[str],
    singles: list[str],
    assigned: set[str],
    deadline: Deadline | None,
) -> list[tuple[str, ...]] | None:
    """Blocks led by the members of ``cls``: each member with the actors of other
    classes (of the same size) that individualising it singles out.  None if the
    block swaps do not verify, even with single-actor blocks."""
    others = [
        d for d in _classes(colours, singles) if len(d) == len(cls) and d != cls and d[0] not in assigned
    ]
    partners: list[list[str]] = [[] for _ in cls]
    refined: dict[str, Colours] = {}  # leader -> colours with the leader individualised

    def individualised(leader: str) -> Colours:
        if leader not in refined:
            if deadline is not None and deadline.passed():
                raise OutOfTime("the time limit ran out while finding interchangeable actors")
            refined[leader] = graph.individualised(colours, leader)
        return refined[leader]

    for d in others:
        chosen: list[str] = []
        for leader in cls:
            after = individualised(leader)
            tally = Counter(after[("actor", x)] for x in d)
            single = [x for x in d if tally[after[("actor", x)]] == 1 and x not in chosen]
            if len(d) > 2 and len(single) != 1:
                break
            if not single:
                break
            chosen.append(single[0])
        else:
            for i, x in enumerate(chosen):
                partners[i].append(x)
    candidates: list[list[tuple[str, ...]]] = [[(c, *p) for c, p in zip(cls, partners)], [(c,) for c in cls]]
    for blocks in candidates:
        if all(_swap_is_symmetry(spec, graph, blocks[0], other) for other in blocks[1:]):
            return blocks
    return None


def _swap_is_symmetry(spec: Spec, graph: Incidence, first: tuple[str, ...], second: tuple[str, ...]) -> bool:
    """Does exchanging two blocks (position by position) map the puzzle onto itself?"""
    mapping = {a: b for a, b in zip(first, second)} | {b: a for a, b in zip(first, second)}
    actors = {a.name: a for a in spec.actors}
    for a, b in mapping.items():
        x, y = actors[a], actors[b]
        if (x.count, sorted(x.groups), x.rows, x.weight, x.cargo, x.must_cross) != (
            y.count,
            sorted(y.groups),
            y.rows,
            y.weight,
            y.cargo,
            y.must_cross,
        ):
            return False
    moved = frozenset(mapping)

    def renamed(names: frozenset[str]) -> frozenset[str]:
        hit = names & moved
        return (names - hit) | {mapping[r] for r in hit} if hit else names

    # a rule naming none of the swapped actors is its own image: only the others are compared
    before: Counter = Counter()
    after: Counter = Counter()
    for kind, where, roles in graph.rule_forms:
        if all(names.isdisjoint(moved) for names in roles):
            continue
        before[kind, where, roles] += 1
        after[kind, where, tuple(renamed(names) for names in roles)] += 1
    return before == after


def _split_unliftable(spec: Spec, types: list[BlockType]) -> list[BlockType]:
    """A ``not_outnumbered`` rule is stated on counts, so it must see every block
    of a type alike: a type whose blocks it tells apart is tracked block by block."""
    result = []
    for t in types:
        if t.identical or t.size == 1:
            result.append(t)
            continue
        uniform = True
        for rule in spec.rules:
            if not isinstance(rule, NotOutnumbered):
                continue
            for refs in (rule.protect, rule.by):
                named = rule.everyone(refs)
                for p in range(t.width):
                    if len({block[p] in named for block in t.blocks}) > 1:
                        uniform = False
        result.extend([t] if uniform else [BlockType((b,)) for b in t.blocks])
    return result
