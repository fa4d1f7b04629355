"""How a person solves a Sudoku: candidates, named techniques, hints and grades.

Each technique is a small function ``(board) -> Step | None``: the first
deduction it finds (cells visited in row-major order, units in the order of
:func:`~mindgames.models.sudoku.rules.units`), or None where it does not apply.  It
works on any variant (boxes, jigsaw regions, diagonals): it only knows units.  A step
names what it places or eliminates, the cells it uses and the candidates it ``requires``
gone, so that a hint keeps only the steps its placement depends on (:func:`.ladder.depends_on`).

The ladder the puzzles are solved along is Sudoku Explainer's
(:mod:`mindgames.models.sudoku.rating`: the easiest technique that makes progress, each
with SE's difficulty).  A puzzle's **rating** is SE's ER, the hardest step of that path;
its **grade** is the range of :data:`GRADE_TOPS` that holds the rating (monotonic):

====  ============  ==========  ==============================================
 1    easy          1.0-1.5     hidden singles
 2    medium        1.6-2.5     direct techniques, naked singles
 3    tricky        2.6-3.4     pointing, claiming, pairs, X-wing
 4    hard          3.5-4.4     triples, swordfish, XY- and XYZ-wings
 5    expert        4.5-6.2     unique rectangles and loops, quads, jellyfish, BUG
 6    fiendish      6.3-8.4     forcing chains (one digit, every digit), nishio
 7    diabolical    8.5-10.4    dynamic forcing chains
 8    needs search  above 10.4  the ladder is stuck
====  ============  ==========  ==============================================

The older rungs below (``probing_depth_1``, ``probing_depth_2``) stay for callers of the
contradiction-by-propagation technique; the ladder's chain rungs are in ``rating``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from mindgames.solver.deadline import Deadline

from ..errors import TimeLimitReached
from ..grid import Unit, cell_name, symbol_char
from .puzzle import Shape, Sudoku, shape
from .rules import units

Cell = tuple[int, int]


class Contradiction(Exception):
    """The candidates left admit no solution (a cell without candidates, a value without a place)."""


# ---------------------------------------------------------------------------
# The board: values placed and the candidates of the open cells
# ---------------------------------------------------------------------------
@lru_cache(maxsize=64)
def peers_of(grid_shape: Shape) -> dict[Cell, frozenset[Cell]]:
    """Each cell's peers (the other cells of its units), once per shape: working them out
    was most of a hint's time.  Shared by every board of the shape: never changed."""
    peers: dict[Cell, set[Cell]] = {}
    for unit in units(grid_shape):
        for cell in unit.cells:
            peers.setdefault(cell, set()).update(unit.cells)
    return {cell: frozenset(others - {cell}) for cell, others in peers.items()}


