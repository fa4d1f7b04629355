"""Our DRAT checker against the reference checker, written to be obviously correct.

The long run is ``python -m benchmarks.proof_differential --pairs N``; here a
fixed-seed slice of it, and the cases that found bugs, by name."""

from __future__ import annotations

import pytest

from benchmarks.proof_differential import compare, run, satisfiable
from mindgames.solver.proof import CNF, check_proof, lrat_text, parse_proof, reference


def test_a_fixed_seed_slice_of_random_and_solver_proofs_finds_no_disagreement():
    outcome = run(pairs=3000, seed=29)
    assert outcome["failures"] == []
    assert outcome["disagreements"] == outcome["unsound"] == outcome["lrat_rejected"] == 0
    # both paths are exercised: proofs accepted (solver proofs among them) and rejected
    assert outcome["accepted"] > 500 and outcome["rejected"] > 500 and outcome["honest"] > 200


@pytest.mark.parametrize(
    "clauses, num_vars, proof",
    [
        ([(1, 1, 2), (-1,)], 2, b"0\n"),  # x1=0, x2=1 satisfies it
        ([(1, -1, 1), (-1,)], 1, b"0\n"),  # a tautology that repeats a literal
        ([(1, -1, 1), (-1,)], 1, b"a\x00"),  # the same, binary DRAT
        ([(1, 1, 2), (-1,)], 2, b""),
        ([(2, 2, 2, -1), (1,)], 2, b"-2 0\n0\n"),
    ],
)
def test_a_clause_that_repeats_a_literal_is_the_clause_without_the_repeat(clauses, num_vars, proof):
    cnf = CNF(num_vars, clauses)
    assert satisfiable(cnf)
    assert not check_proof(cnf, parse_proof(proof)).ok
    assert not reference.check(cnf, parse_proof(proof)).ok


def test_a_repeated_literal_that_leaves_a_binary_clause_still_propagates():
    # (1 1 -2) is the binary clause (1 -2): with 2 and -1 the formula is refuted.
    cnf = CNF(2, [(1, 1, -2), (2,), (-1,)])
    result = check_proof(cnf, parse_proof(b""))
    assert result.ok and result.refutation == "unit propagation" and result.lemmas == 0


def test_rat_holds_on_a_literal_other_than_the_first():
    # "-1 3" is not RUP, nor RAT on -1 ((1 2) gives the resolvent (-1 3 2), not RUP), but
    # RAT on 3 (no clause holds -3, a fresh variable); the clauses on 4 and 5 then refute.
    cnf = CNF(5, [(1, 2), (-1, -2), (4, 5), (4, -5), (-4, 5), (-4, -5)])
    proof = parse_proof(b"-1 3 0\n4 0\n0\n")
    result = check_proof(cnf, proof, lrat=True)
    assert result.ok and result.rat_lemmas == 1
    assert reference.check(cnf, proof).ok
    assert compare(cnf, proof) == (True, [], False)


def test_deleting_a_unit_at_top_level_is_ignored_even_when_another_clause_is_the_reason():
    # With -2 and -3, (1 2) and (1 3) are both unit at top level (one of them is the
    # reason for 1): neither is deleted, and 1 keeps its justification.
    xor = [(-1, 4, 5), (-1, 4, -5), (-1, -4, 5), (-1, -4, -5)]
    cnf = CNF(5, [(-2,), (-3,), (1, 2), (1, 3), *xor])
    proof = parse_proof(b"d 1 2 0\nd 1 3 0\n4 0\n0\n")
    result = check_proof(cnf, proof)
    assert result.ok and result.ignored_deletions == 2
    assert compare(cnf, proof) == (True, [], False)


def test_an_invalid_lemma_the_refutation_does_not_use_is_rejected_forward_and_accepted_backward():
    # x1, x2 contradict each other through the first four clauses alone; -3 does not follow
    # (neither RUP nor RAT on it: the candidate 3 4 gives -3 4, not RUP), and nothing uses it
    cnf = CNF(4, [(1, 2), (-1, 2), (1, -2), (-1, -2), (3, 4)])
    proof = parse_proof(b"-3 0\n2 0\n0\n")
    assert not satisfiable(cnf)
    forward = check_proof(cnf, proof)
    assert not forward.ok and forward.failed_step == 1
    assert not reference.check(cnf, proof).ok
    backward = check_proof(cnf, proof, lrat=True, mode="backward")
    assert backward.ok and backward.mode == "backward" and backward.refutation == "empty clause"
    assert backward.checked == backward.core_lemmas == 1  # "2 0" only
    assert backward.lrat is not None
    assert check_proof(cnf, parse_proof(lrat_text(backward.lrat).encode(), kind="lrat")).ok
    assert compare(cnf, proof) == (False, [], True)


def test_an_invalid_lemma_the_refutation_uses_is_rejected_backward_too():
    cnf = CNF(4, [(1, 2), (-1, 2), (1, -2), (3, 4)])  # satisfiable: x1 = x2 = 1
    assert satisfiable(cnf)
    proof = parse_proof(b"-3 0\n-1 0\n0\n")  # -1 does not follow, and the refutation needs it
    backward = check_proof(cnf, proof, mode="backward")
    assert not backward.ok and backward.failed_step == 2
    assert backward.reason == (
        "proof step 2: lemma '-1 0' does not follow (neither RUP nor RAT on any of its literals), "
        "and the refutation uses it"
    )
    assert compare(cnf, proof)[1] == []


def test_backward_checking_is_the_compiled_checkers_only():
    with pytest.raises(ValueError, match="compiled"):
        check_proof(CNF(1, [(1,), (-1,)]), parse_proof(b"0\n"), compiled=False, mode="backward")
