"""The ``sat`` engine: CNF through python-sat, solved by CaDiCaL 1.5.3.

Why CaDiCaL: it is the strongest CDCL solver python-sat ships, it is
incremental (assumptions, clauses added between calls) and it can emit
DRAT proofs.  Glucose 4 can be chosen instead (``solver_name``); it is the
better choice only where a solver must be interrupted mid-call, which this
engine avoids by solving in slices of conflicts (CaDiCaL honours conflict
budgets), so that time limits and Ctrl-C are checked between slices.

Incremental use: the model's CNF is built once per :class:`SatSession`;
every question passes its givens as assumptions.  Blocking clauses for
enumeration sit behind a fresh *activation literal* that is assumed during
that enumeration and retired (asserted false) after it, so the solver keeps
its learnt clauses and stays valid for the next question.
"""

from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from itertools import combinations

import pysolvers  # python-sat's extension module
from pysat.solvers import Cadical153, Solver

from .engine import Deadline, Engine, Session, Solutions, SolveResult
from .model import Model

# At-most-one over this many literals or fewer is encoded pairwise (strongest
# propagation, n(n-1)/2 clauses, no auxiliary variables); longer groups use a
# sequential counter.  25 covers the cells and units of 25x25 Sudoku, where
# pairwise solved blanked puzzles 7-10x faster than the sequential counter
# (16x16: 3-17x), for a larger one-time build per shape (25x25: ~1.7 s for
# 752,500 clauses, against ~0.5 s; see benchmarks/sudoku.md).
PAIRWISE_LIMIT = 25
CONFLICTS_PER_SLICE = 5_000


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while many small lists are made.

    Building a CNF allocates one list per clause (750,000 for 25x25 Sudoku
    with pairwise at-most-one); each allocation burst triggers a collection
    that walks every live container, which made building 5x slower.  Clauses
    hold only ints, so they cannot form cycles: nothing is lost by waiting."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def to_cnf(model: Model) -> tuple[list[Sequence[int]], int]:
    """The model as CNF clauses (the model's own clauses are shared, not copied: nobody
    modifies a clause), and the highest variable they use."""
    with _gc_paused():
        return _to_cnf(model)


def _to_cnf(model: Model) -> tuple[list[Sequence[int]], int]:
    clauses: list[Sequence[int]] = list(model.clauses)
    top = model.num_vars

    def fresh() -> int:
        nonlocal top
        top += 1
        return top

    def contradiction() -> None:
        v = fresh()
        clauses.append([v])
        clauses.append([-v])

    for card in model.cardinalities:
        lits, op, k = list(card.literals), card.op, card.bound
        n = len(lits)
        need_at_most = op in ("<=", "==")
        need_at_least = op in (">=", "==")
        if need_at_most and k < 0 or need_at_least and k > n:
            contradiction()
            continue
        if need_at_least and k > 0:
            if k == 1:
                clauses.append(lits)
            elif k == n:
                clauses.extend([lit] for lit in lits)
            else:
                from pysat.card import CardEnc, EncType  # ~5 ms to import: only when needed

                enc = CardEnc.atleast(lits, bound=k, top_id=top, encoding=EncType.seqcounter)
                top = max(top, enc.nv)
                clauses.extend(enc.clauses)
        if need_at_most and k < n:
            if k == 0:
                clauses.extend([-lit] for lit in lits)
            elif k == 1 and n <= PAIRWISE_LIMIT:
                clauses.extend(combinations([-lit for lit in lits], 2))  # tuples: no copies
            else:
                from pysat.card import CardEnc, EncType

                enc = CardEnc.atmost(lits, bound=k, top_id=top, encoding=EncType.seqcounter)
                top = max(top, enc.nv)
                clauses.extend(enc.clauses)

    for lin in model.linears:
        lits, weights, bound = [], [], lin.bound
        for lit, w in zip(lin.literals, lin.weights):
            if w < 0:  # w*l == w - w*(not l): keep weights positive
                lit, w, bound = -lit, -w, bound - w
            if w:
                lits.append(lit)
                weights.append(w)
        for op in ("<=", ">=") if lin.op == "==" else (lin.op,):
            top = _encode_pb(clauses, lits, weights, op, bound, top, contradiction)
    return clauses, top


def _encode_pb(
    clauses: list[Sequence[int]],
    lits: list[int],
    weights: list[int],
    op: str,
    bound: int,
    top: int,
    contradiction: Callable[[], None],
) -> int:
    total = sum(weights)
    if op == "<=" and bound >= total or op == ">=" and bound <= 0:
        return top  # always true
    if op == "<=" and bound < 0 or op == ">=" and bound > total:
        contradiction()
        return top
    from pysat.pb import EncType as PBType  # needs the pindakaas package
    from pysat.pb import PBEnc

    encode = PBEnc.leq if op == "<=" else PBEnc.geq
    enc = encode(lits=lits, weights=weights, bound=bound, top_id=top, encoding=PBType.best)
    clauses.extend(enc.clauses)
    return max(top, enc.nv)


def _load(solver: Solver, clauses: list[Sequence[int]]) -> None:
    """Every clause into ``solver``.  python-sat adds clauses one at a time through two Python
    calls each; CaDiCaL 1.5.3's own C function called directly loads a 16x16 Sudoku's
    124,000 clauses ~35 % faster (~62 ms against ~97 ms).  Other solvers: python-sat's way."""
    handle = getattr(solver.solver, "cadical", None)
    if isinstance(solver.solver, Cadical153) and handle is not None:
        deque(map(partial(pysolvers.cadical153_add_cl, handle), clauses), 0)
    else:
        solver.append_formula(clauses)


