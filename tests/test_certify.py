"""Certified answers from the engine-neutral model, and the ``mindgames certify`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindgames.cli import main
from mindgames.models import sudoku
from mindgames.solver import Model, get_engine, projection
from mindgames.solver.proof import (
    CNF,
    PROOF_SOLVERS,
    Certificate,
    CertificationError,
    certify_answer,
    certify_cnf,
    certify_unique,
    certify_unsat,
    check_proof,
    drat_binary,
    read_cnf,
    read_proof,
    write_dimacs,
)
from tests.test_proof import is_satisfiable, random_3sat

# A 17-clue puzzle (unique) and the hardest-known kind (unique, needs search).
SEVENTEEN = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
MANY_SOLUTIONS = "5" + "." * 80


def sudoku_question(line: str):
    puzzle = sudoku.parse(line)
    encoding = sudoku.compile(sudoku.shape(puzzle))
    return puzzle, encoding, sudoku.givens(encoding, puzzle)


def first_solution(encoding, givens):
    answer = get_engine("sat").prepare(encoding.model).solve(givens)
    assert answer.status == "sat"
    return answer.assignment


@pytest.mark.parametrize("line", [SEVENTEEN, HARD])
def test_a_unique_sudoku_gets_a_checked_uniqueness_certificate(line):
    puzzle, encoding, givens = sudoku_question(line)
    assignment = first_solution(encoding, givens)
    assert sudoku.verify(puzzle, sudoku.decode(encoding, assignment)) == []
    certificate = certify_unique(encoding.model, givens, projection(encoding.model, assignment))
    assert certificate.status == "unsat" and certificate.checked and certificate.certified
    assert certificate.lemmas > 0 and certificate.core_size
    data = certificate.to_json()
    assert data["kind"] == "drat" and data["checked"] is True
    assert set(data["seconds"]) == {"solve", "proof", "check"}
    assert "files" not in data  # nothing kept unless asked


@pytest.mark.parametrize("line", [SEVENTEEN, HARD])
def test_an_lrat_certificate_is_kept_and_checks_and_a_tampered_one_does_not(line, tmp_path):
    puzzle, encoding, givens = sudoku_question(line)
    solution = projection(encoding.model, first_solution(encoding, givens))
    certificate = certify_unique(encoding.model, givens, solution, keep_dir=tmp_path, proof_format="lrat")
    assert certificate.certified and certificate.kind == "lrat" and certificate.lemmas >= 1
    cnf_path, lrat_path = map(Path, certificate.files)
    assert lrat_path.name == "certificate.lrat"
    cnf, proof = read_cnf(cnf_path), read_proof(lrat_path)
    assert proof.kind == "lrat" and check_proof(cnf, proof).ok
    # A hint dropped from the last step (the empty clause): rejected.
    lines = lrat_path.read_text().splitlines()
    *head, last = lines
    tokens = last.split()
    tampered = " ".join(tokens[:2] + tokens[3:])
    lrat_path.write_text("\n".join([*head, tampered]) + "\n")
    assert not check_proof(cnf, read_proof(lrat_path)).ok


def test_a_sudoku_with_several_solutions_gets_no_uniqueness_certificate():
    puzzle, encoding, givens = sudoku_question(MANY_SOLUTIONS)
    first = first_solution(encoding, givens)
    certificate = certify_unique(encoding.model, givens, projection(encoding.model, first))
    assert certificate.status == "sat" and not certificate.checked
    second = sudoku.decode(encoding, certificate.assignment)
    assert sudoku.verify(puzzle, second) == [] and second != sudoku.decode(encoding, first)


def test_an_unsolvable_sudoku_gets_a_checked_certificate():
    # Valid-looking givens (no clash in any unit) with no solution: the first row
    # misses 9 and every free cell of it sees a 9.
    line = "12345678." + "........9" + "." * 63
    _, encoding, givens = sudoku_question(line)
    assert get_engine("sat").prepare(encoding.model).solve(givens).status == "unsat"
    certificate = certify_unsat(encoding.model, givens)
    assert certificate.certified
    assert certificate.require() is certificate


@pytest.mark.parametrize("solver", ["glucose4", "lingeling"])
def test_other_proof_solvers_can_be_chosen(solver):
    _, encoding, givens = sudoku_question(HARD)
    assignment = first_solution(encoding, givens)
    certificate = certify_unique(
        encoding.model, givens, projection(encoding.model, assignment), solver=solver
    )
    assert certificate.certified and certificate.solver == solver


def test_kept_files_are_the_checked_cnf_and_proof_and_the_command_verifies_them(tmp_path, capsys):
    _, encoding, givens = sudoku_question(HARD)
    assignment = first_solution(encoding, givens)
    certificate = certify_unique(
        encoding.model, givens, projection(encoding.model, assignment), keep_dir=tmp_path, name="hard"
    )
    assert certificate.certified
    assert certificate.files == [str(tmp_path / "hard.cnf"), str(tmp_path / "hard.drat")]
    assert certificate.to_json()["files"] == certificate.files
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hard.cnf", "hard.drat"]  # no temporaries
    assert main(["certify", *certificate.files]) == 0
    assert capsys.readouterr().out.startswith("verified:")
    binary = tmp_path / "hard.bin.drat"
    binary.write_bytes(drat_binary(read_proof(tmp_path / "hard.drat").steps))
    assert main(["certify", "--json", certificate.files[0], str(binary)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["status"] == "verified" and verdict["format"] == "DRAT binary"


def test_a_model_with_cardinality_encodings_is_certified_on_its_cnf():
    # 3 pigeons, 2 holes, through the model's cardinality constraints (auxiliary variables).
    model = Model()
    holes = [[model.new_var(primary=True) for _ in range(2)] for _ in range(3)]
    for pigeon in holes:
        model.add_at_least(pigeon, 1)
    for hole in range(2):
        model.add_at_most([holes[p][hole] for p in range(3)], 1)
    certificate = certify_unsat(model)
    assert certificate.certified and "CNF encoding" in certificate.about


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(8, 20))
def test_certify_agrees_with_an_independent_solver(seed, num_vars):
    cnf = random_3sat(seed, num_vars)
    certificate = certify_cnf(cnf)
    if is_satisfiable(cnf):
        assert certificate.status == "sat" and not certificate.checked and certificate.lemmas == 0
        model = set(certificate.assignment)
        assert all(any(lit in model for lit in clause) for clause in cnf.clauses)
    else:
        assert certificate.status == "unsat" and certificate.checked


@pytest.mark.parametrize(
    "line, expected",
    [
        (HARD, "unique"),
        ("12345678." + "........9" + "." * 63, "unsat"),
        (MANY_SOLUTIONS, "multiple"),
    ],
)
def test_an_engine_answer_gets_the_certificate_it_calls_for(line, expected):
    _, encoding, givens = sudoku_question(line)
    answer = get_engine("sat").prepare(encoding.model).check_unique(givens)
    assert answer.status == expected
    certificate = certify_answer(encoding.model, givens, answer)
    if expected == "multiple":
        assert certificate is None  # two verified witnesses need no proof
    else:
        assert certificate.certified


def test_a_time_limit_gives_unknown_not_a_certificate():
    _, encoding, givens = sudoku_question(HARD)
    certificate = certify_unsat(encoding.model, givens, [[-1]], time_limit=1e-9)
    assert certificate.status == "unknown" and not certificate.certified


def test_a_rejected_proof_is_a_loud_error():
    rejected = Certificate("unsat", checked=False, reason="proof step 3: lemma '1 0' does not follow")
    with pytest.raises(CertificationError, match="does not follow"):
        rejected.require()


def test_bad_arguments_are_refused():
    _, encoding, givens = sudoku_question(HARD)
    with pytest.raises(ValueError, match="one literal for each primary variable"):
        certify_unique(encoding.model, givens, [1, 2, 3])
    with pytest.raises(ValueError, match="emits no proofs"):
        certify_unsat(encoding.model, givens, solver="minisat22")
    with pytest.raises(ValueError, match="cannot stop at a time limit"):
        certify_unsat(encoding.model, givens, solver="lingeling", time_limit=5)
    with pytest.raises(ValueError, match="names no variable"):
        certify_unsat(encoding.model, [10**6])
    assert "minisat22" not in PROOF_SOLVERS


# ---------------------------------------------------------------------------
# mindgames certify: exit 0 verified, 1 rejected, 2 unusable input
# ---------------------------------------------------------------------------
XOR = CNF(2, [(1, 2), (-1, 2), (1, -2), (-1, -2)])


@pytest.fixture
def xor_cnf(tmp_path):
    path = tmp_path / "xor.cnf"
    write_dimacs(XOR, path)
    return path


def run_certify(capsys, *args) -> tuple[int, str, str]:
    code = main(["certify", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_verifies_a_good_proof(xor_cnf, tmp_path, capsys):
    (tmp_path / "p.drat").write_text("1 0\n0\n")
    code, out, err = run_certify(capsys, xor_cnf, tmp_path / "p.drat")
    assert code == 0 and out.startswith("verified:") and err == ""


@pytest.mark.parametrize(
    "proof, why",
    [
        ("1 0\n1", "truncated"),
        ("1 2 0\n", "never derives the empty clause"),
        ("0\n", "does not follow"),
        ("c only a comment\n", "never derives the empty clause"),
    ],
)
def test_the_command_rejects_a_bad_proof_with_exit_1(xor_cnf, tmp_path, capsys, proof, why):
    (tmp_path / "p.drat").write_text(proof)
    code, out, err = run_certify(capsys, xor_cnf, tmp_path / "p.drat")
    assert code == 1 and "verified" not in out
    assert err.count("\n") == 1 and "proof rejected" in err and why in err


@pytest.mark.parametrize(
    "cnf_text, why",
    [
        ("p cnf 2 5\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n", "the header says 5 clauses, the file has 4"),
        ("p cnf 1 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n", "beyond the header's 1 variables"),
        ("1 2 0\n", "not DIMACS"),
        ("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n", "not DIMACS"),
    ],
)
def test_the_command_refuses_a_bad_cnf_with_exit_2(tmp_path, capsys, cnf_text, why):
    (tmp_path / "f.cnf").write_text(cnf_text)
    (tmp_path / "p.drat").write_text("1 0\n0\n")
    code, out, err = run_certify(capsys, tmp_path / "f.cnf", tmp_path / "p.drat")
    assert code == 2 and out == "" and err.count("\n") == 1 and why in err
    assert "Traceback" not in err


def test_the_command_refuses_missing_files_non_drat_binaries_and_oversize_files(xor_cnf, tmp_path, capsys):
    code, _, err = run_certify(capsys, tmp_path / "missing.cnf", tmp_path / "p.drat")
    assert code == 2 and "no such file" in err
    (tmp_path / "image.drat").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    code, _, err = run_certify(capsys, xor_cnf, tmp_path / "image.drat")
    assert code == 2 and "not a DRAT" in err
    (tmp_path / "big.drat").write_text("1 0\n" * 100 + "0\n")
    code, out, err = run_certify(capsys, xor_cnf, tmp_path / "big.drat", "--max-bytes", "100")
    assert code == 2 and "larger than the limit of 100 bytes" in err and "verified" not in out
    code, _, err = run_certify(capsys, xor_cnf, tmp_path, "--max-bytes", "100")
    assert code == 2 and "is a directory" in err
    code, _, err = run_certify(capsys, xor_cnf, tmp_path / "big.drat", "--max-clauses", "10")
    assert code == 2 and "over the limit" in err


def test_the_command_reads_lrat(xor_cnf, tmp_path, capsys):
    (tmp_path / "p.lrat").write_text("5 1 0 1 3 0\n6 0 5 2 4 0\n")
    code, out, _ = run_certify(capsys, "--json", xor_cnf, tmp_path / "p.lrat")
    assert code == 0 and json.loads(out)["format"] == "LRAT text"


def test_the_command_stops_at_its_time_limit_without_verifying(tmp_path, capsys):
    from pysat.examples.genhard import PHP

    from tests.test_proof import solve

    formula = PHP(6)
    cnf = CNF(formula.nv, [tuple(c) for c in formula.clauses])
    write_dimacs(cnf, tmp_path / "php.cnf")
    _, text = solve(cnf)
    (tmp_path / "php.drat").write_text(text)
    assert text.count("\n") > 1000  # long enough to pass a time-limit check point
    code, out, err = run_certify(
        capsys, tmp_path / "php.cnf", tmp_path / "php.drat", "--time-limit", "0.000001"
    )
    assert code == 1 and "verified:" not in out and "not verified: time limit reached" in err
    code, out, _ = run_certify(capsys, tmp_path / "php.cnf", tmp_path / "php.drat")
    assert code == 0 and out.startswith("verified:")


def test_a_unique_binairo_is_certified_through_its_cardinality_model():
    from mindgames.models import binairo

    text = (Path(__file__).resolve().parents[1] / "data" / "binairo" / "takuzu_8x8.txt").read_text()
    puzzle = binairo.parse_one("\n".join(text.split("\n\n")[0].splitlines()))
    encoding = binairo.compile(binairo.shape(puzzle))
    givens = binairo.givens(encoding, puzzle)
    answer = get_engine("sat").prepare(encoding.model).check_unique(givens)
    assert answer.status == "unique"
    certificate = certify_answer(encoding.model, givens, answer)
    assert certificate.certified and certificate.lemmas > 0
