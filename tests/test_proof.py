"""Our proof checker: proofs from several solvers check, forged proofs never do."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from mindgames.solver.proof import (
    CNF,
    LoadedFormula,
    ProofInputError,
    check_proof,
    drat_binary,
    drat_text,
    parse_dimacs,
    parse_proof,
    reference,
    write_dimacs,
)

SOLVERS = ("cadical153", "glucose4", "lingeling")
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_3sat(seed: int, num_vars: int) -> CNF:
    """Random 3-SAT near the threshold (4.26 clauses per variable): about half unsatisfiable."""
    rng = random.Random(seed)
    clauses = []
    for _ in range(round(4.26 * num_vars)):
        chosen = rng.sample(range(1, num_vars + 1), 3)
        clauses.append(tuple(v if rng.random() < 0.5 else -v for v in chosen))
    return CNF(num_vars, clauses)


def unsat_3sat(seed: int, num_vars: int) -> CNF:
    """Random 3-SAT grown clause by clause until unsatisfiable (it stops near the threshold)."""
    rng = random.Random(seed)
    cnf = CNF(num_vars, [])
    with Solver(name="minisat22") as engine:
        while True:
            chosen = rng.sample(range(1, num_vars + 1), 3)
            clause = tuple(v if rng.random() < 0.5 else -v for v in chosen)
            cnf.clauses.append(clause)
            engine.add_clause(clause)
            if len(cnf.clauses) >= 3 * num_vars and not engine.solve():
                return cnf


def solve(cnf: CNF, name: str = "cadical153") -> tuple[bool, str]:
    """(satisfiable, the solver's DRAT proof as text, with the empty clause)."""
    with Solver(name=name, bootstrap_with=cnf.clauses, with_proof=True) as engine:
        if engine.solve():
            return True, ""
        lines = list(engine.get_proof() or [])
    if not lines or lines[-1].strip() != "0":  # see solver.proof.certify: Glucose may omit it
        lines.append("0")
    return False, "\n".join(lines) + "\n"


def is_satisfiable(cnf: CNF) -> bool:
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as engine:
        return engine.solve()


def check_text(cnf: CNF, text: str):
    return check_proof(cnf, parse_proof(text.encode()))


cnfs = st.builds(random_3sat, st.integers(0, 2**32), st.integers(8, 20))
unsat_cnfs = st.builds(unsat_3sat, st.integers(0, 2**32), st.integers(8, 20))


# ---------------------------------------------------------------------------
# Real proofs check
# ---------------------------------------------------------------------------
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cnfs)
def test_every_solver_proof_of_a_random_unsat_cnf_checks_in_text_and_binary(cnf):
    if is_satisfiable(cnf):
        return  # no proof to check (test_certify: satisfiable formulas yield none)
    for name in SOLVERS:
        satisfiable, text = solve(cnf, name)
        assert not satisfiable
        proof = parse_proof(text.encode())
        assert not proof.binary
        result = check_proof(cnf, proof)
        assert result.ok, f"{name}: {result.reason}"
        binary = parse_proof(drat_binary(proof.steps))
        assert binary.binary and binary.steps == proof.steps
        assert check_proof(cnf, binary).ok


@pytest.mark.parametrize("holes", [2, 3, 4, 5])
@pytest.mark.parametrize("name", SOLVERS)
def test_pigeonhole_proofs_check(holes, name):
    cnf = CNF(PHP(holes).nv, [tuple(c) for c in PHP(holes).clauses])
    satisfiable, text = solve(cnf, name)
    assert not satisfiable
    result = check_text(cnf, text)
    assert result.ok, result.reason
    assert result.core_size and result.core_size <= len(cnf.clauses)


@pytest.mark.skipif(shutil.which("cadical") is None, reason="the cadical command is not installed")
def test_binary_drat_from_the_cadical_command_checks(tmp_path):
    cnf = CNF(PHP(5).nv, [tuple(c) for c in PHP(5).clauses])
    write_dimacs(cnf, tmp_path / "php.cnf")
    for options, binary in (([], True), (["--no-binary"], False)):
        proof_path = tmp_path / "php.drat"
        run = subprocess.run(
            ["cadical", "-q", *options, str(tmp_path / "php.cnf"), str(proof_path)],
            capture_output=True,
            timeout=60,
        )
        assert run.returncode == 20  # unsatisfiable
        proof = parse_proof(proof_path.read_bytes())
        assert proof.binary is binary
        assert check_proof(cnf, proof).ok