@dataclass
class Board:
    """A position: ``values`` of the filled cells, ``candidates`` of the open ones."""

    size: int
    units: tuple[Unit, ...]
    peers: dict[Cell, frozenset[Cell]]
    values: dict[Cell, int] = field(default_factory=dict)
    candidates: dict[Cell, set[int]] = field(default_factory=dict)
    #: when the ladder must stop (TimeLimitReached): probing is checked candidate by candidate
    deadline: Deadline = field(default_factory=lambda: Deadline(None))
    #: a rating the caller already has (a path's hardest step so far): a chain rung may take the
    #: first contradiction it finds rated no higher, not the shortest (the rating stays the same)
    settle: float = 0.0

    @classmethod
    def of(cls, puzzle: Sudoku) -> Board:
        """The position of the givens, every open cell's candidates those no peer holds.

        Raises Contradiction when the givens already break a rule."""
        board = cls(puzzle.size, units(shape(puzzle)), peers_of(shape(puzzle)))
        symbols = range(1, puzzle.size + 1)
        board.candidates = {cell: set(symbols) for cell in sorted(board.peers)}
        for (r, c), value in sorted(
            ((r, c), v) for r, row in enumerate(puzzle.grid) for c, v in enumerate(row) if v
        ):
            if value not in board.candidates.get((r, c), ()):
                raise Contradiction(f"{cell_name((r, c))}: {value} clashes with a given")
            board.place((r, c), value)
        return board

    def copy(self) -> Board:
        return Board(
            self.size,
            self.units,
            self.peers,
            dict(self.values),
            {cell: set(values) for cell, values in self.candidates.items()},
            self.deadline,
            self.settle,
        )

    @property
    def solved(self) -> bool:
        return not self.candidates

    def place(self, cell: Cell, value: int) -> None:
        """Fill ``cell`` with ``value``: no peer can hold it any more."""
        del self.candidates[cell]
        self.values[cell] = value
        for peer in self.peers[cell]:
            left = self.candidates.get(peer)
            if left is not None and value in left:
                left.discard(value)
                if not left:
                    raise Contradiction(f"{cell_name(peer)} has no candidate left")

    def eliminate(self, cell: Cell, value: int) -> None:
        left = self.candidates[cell]
        left.discard(value)
        if not left:
            raise Contradiction(f"{cell_name(cell)} has no candidate left")

    def apply(self, step: Step) -> None:
        for cell, value in step.eliminate:
            self.eliminate(cell, value)
        if step.place is not None:
            self.place(*step.place)

    def open_cells(self, unit: Unit) -> list[Cell]:
        return [cell for cell in unit.cells if cell in self.candidates]

    def places(self, unit: Unit, value: int) -> list[Cell]:
        """The open cells of ``unit`` that can still hold ``value``."""
        return [cell for cell in unit.cells if value in self.candidates.get(cell, ())]

    def missing(self, unit: Unit) -> list[int]:
        """The values ``unit`` still needs, in order."""
        placed = {self.values[cell] for cell in unit.cells if cell in self.values}
        return [value for value in range(1, self.size + 1) if value not in placed]

    def check(self) -> None:
        """Raise Contradiction when some unit has a value it needs nowhere to go."""
        values, candidates, everything = self.values, self.candidates, range(1, self.size + 1)
        for unit in self.units:  # (the hot loop of probing: one pass over each unit)
            covered = set()
            for cell in unit.cells:
                left = candidates.get(cell)
                if left is None:
                    covered.add(values[cell])
                else:
                    covered |= left
            if len(covered) < self.size:
                value = next(value for value in everything if value not in covered)
                raise Contradiction(f"{symbol_char(value)} has no place in {unit.name}")


@dataclass(frozen=True)
class Step:
    """One deduction: a value placed or candidates eliminated, by a technique, because of cells."""

    technique: str
    because: tuple[Cell, ...]
    text: str
    place: tuple[Cell, int] | None = None
    eliminate: tuple[tuple[Cell, int], ...] = ()
    #: the candidates that must already be gone for the step to hold (what it depends on; the
    #: pruned hint follows them back); None: it may depend on every elimination before it
    requires: frozenset[tuple[Cell, int]] | None = None
    #: its difficulty on Sudoku Explainer's scale when it differs from its technique's base
    #: (a chain's grows with its length: :mod:`mindgames.models.sudoku.rating`)
    rating: float | None = None
    #: for a step without ``requires`` (a contradiction): whether it still holds on a board
    recheck: Callable[[Board], bool] | None = field(default=None, compare=False, repr=False)


def _cells(cells: Iterator[Cell] | list[Cell] | tuple[Cell, ...]) -> str:
    return ", ".join(cell_name(cell) for cell in cells)


def _values(values: Iterator[int] | list[int] | tuple[int, ...]) -> str:
    return "/".join(symbol_char(value) for value in values)


def _eliminations(
    board: Board, cells: list[Cell], values: set[int] | frozenset[int]
) -> tuple[tuple[Cell, int], ...]:
    """(cell, value) for each of ``values`` still a candidate of one of ``cells``."""
    return tuple(
        (cell, value) for cell in cells for value in sorted(values) if value in board.candidates.get(cell, ())
    )


