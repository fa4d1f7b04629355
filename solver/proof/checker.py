"""Our own checker for clausal proofs of unsatisfiability (DRAT, LRAT).

It shares no code with any solver: a proof counts only if this module,
reading the CNF and the proof, re-derives every lemma.  Its semantics are
stated, and implemented the slow and obvious way, in :mod:`.reference`; the
differential test (tests/test_proof_differential.py) holds the two to the
same verdicts.

Two implementations of the same check: the Python one here, for small proofs
(puzzle certificates: a few hundred lemmas, where importing numba would cost
more than the whole check), and :mod:`.compiled` (numba), the same algorithm
over flat arrays, for proofs of :data:`.check.COMPILED_FROM_LITERALS` literals or
more, which it checks backward by default (below).  Checking forward, both
agree with the reference and with each other on verdicts, reasons and counts;
checking backward, the compiled one accepts all the reference accepts and
never a satisfiable formula (tests/test_proof_compiled.py,
tests/test_proof_differential.py, benchmarks/proof_differential.py).

Clauses are *normalised* once, formula and lemmas alike (:func:`normalised`):
repeated literals are dropped, and a clause holding a literal and its
negation (a tautology) is recognised: it is always true, so it takes no part
in propagation or RAT checks (as a lemma it is accepted without a check).

DRAT, checked *forward* (in proof order):

* every added lemma must be RUP: assuming the negation of its literals and
  unit-propagating over the clauses alive at that point (original clauses and
  earlier lemmas, minus deletions) must give a conflict;
* failing that, RAT, as drat-trim checks it: on its first literal p, then on
  each other literal: for every alive clause D that contains -p, the
  resolvent (lemma + D without -p) must be RUP (or a tautology);
* deletions remove a clause (matched as a set of literals; a deletion of a
  clause that is not there is counted and ignored).  As drat-trim does, the
  deletion of a unit clause, or of a clause that is unit at top level (its
  literals false but one, which is true: the reason, or a possible reason, for
  that top-level assignment) is ignored (counted in ``ignored_deletions``):
  the clause stays, so the top-level assignment stays justified;
* when unit propagation of the formula and the lemmas so far meets a
  falsified clause, the formula is refuted: the proof is accepted whatever
  follows (drat-trim does the same), and ``refutation`` says whether the proof
  then wrote the empty clause ("empty clause") or not ("unit propagation":
  e.g. an empty proof of a formula that unit propagation alone refutes);
* otherwise the proof must derive the empty clause; steps after it are not read.

Core marking: each RUP check records the clauses its conflict used; after the
refutation those records give the *core* (original clauses and lemmas the
refutation really needs).  The same records turn a checked DRAT proof into
LRAT (:func:`drat_to_lrat`): the core lemmas, each with the clauses its check
used as hints, in the order they become unit.

Checking *backward* (``mode="backward"``, drat-trim's default; the compiled
checker's, and so large proofs'): the steps are applied without checks up to
the refutation (the first top-level conflict, or an empty lemma, which is then
rejected: propagation is complete and meets no conflict), the clauses of the
final conflict and their reasons are marked, and the proof is walked back,
undoing deletions and additions; each marked lemma is checked against the
database as it was when the lemma came (RUP, then RAT on each literal, as
above), and the clauses its check used are marked.  Unmarked lemmas are never
checked.  Sound: every clause the refutation's derivations use is marked, so
the marked lemmas alone, each RUP or RAT over a subset of the database it was
checked against (RAT candidates only shrink), refute the formula.  Verdicts
differ from forward checking in one way: a lemma that does not follow but that
the refutation does not use rejects the proof forward and is accepted backward
(as drat-trim accepts it).  Deletions are decided in the first pass, by the
rules above (units and clauses unit at top level ignored), and undone as they
were.  Backward checks propagate the marked clauses first ("core first"), so
fewer lemmas get marked.  The pure-Python checker here checks forward only:
puzzle proofs are small, and the non-core lemmas cost them little (0.4 / 0.5 /
3.4 ms of 25 / 26 / 55 ms per 9x9 Sudoku uniqueness proof, see
benchmarks/certify.md).

LRAT: each added clause comes with hints, the ids of clauses that become unit
(or falsified) in order under the negation of the clause; a hint that is not
unit is a rejection.  RAT hints: after the positive hints, for every present
clause D holding the negation of the clause's first literal, ``-id(D)``
followed by the hints that refute the resolvent (none when it is a tautology).

Propagation uses two watched literals for clauses of three or more literals
and implication lists for binary clauses (most of a puzzle's CNF: pairwise
at-most-one).  Deletions find their clause through those same lists, so no
index of all clauses is built.  Literal-indexed arrays use Python's
negative indices: entry ``lit`` for ``lit`` in ``-n..n`` of a list of
``2n+1`` entries, so no literal needs converting.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .formats import CNF, MAX_VARIABLES, DratSteps, Proof, ProofInputError

PROGRESS_EVERY = 256  # steps between time-limit checks and progress reports

OnProgress = Callable[[int, int], None]  # (steps done, steps in all)
Refutation = Literal["empty clause", "unit propagation"]
CheckMode = Literal["forward", "backward"]


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
    # how the formula was refuted: the proof's empty clause, or unit propagation of
    # the formula and the lemmas so far without one (None unless ok)
    refutation: Refutation | None = None
    failed_step: int | None = None  # the proof step (from 1) whose lemma does not follow
    steps_read: int = 0  # LRAT: the steps up to the empty clause
    lrat: list[str] | None = field(default=None, repr=False)  # the LRAT lines, when asked for
    # "forward": every lemma checked, in proof order; "backward": the lemmas added unchecked
    # up to the refutation, then only those it uses checked, walking back (``checked``
    # counts those; the others are never checked)
    mode: CheckMode = "forward"

    def to_json(self) -> dict:
        return {
            "verified": self.ok,
            "reason": self.reason,
            "refutation": self.refutation,
            "lemmas": self.lemmas,
            "checked": self.checked,
            "mode": self.mode,
            "core_size": self.core_size,
            "core_lemmas": self.core_lemmas,
            "rat_lemmas": self.rat_lemmas,
            "ignored_deletions": self.ignored_deletions,
            "missing_deletions": self.missing_deletions,
            "seconds": round(self.seconds, 6),
            "timed_out": self.timed_out,
        }


def lrat_text(lines: Iterable[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


def normalised(lits: Iterable[int]) -> tuple[int, ...] | None:
    """The clause with repeated literals dropped (first occurrences kept, in order);
    None when it holds a literal and its negation (a tautology: always true)."""
    literals = dict.fromkeys(lits)
    if len(literals) > 1 and any(-lit in literals for lit in literals):
        return None
    return tuple(literals)


def _show(lits: Sequence[int]) -> str:
    text = " ".join(map(str, lits[:8])) + (" ..." if len(lits) > 8 else "")
    return f"'{text} 0'" if lits else "the empty clause"


# ---------------------------------------------------------------------------
# DRAT
# ---------------------------------------------------------------------------
def _highest_variable(cnf: CNF, proof: Proof) -> int:
    top = cnf.num_vars
    steps = proof.steps
    if isinstance(steps, DratSteps):
        if len(steps.lits):
            top = max(top, int(np.abs(steps.lits).max()))
    else:
        for _, lits in steps:
            for lit in lits:
                if lit > top or -lit > top:
                    top = abs(lit)
    if top > MAX_VARIABLES:
        raise ProofInputError(f"the proof uses a variable over the limit of {MAX_VARIABLES:,}")
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
            checker.add(normalised(clause), clause)
        checker.first_lemma = len(checker.clauses)
        return checker

    def _propagated(self, cnf: CNF) -> _DratChecker:
        """The checker with ``cnf`` added and propagated, kept for the next check of ``cnf``."""
        if self._prepared is None or self._prepared[0] is not cnf:
            self._prepared = (cnf, self.extended(cnf, Proof("drat")))
        return self._prepared[1]

    def refutes(self, cnf: CNF) -> bool:
        """Whether unit propagation alone refutes ``cnf`` (which must extend this formula),
        so that the empty proof checks and no solver is needed: easy puzzles'
        uniqueness (the givens and the clause excluding the solution)."""
        return self._propagated(cnf).conflict is not None

    def simplified(self, cnf: CNF) -> list[Sequence[int]]:
        """``cnf`` (which must extend this formula) simplified by its top-level unit
        propagation: the literals it sets, as unit clauses, and every other clause not
        satisfied by them, without its false literals (duplicates and tautologies dropped).

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
        for raw in cnf.clauses:
            clause = normalised(raw)
            if clause is None or any(val[lit] for lit in clause):
                continue
            kept[tuple(sorted(lit for lit in clause if not val[-lit]))] = None
        return [list(clause) for clause in kept]