# ---------------------------------------------------------------------------
# A formula loaded once serves many checks (one puzzle shape, many puzzles)
# ---------------------------------------------------------------------------
def split(cnf: CNF, at: int) -> tuple[LoadedFormula, CNF]:
    """The first ``at`` clauses loaded once, and the whole CNF extending them."""
    base = CNF(cnf.num_vars, cnf.clauses[:at])
    return LoadedFormula(base), CNF(cnf.num_vars, [*base.clauses, *cnf.clauses[at:]])


@SLOW
@given(unsat_cnfs, st.floats(0, 1))
def test_checks_from_a_loaded_formula_agree_with_checks_from_scratch(cnf, fraction):
    loaded, whole = split(cnf, round(fraction * len(cnf.clauses)))
    _, text = solve(whole)
    proof = parse_proof(text.encode())
    fresh = check_proof(whole, proof)
    assert fresh.ok
    for _ in range(2):  # a check leaves the loaded formula as it was
        reused = check_proof(whole, proof, loaded=loaded)
        assert reused.ok and reused.lemmas == fresh.lemmas
    # Without its empty clause, the proof checks exactly when the lemmas it keeps let
    # unit propagation refute the formula (as drat-trim has it); loaded or not, alike.
    truncated = parse_proof(drat_text(proof.steps[:-1]).encode())
    alone = check_proof(whole, truncated)
    assert alone.ok == reference.check(whole, truncated).ok
    assert check_proof(whole, truncated, loaded=loaded).ok == alone.ok
    assert alone.refutation == ("unit propagation" if alone.ok else None)


@SLOW
@given(cnfs, st.data())
def test_proofs_of_the_simplified_formula_check_against_the_formula(cnf, data):
    """As for a puzzle: the rules loaded once, the givens added as unit clauses."""
    literal = st.integers(1, cnf.num_vars).flatmap(lambda v: st.sampled_from([v, -v]))
    givens = data.draw(st.lists(literal, max_size=4).map(lambda lits: [(lit,) for lit in lits]))
    loaded, whole = split(CNF(cnf.num_vars, [*cnf.clauses, *givens]), len(cnf.clauses))
    simplified = CNF(cnf.num_vars, loaded.simplified(whole))
    assert is_satisfiable(simplified) == is_satisfiable(whole)
    if loaded.refutes(whole):
        assert check_text(whole, "0\n").ok  # the empty clause alone: unit propagation refutes it
    elif not is_satisfiable(whole):
        for name in SOLVERS:
            _, text = solve(simplified, name)
            result = check_proof(whole, parse_proof(text.encode()), loaded=loaded)
            assert result.ok, f"{name}: {result.reason}"


@SLOW
@given(cnfs, st.data())
def test_no_proof_refutes_a_satisfiable_cnf_from_a_loaded_formula(cnf, data):
    assume(is_satisfiable(cnf))
    loaded, whole = split(cnf, data.draw(st.integers(0, len(cnf.clauses))))
    literal = st.integers(1, cnf.num_vars).flatmap(lambda v: st.sampled_from([v, -v]))
    lemma = st.tuples(st.just(False), st.lists(literal, max_size=4).map(tuple))
    deletion = st.tuples(st.just(True), st.sampled_from(cnf.clauses).map(tuple))
    steps = data.draw(st.lists(st.one_of(lemma, lemma, deletion), max_size=30)) + [(False, ())]
    assert not check_proof(whole, parse_proof(drat_text(steps).encode()), loaded=loaded).ok


def test_a_loaded_formula_that_the_cnf_does_not_extend_is_not_used():
    formula = PHP(4)
    cnf = CNF(formula.nv, [tuple(c) for c in formula.clauses])
    _, text = solve(cnf)
    other = LoadedFormula(CNF(cnf.num_vars, [(1, 2), (-1, -2)]))  # not a prefix of cnf
    assert not other.fits(cnf, cnf.num_vars)
    assert check_proof(cnf, parse_proof(text.encode()), loaded=other).ok
    satisfiable = CNF(cnf.num_vars, [(1, 2), (-1, -2)])
    assert not check_proof(satisfiable, parse_proof(text.encode()), loaded=LoadedFormula(cnf)).ok


# ---------------------------------------------------------------------------
# Forged proofs never check
# ---------------------------------------------------------------------------
@SLOW
@given(cnfs, st.data())
def test_no_proof_refutes_a_satisfiable_cnf(cnf, data):
    """Soundness: random lemmas and deletions (of original clauses too), ending in the empty
    clause, never 'refute' a satisfiable CNF."""
    assume(is_satisfiable(cnf))
    literal = st.integers(1, cnf.num_vars).flatmap(lambda v: st.sampled_from([v, -v]))
    lemma = st.tuples(st.just(False), st.lists(literal, max_size=4).map(tuple))
    deletion = st.tuples(st.just(True), st.sampled_from(cnf.clauses).map(tuple))
    steps = data.draw(st.lists(st.one_of(lemma, lemma, deletion), max_size=30)) + [(False, ())]
    for proof in (parse_proof(drat_text(steps).encode()), parse_proof(drat_binary(steps))):
        assert not check_proof(cnf, proof).ok