# ---------------------------------------------------------------------------
# The techniques
# ---------------------------------------------------------------------------
def _blockers(board: Board, unit: Unit, cell: Cell, value: int) -> tuple[Cell, ...]:
    """Why ``value`` fits nowhere else in ``unit``: each other cell is filled, or sees ``value``."""
    because = set()
    holding = {other for other, placed in board.values.items() if placed == value}
    for other in unit.cells:
        if other == cell:
            continue
        if other in board.values:
            because.add(other)
        else:
            seen = board.peers[other] & holding
            if seen:
                because.add(min(seen))  # the first peer holding it, in row-major order
    return tuple(sorted(because))


def hidden_single(board: Board) -> Step | None:
    """A value the unit still needs has one place left in it."""
    candidates = board.candidates
    for unit in board.units:
        # The values with one place in the unit, in one pass over it (a value placed in the
        # unit is no candidate of its other cells: Board.place took it from them).
        seen: set[int] = set()
        repeated: set[int] = set()
        for cell in unit.cells:
            left = candidates.get(cell)
            if left:
                repeated |= seen & left
                seen |= left
        alone = seen - repeated
        if alone:
            value = min(alone)
            cell = next(cell for cell in unit.cells if value in candidates.get(cell, ()))
            return Step(
                "hidden single",
                _blockers(board, unit, cell, value),
                f"{symbol_char(value)} can go nowhere else in {unit.name}: "
                f"{cell_name(cell)} is {symbol_char(value)}",
                place=(cell, value),
                requires=frozenset((other, value) for other in unit.cells if other != cell),
            )
    return None


def naked_single(board: Board) -> Step | None:
    """An open cell has one candidate left."""
    for cell, left in board.candidates.items():
        if len(left) == 1:
            (value,) = left
            because = tuple(sorted(p for p in board.peers[cell] if p in board.values))
            return Step(
                "naked single",
                because,
                f"{cell_name(cell)} sees every other value: it is {symbol_char(value)}",
                place=(cell, value),
                requires=frozenset((cell, other) for other in range(1, board.size + 1) if other != value),
            )
    return None


def locked_candidates(board: Board) -> Step | None:
    """Within one unit a value can only go where it meets another unit: not elsewhere in that one."""
    for unit in board.units:
        for value in board.missing(unit):
            places = set(board.places(unit, value))
            if len(places) < 2:
                continue
            for other in board.units:
                if other is unit or not places <= set(other.cells):
                    continue
                outside = [cell for cell in other.cells if cell not in places]
                gone = _eliminations(board, outside, {value})
                if gone:
                    return Step(
                        "locked candidates",
                        tuple(sorted(places)),
                        f"in {unit.name}, {symbol_char(value)} must be in {_cells(sorted(places))}, "
                        f"all in {other.name}: not elsewhere in {other.name} "
                        f"({_cells(c for c, _ in gone)})",
                        eliminate=gone,
                        requires=frozenset((cell, value) for cell in unit.cells if cell not in places),
                    )
    return None


def _naked_subset(board: Board, n: int, name: str) -> Step | None:
    return next(naked_subsets(board, n, name), None)


def _hidden_subset(board: Board, n: int, name: str) -> Step | None:
    return next(hidden_subsets(board, n, name), None)


def naked_subsets(board: Board, n: int, name: str) -> Iterator[Step]:
    """``n`` open cells of a unit whose candidates together are ``n`` values: no other cell has them."""
    for unit in board.units:
        open_cells = [cell for cell in board.open_cells(unit) if len(board.candidates[cell]) <= n]
        for group in combinations(open_cells, n):
            values = set().union(*(board.candidates[cell] for cell in group))
            if len(values) != n:
                continue
            others = [cell for cell in board.open_cells(unit) if cell not in group]
            gone = _eliminations(board, others, values)
            if gone:
                yield Step(
                    name,
                    group,
                    f"{_cells(group)} hold {_values(sorted(values))} between them: "
                    f"no other cell of {unit.name} can",
                    eliminate=gone,
                    requires=frozenset(
                        (cell, v) for cell in group for v in range(1, board.size + 1) if v not in values
                    ),
                )


