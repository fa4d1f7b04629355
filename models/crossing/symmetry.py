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
from dataclasses import dataclass

from solver.deadline import Deadline
from solver.statespace import OutOfTime

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
        edges = _edges(spec)
        colours = _refine(spec, _initial_colours(spec), edges)
        for cls in _classes(colours, singles):
            if len(cls) < 2 or cls[0] in assigned:
                continue
            found = _blocks_for(spec, colours, cls, singles, assigned, edges, deadline)
            if found is None:
                continue
            types.append(BlockType(tuple(found)))
            assigned.update(name for block in found for name in block)
    for name in singles:
        if name not in assigned:
            types.append(BlockType(((name,),)))
    return _split_unliftable(spec, types)


def _initial_colours(spec: Spec) -> dict:
    rowers = spec.rowers()
    colours = {}
    for a in spec.actors:
        key = (a.count, tuple(sorted(a.groups)), a.name in rowers, a.weight, a.cargo, a.must_cross)
        colours[("actor", a.name)] = key if a.count == 1 else key + (a.name,)
    for i, rule in enumerate(spec.rules):
        groups = tuple(
            tuple(sorted(r for r in names if r.startswith("@")))
            for names in map(rule.names, ROLES)
        )
        colours[("rule", i)] = (rule.kind, tuple(sorted(rule.where)), groups)
    return colours


def _edges(spec: Spec) -> list[tuple[tuple, str, tuple]]:
    edges = []
    for i, rule in enumerate(spec.rules):
        for role in ROLES:
            for ref in rule.names(role):
                if not ref.startswith("@"):
                    edges.append((("rule", i), role, ("actor", ref)))
    return edges


def _refine(spec: Spec, colours: dict, edges: list) -> dict:
    """Colour refinement to a stable partition; colours are canonical ranks,
    so equal colours in two runs mean equal roles."""
    colours = _canonical(colours)
    while True:
        signature = {node: [colours[node]] for node in colours}
        for rule, role, actor in edges:
            signature[rule].append(("to", role, colours[actor]))
            signature[actor].append(("from", role, colours[rule]))
        refined = _canonical({n: (s[0], tuple(sorted(s[1:]))) for n, s in signature.items()})
        if len(set(refined.values())) == len(set(colours.values())):
            return refined
        colours = refined


def _canonical(colours: dict) -> dict:
    ranks = {value: rank for rank, value in enumerate(sorted(set(colours.values()), key=repr))}
    return {node: ranks[value] for node, value in colours.items()}


def _classes(colours: dict, names: list[str]) -> list[list[str]]:
    by_colour: dict[int, list[str]] = {}
    for name in names:
        by_colour.setdefault(colours[("actor", name)], []).append(name)
    return list(by_colour.values())


def _individualised(spec: Spec, colours: dict, name: str, edges: list) -> dict:
    marked = dict(colours)
    marked[("actor", name)] = -1
    return _refine(spec, marked, edges)


def _blocks_for(spec, colours, cls, singles, assigned, edges, deadline) -> list[tuple[str, ...]] | None:
    """Blocks led by the members of ``cls``: each member with the actors of other
    classes (of the same size) that individualising it singles out.  None if the
    block swaps do not verify, even with single-actor blocks."""
    others = [d for d in _classes(colours, singles)
              if len(d) == len(cls) and d != cls and d[0] not in assigned]
    partners: list[list[str]] = [[] for _ in cls]
    refined: dict[str, dict] = {}  # leader -> colours with the leader individualised

    def individualised(leader: str) -> dict:
        if leader not in refined:
            if deadline is not None and deadline.passed():
                raise OutOfTime("the time limit ran out while finding interchangeable actors")
            refined[leader] = _individualised(spec, colours, leader, edges)
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
    for blocks in ([(c, *p) for c, p in zip(cls, partners)], [(c,) for c in cls]):
        if all(_swap_is_symmetry(spec, blocks[0], other) for other in blocks[1:]):
            return blocks
    return None


def _swap_is_symmetry(spec: Spec, first: tuple[str, ...], second: tuple[str, ...]) -> bool:
    """Does exchanging two blocks (position by position) map the puzzle onto itself?"""
    mapping = {a: b for a, b in zip(first, second)} | {b: a for a, b in zip(first, second)}
    actors = {a.name: a for a in spec.actors}
    for a, b in mapping.items():
        x, y = actors[a], actors[b]
        if (x.count, sorted(x.groups), x.rows, x.weight, x.cargo, x.must_cross) != (
            y.count, sorted(y.groups), y.rows, y.weight, y.cargo, y.must_cross):
            return False

    def canonical(rule, rename):
        return (rule.kind, tuple(sorted(rule.where))) + tuple(
            frozenset(rename.get(r, r) for r in rule.names(role))
            for role in ROLES
        )

    before = Counter(canonical(r, {}) for r in spec.rules)
    after = Counter(canonical(r, mapping) for r in spec.rules)
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
