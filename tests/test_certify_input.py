"""``mindgames certify`` on unusable input (exit 2, one line, no traceback), its time limit
over reading the files, the refutations drat-trim accepts, and LRAT out."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pysat.examples.genhard import PHP

from mindgames.cli import main
from mindgames.solver.proof import CNF, check_proof, parse_proof, read_proof, write_dimacs
from tests.test_proof import solve

XOR = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"


def certify(capsys, tmp_path, cnf: str | bytes, proof: str | bytes, *options: str) -> tuple[int, str, str]:
    for name, content in (("f.cnf", cnf), ("p.drat", proof)):
        path = tmp_path / name
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    code = main(["certify", str(tmp_path / "f.cnf"), str(tmp_path / "p.drat"), *options])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "cnf, proof, why",
    [
        (XOR, "--1 0\n", "'--1' is not a literal"),
        (XOR, "1-2 0\n", "'1-2' is not a literal"),
        (XOR, "1_0 0\n", "'1_0' is not a literal"),
        (XOR, "9" * 5000 + " 0\n", "(5,000 characters) is too large"),
        (XOR, "-" + "9" * 5000 + " 0\n", "(5,001 characters) is too large"),
        (XOR, "1 " * 3 + "99999999999 0\n0\n", "over the limit"),
        (XOR, b"a" + b"\x80" * 2100 + b"\x01\x00", "a number of more than 5 bytes"),
        (XOR, b"a" + b"\xff" * 100_000, "a number of more than 5 bytes"),
        (XOR, b"a\x03\x00\x00", "byte 0x00 at offset 3 starts no step"),
        (XOR, b"a\x01\x00", "the number 1 encodes no literal"),
        (XOR, "5 1 0 --1 0\n6 0 5 2 4 0\n", "'--1' is not a number"),
        ("p cnf 2 1\n--1 0\n", "0\n", "'--1' is not a literal"),
        ("p cnf 2 1\n" + "1" * 5000 + " 0\n", "0\n", "is too large"),
        ("p cnf " + "9" * 5000 + " 1\n1 0\n", "0\n", "the header must read"),
        ("p cnf 2 " + "9" * 30 + "\n1 0\n", "0\n", "the header must read"),
        ("p cnf ²2 1\n1 0\n", "0\n", "not a DIMACS CNF file"),
    ],
)
def test_unusable_input_is_one_line_and_exit_2(capsys, tmp_path, cnf, proof, why):
    code, out, err = certify(capsys, tmp_path, cnf, proof)
    assert (code, out) == (2, "") and err.count("\n") == 1 and why in err, err


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.one_of(st.binary(max_size=60), st.text("p cnf 0123456789-dac \n", max_size=60)),
    st.one_of(st.binary(max_size=60), st.text("0123456789-dac \n", max_size=60)),
)
def test_whatever_the_files_hold_the_answer_is_an_exit_code_and_at_most_one_line(
    capsys, tmp_path, cnf, proof
):
    code, out, err = certify(capsys, tmp_path, cnf, proof)
    assert code in (0, 1, 2) and err.count("\n") == (0 if code == 0 else 1)
    assert out.startswith("verified:") == (code == 0)


def test_the_time_limit_covers_reading_the_files(capsys, tmp_path):
    proof = "1 2 0\n" * 70_000 + "0\n"  # past the first time check of the parser
    code, out, err = certify(capsys, tmp_path, XOR, proof, "--time-limit", "0.000001", "--json")
    assert code == 1 and "time limit reached while reading the files" in err
    record = json.loads(out)
    assert record["status"] == "unknown" and record["timed_out"] is True and record["verified"] is False


def test_a_repeated_literal_does_not_hide_a_satisfiable_formula(capsys, tmp_path):
    # x1=0, x2=1 satisfies it: no proof may refute it.
    for proof in ("0\n", "", b"a\x00"):
        code, out, err = certify(capsys, tmp_path, "p cnf 2 2\n1 1 2 0\n-1 0\n", proof)
        assert code == 1 and "proof rejected" in err


def test_a_formula_that_unit_propagation_refutes_needs_no_lemma(capsys, tmp_path):
    code, out, _ = certify(capsys, tmp_path, "p cnf 2 3\n1 0\n-1 2 0\n-2 0\n", "", "--json")
    record = json.loads(out)
    assert code == 0 and record["refutation"] == "unit propagation" and record["lemmas"] == 0
    code, out, _ = certify(capsys, tmp_path, XOR, "1 0\n")  # the lemma makes propagation refute it
    assert code == 0 and "1 lemma, refuted by unit propagation" in out


def test_a_drat_proof_is_written_out_as_lrat_that_checks(capsys, tmp_path):
    formula = PHP(4)
    cnf = CNF(formula.nv, [tuple(c) for c in formula.clauses])
    _, text = solve(cnf)
    write_dimacs(cnf, tmp_path / "php.cnf")
    (tmp_path / "php.drat").write_text(text)
    out_path = tmp_path / "php.lrat"
    code = main(["certify", str(tmp_path / "php.cnf"), str(tmp_path / "php.drat"), "--output", str(out_path)])
    assert code == 0 and "LRAT written to" in capsys.readouterr().out
    lrat = read_proof(out_path)
    assert lrat.kind == "lrat"
    result = check_proof(cnf, lrat)
    assert result.ok and result.lemmas <= parse_proof(text.encode()).lemmas  # the core, at most
    assert main(["certify", str(tmp_path / "php.cnf"), str(out_path)]) == 0


def test_nothing_is_written_for_a_rejected_proof_and_the_options_go_together(capsys, tmp_path):
    out_path = tmp_path / "out.lrat"
    code, _, _ = certify(capsys, tmp_path, XOR, "0\n", "--output", str(out_path))
    assert code == 1 and not out_path.exists()
    code, _, err = certify(capsys, tmp_path, XOR, "1 0\n0\n", "--proof-format", "lrat")
    assert code == 2 and "give --output FILE too" in err
    code, _, _ = certify(
        capsys, tmp_path, XOR, "1 0\n0\n", "--output", str(out_path), "--proof-format", "drat"
    )
    assert code == 0 and out_path.read_text() == "1 0\n0\n"


def test_an_lrat_proof_is_written_out_as_it_was_checked_and_binary_drat_as_text(capsys, tmp_path):
    out_path = tmp_path / "out.lrat"
    lrat = "5 1 0 1 3 0\n5 d 1 0\n6 0 5 2 4 0\n7 0 0\n"  # read up to the empty clause
    code, _, _ = certify(capsys, tmp_path, XOR, lrat, "--output", str(out_path))
    assert code == 0 and out_path.read_text() == "5 1 0 1 3 0\n5 d 1 0\n6 0 5 2 4 0\n"
    code, _, _ = certify(
        capsys, tmp_path, XOR, b"a\x02\x00a\x00", "--output", str(out_path), "--proof-format", "drat"
    )
    assert code == 0 and out_path.read_text() == "1 0\n0\n"
    code, _, err = certify(capsys, tmp_path, XOR, lrat, "--output", str(out_path), "--proof-format", "drat")
    assert code == 2 and "not written out as DRAT" in err
