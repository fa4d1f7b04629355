"""The ``backtrack`` engine: the textbook search, as the seeds describe it.

Take the first undecided choice (a Sudoku cell, a Binairo cell), try its
values in order, keep a value only if it breaks no rule, go deeper, and undo
on the way back.  "Breaks no rule" is checked only for the constraints that
contain the variables just set (the row, column and box of a Sudoku cell),
with running counts instead of copies of the grid.  No propagation, no
clever ordering: this engine is the yardstick the others are measured
against, and an independent third opinion in tests.

Every constraint is held as ``sum(weight * literal) >= bound`` or ``<= bound``
with positive weights; a constraint is broken when the literals already set
make it impossible whatever the rest become.
"""

from __future__ import annotations

from collections.abc import Sequence

from .deadline import Deadline
from .engine import Engine, Session, Solutions, SolveResult
from .model import Model

_CHECK_CLOCK_EVERY = 2048  # nodes between looks at the clock


class _OutOfTime(Exception):
    pass


class BacktrackSession(Session):
    #: nodes: values tried; backtracks: choices whose values ran out, so the
    #: search went back up; max_depth: the most choices open at once
    STATS = ("nodes", "backtracks", "max_depth")
    engine_name = "backtrack"

    def __init__(self, model: Model):
        super().__init__(model)
        n = model.num_vars
        # constraints: lower bound or None, upper bound or None
        self.lower: list[int | None] = []
        self.upper: list[int | None] = []
        self.potential: list[int] = []  # sum of weights of all literals (before anything is set)
        # occurrences[v] = [(constraint, weight, polarity)], polarity True for literal +v
        self.occurrences: list[list[tuple[int, int, bool]]] = [[] for _ in range(n + 1)]

        def add(literals: Sequence[int], weights: Sequence[int], op: str, bound: int) -> None:
            index = len(self.lower)
            potential = 0
            for lit, w in zip(literals, weights):
                if w < 0:  # w*l == w - w*(not l)
                    lit, w, bound = -lit, -w, bound - w
                if w == 0:
                    continue
                potential += w
                self.occurrences[abs(lit)].append((index, w, lit > 0))
            self.lower.append(bound if op in (">=", "==") else None)
            self.upper.append(bound if op in ("<=", "==") else None)
            self.potential.append(potential)

        for clause in model.clauses:
            add(clause, [1] * len(clause), ">=", 1)
        for card in model.cardinalities:
            add(card.literals, [1] * len(card.literals), card.op, card.bound)
        for lin in model.linears:
            add(lin.literals, lin.weights, lin.op, lin.bound)

        # Branching order: the choices as declared, then any other variable.
        in_choice = {abs(l) for group in model.choices for l in group}
        self.branches: list[tuple[int, ...]] = list(model.choices) + [
            (-v, v) for v in range(1, n + 1) if v not in in_choice
        ]

    def _search(self, assumptions: list[int], deadline: Deadline, solutions: Solutions) -> bool:
        model = self.model
        n = model.num_vars
        value = [0] * (n + 1)  # 0 undecided, 1 true, -1 false
        true_sum = [0] * len(self.lower)
        open_sum = list(self.potential)
        lower, upper, occurrences = self.lower, self.upper, self.occurrences
        trail: list[int] = []
        nodes = 0  # since the last look at the clock
        tried = backtracks = max_depth = 0  # the search's counters (STATS)

        def assign(var: int, positive: bool) -> bool:
            """Set a variable; False if that breaks a constraint (the setting stays on the trail)."""
            value[var] = 1 if positive else -1
            trail.append(var)
            ok = True
            for c, w, polarity in occurrences[var]:
                open_sum[c] -= w
                if polarity == positive:
                    true_sum[c] += w
                    most = upper[c]
                    if most is not None and true_sum[c] > most:
                        ok = False
                else:
                    least = lower[c]
                    if least is not None and true_sum[c] + open_sum[c] < least:
                        ok = False
            return ok

        def undo(mark: int) -> None:
            while len(trail) > mark:
                var = trail.pop()
                positive = value[var] > 0
                value[var] = 0
                for c, w, polarity in occurrences[var]:
                    open_sum[c] += w
                    if polarity == positive:
                        true_sum[c] -= w

        def set_literal(lit: int) -> bool:
            var, positive = abs(lit), lit > 0
            if value[var]:
                return (value[var] > 0) == positive
            return assign(var, positive)

        def take(group: tuple[int, ...], chosen: int) -> bool:
            """Make ``chosen`` the true literal of its group, the others false."""
            ok = set_literal(chosen)
            for other in group:
                if ok and other != chosen:
                    ok = set_literal(-other)
            return ok

        complete = True

        # A constraint no setting can satisfy (an empty clause, say) means no solution.
        consistent = all(
            (lo is None or lo <= pot) and (up is None or up >= 0)
            for lo, up, pot in zip(lower, upper, self.potential)
        )
        # The assumptions (givens) first; a clash among them means no solution.
        consistent = consistent and all(set_literal(l) for l in assumptions)
        if consistent:
            # Choices fixed by the assumptions: their other literals become false.
            for group in model.choices:
                chosen = [l for l in group if value[abs(l)] and (value[abs(l)] > 0) == (l > 0)]
                if chosen and not take(group, chosen[0]):
                    consistent = False
                    break
        if consistent:
            branches = self.branches
            depth_limit = len(branches)

            def undecided(group: tuple[int, ...]) -> bool:
                return any(value[abs(l)] == 0 for l in group)

            # Iterative depth-first search: stack of (branch index, next option, trail mark)
            stack: list[list[int]] = []
            index = 0
            try:
                while True:
                    # descend to the first undecided branch
                    while index < depth_limit and not undecided(branches[index]):
                        index += 1
                    if index == depth_limit:
                        if not solutions.add([v * value[v] for v in range(1, n + 1)]):
                            complete = False
                            break
                        # fall through to backtrack
                    else:
                        stack.append([index, 0, len(trail)])
                        max_depth = max(max_depth, len(stack))
                    # try the next option of the deepest open branch
                    advanced = False
                    while stack:
                        frame = stack[-1]
                        b, option, mark = frame
                        undo(mark)
                        group = branches[b]
                        while option < len(group):
                            lit = group[option]
                            option += 1
                            if value[abs(lit)] == 0 or value[abs(lit)] == (1 if lit > 0 else -1):
                                nodes += 1
                                tried += 1
                                if take(group, lit):
                                    advanced = True
                                    break
                                undo(mark)
                        frame[1] = option
                        if advanced:
                            index = b + 1
                            break
                        stack.pop()
                        backtracks += 1
                    if nodes >= _CHECK_CLOCK_EVERY:
                        nodes = 0
                        if deadline.passed():
                            raise _OutOfTime
                    if not advanced:
                        break  # search space exhausted
            except _OutOfTime:
                complete = False
        self.search_stats = {"nodes": tried, "backtracks": backtracks, "max_depth": max_depth}
        return complete

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> SolveResult:
        found = self.enumerate(assumptions, limit=1, time_limit=time_limit, keep=1)
        if found.count:
            return SolveResult("sat", found.solutions[0], found.seconds, found.stats)
        return SolveResult("unsat" if found.complete else "unknown", None, found.seconds, found.stats)


class BacktrackEngine(Engine):
    name = "backtrack"
    description = "plain backtracking in Python, the seeds' textbook baseline"

    def prepare(self, model: Model) -> BacktrackSession:
        return BacktrackSession(model)