# What a lemma's check used: (clause ids, top-level literals, RAT groups or None).
# The clause ids of a RUP check: the conflict first, then the reasons of the
# literals it falsified, latest first.  RAT groups: (pivot, [(candidate id,
# clause ids, top-level literals), ...]), the ids and literals also merged into
# the first two fields (for the core).
Derivation = tuple


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
        # every clause ever added, by id, normalised (a tautology as read, never alive):
        # lists for clauses of 3+ literals (propagation reorders them), else as read
        self.clauses: list[Any] = []
        self.alive = bytearray()
        self.trail: list[int] = []
        self.head = 0
        self.conflict: int | None = None  # a clause false at top level: the formula is refuted
        self.conflict_antecedents: Derivation | None = None
        self.deps: list[Derivation] = []  # per lemma: what its check used
        self.deletions: list[int] = []  # the deleted clauses, in order
        self.deleted_before: list[int] = []  # per deletion: lemmas added before it
        self.final: Derivation | None = None  # what refuted the formula
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
        twin.deps, twin.deletions, twin.deleted_before, twin.final = [], [], [], None
        return twin

    # -- clause database ---------------------------------------------------
    def add(self, clause: tuple[int, ...] | None, raw: Sequence[int] = ()) -> int:
        """Add a normalised clause (None: the tautology ``raw``, kept for its id only);
        assign and propagate what it makes unit at top level."""
        cid = len(self.clauses)
        if clause is None:
            self.clauses.append(tuple(raw))
            self.alive.append(0)
            return cid
        stored = list(clause)
        self.clauses.append(stored)
        self.alive.append(1)
        if self.conflict is not None:
            return cid
        val = self.val
        if any(val[lit] for lit in stored):
            if len(stored) >= 2:  # satisfied at top level for good
                self._watch(cid, stored)
            return cid
        # unassigned literals first, false ones last
        stored.sort(key=lambda lit: val[-lit])
        if not stored or val[-stored[0]]:
            self.conflict = cid
            return cid
        if len(stored) >= 2:
            self._watch(cid, stored)
        if len(stored) == 1 or val[-stored[1]]:
            self._assign(stored[0], cid)
            self.conflict = self._propagate()
        return cid

    def load(self, clauses: Sequence[Sequence[int]]) -> None:
        """The original clauses, all at once: normalise and watch, then assign the units
        and propagate."""
        watches, implied, stored, alive, units = self.watches, self.implied, self.clauses, self.alive, []
        cid = len(stored)
        for raw in clauses:
            size = len(raw)
            if size == 2:
                a, b = raw
                if a != b and a != -b:  # the usual binary clause: stored as given
                    stored.append(raw)
                    alive.append(1)
                    implied[-a].append((b, cid))
                    implied[-b].append((a, cid))
                    cid += 1
                    continue
            clause = normalised(raw)
            if clause is None:  # a tautology: always true, takes no part
                stored.append(raw)
                alive.append(0)
                cid += 1
                continue
            alive.append(1)
            if len(clause) == 2:  # repeated literals made it binary
                a, b = clause
                stored.append(clause)
                implied[-a].append((b, cid))
                implied[-b].append((a, cid))
            elif len(clause) > 2:
                stored.append(list(clause))
                watches[clause[0]].append(cid)
                watches[clause[1]].append(cid)
            else:
                stored.append(clause)
                if clause:
                    units.append(cid)
                elif self.conflict is None:
                    self.conflict = cid
            cid += 1
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
        """'deleted', 'ignored' (a unit clause, or one unit at top level) or 'missing'."""
        clause = normalised(lits)
        if clause is not None and len(clause) <= 1:  # a unit clause: ignored, as drat-trim does
            return "ignored"
        cid = None if clause is None else self._find(clause)
        if clause is None or cid is None:
            return "missing"
        val = self.val
        if sum(val[lit] for lit in clause) == 1 and all(val[lit] or val[-lit] for lit in clause):
            return "ignored"  # unit at top level: maybe the reason for its true literal
        self.alive[cid] = 0  # unwatched lazily, when propagation meets it
        self.deletions.append(cid)
        self.deleted_before.append(len(self.deps))
        return "deleted"

    def _find(self, clause: tuple[int, ...]) -> int | None:
        """An alive clause with exactly these literals, looked up through the watches
        (a clause is always watched by two of its literals): no index to build.  The
        watch lists are searched in the order of the deletion's literals (which copy
        of a clause written twice goes depends on it; the compiled checker does the same)."""
        if len(clause) < 2:  # units and the empty clause are not watched
            return None
        if len(clause) == 2:
            a, b = clause
            return next((cid for other, cid in self.implied[-a] if other == b and self.alive[cid]), None)
        size, lits = len(clause), set(clause)
        for lit in clause:
            for cid in self.watches[lit]:
                candidate = self.clauses[cid]
                if self.alive[cid] and len(candidate) == size and lits.issuperset(candidate):
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

    def _antecedents(self, conflict_lits: Sequence[int], cid: int | None, stop: int) -> Derivation:
        """What falsifies ``conflict_lits``: (clause ids, top-level literals, None).

        Walks the trail back only to ``stop`` (where this check's assumptions
        began); the top-level literals reached are kept as they are, and their
        own reasons are followed once, in :meth:`core_ids`, not once per lemma."""
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
        return used, tuple(pending), None

    def core_ids(self, final: Derivation) -> set[int]:
        """The clauses (original and lemmas) the refutation uses, from its derivation."""
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
                        ids, lits, _ = deps[cid - first_lemma]
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
        return seen_clauses

    def core(self, final: Derivation) -> tuple[int, int]:
        """(original clauses, lemmas) the refutation uses, from the refutation's derivation."""
        seen = self.core_ids(final)
        originals = sum(1 for cid in seen if cid < self.first_lemma)
        return originals, len(seen) - originals

    # -- lemma checks ------------------------------------------------------
    def rup(self, lemma: Sequence[int]) -> Derivation | None:
        """What a RUP derivation of ``lemma`` (normalised) uses, or None if it is not RUP."""
        if self.conflict is not None:  # refuted at top level: everything follows
            if self.conflict_antecedents is None:
                self.conflict_antecedents = (
                    [self.conflict],
                    tuple(-lit for lit in self.clauses[self.conflict]),
                    None,
                )
            return self.conflict_antecedents
        val = self.val
        mark = len(self.trail)
        for lit in lemma:
            if val[lit]:  # true at top level: its negation clashes at once
                self._backtrack(mark)
                return [], (lit,), None
            if not val[-lit]:
                self._assign(-lit, -1)
        conflict = self._propagate()
        used = None if conflict is None else self._antecedents(self.clauses[conflict], conflict, mark)
        self._backtrack(mark)
        return used

    def rat(self, lemma: Sequence[int]) -> Derivation | None:
        """RAT on the first literal, then on each other one (as drat-trim tries them):
        every resolution candidate gives a RUP resolvent.  The candidates of every
        literal are found in one pass over the clauses."""
        if not lemma:
            return None
        wanted = {-lit for lit in lemma}
        candidates: dict[int, list[int]] = {-lit: [] for lit in lemma}
        clauses, alive = self.clauses, self.alive
        for cid, clause in enumerate(clauses):
            if alive[cid] and not wanted.isdisjoint(clause):
                for lit in wanted.intersection(clause):
                    candidates[lit].append(cid)
        lemma_set = set(lemma)
        for pivot in lemma:
            derivation = self._rat_on(lemma, lemma_set, pivot, candidates[-pivot])
            if derivation is not None:
                return derivation
        return None

    def _rat_on(
        self, lemma: Sequence[int], lemma_set: set[int], pivot: int, candidates: list[int]
    ) -> Derivation | None:
        used: list[int] = []
        top_lits: list[int] = []
        groups: list[tuple[int, list[int], tuple]] = []
        for cid in candidates:
            rest = [lit for lit in self.clauses[cid] if lit != -pivot]
            used.append(cid)
            if any(-lit in lemma_set for lit in rest):
                groups.append((cid, [], ()))  # a tautological resolvent
                continue
            found = self.rup([*lemma, *(lit for lit in rest if lit not in lemma_set)])
            if found is None:
                return None
            used.extend(found[0])
            top_lits.extend(found[1])
            groups.append((cid, found[0], found[1]))
        return used, tuple(top_lits), (pivot, groups)

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
                return self._refuted(result, number)
            if deleted:
                outcome = self.delete(lits)
                if outcome == "ignored":
                    result.ignored_deletions += 1
                elif outcome == "missing":
                    result.missing_deletions += 1
                continue
            lemma = normalised(lits)
            if lemma is None:  # a tautology: true, nothing to check; kept for its id
                result.checked += 1
                self.deps.append(([], (), None))
                self.add(None, lits)
                continue
            used = self.rup(lemma)
            if used is None:
                used = self.rat(lemma)
                if used is None:
                    why = "neither RUP nor RAT on any of its literals" if lemma else "not RUP"
                    result.reason = f"proof step {number}: lemma {_show(lemma)} does not follow ({why})"
                    result.failed_step = number
                    return result
                result.rat_lemmas += 1
            result.checked += 1
            self.deps.append(used)
            if not lemma:
                return self._verified(result, used, "empty clause")
            self.add(lemma)
        if self.conflict is not None:
            return self._refuted(result, total + 1)
        result.reason = "the proof never derives the empty clause (truncated, or not a refutation)"
        return result

    def _verified(self, result: CheckResult, final: Derivation, refutation: Refutation) -> CheckResult:
        self.final = final
        result.ok, result.reason, result.refutation = True, "verified", refutation
        result.core_size, result.core_lemmas = self.core(final)
        return result

    def _refuted(self, result: CheckResult, number: int) -> CheckResult:
        """Unit propagation of the formula and the lemmas so far is refuted at top level:
        every later lemma follows, the empty clause included, so the proof is verified;
        whether it goes on to write the empty clause only names the refutation."""
        steps = self.proof.steps
        empty = any(not deleted and not lits for deleted, lits in steps[number - 1 :])
        result.checked += sum(1 for deleted, _ in steps[number - 1 :] if not deleted)
        final = self.rup(())  # the top-level conflict's antecedents
        assert final is not None
        return self._verified(result, final, "empty clause" if empty else "unit propagation")

    # -- LRAT out ------------------------------------------------------------
    def lrat_lines(self) -> list[str]:
        """The verified refutation as LRAT lines: the core lemmas, each with hints in the
        order its clauses become unit, RAT lemmas with their candidates' hints, the
        deletions that were honoured, the empty clause last."""
        assert self.final is not None, "only a verified proof has an LRAT form"
        core = self.core_ids(self.final)
        first_lemma, clauses, deps = self.first_lemma, self.clauses, self.deps
        position = {lit: index for index, lit in enumerate(self.trail)}
        lines: list[str] = []
        last_id = first_lemma
        # Tautologies of the formula take no part here; LRAT checkers would count them
        # among RAT candidates, so they go first.
        deleted = set(self.deletions)
        tautologies = [cid + 1 for cid in range(first_lemma) if not self.alive[cid] and cid not in deleted]
        if tautologies:
            lines.append(f"{last_id} d {' '.join(map(str, tautologies))} 0")
        deletion = 0
        deletions, deleted_before = self.deletions, self.deleted_before
        for index, derivation in enumerate(deps):
            while deletion < len(deletions) and deleted_before[deletion] <= index:
                gone = deletions[deletion]
                deletion += 1
                if gone < first_lemma or gone in core:
                    lines.append(f"{last_id} d {gone + 1} 0")
            cid = first_lemma + index
            if cid not in core or cid >= len(clauses):
                continue
            lemma = list(clauses[cid])
            last_id = cid + 1
            lines.append(self._lrat_line(last_id, lemma, derivation, position))
        final_id = len(clauses) + 1
        lines.append(self._lrat_line(final_id, [], self.final, position))
        return lines

    def _lrat_line(self, clause_id: int, lemma: list[int], derivation: Derivation, position: dict) -> str:
        ids, top_lits, rat = derivation
        if rat is None:
            hints = self._hints(ids, top_lits, {-lit for lit in lemma}, position)
            body = " ".join(map(str, hints))
        else:
            pivot, groups = rat
            lemma.remove(pivot)
            lemma.insert(0, pivot)
            assumed = {-lit for lit in lemma}
            parts = []
            for candidate, group_ids, group_lits in sorted(groups):
                also = {lit for lit in self.clauses[candidate] if lit != -pivot}
                hints = self._hints(group_ids, group_lits, assumed | {-lit for lit in also}, position)
                parts.append(" ".join(map(str, [-(candidate + 1), *hints])))
            body = " ".join(parts)
        lits = " ".join(map(str, lemma))
        return f"{clause_id} {lits}{' ' if lits else ''}0 {body}{' ' if body else ''}0"

    def _hints(self, ids: list[int], top_lits: Sequence[int], assumed: set[int], position: dict) -> list[int]:
        """LRAT hints for a RUP chain: the reasons of the top-level literals it needs (and
        of theirs), in trail order, then its own clauses in the order they became unit,
        the conflict last; as LRAT ids (ours + 1)."""
        reason, clauses = self.reason, self.clauses
        needed: set[int] = set()
        stack = list(top_lits)
        while stack:
            lit = stack.pop()
            if lit in needed or lit in assumed:
                continue
            needed.add(lit)
            r = reason[lit]
            if r >= 0:
                stack.extend(-other for other in clauses[r] if other != lit)
        hints = [reason[lit] + 1 for lit in sorted(needed, key=position.__getitem__) if reason[lit] >= 0]
        if ids:
            hints.extend(cid + 1 for cid in reversed(ids[1:]))
            hints.append(ids[0] + 1)
        return hints


