"""The ``cpsat`` engine: OR-Tools CP-SAT.

The model is translated once into a CP-SAT proto.  Each question fixes the
assumed literals through their variables' domains (cheaper and more
predictable than CP-SAT's own assumptions, which restrict presolve) and
restores the domains afterwards: copying the model per question cost ~3 ms
for 9x9 Sudoku, mostly in building the Python ``CpModel`` wrapper.
Solutions are read from the response in one piece, not variable by variable
(729 ``BooleanValue`` calls cost ~5 ms).  Enumeration uses CP-SAT's ``enumerate_all_solutions``
and reports each distinct primary projection once, so auxiliary variables
can never inflate a count.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ortools.sat.python import cp_model

from .deadline import Deadline
from .engine import Engine, Session, Solutions, SolveResult
from .model import Model

_OPS: dict[str, Callable[[Any, int], Any]] = {
    "<=": lambda e, b: e <= b,
    ">=": lambda e, b: e >= b,
    "==": lambda e, b: e == b,
}


def _run(
    solver: cp_model.CpSolver,
    model: cp_model.CpModel,
    callback: cp_model.CpSolverSolutionCallback | None = None,
) -> cp_model.CpSolverStatus:
    """``solver.Solve`` in a worker thread, so that Ctrl-C in the main thread stops the search.

    CP-SAT releases the GIL while it searches; the main thread waits in short
    joins, during which Python delivers KeyboardInterrupt, and then asks CP-SAT
    to stop before re-raising it."""
    solver.parameters.catch_sigint_signal = False  # Python, not CP-SAT, owns Ctrl-C
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model, callback)
    outcome: list[cp_model.CpSolverStatus] = []
    worker = threading.Thread(target=lambda: outcome.append(solver.solve(model, callback)))
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        solver.stop_search()
        worker.join()
        raise
    return outcome[0]


def _stats(solver: cp_model.CpSolver) -> dict[str, int]:
    """The search's counters, from CP-SAT's response."""
    response = solver.response_proto
    return {
        "branches": int(response.num_branches),
        "conflicts": int(response.num_conflicts),
        "booleans": int(response.num_booleans),
    }


class CpSatSession(Session):
    STATS = ("branches", "conflicts", "booleans")
    engine_name = "cpsat"

    def __init__(self, model: Model, workers: int = 1) -> None:
        super().__init__(model)
        self.workers = workers
        cp = cp_model.CpModel()
        # Solutions are read by position: variable v is CP-SAT's variable v - 1.
        self.vars = [cp.new_bool_var(f"v{v}") for v in range(1, model.num_vars + 1)]

        def lit(l: int) -> cp_model.LiteralT:
            var = self.vars[abs(l) - 1]
            return var if l > 0 else var.negated()

        for clause in model.clauses:
            cp.add_bool_or([lit(l) for l in clause])
        for card in model.cardinalities:
            lits = [lit(l) for l in card.literals]
            if card.bound == 1 and card.op == "==":
                cp.add_exactly_one(lits)
            elif card.bound == 1 and card.op == "<=":
                cp.add_at_most_one(lits)
            else:
                cp.add(_OPS[card.op](sum(lits), card.bound))
        for lin in model.linears:
            expr = cp_model.LinearExpr.weighted_sum([lit(l) for l in lin.literals], list(lin.weights))
            cp.add(_OPS[lin.op](expr, lin.bound))
        self.base = cp
        assert all(var.index == v for v, var in enumerate(self.vars))

    @contextmanager
    def _with_assumptions(self, assumptions: Sequence[int]) -> Iterator[cp_model.CpModel | None]:
        """The base model with the assumed literals fixed, for one question; None if they clash.

        The fixed domains are set back to {0, 1} on the way out, whatever happens."""
        fixed: dict[int, int] = {}
        for l in assumptions:
            value = 1 if l > 0 else 0
            if fixed.setdefault(abs(l), value) != value:
                yield None
                return
        variables = self.base.proto.variables
        try:
            for v, value in fixed.items():
                domain = variables[v - 1].domain
                domain[0] = domain[1] = value
            yield self.base
        finally:
            for v in fixed:
                domain = variables[v - 1].domain
                domain[0], domain[1] = 0, 1

    def _solver(self, time_limit: float | None) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.001)
        return solver

    def _assignment(self, values: Sequence[int]) -> list[int]:
        """A DIMACS-style model from CP-SAT's solution values (variable v is index v - 1)."""
        return [v if x else -v for v, x in zip(range(1, self.model.num_vars + 1), values)]

    def solve(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> SolveResult:
        start = time.perf_counter()
        with self._with_assumptions(assumptions) as model:
            if model is None:
                return SolveResult("unsat", None, time.perf_counter() - start, dict.fromkeys(self.STATS, 0))
            solver = self._solver(time_limit)
            status = _run(solver, model)
            if status == cp_model.MODEL_INVALID:
                raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
        seconds, stats = time.perf_counter() - start, _stats(solver)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return SolveResult("sat", self._assignment(solver.response_proto.solution), seconds, stats)
        if status == cp_model.INFEASIBLE:
            return SolveResult("unsat", None, seconds, stats)
        return SolveResult("unknown", None, seconds, stats)

    def _search(self, assumptions: list[int], deadline: Deadline, solutions: Solutions) -> bool:
        with self._with_assumptions(assumptions) as model:
            if model is None:
                return True  # the assumptions clash: no solution at all
            solver = self._solver(deadline.remaining())
            solver.parameters.enumerate_all_solutions = True
            solver.parameters.num_workers = 1  # enumeration is single-threaded in CP-SAT
            session = self

            class Collector(cp_model.CpSolverSolutionCallback):
                def on_solution_callback(self) -> None:
                    values = list(self.response_proto.solution)
                    if not solutions.add(session._assignment(values)):
                        self.stop_search()

            status = _run(solver, model, Collector())
            self.search_stats = _stats(solver)
        return status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)


class CpSatEngine(Engine):
    name = "cpsat"
    description = "OR-Tools CP-SAT (1 worker: deterministic)"

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers

    def prepare(self, model: Model) -> CpSatSession:
        return CpSatSession(model, self.workers)