@SLOW
@given(cnfs, st.data())
def test_no_lrat_proof_refutes_a_satisfiable_cnf(cnf, data):
    assume(is_satisfiable(cnf))
    literal = st.integers(1, cnf.num_vars).flatmap(lambda v: st.sampled_from([v, -v]))
    first = len(cnf.clauses) + 1
    lines = []
    for offset in range(data.draw(st.integers(0, 10))):
        lemma = data.draw(st.lists(literal, max_size=3))
        hints = data.draw(st.lists(st.integers(1, first + offset - 1), max_size=8))
        lines.append(" ".join(map(str, [first + offset, *lemma, 0, *hints, 0])))
    hints = data.draw(st.lists(st.integers(1, first + len(lines) - 1), max_size=8))
    lines.append(" ".join(map(str, [first + len(lines), 0, *hints, 0])))
    proof = parse_proof(("\n".join(lines) + "\n").encode(), kind="lrat")
    assert not check_proof(cnf, proof).ok


def test_a_checker_time_limit_is_a_clear_unverified_result():
    formula = PHP(6)
    cnf = CNF(formula.nv, [tuple(c) for c in formula.clauses])
    _, text = solve(cnf)
    result = check_proof(cnf, parse_proof(text.encode()), time_limit=1e-6)
    assert not result.ok and result.timed_out and "time limit reached" in result.reason


@SLOW
@given(unsat_cnfs)
def test_a_proof_of_another_formula_is_rejected(cnf):
    """The proof of an unsatisfiable CNF, checked against that CNF with clauses dropped
    until it is satisfiable, is rejected."""
    satisfiable, text = solve(cnf)
    assert not satisfiable
    weaker = CNF(cnf.num_vars, list(cnf.clauses))
    while not is_satisfiable(weaker):
        weaker.clauses.pop()
    result = check_text(weaker, text)
    assert not result.ok
    assert "does not follow" in result.reason or "never derives" in result.reason


@SLOW
@given(unsat_cnfs, st.data())
def test_truncated_proofs_are_rejected(cnf, data):
    satisfiable, text = solve(cnf)
    assert not satisfiable
    cut = data.draw(st.integers(0, len(text) - 2))  # anything short of the final "0\n"
    # A cut proof checks only when the lemmas it keeps already refute the formula by
    # unit propagation, without its empty clause (see test_proof_differential).
    result = check_text(cnf, text[:cut])
    assert not result.ok or result.refutation == "unit propagation"
    if not result.ok:
        assert "truncated" in result.reason or "never derives" in result.reason
    binary = drat_binary(parse_proof(text.encode()).steps)
    cut = data.draw(st.integers(0, len(binary) - 2))
    result = check_proof(cnf, parse_proof(binary[:cut]))
    assert not result.ok or result.refutation == "unit propagation"


@SLOW
@given(unsat_cnfs)
def test_a_proof_without_the_empty_clause_checks_only_when_unit_propagation_refutes(cnf):
    satisfiable, text = solve(cnf)
    assert not satisfiable
    steps = [step for step in parse_proof(text.encode()).steps if step[1] or step[0]]
    proof = parse_proof(drat_text(steps).encode())
    result = check_proof(cnf, proof)
    assert result.ok == reference.check(cnf, proof).ok
    if result.ok:
        assert result.refutation == "unit propagation"
    else:
        assert "never derives the empty clause" in result.reason
    # Lemmas that do not refute it: the empty clause is required.
    units = parse_proof(drat_text([(False, (1, 2)), (False, (-1, 2))]).encode())
    result = check_proof(CNF(2, [(1, 2, 2)]), units)
    assert not result.ok and "never derives the empty clause" in result.reason


def _follows(clauses, lemma) -> bool:
    """RUP, or RAT on any literal, by the reference checker."""
    database = [c for c in map(reference.clause_set, clauses) if c is not None]
    return reference.follows(database, frozenset(lemma))