# ---------------------------------------------------------------------------
# LRAT
# ---------------------------------------------------------------------------
def _lrat_lines(steps: Sequence[tuple]) -> list[str]:
    """Parsed LRAT steps written out again (a deletion carries the last id added)."""
    lines, last_id = [], 0
    for clause_id, lits, hints in steps:
        if clause_id == 0:
            lines.append(" ".join(map(str, [last_id, "d", *hints, 0])))
        else:
            last_id = clause_id
            lines.append(" ".join(map(str, [clause_id, *lits, 0, *hints, 0])))
    return lines


def _check_lrat(
    cnf: CNF, proof: Proof, start: float, time_limit: float | None, on_progress: OnProgress | None
) -> CheckResult:
    result = CheckResult(False, "")
    # Tautologies are read (they have ids) but never unit: a hint naming one fails.
    clauses: dict[int, tuple[int, ...]] = {i: normalised(c) or tuple(c) for i, c in enumerate(cnf.clauses, 1)}
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
        lemma = normalised(lits)
        if lemma is not None:
            problem = _lrat_follows(clauses, lemma, hints)
            if problem is not None:
                result.reason = f"{where}: {problem}"
                result.failed_step = number
                return result
            if any(hint < 0 for hint in hints):
                result.rat_lemmas += 1
        result.checked += 1
        deps[clause_id] = tuple(abs(hint) for hint in hints)
        if not lits:
            result.ok, result.reason, result.refutation = True, "verified", "empty clause"
            result.steps_read = number
            seen, stack = set(deps[clause_id]), list(deps[clause_id])
            while stack:
                for d in deps.get(stack.pop(), ()):
                    if d not in seen:
                        seen.add(d)
                        stack.append(d)
            result.core_size = sum(1 for c in seen if c < first_lemma)
            result.core_lemmas = len(seen) - result.core_size
            return result
        clauses[clause_id] = lemma or tuple(lits)
    result.reason = "the proof never derives the empty clause (truncated, or not a refutation)"
    return result


