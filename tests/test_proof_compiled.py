"""The compiled DRAT checker and parsers (solver.proof.compiled) against the Python ones.

The compiled checker is what large proofs get.  Checking forward, its contract
is the Python checker's verdict, reason and counts (its core and LRAT hints may
differ, since it propagates in another order, but its LRAT must check).
Checking backward (its default), it checks only the lemmas the refutation uses:
it accepts every proof the forward check accepts, and more (a lemma that does
not follow but is not used), never a proof of a satisfiable formula.  The compiled parsers
read large files; on anything unusual they hand the file to the Python parsers,
so they must give the same steps, defects and errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from mindgames.solver.proof import CNF, ProofInputError, check_proof, lrat_text, parse_proof, reference
from mindgames.solver.proof.check import COMPILED_FROM_LITERALS, compiled_pays
from mindgames.solver.proof.compiled_parse import PARSED, TOO_MANY, parse_drat
from mindgames.solver.proof.formats import (
    COMPILED_PARSE_FROM_BYTES,
    MAX_VARINT_BYTES,
    DratSteps,
    drat_binary,
    drat_text,
    parse_binary_drat,
    parse_text_drat,
)

VERDICT = ("ok", "reason", "lemmas", "checked", "rat_lemmas", "ignored_deletions", "missing_deletions")
VERDICT += ("refutation", "failed_step", "timed_out")


def verdict(result) -> tuple:  # type: ignore[no-untyped-def]
    return tuple(getattr(result, key) for key in VERDICT)


def php_proof(holes: int, solver: str) -> tuple[CNF, str]:
    formula = PHP(holes)
    with Solver(name=solver, bootstrap_with=formula.clauses, with_proof=True) as engine:
        assert not engine.solve()
        lines = list(engine.get_proof() or [])
    return CNF(formula.nv, [tuple(c) for c in formula.clauses]), "".join(f"{line}\n" for line in lines)


@pytest.fixture(scope="module")
def php_proofs() -> list[tuple[CNF, str]]:
    return [php_proof(6, solver) for solver in ("cadical153", "glucose4", "lingeling")]


def test_solver_proofs_get_the_same_verdict_from_both_checkers_and_their_lrat_checks(php_proofs):
    for cnf, text in php_proofs:
        proof = parse_proof(text.encode())
        python = check_proof(cnf, proof, lrat=True, compiled=False)
        compiled = check_proof(cnf, proof, lrat=True, compiled=True, mode="forward")
        assert python.ok and verdict(compiled) == verdict(python)
        assert compiled.core_size and compiled.core_lemmas
        assert compiled.lrat is not None
        lrat = check_proof(cnf, parse_proof(lrat_text(compiled.lrat).encode(), kind="lrat"))
        assert lrat.ok, lrat.reason


def test_forged_solver_proofs_are_rejected_at_the_same_step(php_proofs):
    rng = random.Random(29)
    for cnf, text in php_proofs:
        steps = list(parse_proof(text.encode()).steps)
        for _ in range(4):
            forged = list(steps)
            at = rng.randrange(len(forged) // 2)
            forged.insert(at, (False, (rng.choice([1, -1]) * rng.randint(1, cnf.num_vars),)))
            proof = parse_proof(drat_text(forged).encode())
            python = check_proof(cnf, proof, compiled=False)
            compiled = check_proof(cnf, proof, compiled=True, mode="forward")
            assert verdict(compiled) == verdict(python)
            assert reference.check(cnf, proof).failed_step == compiled.failed_step


def test_a_fixed_seed_slice_of_small_random_pairs_agrees_with_the_reference():
    from benchmarks.proof_differential import honest_pair, random_pair, satisfiable

    rng = random.Random(2929)
    for _ in range(1500):
        cnf, proof = honest_pair(rng) if rng.random() < 0.15 else random_pair(rng)
        compiled = check_proof(cnf, proof, lrat=True, compiled=True, mode="forward")
        python = check_proof(cnf, proof, compiled=False)
        ref = reference.check(cnf, proof)
        assert verdict(compiled) == verdict(python)
        assert (compiled.ok, compiled.refutation, compiled.failed_step) == (
            ref.ok,
            ref.refutation,
            ref.failed_step,
        )
        assert (compiled.ignored_deletions, compiled.missing_deletions) == (
            ref.ignored_deletions,
            ref.missing_deletions,
        )
        if compiled.ok:
            assert not satisfiable(cnf)
            assert compiled.lrat is not None
            assert check_proof(cnf, parse_proof(lrat_text(compiled.lrat).encode(), kind="lrat")).ok


def test_the_time_limit_and_progress_reports_reach_the_compiled_check(php_proofs):
    cnf, text = php_proofs[1]
    proof = parse_proof(text.encode())
    assert len(proof.steps) > 512
    reports: list[tuple[int, int]] = []
    result = check_proof(
        cnf,
        proof,
        on_progress=lambda done, total: reports.append((done, total)),
        compiled=True,
        mode="forward",
    )
    assert result.ok and reports and reports[0] == (256, len(proof.steps))
    stopped = check_proof(cnf, proof, time_limit=1e-9, compiled=True, mode="forward")
    # as in the Python checker: the clock is read every 256 steps
    assert not stopped.ok and stopped.timed_out and stopped.checked < stopped.lemmas
    assert stopped.reason == f"time limit reached after {stopped.checked:,} of {proof.lemmas:,} lemmas"


def test_solver_proofs_checked_backward_check_only_the_lemmas_the_refutation_uses(php_proofs):
    for cnf, text in php_proofs:
        proof = parse_proof(text.encode())
        forward = check_proof(cnf, proof, compiled=True, mode="forward")
        backward = check_proof(cnf, proof, lrat=True, compiled=True)
        assert backward.ok and backward.mode == "backward" and forward.mode == "forward"
        assert backward.refutation == forward.refutation
        assert (backward.ignored_deletions, backward.missing_deletions) == (
            forward.ignored_deletions,
            forward.missing_deletions,
        )
        # the lemmas checked are the core: what the refutation uses, all of it checked
        assert 0 < backward.core_lemmas == backward.checked < forward.checked
        assert backward.lrat is not None
        lrat = check_proof(cnf, parse_proof(lrat_text(backward.lrat).encode(), kind="lrat"))
        assert lrat.ok, lrat.reason
        assert (lrat.core_size, lrat.core_lemmas) == (backward.core_size, backward.core_lemmas)


def test_a_forged_lemma_checked_backward_is_rejected_where_it_is_or_not_used(php_proofs):
    rng = random.Random(29)
    outcomes = set()
    for cnf, text in php_proofs:
        steps = list(parse_proof(text.encode()).steps)
        for _ in range(6):
            forged = list(steps)
            at = rng.randrange(len(forged) // 2)
            lemma = tuple(
                rng.choice([1, -1]) * rng.randint(1, cnf.num_vars) for _ in range(rng.choice([1, 2]))
            )
            # a unit propagates (and is used); a binary lemma deleted at once is not used
            forged[at:at] = [(False, lemma)] if len(lemma) == 1 else [(False, lemma), (True, lemma)]
            proof = parse_proof(drat_text(forged).encode())
            backward = check_proof(cnf, proof, lrat=True, compiled=True)
            if check_proof(cnf, proof, compiled=True, mode="forward").ok:  # the forged lemma follows
                assert backward.ok
                continue
            if backward.ok:  # not used: the refutation stands on checked lemmas (its LRAT says so)
                assert backward.lrat is not None
                assert check_proof(cnf, parse_proof(lrat_text(backward.lrat).encode(), kind="lrat")).ok
            else:
                assert backward.failed_step == at + 1
                assert backward.reason.endswith("and the refutation uses it")
            outcomes.add(backward.ok)
    assert outcomes == {True, False}


def test_the_time_limit_and_progress_reports_reach_the_backward_check(php_proofs):
    cnf, text = php_proofs[1]
    proof = parse_proof(text.encode())
    reports: list[tuple[int, int]] = []
    result = check_proof(
        cnf, proof, on_progress=lambda done, total: reports.append((done, total)), compiled=True
    )
    # two passes over the steps: forward (adding), then backward (checking)
    assert result.ok and reports and reports[0] == (256, 2 * len(proof.steps))
    assert all(total == 2 * len(proof.steps) for _, total in reports)
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)
    stopped = check_proof(cnf, proof, time_limit=1e-9, compiled=True)
    assert not stopped.ok and stopped.timed_out and stopped.checked < stopped.lemmas
    assert stopped.reason == f"time limit reached after {stopped.checked:,} of {proof.lemmas:,} lemmas"


def test_large_proofs_take_the_compiled_path_small_ones_do_not(php_proofs):
    cnf, text = php_proofs[0]
    proof = parse_proof(text.encode())
    literals = sum(len(lits) for _, lits in proof.steps)
    assert compiled_pays(proof) == (literals >= COMPILED_FROM_LITERALS)
    assert not compiled_pays(parse_proof(b"1 0\n-1 0\n0\n"))


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------
TEXT_PIECES = [b"1", b"-2", b"0", b" ", b"\n", b"d ", b"c x\n", b"\r", b"-", b"\t", b"12", b"x"]
TEXT_PIECES += [b"d", b"-0", b"007", b"\x0b", b"99999999999999999999", b"c\x0c1 0\n", b"p"]
BINARY_PIECES = [b"a", b"d", b"\x00", b"\x02", b"\x03", b"\x01", b"\x80", b"\xff", b"\x81\x01", b"\x7f"]


def python_parse(data: bytes, binary: bool, max_steps: int) -> object:
    try:
        if binary:
            proof = parse_binary_drat(data, max_clauses=max_steps)
        else:
            proof = parse_text_drat(data.decode("ascii"), max_clauses=max_steps)
    except ProofInputError as error:
        return f"error: {error}"
    return list(proof.steps), proof.defect


def compiled_parse(data: bytes, binary: bool, max_steps: int) -> object:
    status, parsed = parse_drat(data, binary, max_steps, MAX_VARINT_BYTES)
    if status == TOO_MANY:  # worded by the readers of formats.py, as the Python parser words it
        return f"error: proof: more than {max_steps:,} proof steps, over the limit"
    if status != PARSED or parsed is None:
        return None  # unusual: the Python parser reads it
    lits, starts, deleted, truncated = parsed
    steps = DratSteps(lits, starts, deleted)
    return list(
        steps
    ), "the proof is truncated: its last clause is not terminated by 0" if truncated else None


@settings(max_examples=400, deadline=None)
@given(
    st.booleans(),
    st.lists(st.sampled_from(TEXT_PIECES), max_size=14),
    st.lists(st.sampled_from(BINARY_PIECES), max_size=14),
    st.sampled_from([1, 2, 50]),
)
def test_the_compiled_parsers_read_what_the_python_parsers_read(binary, text, raw, max_steps):
    data = (b"a" + b"".join(raw)) if binary else b"".join(text)
    got = compiled_parse(data, binary, max_steps)
    assert got is None or got == python_parse(data, binary, max_steps)


def test_a_large_file_is_read_by_the_compiled_parser_with_the_same_steps(php_proofs):
    cnf, text = php_proofs[2]
    padded = text.encode() * (COMPILED_PARSE_FROM_BYTES // len(text) + 1)
    for data, binary in ((padded, False), (drat_binary(parse_proof(padded).steps), True)):
        proof = parse_proof(data)
        assert isinstance(proof.steps, DratSteps) and proof.binary == binary
        reference_steps = python_parse(data, binary, 10**7)
        assert (list(proof.steps), proof.defect) == reference_steps
        cut = parse_proof(data + (b"a\x02" if binary else b"1 2"))  # a last step with no 0
        assert cut.defect is not None and "truncated" in cut.defect


def test_too_many_steps_in_a_large_binary_file_is_the_same_error():
    data = b"a\x04\x00" * (COMPILED_PARSE_FROM_BYTES // 3 + 10)
    with pytest.raises(ProofInputError, match="proof steps, over the limit"):
        parse_proof(data, max_clauses=1000)
