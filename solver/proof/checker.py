"""Our own checker for clausal proofs of unsatisfiability (DRAT, LRAT).

It shares no code with any solver: a proof counts only if this module,
reading the CNF and the proof, re-derives every lemma.

DRAT, checked *forward* (in proof order):

* every added lemma must be RUP: assuming the negation of its literals and
  unit-propagating over the clauses alive at that point (original clauses and
  earlier lemmas, minus deletions) must give a conflict;
* failing that, RAT on its *first* literal p: for every alive clause D that
  contains -p, the resolvent (lemma + D without -p) must be RUP (or a
  tautology);
* deletions remove a clause (matched as a set of literals; a deletion of a
  clause that is not there is counted and ignored).  As drat-trim does, the
  deletion of a unit clause, or of a clause that is the reason for a
  top-level assignment, is ignored (counted in ``ignored_deletions``): the
  top-level assignment stays, which can only make later RUP checks succeed
  where drat-trim's would too;
* the proof must derive the empty clause; steps after it are not read.

Core marking: each RUP check records the clauses its conflict used; after the
empty clause those records give the *core* (original clauses and lemmas the
refutation really needs).  Backward checking (verifying only core lemmas, in
reverse) would skip the rest, but it would not pay on puzzle proofs: checking
the non-core lemmas took 0.4 / 0.5 / 3.4 ms of 25 / 26 / 55 ms per 9x9 Sudoku
uniqueness proof (17-clue / top1465 / forum-hardest, 20 puzzles each; most
non-core lemmas are satisfied at top level and cost no propagation), while
reading the 12,000 clauses takes ~10 ms whichever way one checks.  So it is
not implemented (see benchmarks/certify.md).

LRAT: each added clause comes with hints, the ids of clauses that become unit
(or falsified) in order under the negation of the clause; a hint that is not
unit is a rejection.  RAT hints (negative ids) are not supported (rejected
with that reason).

Propagation uses two watched literals for clauses of three or more literals
and implication lists for binary clauses (most of a puzzle's CNF: pairwise
at-most-one).  Deletions find their clause through those same lists, so no
index of all clauses is built.  Literal-indexed arrays use Python's
negative indices: entry ``lit`` for ``lit`` in ``-n..n`` of a list of
``2n+1`` entries, so no literal needs converting.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .formats import CNF, MAX_VARIABLES, Proof, ProofInputError

PROGRESS_EVERY = 256  # steps between time-limit checks and progress reports

OnProgress = Callable[[int, int], None]  # (steps done, steps in all)


@dataclass
class CheckResult:
    """The verdict on one proof.  ``ok`` is True only for a verified refutation."""

    ok: bool
    reason: str  # "verified", or why the proof was rejected
    lemmas: int = 0  # clauses the proof adds
    checked: int = 0  # lemmas checked before the verdict
    core_size: int | None = None  # original clauses the refutation uses
    core_lemmas: int | None = None  # lemmas the refutation uses
    rat_lemmas: int = 0  # lemmas that needed RAT (not RUP)
    ignored_deletions: int = 0  # deletions of unit / reason clauses, ignored
    missing_deletions: int = 0  # deletions of clauses that were not there
    seconds: float = 0.0
    timed_out: bool = False

    def to_json(self) -> dict:
        return {
            "verified": self.ok,
            "reason": self.reason,
            "lemmas": self.lemmas,
            "checked": self.checked,
            "core_size": self.core_size,
            "core_lemmas": self.core_lemmas,
            "rat_lemmas": self.rat_lemmas,
            "ignored_deletions": self.ignored_deletions,
            "missing_deletions": self.missing_deletions,
            "seconds": round(self.seconds, 6),
            "timed_out": self.timed_out,
        }


def check_proof(
    cnf: CNF,
    proof: Proof,
    time_limit: float | None = None,
    on_progress: OnProgress | None = None,
    loaded: LoadedFormula | None = None,
) -> CheckResult:
    """Check that ``proof`` refutes ``cnf``.  Never raises for a bad proof: ``ok`` says it.

    ``loaded``: a :class:`LoadedFormula` of a formula whose clauses begin
    ``cnf``'s (the rules of a puzzle shape, when ``cnf`` adds the givens):
    the check starts from a copy of it instead of loading every clause again.
    It is used only when it does fit (same variables, ``cnf`` starts with its
    clauses, the proof names no variable beyond them); otherwise ignored."""
    start = time.perf_counter()
    lemmas = proof.lemmas
    if proof.defect:
        return CheckResult(False, proof.defect, lemmas, seconds=time.perf_counter() - start)
    if proof.kind == "lrat":
        result = _check_lrat(cnf, proof, start, time_limit, on_progress)
    else:
        result = _drat_checker(cnf, proof, loaded).run(start, time_limit, on_progress)
    result.lemmas = lemmas
    result.seconds = time.perf_counter() - start
    return result


def _show(lits: Sequence[int]) -> str:
    text = " ".join(map(str, lits[:8])) + (" ..." if len(lits) > 8 else "")
    return f"'{text} 0'" if lits else "the empty clause"


# ---------------------------------------------------------------------------
# DRAT
# ---------------------------------------------------------------------------
def _highest_variable(cnf: CNF, proof: Proof) -> int:
    top = cnf.num_vars
    for _, lits in proof.steps:
        for lit in lits:
            if lit > top or -lit > top:
                top = abs(lit)
    if top > MAX_VARIABLES:
        raise ProofInputError(f"the proof uses variable {top:,}, over the limit of {MAX_VARIABLES:,}")
    return top


class LoadedFormula:
    """A formula loaded into the checker once, for checking many proofs of formulas
    that extend it (one puzzle shape's rules, each puzzle adding its givens).

    Loading a 9x9 Sudoku CNF (12,000 clauses) takes the checker ~10-20 ms; a
    copy of the loaded state takes ~2 ms.  The copy is made per proof, since a
    check changes the state (the puzzle's givens, lemmas, watches)."""

    def __init__(self, cnf: CNF):
        self.cnf = cnf
        self._checker = _DratChecker(cnf, Proof("drat"), cnf.num_vars)
        self._checker.load(cnf.clauses)
        self._reorderable = [cid for cid, clause in enumerate(self._checker.clauses) if len(clause) > 2]
        self._prepared: tuple[CNF, _DratChecker] | None = None  # see refutes()

    def fits(self, cnf: CNF, top: int) -> bool:
        """Whether ``cnf`` (with a proof naming variables up to ``top``) extends this formula."""
        base = self.cnf.clauses
        return (
            cnf.num_vars == self.cnf.num_vars
            and top <= cnf.num_vars
            and len(cnf.clauses) >= len(base)
            and cnf.clauses[: len(base)] == base
        )

    def extended(self, cnf: CNF, proof: Proof) -> _DratChecker:
        """A checker for ``proof`` of ``cnf``, started from this formula (``fits`` must hold)."""
        prepared, self._prepared = self._prepared, None
        if prepared is not None and prepared[0] is cnf:
            checker = prepared[1]
            checker.proof = proof
            return checker
        checker = self._checker.copy(cnf, proof, self._reorderable)
        for clause in cnf.clauses[len(self.cnf.clauses) :]:
            checker.add(clause)
        checker.first_lemma = len(checker.clauses)
        return checker

    def _propagated(self, cnf: CNF) -> _DratChecker:
        """The checker with ``cnf`` added and propagated, kept for the next check of ``cnf``."""
        if self._prepared is None or self._prepared[0] is not cnf:
            self._prepared = (cnf, self.extended(cnf, Proof("drat")))
        return self._prepared[1]

    def refutes(self, cnf: CNF) -> bool:
        """Whether unit propagation alone refutes ``cnf`` (which must extend this formula),
        so that the one-line proof "0" (the empty clause) checks and no solver is needed:
        easy puzzles' uniqueness (the givens and the clause excluding the solution)."""
        return self._propagated(cnf).conflict is not None

    def simplified(self, cnf: CNF) -> list[list[int]]:
        """``cnf`` (which must extend this formula) simplified by its top-level unit
        propagation: the literals it sets, as unit clauses, and every other clause not
        satisfied by them, without its false literals (duplicates dropped).

        Equisatisfiable with ``cnf``, and about a fifth of it for a 9x9 Sudoku with
        its givens, which a proof solver loads and refutes 3-4x faster, with shorter
        proofs.  A proof *of the simplified formula* checks against ``cnf`` itself:
        its units and shortened clauses are what our checker's own top-level
        propagation of ``cnf`` makes of ``cnf``'s clauses, so whatever is RUP over
        them is RUP over ``cnf``; its deletions of shortened clauses find nothing
        to delete in ``cnf`` and are ignored."""
        checker = self._propagated(cnf)
        val = checker.val
        kept: dict[tuple[int, ...], None] = dict.fromkeys((lit,) for lit in checker.trail)
        for clause in cnf.clauses:
            if any(val[lit] for lit in clause):
                continue
            kept[tuple(sorted(lit for lit in clause if not val[-lit]))] = None
        return [list(clause) for clause in kept]


def _drat_checker(cnf: CNF, proof: Proof, loaded: LoadedFormula | None) -> _DratChecker:
    """A checker with ``cnf`` loaded: a copy of ``loaded`` when it fits, else loaded afresh."""
    top = _highest_variable(cnf, proof)
    if loaded is not None and loaded.fits(cnf, top):
        return loaded.extended(cnf, proof)
    checker = _DratChecker(cnf, proof, top)
    checker.load(cnf.clauses)
    return checker


class _DratChecker:
    def __init__(self, cnf: CNF, proof: Proof, top: int):
        size = 2 * top + 1
        self.cnf, self.proof = cnf, proof
        self.val = [False] * size  # val[lit]: lit is true
        self.reason = [-1] * size  # reason[lit]: the clause that made lit true (-1: assumed)
        self.watches: list[list[int]] = [[] for _ in range(size)]  # clauses of 3+ literals
        # Binary clauses (most of a Sudoku CNF) as implications: implied[lit] holds
        # (other, id) for every clause (-lit, other); no watch moves, no clause lookups.
        self.implied: list[list[tuple[int, int]]] = [[] for _ in range(size)]
        self.clauses: list[list[int]] = []  # every clause ever added, by id
        self.alive = bytearray()
        self.trail: list[int] = []
        self.head = 0
        self.conflict: int | None = None  # a clause false at top level: the formula is refuted
        self.conflict_antecedents: tuple | None = None
        self.deps: list = []  # per lemma: (clause ids, top-level literals) its check used
        self.first_lemma = len(cnf.clauses)

    def copy(self, cnf: CNF, proof: Proof, reorderable: Sequence[int]) -> _DratChecker:
        """This checker's state, for checking ``proof`` of ``cnf`` (which extends this one's
        formula).  Copied is what a check changes: assignments, watch and implication
        lists, and the ``reorderable`` clauses (the ids of those of three or more literals:
        propagation reorders them); the others are never changed, so they are shared."""
        twin = object.__new__(_DratChecker)
        twin.__dict__.update(self.__dict__)
        twin.cnf, twin.proof = cnf, proof
        twin.val, twin.reason, twin.trail = self.val[:], self.reason[:], self.trail[:]
        twin.watches = [ws[:] for ws in self.watches]
        twin.implied = [pairs[:] for pairs in self.implied]
        twin.clauses = self.clauses[:]
        for cid in reorderable:
            twin.clauses[cid] = list(self.clauses[cid])
        twin.alive = bytearray(self.alive)
        twin.deps = []
        return twin

    # -- clause database ---------------------------------------------------
    def add(self, lits: Sequence[int]) -> int:
        """Add a clause (deduplicated); assign and propagate what it makes unit at top level."""
        cid = len(self.clauses)
        clause = list(dict.fromkeys(lits))
        self.clauses.append(clause)
        self.alive.append(1)
        if self.conflict is not None:
            return cid
        val = self.val
        if any(val[lit] for lit in clause) or not set(clause).isdisjoint([-lit for lit in clause]):
            if len(clause) >= 2:  # satisfied at top level for good, or a tautology
                self._watch(cid, clause)
            return cid
        # unassigned literals first, false ones last
        clause.sort(key=lambda lit: val[-lit])
        if not clause or val[-clause[0]]:
            self.conflict = cid
            return cid
        if len(clause) >= 2:
            self._watch(cid, clause)
        if len(clause) == 1 or val[-clause[1]]:
            self._assign(clause[0], cid)
            self.conflict = self._propagate()
        return cid

    def load(self, clauses: Sequence[Sequence[int]]) -> None:
        """The original clauses, all at once: watch, then assign the units and propagate."""
        watches, implied, stored, units = self.watches, self.implied, self.clauses, []
        cid = len(stored)
        for clause in clauses:
            size = len(clause)
            if size == 2:
                a, b = clause
                if a != b:  # binary clauses are never reordered: stored as given
                    stored.append(clause)
                    implied[-a].append((b, cid))
                    implied[-b].append((a, cid))
                    cid += 1
                    continue
                clause, size = (a,), 1
            clause = list(dict.fromkeys(clause)) if len(set(clause)) < size else list(clause)
            stored.append(clause)
            if len(clause) > 2:
                watches[clause[0]].append(cid)
                watches[clause[1]].append(cid)
            elif clause:
                units.append(cid)
            elif self.conflict is None:
                self.conflict = cid
            cid += 1
        self.alive.extend(b"\1" * len(clauses))
        val = self.val
        for cid in units:
            lit = self.clauses[cid][0]
            if val[-lit]:
                self.conflict = cid if self.conflict is None else self.conflict
            elif not val[lit]:
                self._assign(lit, cid)
        if self.conflict is None:
            self.conflict = self._propagate()

    def delete(self, lits: Sequence[int]) -> str:
        """'deleted', 'ignored' (a unit or reason clause) or 'missing'."""
        literals = set(lits)
        if len(literals) == 1:  # a unit clause: ignored, as drat-trim does
            return "ignored"
        cid = self._find(literals)
        if cid is None:
            return "missing"
        clause = self.clauses[cid]
        if len(clause) <= 1 or any(self.val[lit] and self.reason[lit] == cid for lit in clause):
            return "ignored"
        self.alive[cid] = 0  # unwatched lazily, when propagation meets it
        return "deleted"

    def _find(self, lits: set[int]) -> int | None:
        """An alive clause with exactly these literals, looked up through the watches
        (a clause is always watched by two of its literals): no index to build."""
        if len(lits) < 2:  # units and the empty clause are not watched
            return None
        if len(lits) == 2:
            a, b = lits
            return next((cid for other, cid in self.implied[-a] if other == b and self.alive[cid]), None)
        size = len(lits)
        for lit in lits:
            for cid in self.watches[lit]:
                clause = self.clauses[cid]
                if self.alive[cid] and len(clause) == size and lits.issuperset(clause):
                    return cid
        return None

    def _watch(self, cid: int, clause: list[int]) -> None:
        if len(clause) == 2:
            a, b = clause
            self.implied[-a].append((b, cid))
            self.implied[-b].append((a, cid))
        else:
            self.watches[clause[0]].append(cid)
            self.watches[clause[1]].append(cid)

    def _assign(self, lit: int, cid: int) -> None:
        self.val[lit] = True
        self.reason[lit] = cid
        self.trail.append(lit)

    def _propagate(self) -> int | None:
        """Unit propagation from ``self.head``; the id of a falsified clause, or None."""
        val, reason, watches, implied = self.val, self.reason, self.watches, self.implied
        clauses, alive, trail = self.clauses, self.alive, self.trail
        i = self.head
        while i < len(trail):
            true_lit = trail[i]
            i += 1
            for other, cid in implied[true_lit]:
                if val[other] or not alive[cid]:
                    continue
                if val[-other]:
                    self.head = i
                    return cid
                val[other] = True
                reason[other] = cid
                trail.append(other)
            false_lit = -true_lit
            ws = watches[false_lit]
            n = len(ws)
            j = k = 0
            while j < n:
                cid = ws[j]
                j += 1
                if not alive[cid]:
                    continue
                c = clauses[cid]
                if c[0] == false_lit:
                    c[0] = c[1]
                    c[1] = false_lit
                first = c[0]
                if val[first]:
                    ws[k] = cid
                    k += 1
                    continue
                for p in range(2, len(c)):
                    lit = c[p]
                    if not val[-lit]:
                        c[1] = lit
                        c[p] = false_lit
                        watches[lit].append(cid)
                        break
                else:
                    ws[k] = cid
                    k += 1
                    if val[-first]:
                        ws[k:] = ws[j:n]
                        self.head = i
                        return cid
                    val[first] = True
                    reason[first] = cid
                    trail.append(first)
            del ws[k:]
        self.head = i
        return None

    def _backtrack(self, length: int) -> None:
        val, reason, trail = self.val, self.reason, self.trail
        for lit in trail[length:]:
            val[lit] = False
            reason[lit] = -1
        del trail[length:]
        self.head = length

    def _antecedents(self, conflict_lits: Sequence[int], cid: int | None, stop: int) -> tuple:
        """What falsifies ``conflict_lits``: (clause ids, top-level literals).

        Walks the trail back only to ``stop`` (where this check's assumptions
        began); the top-level literals reached are kept as they are, and their
        own reasons are followed once, in :meth:`core`, not once per lemma."""
        used = [] if cid is None else [cid]
        reason, clauses, trail = self.reason, self.clauses, self.trail
        pending = {-lit for lit in conflict_lits}
        position = len(trail) - 1
        while pending and position >= stop:
            lit = trail[position]
            position -= 1
            if lit in pending:
                pending.discard(lit)
                r = reason[lit]
                if r >= 0:
                    used.append(r)
                    pending.update(-other for other in clauses[r] if other != lit)
        return used, tuple(pending)

    def core(self, final: tuple) -> tuple[int, int]:
        """(original clauses, lemmas) the refutation uses, from the empty clause's antecedents."""
        first_lemma, deps, reason, clauses = self.first_lemma, self.deps, self.reason, self.clauses
        seen_clauses: set[int] = set()
        seen_lits: set[int] = set()
        clause_stack, lit_stack = list(final[0]), list(final[1])
        while clause_stack or lit_stack:
            if clause_stack:
                cid = clause_stack.pop()
                if cid not in seen_clauses:
                    seen_clauses.add(cid)
                    if cid >= first_lemma:
                        ids, lits = deps[cid - first_lemma]
                        clause_stack.extend(ids)
                        lit_stack.extend(lits)
                continue
            lit = lit_stack.pop()
            if lit not in seen_lits:
                seen_lits.add(lit)
                r = reason[lit]
                if r >= 0:
                    clause_stack.append(r)
                    lit_stack.extend(-other for other in clauses[r] if other != lit)
        originals = sum(1 for cid in seen_clauses if cid < first_lemma)
        return originals, len(seen_clauses) - originals

    # -- lemma checks ------------------------------------------------------
    def rup(self, lemma: Sequence[int]) -> tuple | None:
        """The clauses a RUP derivation of ``lemma`` uses, or None if it is not RUP."""
        if self.conflict is not None:  # refuted at top level: everything follows
            if self.conflict_antecedents is None:
                self.conflict_antecedents = (
                    [self.conflict],
                    tuple(-lit for lit in self.clauses[self.conflict]),
                )
            return self.conflict_antecedents
        val = self.val
        mark = len(self.trail)
        for lit in lemma:
            if val[lit]:  # true at top level: its negation clashes at once
                self._backtrack(mark)
                return [], (lit,)
            if not val[-lit]:
                self._assign(-lit, -1)
        conflict = self._propagate()
        used = None if conflict is None else self._antecedents(self.clauses[conflict], conflict, mark)
        self._backtrack(mark)
        return used

    def rat(self, lemma: Sequence[int]) -> tuple | None:
        """RAT on the first literal: every resolution candidate gives a RUP resolvent."""
        if not lemma:
            return None
        pivot = lemma[0]
        used: list[int] = []
        top_lits: list[int] = []
        lemma_set = set(lemma)
        for cid, clause in enumerate(self.clauses):
            if not self.alive[cid] or -pivot not in clause:
                continue
            rest = [lit for lit in clause if lit != -pivot]
            if any(-lit in lemma_set for lit in rest):
                continue  # a tautological resolvent
            found = self.rup([*lemma, *(lit for lit in rest if lit not in lemma_set)])
            if found is None:
                return None
            used.append(cid)
            used.extend(found[0])
            top_lits.extend(found[1])
        return used, tuple(top_lits)

    # -- the whole proof ---------------------------------------------------
    def run(self, start: float, time_limit: float | None, on_progress: OnProgress | None) -> CheckResult:
        result = CheckResult(False, "")
        steps = self.proof.steps
        total = len(steps)
        end = None if time_limit is None else start + time_limit
        for number, (deleted, lits) in enumerate(steps, 1):
            if number % PROGRESS_EVERY == 0:
                if end is not None and time.perf_counter() > end:
                    result.reason = (
                        f"time limit reached after {result.checked:,} of {self.proof.lemmas:,} lemmas"
                    )
                    result.timed_out = True
                    return result
                if on_progress is not None:
                    on_progress(number, total)
            if self.conflict is not None:
                return self._finish_refuted(result, number, on_progress)
            if deleted:
                outcome = self.delete(lits)
                if outcome == "ignored":
                    result.ignored_deletions += 1
                elif outcome == "missing":
                    result.missing_deletions += 1
                continue
            lemma = list(dict.fromkeys(lits))
            used = self.rup(lemma)
            if used is None:
                used = self.rat(lemma)
                if used is None:
                    pivot = f" on its first literal {lemma[0]}" if lemma else ""
                    result.reason = (
                        f"proof step {number}: lemma {_show(lemma)} does not follow "
                        f"(neither RUP nor RAT{pivot})"
                    )
                    return result
                result.rat_lemmas += 1
            result.checked += 1
            self.deps.append(used)
            if not lemma:
                result.ok, result.reason = True, "verified"
                result.core_size, result.core_lemmas = self.core(used)
                if on_progress is not None:
                    on_progress(total, total)
                return result
            self.add(lemma)
        result.reason = "the proof never derives the empty clause (truncated, or not a refutation)"
        return result

    def _finish_refuted(
        self, result: CheckResult, number: int, on_progress: OnProgress | None
    ) -> CheckResult:
        """Unit propagation already refutes the formula: every lemma from step ``number`` on
        follows (by that conflict), so what is left is to find the empty clause."""
        steps = self.proof.steps
        used = self.rup(())  # the top-level conflict's antecedents
        for deleted, lits in steps[number - 1 :]:
            if deleted:
                continue
            result.checked += 1
            if not lits:
                result.ok, result.reason = True, "verified"
                result.core_size, result.core_lemmas = self.core(used)
                if on_progress is not None:
                    on_progress(len(steps), len(steps))
                return result
        result.reason = "the proof never derives the empty clause (truncated, or not a refutation)"
        return result


# ---------------------------------------------------------------------------
# LRAT
# ---------------------------------------------------------------------------
def _check_lrat(
    cnf: CNF, proof: Proof, start: float, time_limit: float | None, on_progress: OnProgress | None
) -> CheckResult:
    result = CheckResult(False, "")
    clauses: dict[int, tuple[int, ...]] = {i: c for i, c in enumerate(cnf.clauses, 1)}
    first_lemma = len(cnf.clauses) + 1
    last_id = len(cnf.clauses)
    deps: dict[int, tuple[int, ...]] = {}
    end = None if time_limit is None else start + time_limit
    total = len(proof.steps)
    for number, (clause_id, lits, hints) in enumerate(proof.steps, 1):
        if number % PROGRESS_EVERY == 0:
            if end is not None and time.perf_counter() > end:
                result.reason = f"time limit reached after {result.checked:,} lemmas"
                result.timed_out = True
                return result
            if on_progress is not None:
                on_progress(number, total)
        if clause_id == 0:  # deletion
            for gone in hints:
                if clauses.pop(gone, None) is None:
                    result.missing_deletions += 1
            continue
        where = f"proof step {number} (clause {clause_id})"
        if clause_id <= last_id:
            result.reason = f"{where}: clause ids must increase (the last was {last_id})"
            return result
        last_id = clause_id
        true = {-lit for lit in lits}  # the negation of the clause, assumed
        if any(-lit in true for lit in true):
            refuted = True  # a tautology: nothing to show
        else:
            refuted = False
            for hint in hints:
                if hint < 0:
                    result.reason = f"{where}: RAT hints (negative ids) are not supported"
                    return result
                hinted = clauses.get(hint)
                if hinted is None:
                    result.reason = f"{where}: hint {hint} names no present clause"
                    return result
                open_lits = [lit for lit in hinted if -lit not in true]
                if not open_lits:
                    refuted = True
                    break
                if len(open_lits) > 1 or open_lits[0] in true:
                    result.reason = f"{where}: hint {hint} {_show(hinted)} is not unit there"
                    return result
                true.add(open_lits[0])
        if not refuted:
            result.reason = f"{where}: the hints end without a conflict: lemma {_show(lits)} does not follow"
            return result
        result.checked += 1
        deps[clause_id] = hints
        if not lits:
            result.ok, result.reason = True, "verified"
            seen, stack = set(hints), list(hints)
            while stack:
                for d in deps.get(stack.pop(), ()):
                    if d not in seen:
                        seen.add(d)
                        stack.append(d)
            result.core_size = sum(1 for c in seen if c < first_lemma)
            result.core_lemmas = len(seen) - result.core_size
            return result
        clauses[clause_id] = lits
    result.reason = "the proof never derives the empty clause (truncated, or not a refutation)"
    return result