def _lrat_follows(
    clauses: dict[int, tuple[int, ...]], lemma: tuple[int, ...], hints: Sequence[int]
) -> str | None:
    """None if the hints show that ``lemma`` (normalised, no tautology) follows; else why not.

    The positive hints before the first negative one must each be unit (or
    falsified: a conflict, and the lemma is RUP) under the negation of the
    lemma.  Failing a conflict, the lemma is RAT on its first literal p: each
    negative hint -j names a present clause holding -p, and every present clause
    holding -p must be named; after -j, the hints refute the resolvent (the
    negation of the lemma, of clause j without -p, and what the first hints made
    unit), unless that resolvent is a tautology."""
    true = {-lit for lit in lemma}
    split = next((i for i, hint in enumerate(hints) if hint < 0), len(hints))
    outcome = _unit_chain(clauses, true, hints[:split])
    if outcome is True:
        return None
    if isinstance(outcome, str):
        return outcome
    if not lemma:
        return f"the hints end without a conflict: lemma {_show(lemma)} does not follow"
    pivot = lemma[0]
    groups: dict[int, list[int]] = {}
    current: list[int] = []
    for hint in hints[split:]:
        if hint < 0:
            current = groups.setdefault(-hint, [])
        else:
            current.append(hint)
    for candidate_id, group in groups.items():
        candidate = clauses.get(candidate_id)
        if candidate is None:
            return f"RAT hint {-candidate_id} names no present clause"
        if -pivot not in candidate:
            return f"RAT hint {-candidate_id} {_show(candidate)} does not hold {-pivot}"
        assumed = set(true)
        rest = [lit for lit in candidate if lit != -pivot]
        if any(lit in assumed for lit in rest):
            continue  # the resolvent is a tautology (or satisfied by what the first hints made unit)
        assumed.update(-lit for lit in rest)
        outcome = _unit_chain(clauses, assumed, group)
        if isinstance(outcome, str):
            return outcome
        if outcome is not True:
            return (
                f"the RAT hints after {-candidate_id} end without a conflict: "
                f"lemma {_show(lemma)} does not follow"
            )
    missing = next((i for i, c in clauses.items() if -pivot in c and i not in groups), None)
    if missing is not None:
        if not groups:
            return f"the hints end without a conflict: lemma {_show(lemma)} does not follow"
        return (
            f"RAT on {pivot}: clause {missing} {_show(clauses[missing])} holds {-pivot} but has no RAT hint"
        )
    return None


def _unit_chain(
    clauses: dict[int, tuple[int, ...]], true: set[int], hints: Sequence[int]
) -> bool | str | None:
    """Follow ``hints`` under ``true`` (extended in place): True at a conflict, None if
    they end without one, or why a hint is no good."""
    for hint in hints:
        hinted = clauses.get(hint)
        if hinted is None:
            return f"hint {hint} names no present clause"
        open_lits = [lit for lit in hinted if -lit not in true]
        if not open_lits:
            return True
        if len(open_lits) > 1:
            return f"hint {hint} {_show(hinted)} is not unit there"
        true.add(open_lits[0])  # already true: a redundant hint, as lrat-check allows
    return None
