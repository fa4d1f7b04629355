"""Differential test of our DRAT checker against the reference checker, on small random pairs.

    python3 -m benchmarks.proof_differential [--pairs N] [--seed S] [--honest-share F] [--every N]

Each pair is a small CNF (up to 14 variables; clauses with repeated literals,
tautologies, units and the empty clause among them) and a DRAT proof of it:
either random steps (lemmas with repeated literals, tautologies and fresh
variables, deletions of formula clauses, of units, of lemmas and of reasons,
empty clauses anywhere), or an honest proof from a python-sat solver
(``with_proof=True``) of a small unsatisfiable formula, often mutated (a step
dropped, literals repeated or reordered, deletions of units and reasons
inserted, the empty clause cut off, a lemma that need not follow deleted at
once).  For every pair:

* our checker (:mod:`mindgames.solver.proof.checker`), our compiled checker
  (:mod:`mindgames.solver.proof.compiled`, which large proofs get) and the
  reference (:mod:`mindgames.solver.proof.reference`) must agree: the verdict,
  how the refutation ended, the failing step, the ignored and missing
  deletions; the two checkers of ours also on the reason, the lemmas checked
  and the RAT lemmas;
* the backward check (:func:`check_proof` with ``mode="backward"``, which
  checks only the lemmas the refutation uses) must accept every proof the
  reference accepts, with the same refutation and deletions; it may accept
  more (a lemma that does not follow, left unused: counted as
  ``accepted_backward_only``), never a proof of a satisfiable formula, and the
  LRAT it writes must check;
* a proof any of them accepts must be of an unsatisfiable formula, by brute force
  over every assignment: an accepted proof of a satisfiable formula is unsound;
* an accepted proof's LRAT form (:meth:`CheckResult.lrat`), from either of
  our checkers, must check in our LRAT checker, and the binary DRAT encoding
  of the proof must get the same verdict as the text.

Prints the pairs run, accepted and rejected, disagreements (must be 0) and
unsound acceptances (must be 0); exit code 1 if either is not 0.
tests/test_proof_differential.py runs a fixed-seed slice of this.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

import numpy as np

from mindgames.solver.proof import CNF, Proof, check_proof, drat_binary, parse_proof, reference
from mindgames.solver.proof.checker import lrat_text

MAX_BRUTE_FORCE_VARIABLES = 14
SOLVERS = ("cadical153", "glucose4", "lingeling")


def satisfiable(cnf: CNF) -> bool:
    """Brute force: some assignment of the (at most 14) variables satisfies every clause."""
    n = cnf.num_vars
    if n > MAX_BRUTE_FORCE_VARIABLES:
        raise ValueError(f"{n} variables: too many to try every assignment")
    assignments = np.arange(1 << n, dtype=np.int64)
    alive = np.ones(1 << n, dtype=bool)
    for clause in cnf.clauses:
        satisfied = np.zeros(1 << n, dtype=bool)
        for lit in clause:
            bit = (assignments >> (abs(lit) - 1)) & 1
            satisfied |= bit.astype(bool) if lit > 0 else ~bit.astype(bool)
        alive &= satisfied
        if not alive.any():
            return False
    return True


def _literal(rng: random.Random, num_vars: int) -> int:
    var = rng.randint(1, num_vars)
    return var if rng.random() < 0.5 else -var


def _clause(rng: random.Random, num_vars: int, longest: int) -> tuple[int, ...]:
    """Random literals, repeats and tautologies included (not avoided)."""
    size = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 3, 4][: longest + 7])
    lits = [_literal(rng, num_vars) for _ in range(size)]
    if lits and rng.random() < 0.15:  # a repeated literal
        lits.insert(rng.randrange(len(lits) + 1), rng.choice(lits))
    if lits and rng.random() < 0.05:  # a tautology
        lits.append(-rng.choice(lits))
    return tuple(lits)


def random_pair(rng: random.Random) -> tuple[CNF, Proof]:
    num_vars = rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 6, 8, 10, 14])
    clauses = [_clause(rng, num_vars, 4) for _ in range(rng.randint(1, 3 * num_vars + 2))]
    clauses = [c for c in clauses if c or rng.random() < 0.1]  # the empty clause, now and then
    cnf = CNF(num_vars, clauses or [(1,)])
    steps: list[tuple[bool, tuple[int, ...]]] = []
    lemmas: list[tuple[int, ...]] = []
    fresh = num_vars + rng.choice([0, 0, 1, 2])  # lemmas may name new variables (RAT on them)
    for _ in range(rng.randint(0, 12)):
        roll = rng.random()
        if roll < 0.1 and fresh < num_vars + 3:  # a new variable defined: RAT lemmas with candidates
            fresh += 1
            for lemma in _definition(rng, fresh, num_vars):
                steps.append((False, lemma))
                lemmas.append(lemma)
        elif roll < 0.55:
            lemma = _clause(rng, fresh, 4)
            if rng.random() < 0.1:
                lemma = ()
            steps.append((False, lemma))
            lemmas.append(lemma)
        elif roll < 0.9:  # delete something that is there, maybe written another way
            pool = cnf.clauses + lemmas
            target = list(rng.choice(pool))
            rng.shuffle(target)
            if target and rng.random() < 0.2:
                target.append(target[0])
            steps.append((True, tuple(target)))
        else:  # delete a unit, or something that is not there
            steps.append((True, (_literal(rng, fresh),) if rng.random() < 0.5 else _clause(rng, fresh, 3)))
    if rng.random() < 0.7:
        steps.append((False, ()))
    if rng.random() < 0.1:  # a lemma that does not follow, first and deleted at once
        bad = _bad_lemma(rng, cnf)
        if bad is not None:
            steps[:0] = [(False, bad), (True, bad)]
    return cnf, Proof("drat", steps)


def _definition(rng: random.Random, new: int, num_vars: int) -> list[tuple[int, ...]]:
    """The clauses of ``new <-> a and b`` (extended resolution), in a random order and each
    shuffled (so the pivot is not always first); the last ones are RAT on ``new`` with the
    earlier ones as candidates."""
    a, b = _literal(rng, num_vars), _literal(rng, num_vars)
    clauses = [[-new, a], [-new, b], [new, -a, -b]]
    for clause in clauses:
        rng.shuffle(clause)
    rng.shuffle(clauses)
    return [tuple(clause) for clause in clauses]


def _unsat_formula(rng: random.Random) -> CNF:
    """Random 3-SAT clauses added until unsatisfiable, on 4 to 10 variables."""
    from pysat.solvers import Solver

    num_vars = rng.randint(4, 10)
    cnf = CNF(num_vars, [])
    with Solver(name="minisat22") as engine:
        while True:
            chosen = rng.sample(range(1, num_vars + 1), 3)
            clause = tuple(v if rng.random() < 0.5 else -v for v in chosen)
            cnf.clauses.append(clause)
            engine.add_clause(clause)
            if not engine.solve():
                return cnf


def honest_pair(rng: random.Random) -> tuple[CNF, Proof]:
    """A solver's proof of a small unsatisfiable formula, often mutated; now and then
    after definitions of new variables (RAT lemmas) that the solver is given too."""
    from pysat.solvers import Solver

    cnf = _unsat_formula(rng)
    if rng.random() < 0.3:  # repeated literals in the formula (the solver sees them too)
        index = rng.randrange(len(cnf.clauses))
        clause = cnf.clauses[index]
        cnf.clauses[index] = (*clause, clause[0])
    definitions: list[tuple[int, ...]] = []
    if rng.random() < 0.4:
        for new in range(cnf.num_vars + 1, cnf.num_vars + 1 + rng.randint(1, 3)):
            definitions += _definition(rng, new, cnf.num_vars)
    with Solver(
        name=rng.choice(SOLVERS), bootstrap_with=cnf.clauses + definitions, with_proof=True
    ) as engine:
        assert not engine.solve()
        lines = list(engine.get_proof() or [])
    proof = parse_proof("".join(f"{line}\n" for line in lines).encode(), kind="drat")
    steps = [(False, clause) for clause in definitions] + list(proof.steps)
    if rng.random() < 0.6:
        steps = _mutated(rng, cnf, steps)
    return cnf, Proof("drat", steps)


def _bad_lemma(rng: random.Random, cnf: CNF) -> tuple[int, ...] | None:
    """A clause of two or three literals that is neither RUP nor RAT over ``cnf``, if a few tries find one."""
    for _ in range(8):
        lemma = tuple(_literal(rng, cnf.num_vars) for _ in range(rng.choice([2, 3])))
        if reference.check(cnf, Proof("drat", [(False, lemma)])).failed_step == 1:
            return lemma
    return None


def _mutated(rng: random.Random, cnf: CNF, steps: list) -> list:
    steps = list(steps)
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(8)
        at = rng.randrange(len(steps) + 1)
        if kind == 0 and steps:  # a step dropped
            del steps[rng.randrange(len(steps))]
        elif kind == 1 and steps:  # a lemma's literals repeated and shuffled (another pivot)
            index = rng.randrange(len(steps))
            deleted, lits = steps[index]
            lits = list(lits)
            if lits and rng.random() < 0.5:
                lits.append(rng.choice(lits))
            rng.shuffle(lits)
            steps[index] = (deleted, tuple(lits))
        elif kind == 2:  # the deletion of a unit, or of a formula clause (maybe a reason)
            unit = next((c for c in rng.sample(cnf.clauses, len(cnf.clauses)) if len(set(c)) == 1), None)
            target = unit if unit is not None and rng.random() < 0.5 else rng.choice(cnf.clauses)
            steps.insert(at, (True, tuple(target)))
        elif kind == 3:  # the deletion of an earlier lemma
            earlier = [lits for deleted, lits in steps[:at] if not deleted and lits]
            if earlier:
                steps.insert(at, (True, rng.choice(earlier)))
        elif kind == 4:  # the empty clause cut off
            steps = [step for step in steps if step != (False, ())]
        elif kind == 5:  # a random lemma
            steps.insert(at, (False, _clause(rng, cnf.num_vars + 1, 3)))
        elif kind == 6:  # the empty clause early
            steps.insert(at, (False, ()))
        else:  # a lemma that does not follow, first and deleted at once: unused unless it propagated
            lemma = _bad_lemma(rng, cnf)
            if lemma is not None:
                steps[:0] = [(False, lemma), (True, lemma)]
    return steps


def compare(cnf: CNF, proof: Proof) -> tuple[bool, list[str], bool]:
    """(accepted, the problems found: disagreements, unsound acceptances, LRAT failures,
    accepted by the backward check only)."""
    problems = []
    fast = check_proof(cnf, proof, lrat=True, compiled=False)
    compiled = check_proof(cnf, proof, lrat=True, compiled=True, mode="forward")
    backward = check_proof(cnf, proof, lrat=True, mode="backward")
    ref = reference.check(cnf, proof)
    theirs = (ref.ok, ref.refutation, ref.failed_step, ref.ignored_deletions, ref.missing_deletions)
    # Backward checking verifies only the lemmas the refutation uses: it accepts whatever the
    # reference accepts (and then agrees on how the refutation ended and on the deletions),
    # and may accept more (a bad lemma left unused), never a satisfiable formula (below).
    if ref.ok:
        back = (backward.ok, backward.refutation, backward.ignored_deletions, backward.missing_deletions)
        if back != theirs[:2] + theirs[3:]:
            problems.append(f"disagreement: backward {back}, reference {theirs}")
    if backward.ok:
        assert backward.lrat is not None
        lrat = check_proof(cnf, parse_proof(lrat_text(backward.lrat).encode(), kind="lrat"))
        if not lrat.ok:
            problems.append(f"LRAT form rejected: backward's: {lrat.reason}")
        if lrat.core_lemmas is not None and backward.checked < lrat.core_lemmas:
            problems.append(
                f"disagreement: backward checked {backward.checked} of {lrat.core_lemmas} core lemmas"
            )
    for name, result in (("checker", fast), ("compiled", compiled)):
        ours = (
            result.ok,
            result.refutation,
            result.failed_step,
            result.ignored_deletions,
            result.missing_deletions,
        )
        if ours != theirs:
            problems.append(f"disagreement: {name} {ours}, reference {theirs}")
        if result.ok:
            assert result.lrat is not None
            lrat = check_proof(cnf, parse_proof(lrat_text(result.lrat).encode(), kind="lrat"))
            if not lrat.ok:
                problems.append(f"LRAT form rejected: {name}'s: {lrat.reason}")
    shared = ("reason", "checked", "rat_lemmas", "lemmas")
    if [getattr(fast, key) for key in shared] != [getattr(compiled, key) for key in shared]:
        problems.append(f"disagreement: checker {fast}, compiled {compiled}")
    if (fast.ok or ref.ok or compiled.ok or backward.ok) and satisfiable(cnf):
        who = [
            name
            for name, result in (("checker", fast), ("compiled", compiled), ("backward", backward))
            if result.ok
        ]
        problems.append(f"unsound: {' '.join(who + ['reference'] * ref.ok)} accepted")
    binary = check_proof(cnf, parse_proof(drat_binary(proof.steps)))
    if binary.ok != fast.ok:
        problems.append("binary DRAT verdict differs from text")
    return fast.ok, problems, backward.ok and not fast.ok


def show(cnf: CNF, proof: Proof) -> str:
    clauses = " ".join(" ".join(map(str, c)) + " 0" for c in cnf.clauses)
    steps = " ".join(
        ("d " if d else "") + " ".join(map(str, lits)) + (" 0" if lits else "0") for d, lits in proof.steps
    )
    return f"p cnf {cnf.num_vars} {len(cnf.clauses)} | {clauses} || {steps}"


def run(pairs: int, seed: int, honest_share: float = 0.1, every: int = 0) -> dict:
    """The tally of ``pairs`` pairs; ``every``: a progress line on stderr every so many."""
    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    failures: list[str] = []
    start = time.process_time()
    for number in range(1, pairs + 1):
        honest = rng.random() < honest_share
        cnf, proof = honest_pair(rng) if honest else random_pair(rng)
        accepted, problems, only_backward = compare(cnf, proof)
        tally["honest" if honest else "random"] += 1
        tally["accepted" if accepted else "rejected"] += 1
        tally["backward only"] += only_backward
        for problem in problems:
            tally[problem.split(":")[0]] += 1
            if len(failures) < 20:
                failures.append(f"{problem}\n    {show(cnf, proof)}")
        if every and number % every == 0:
            shown = ("accepted", "rejected", "disagreement", "unsound", "LRAT form rejected")
            progress = " ".join(f"{key}={tally[key]}" for key in shown)
            print(f"{number} pairs: {progress}", file=sys.stderr, flush=True)
    return {
        "pairs": pairs,
        "seed": seed,
        "random": tally["random"],
        "honest": tally["honest"],
        "accepted": tally["accepted"],
        "rejected": tally["rejected"],
        "accepted_backward_only": tally["backward only"],
        "disagreements": tally["disagreement"],
        "unsound": tally["unsound"],
        "lrat_rejected": tally["LRAT form rejected"],
        "binary_differs": tally["binary DRAT verdict differs from text"],
        "cpu_seconds": round(time.process_time() - start, 1),
        "failures": failures,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--honest-share", type=float, default=0.1, help="share of solver proofs (default 0.1)"
    )
    parser.add_argument("--every", type=int, default=0, metavar="N", help="a progress line every N pairs")
    args = parser.parse_args(argv)
    outcome = run(args.pairs, args.seed, args.honest_share, args.every)
    for failure in outcome.pop("failures"):
        print(failure)
    print(" ".join(f"{key}={value}" for key, value in outcome.items()))
    bad = outcome["disagreements"] + outcome["unsound"] + outcome["lrat_rejected"] + outcome["binary_differs"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
