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

import time
from typing import Sequence

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from .engine import Deadline, Engine, Enumeration, OnSolution, Session, SolveResult
from .model import Model

# At-most-one over this many literals or fewer is encoded pairwise (strongest
# propagation, n(n-1)/2 clauses); longer groups use a sequential counter.
PAIRWISE_LIMIT = 10
CONFLICTS_PER_SLICE = 5_000


def to_cnf(model: Model) -> tuple[list[list[int]], int]:
    """The model as CNF clauses, and the highest variable they use."""
    clauses: list[list[int]] = [list(c) for c in model.clauses]
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
                enc = CardEnc.atleast(lits, bound=k, top_id=top, encoding=EncType.seqcounter)
                top = max(top, enc.nv)
                clauses.extend(enc.clauses)
        if need_at_most and k < n:
            if k == 0:
                clauses.extend([-lit] for lit in lits)
            elif k == 1 and n <= PAIRWISE_LIMIT:
                clauses.extend(
                    [-lits[i], -lits[j]] for i in range(n) for j in range(i + 1, n)
                )
            else:
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


def _encode_pb(clauses, lits, weights, op, bound, top, contradiction) -> int:
    total = sum(weights)
    if op == "<=" and bound >= total or op == ">=" and bound <= 0:
        return top  # always true
    if op == "<=" and bound < 0 or op == ">=" and bound > total:
        contradiction()
        return top
    from pysat.pb import EncType as PBType, PBEnc  # needs the pindakaas package

    encode = PBEnc.leq if op == "<=" else PBEnc.geq
    enc = encode(lits=lits, weights=weights, bound=bound, top_id=top, encoding=PBType.best)
    clauses.extend(enc.clauses)
    return max(top, enc.nv)


class SatSession(Session):
    def __init__(self, model: Model, solver_name: str = "cadical153"):
        super().__init__(model)
        clauses, self.top = to_cnf(model)
        self.solver_name = solver_name
        self.solver = Solver(name=solver_name, bootstrap_with=clauses)
        self.num_clauses = len(clauses)

    def new_activation(self) -> int:
        self.top += 1
        return self.top

    def _solve(self, assumptions: Sequence[int], deadline: Deadline) -> bool | None:
        """True / False, or None when time ran out."""
        if deadline.end is None:
            return self.solver.solve(assumptions=assumptions)
        while not deadline.passed():
            self.solver.conf_budget(CONFLICTS_PER_SLICE)
            answer = self.solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
        return None

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> SolveResult:
        start = time.perf_counter()
        answer = self._solve(list(assumptions), Deadline(time_limit))
        seconds = time.perf_counter() - start
        if answer is None:
            return SolveResult("unknown", None, seconds)
        if not answer:
            return SolveResult("unsat", None, seconds)
        return SolveResult("sat", self.solver.get_model(), seconds)

    def enumerate(
        self,
        assumptions: Sequence[int] = (),
        limit: int | None = None,
        time_limit: float | None = None,
        keep: int = 0,
        on_solution: OnSolution | None = None,
    ) -> Enumeration:
        start = time.perf_counter()
        deadline = Deadline(time_limit)
        primary = self.model.primary
        activation = self.new_activation()
        assumed = [*assumptions, activation]
        found: list = []
        count, complete = 0, False
        try:
            while limit is None or count < limit:
                answer = self._solve(assumed, deadline)
                if answer is None:
                    break
                if not answer:
                    complete = True
                    break
                assignment = self.solver.get_model()
                count += 1
                if len(found) < keep:
                    found.append(assignment)
                if on_solution is not None:
                    on_solution(assignment)
                # Block this solution on the primary variables only.
                self.solver.add_clause(
                    [-activation, *(-assignment[v - 1] for v in primary)]
                )
        finally:
            self.solver.add_clause([-activation])  # retire this enumeration's clauses
        return Enumeration(count, complete, found, time.perf_counter() - start)

    def close(self) -> None:
        self.solver.delete()


class SatEngine(Engine):
    name = "sat"
    description = "python-sat, CNF with CaDiCaL 1.5.3, incremental with assumptions"

    def __init__(self, solver_name: str = "cadical153"):
        self.solver_name = solver_name

    def prepare(self, model: Model) -> SatSession:
        return SatSession(model, self.solver_name)