@SLOW
@given(unsat_cnfs, st.data())
def test_a_lemma_that_does_not_follow_is_rejected(cnf, data):
    satisfiable, text = solve(cnf)
    assert not satisfiable
    literal = st.integers(1, cnf.num_vars).flatmap(lambda v: st.sampled_from([v, -v]))
    bogus = tuple(dict.fromkeys(data.draw(st.lists(literal, min_size=1, max_size=2))))
    assume(not _follows(cnf.clauses, bogus))
    steps = [(False, bogus), *parse_proof(text.encode()).steps]
    result = check_proof(cnf, parse_proof(drat_text(steps).encode()))
    assert not result.ok
    assert result.reason.startswith("proof step 1: lemma") and "does not follow" in result.reason


def test_a_rat_lemma_is_accepted_and_counted():
    # x3 is fresh: "3 0" is RAT (no clause holds -3); then (1 2),(-1 2),(1 -2),(-1 -2) refute.
    cnf = CNF(3, [(1, 2), (-1, 2), (1, -2), (-1, -2)])
    result = check_text(cnf, "3 0\n1 0\n0\n")
    assert result.ok and result.rat_lemmas == 1


def test_deleting_a_reason_clause_is_ignored_as_drat_trim_does():
    # 1 and 2 hold at top level ((-1 2) is the reason for 2); "3 0" needs 2 to stay.
    cnf = CNF(4, [(1,), (-1, 2), (-2, 3, 4), (-2, 3, -4), (-2, -3, 4), (-2, -3, -4)])
    result = check_text(cnf, "d -1 2 0\nd 1 0\n3 0\n0\n")
    assert result.ok and result.ignored_deletions == 2


def test_deleting_a_clause_takes_it_out_of_later_checks():
    cnf = CNF(2, [(1, 2), (-1, 2), (1, -2), (-1, -2)])
    assert check_text(cnf, "1 0\n0\n").ok
    result = check_text(cnf, "d 1 -2 0\n1 0\n0\n")
    assert not result.ok and "does not follow" in result.reason


def test_steps_after_the_empty_clause_are_not_read():
    assert check_text(CNF(1, [(1,), (-1,)]), "0\n5 0\n").ok


# ---------------------------------------------------------------------------
# LRAT
# ---------------------------------------------------------------------------
XOR_CNF = CNF(2, [(1, 2), (-1, 2), (1, -2), (-1, -2)])


def test_an_lrat_proof_with_correct_hints_checks():
    result = check_text(XOR_CNF, "5 1 0 1 3 0\n5 d 1 0\n6 0 5 2 4 0\n")
    assert parse_proof(b"5 1 0 1 3 0\n").kind == "lrat"
    assert result.ok, result.reason
    assert result.core_size == 4 and result.core_lemmas == 1


@pytest.mark.parametrize(
    "text, why",
    [
        ("5 1 0 1 0\n6 0 5 2 4 0\n", "without a conflict"),
        ("5 1 0 2 3 0\n6 0 5 2 4 0\n", "not unit"),
        ("5 1 0 1 9 0\n6 0 5 2 4 0\n", "names no present clause"),
        ("5 1 0 1 3 0\n", "never derives the empty clause"),
        ("5 1 0 1 3 0\n5 0 5 2 4 0\n", "ids must increase"),
        ("5 1 0 1 3 0\n6 0 5 2", "truncated"),
    ],
)
def test_lrat_proofs_with_wrong_hints_are_rejected(text, why):
    result = check_proof(XOR_CNF, parse_proof(text.encode(), kind="lrat"))
    assert not result.ok and why in result.reason


# ---------------------------------------------------------------------------
# Unusable files
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, why",
    [
        ("p cnf 2 3\n1 2 0\n-1 0\n", "the header says 3 clauses, the file has 2"),
        ("p cnf 2 1\n1 2 0\n-1 0\n", "more clauses than the header's 1"),
        ("p cnf 2 1\n1 3 0\n", "literal 3 is beyond the header's 2 variables"),
        ("1 2 0\n", "before the 'p cnf' header"),
        ("c nothing\n", "no 'p cnf' header"),
        ("p cnf 2 1\n1 x 0\n", "'x' is not a literal"),
        ("p cnf 2 1\n1 2\n", "not terminated by 0"),
        ("p dnf 2 1\n1 2 0\n", "the header must read"),
        ("p cnf 999999999 1\n1 2 0\n", "over the limit"),
    ],
)
def test_a_bad_dimacs_file_is_unusable_input(text, why):
    with pytest.raises(ProofInputError, match=why):
        parse_dimacs(text.encode())


def test_a_binary_file_that_is_not_drat_is_unusable_input():
    with pytest.raises(ProofInputError, match="not a DRAT"):
        parse_proof(b"\x89PNG\r\n\x1a\n\0\0\0")