class SatSession(Session):
    #: CaDiCaL's own counters (python-sat's ``accum_stats()``), per question
    STATS = ("decisions", "conflicts", "propagations", "restarts")
    engine_name = "sat"

    def __init__(self, model: Model, solver_name: str = "cadical153"):
        super().__init__(model)
        self.solver_name = solver_name
        self.solver, self.base_top, self.num_clauses = self._new_solver()
        self.top = self.base_top
        # Each enumeration leaves a retired activation variable behind, and
        # every call then pays for it (get_model() lists all variables, the
        # solver carries the dead blocking clauses): over 20,000 uniqueness
        # checks of 9x9 Sudoku that halved the speed.  So after this many
        # retirements the solver is rebuilt from the model (about 10 ms for
        # 9x9), dropping them together with its learnt clauses.  The CNF is
        # not kept in between: for 25x25 Sudoku it would hold ~100 MB.
        self.recycle_after = max(1_000, model.num_vars)
        # Blocking clauses are built from the primary variables' values; when
        # those are 1..k (the usual case) a slice of the model is all it takes.
        k = len(model.primary)
        self._primary_prefix = k if model.primary == list(range(1, k + 1)) else None

    def _new_solver(self) -> tuple[Solver, int, int]:
        """A solver loaded with the model's CNF, the CNF's top variable and its size."""
        clauses, top = to_cnf(self.model)
        solver = Solver(name=self.solver_name)
        _load(solver, clauses)
        return solver, top, len(clauses)

    def new_activation(self) -> int:
        self.top += 1
        return self.top

    def _recycle(self) -> None:
        """A fresh solver on the base CNF: no retired activations, no blocking clauses."""
        self.solver.delete()
        self.solver, self.base_top, self.num_clauses = self._new_solver()
        self.top = self.base_top

    def _counters(self) -> dict[str, int]:
        """The solver's counters so far (they grow over all its calls)."""
        counted = self.solver.accum_stats() or {}
        return {name: int(counted.get(name, 0)) for name in self.STATS}

    def _solve(self, assumptions: Sequence[int], deadline: Deadline) -> bool | None:
        """True / False, or None when time ran out.  Ctrl-C raises KeyboardInterrupt.

        What the call cost is added to ``self.search_stats``."""
        before = self._counters()
        try:
            return self._solve_sliced(assumptions, deadline)
        finally:
            after = self._counters()
            for name in self.STATS:
                self.search_stats[name] = self.search_stats.get(name, 0) + after[name] - before[name]

    def _solve_sliced(self, assumptions: Sequence[int], deadline: Deadline) -> bool | None:
        try:
            if deadline.end is None:
                return self.solver.solve(assumptions=assumptions)
            while not deadline.passed():
                self.solver.conf_budget(CONFLICTS_PER_SLICE)
                answer = self.solver.solve_limited(assumptions=assumptions)
                if answer is not None:
                    return answer
            return None
        except pysolvers.error as error:
            # python-sat catches SIGINT inside the solver and reports it as its own error.
            if "keyboard interrupt" in str(error).lower():
                raise KeyboardInterrupt from None
            raise

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> SolveResult:
        start = time.perf_counter()
        self.search_stats = dict.fromkeys(self.STATS, 0)
        answer = self._solve(list(assumptions), Deadline(time_limit))
        seconds, stats = time.perf_counter() - start, dict(self.search_stats)
        if answer is None:
            return SolveResult("unknown", None, seconds, stats)
        if not answer:
            return SolveResult("unsat", None, seconds, stats)
        return SolveResult("sat", self.solver.get_model(), seconds, stats)

    def unsat_core(self, assumptions: Sequence[int], time_limit: float | None = None) -> list[int] | None:
        """CaDiCaL's failed assumptions (see :meth:`Session.unsat_core`)."""
        if self._solve(list(assumptions), Deadline(time_limit)) is not False:
            return None
        return list(self.solver.get_core() or [])

    distinct_by_construction = True  # each solution is blocked once found

    def _search(self, assumptions: list[int], deadline: Deadline, solutions: Solutions) -> bool:
        primary = self.model.primary
        prefix = self._primary_prefix
        activation = self.new_activation()
        assumed = [*assumptions, activation]
        try:
            while True:
                answer = self._solve(assumed, deadline)
                if answer is None:
                    return False
                if not answer:
                    return True
                assignment = self.solver.get_model()
                if not solutions.add(assignment):
                    return False
                # Block this solution on the primary variables only.
                if prefix is not None:
                    block = [-lit for lit in assignment[:prefix]]
                else:
                    block = [-assignment[v - 1] for v in primary]
                block.append(-activation)
                self.solver.add_clause(block)
        finally:
            self.solver.add_clause([-activation])  # retire this enumeration's clauses
            if self.top - self.base_top >= self.recycle_after:
                self._recycle()

    def close(self) -> None:
        self.solver.delete()


class SatEngine(Engine):
    name = "sat"
    description = "python-sat, CNF with CaDiCaL 1.5.3, incremental with assumptions"
    # Its capabilities (solver/registry.py) include shares_models: one warm solver answers
    # many questions by assumptions, so a model shared by several shapes (a kind's
    # ``compile`` with ``fixed`` literals) pays: see PuzzleSolver.session

    def __init__(self, solver_name: str = "cadical153"):
        self.solver_name = solver_name

    def prepare(self, model: Model) -> SatSession:
        return SatSession(model, self.solver_name)