def hidden_subsets(board: Board, n: int, name: str) -> Iterator[Step]:
    """``n`` values of a unit with only ``n`` places between them: those cells hold nothing else."""
    for unit in board.units:
        values = [v for v in board.missing(unit) if 2 <= len(board.places(unit, v)) <= n]
        for group in combinations(values, n):
            cells = sorted(set().union(*(board.places(unit, v) for v in group)))
            if len(cells) != n:
                continue
            gone = _eliminations(board, cells, set(range(1, board.size + 1)) - set(group))
            if gone:
                yield Step(
                    name,
                    tuple(cells),
                    f"in {unit.name}, {_values(group)} can only go in {_cells(cells)}: "
                    f"those cells hold nothing else",
                    eliminate=gone,
                    requires=frozenset((cell, v) for v in group for cell in unit.cells if cell not in cells),
                )


def naked_pair(board: Board) -> Step | None:
    return _naked_subset(board, 2, "naked pair")


def hidden_pair(board: Board) -> Step | None:
    return _hidden_subset(board, 2, "hidden pair")


def naked_triple(board: Board) -> Step | None:
    return _naked_subset(board, 3, "naked triple")


def hidden_triple(board: Board) -> Step | None:
    return _hidden_subset(board, 3, "hidden triple")


def x_wing(board: Board) -> Step | None:
    """A value confined to the same two columns in two rows (or rows in two columns): not
    elsewhere in those columns (rows)."""
    lines = [u for u in board.units if u.name.startswith("row ")]
    crossing = [u for u in board.units if u.name.startswith("column ")]
    for base, cover, across in ((lines, crossing, 1), (crossing, lines, 0)):
        for value in range(1, board.size + 1):
            spots = {}
            for unit in base:
                places = board.places(unit, value)
                if len(places) == 2:
                    spots[unit] = tuple(cell[across] for cell in places)
            for first, second in combinations(spots, 2):
                if spots[first] != spots[second]:
                    continue
                corners = set(board.places(first, value)) | set(board.places(second, value))
                covered = [cover[i] for i in spots[first]]
                others = [cell for unit in covered for cell in unit.cells if cell not in corners]
                gone = _eliminations(board, others, {value})
                if gone:
                    return Step(
                        "X-wing",
                        tuple(sorted(corners)),
                        f"in {first.name} and {second.name}, {symbol_char(value)} is in "
                        f"{covered[0].name} or {covered[1].name} only: not elsewhere in them "
                        f"({_cells(c for c, _ in gone)})",
                        eliminate=gone,
                        requires=frozenset(
                            (cell, value)
                            for unit in (first, second)
                            for cell in unit.cells
                            if cell not in corners
                        ),
                    )
    return None


def singles_fixpoint(board: Board) -> None:
    """Apply singles until none applies (Contradiction when one is reached)."""
    while True:
        board.check()
        step = hidden_single(board) or naked_single(board)
        if step is None:
            return
        board.apply(step)


def basic_fixpoint(board: Board) -> None:
    """Apply every technique below probing until none applies."""
    while True:
        board.check()
        step = next((s for _level, technique in BASIC for s in [technique(board)] if s), None)
        if step is None:
            return
        board.apply(step)


def _probe(board: Board, propagate: Callable[[Board], None], name: str) -> Step | None:
    """A candidate that, once assumed, ``propagate`` takes to a contradiction: it goes."""
    for cell, left in board.candidates.items():
        for value in sorted(left):
            if board.deadline.passed():
                raise TimeLimitReached("time limit reached while grading")
            trial = board.copy()
            try:
                trial.place(cell, value)
                propagate(trial)
            except Contradiction as why:
                return Step(
                    name,
                    (cell,),
                    f"if {cell_name(cell)} were {symbol_char(value)}, then {why}: "
                    f"it is not {symbol_char(value)}",
                    eliminate=((cell, value),),
                )
    return None


def probing_depth_1(board: Board) -> Step | None:
    return _probe(board, singles_fixpoint, "contradiction by propagation (depth 1)")


def probing_depth_2(board: Board) -> Step | None:
    return _probe(board, basic_fixpoint, "contradiction by propagation (depth 2)")


