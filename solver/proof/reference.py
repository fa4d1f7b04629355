"""A second DRAT checker, written to be obviously correct rather than fast.

It exists to test :mod:`.checker` (the differential test and
``benchmarks/proof_differential.py``): both must give the same verdict on
every formula and proof.  Nothing here is shared with the fast checker: no
watches, no trail, no reasons; every question is answered from scratch.

The semantics, which the fast checker implements too:

* a clause is a *set* of literals (repeats mean nothing); a clause holding a
  literal and its negation (a tautology) is always true: it takes no part in
  propagation, in RAT candidates or in the database, and as a lemma it is
  accepted without a check;
* the *top-level assignment* is what unit propagation of the database (the
  formula's clauses and the lemmas so far, minus deletions) derives from
  nothing; when it meets a falsified clause, the database is refuted and the
  proof is accepted ("unit propagation"), whatever follows in the proof;
* a lemma is accepted if it is RUP (propagating its negation meets a
  falsified clause) or RAT on one of its literals p: for every clause D of the
  database holding -p, the resolvent (lemma + D without -p) is a tautology or
  RUP.  An accepted lemma joins the database;
* the empty lemma, when RUP, refutes the database ("empty clause");
* a deletion removes one clause of the database equal (as a set) to it,
  except, as drat-trim does, a clause of one literal (or none) and a clause
  that is *unit at top level* (all its literals false at top level but one,
  which is true: it may be the reason for that literal), whose deletions are
  ignored.  drat-trim ignores the deletion of the one clause that is the
  reason; ignoring every clause that could be changes no verdict (such a
  clause is true at top level for good: it never propagates, and as a RAT
  candidate its resolvent is RUP unless the pivot is false at top level, when
  RAT fails on the actual reason anyway), and it does not depend on the order
  of propagation;
* a proof that ends without refuting the database is rejected.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .formats import CNF, Proof


@dataclass
class ReferenceVerdict:
    ok: bool
    refutation: str | None = None  # "empty clause" or "unit propagation" when ok
    failed_step: int | None = None  # the step (from 1) whose lemma does not follow
    deleted: int = 0
    ignored_deletions: int = 0
    missing_deletions: int = 0


def clause_set(lits: Iterable[int]) -> frozenset[int] | None:
    """The clause as a set of literals; None for a tautology."""
    clause = frozenset(lits)
    return None if any(-lit in clause for lit in clause) else clause


def propagate(database: Sequence[frozenset[int]], assumed: Iterable[int]) -> set[int] | None:
    """Everything unit propagation derives from ``assumed`` (the true literals) over
    ``database``, or None when it meets a falsified clause."""
    true = set(assumed)
    if any(-lit in true for lit in true):
        return None
    changed = True
    while changed:
        changed = False
        for clause in database:
            if any(lit in true for lit in clause):
                continue
            open_lits = [lit for lit in clause if -lit not in true]
            if not open_lits:
                return None
            if len(open_lits) == 1:
                true.add(open_lits[0])
                changed = True
    return true


def rup(database: Sequence[frozenset[int]], clause: Iterable[int]) -> bool:
    return propagate(database, [-lit for lit in clause]) is None


def rat(database: Sequence[frozenset[int]], lemma: frozenset[int], pivot: int) -> bool:
    for other in database:
        if -pivot in other:
            resolvent = lemma | (other - {-pivot})
            if clause_set(resolvent) is not None and not rup(database, resolvent):
                return False
    return True


def follows(database: Sequence[frozenset[int]], lemma: frozenset[int]) -> bool:
    return rup(database, lemma) or any(rat(database, lemma, pivot) for pivot in lemma)


def check(cnf: CNF, proof: Proof) -> ReferenceVerdict:
    """The verdict on a DRAT proof (``proof.kind == "drat"``) of ``cnf``."""
    database = [c for c in map(clause_set, cnf.clauses) if c is not None]
    verdict = ReferenceVerdict(False)
    steps = proof.steps
    for number, (deleted, lits) in enumerate(steps, 1):
        top = propagate(database, [])
        if top is None:
            return _refuted(verdict, steps[number - 1 :])
        clause = clause_set(lits)
        if deleted:
            if clause is not None and len(clause) <= 1:
                verdict.ignored_deletions += 1
            elif clause is None or clause not in database:
                verdict.missing_deletions += 1
            elif _unit_at_top_level(clause, top):
                verdict.ignored_deletions += 1
            else:
                database.remove(clause)
                verdict.deleted += 1
            continue
        if clause is None:
            continue  # a tautology: true, and no use
        if not follows(database, clause):
            verdict.failed_step = number
            return verdict
        if not clause:
            verdict.ok, verdict.refutation = True, "empty clause"
            return verdict
        database.append(clause)
    if propagate(database, []) is None:
        verdict.ok, verdict.refutation = True, "unit propagation"
    return verdict


def _unit_at_top_level(clause: frozenset[int], top: set[int]) -> bool:
    true = [lit for lit in clause if lit in top]
    return len(true) == 1 and all(-lit in top for lit in clause if lit not in top)


def _refuted(verdict: ReferenceVerdict, rest: Sequence[tuple[bool, Sequence[int]]]) -> ReferenceVerdict:
    """The database is refuted: the proof is accepted, its own empty clause, if it
    comes, counted as the refutation."""
    verdict.ok = True
    empty = any(not deleted and not lits for deleted, lits in rest)
    verdict.refutation = "empty clause" if empty else "unit propagation"
    return verdict