#: the rungs below probing: (level, technique), easiest first
BASIC: tuple[tuple[int, Callable[[Board], Step | None]], ...] = (
    (1, hidden_single),
    (1, naked_single),
    (2, locked_candidates),
    (3, naked_pair),
    (3, hidden_pair),
    (4, naked_triple),
    (4, hidden_triple),
    (5, x_wing),
)
#: each contradiction rung: (its base rating, the highest its length takes it), SE's range of
#: the chains it stands for (calibrated on se_rated_87.tsv and SE's ratings of magictour top 95)
CHAINS: dict[str, tuple[float, float]] = {
    "one-digit forcing chain": (6.6, 7.0),  # static, one digit: SE's X-chains and X-cycles
    "forcing chain": (7.1, 7.5),  # static, every digit: SE's forcing chains
    "nishio": (7.6, 8.1),  # dynamic, one digit: SE's nishio
    "dynamic forcing chain": (8.5, 9.4),  # dynamic singles: SE's dynamic forcing chains
    "dynamic forcing chain (+)": (9.5, 10.4),  # dynamic, the whole ladder: SE's (+) chains
}
#: what a puzzle none of the rungs solves is rated (SE's hardest puzzles rate 10.5-11.9)
NEEDS_SEARCH_RATING = 11.0

#: technique name -> its base difficulty on the SE scale
BASE_RATING: dict[str, float] = {
    "full house": 1.0,
    "hidden single": 1.2,
    "direct pointing": 1.7,
    "direct claiming": 1.9,
    "direct hidden pair": 2.0,
    "naked single": 2.3,
    "direct hidden triple": 2.5,
    "pointing": 2.6,
    "claiming": 2.8,
    "naked pair": 3.0,
    "X-wing": 3.2,
    "hidden pair": 3.4,
    "naked triple": 3.6,
    "swordfish": 3.8,
    "hidden triple": 4.0,
    "XY-wing": 4.2,
    "XYZ-wing": 4.4,
    "unique rectangle": 4.5,
    "unique loop": 4.6,
    "naked quad": 5.0,
    "jellyfish": 5.2,
    "hidden quad": 5.4,
    "bivalue universal grave": 5.6,
    **{name: base for name, (base, _top) in CHAINS.items()},
    "needs search": NEEDS_SEARCH_RATING,
}


NEEDS_SEARCH = 8
GRADE_NAMES = {
    1: "easy",
    2: "medium",
    3: "tricky",
    4: "hard",
    5: "expert",
    6: "fiendish",
    7: "diabolical",
    NEEDS_SEARCH: "needs search",
}
#: the highest rating on Sudoku Explainer's scale of each grade (ER; monotonic: a harder
#: grade is a higher range): singles, direct techniques and naked singles, intersections
#: pairs and X-wing, triples swordfish and wings, rectangles quads jellyfish and BUG, the chains
#: (one-digit and by singles), contradictions by the whole ladder, and above: needs search
GRADE_TOPS = {1: 1.5, 2: 2.5, 3: 3.4, 4: 4.4, 5: 6.2, 6: 8.4, 7: 10.4, NEEDS_SEARCH: 99.0}


def grade_of(rating: float) -> int:
    """The grade whose range holds an SE rating."""
    return next(level for level, top in sorted(GRADE_TOPS.items()) if rating <= top + 1e-9)


@dataclass
class Solving:
    """A puzzle solved along the ladder: the steps taken, how far it got, its grade and rating."""

    steps: list[Step]
    board: Board
    grade: int
    rating: float = 0.0
    rating_ep: float = 0.0
    rating_ed: float = 0.0

    @property
    def grade_name(self) -> str:
        return GRADE_NAMES[self.grade]

    @property
    def techniques(self) -> list[str]:
        """The techniques used, easiest first, each once."""
        used = {step.technique for step in self.steps}
        if self.grade == NEEDS_SEARCH and not self.board.solved:
            used.add("needs search")
        return sorted(used, key=lambda name: (LEVELS[name], name))


#: technique name -> the grade its base rating falls in, for the scale in words
LEVELS: dict[str, int] = {name: grade_of(rating) for name, rating in BASE_RATING.items()}
