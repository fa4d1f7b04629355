"""--certify and --proof-dir on solve and check, for every grid kind: the answer with its proof,
checked by our own checker; a proof that does not check is a loud error (exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindgames.cli import main
from mindgames.models.registry import grid_kinds

REPO = Path(__file__).resolve().parents[1]
SEED = REPO / "data" / "sudoku" / "seed.txt"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_certified_check_says_unique_certified_and_checked(capsys):
    code, out, _ = run(capsys, "sudoku", "check", str(SEED), "--certify")
    assert code == 0
    assert out.startswith("puzzle 1: 9x9, 3x3 boxes: unique (certified: DRAT, checked), ")


def test_the_json_answer_carries_the_certificate(capsys):
    code, out, _ = run(capsys, "sudoku", "check", str(SEED), "--certify", "--json")
    certificate = json.loads(out.splitlines()[0])["certificate"]
    assert certificate["kind"] == "drat" and certificate["checked"] is True
    assert set(certificate["seconds"]) == {"solve", "proof", "check"}
    # an easy puzzle: unit propagation alone refutes a second solution, the proof has no lemma
    assert (certificate["proof"], certificate["lemmas"], certificate["solver"]) == (
        "unit propagation",
        0,
        "unit propagation",
    )


def test_without_certify_the_answer_has_no_certificate(capsys):
    _, out, _ = run(capsys, "sudoku", "check", str(SEED), "--json")
    assert "certificate" not in json.loads(out.splitlines()[0])


def test_proof_dir_keeps_each_puzzles_cnf_and_proof_where_asked(tmp_path, capsys):
    code, out, _ = run(capsys, "sudoku", "check", str(SEED), "--proof-dir", str(tmp_path), "--json")
    assert code == 0
    first = json.loads(out.splitlines()[0])["certificate"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "puzzle-1.cnf",
        "puzzle-1.drat",
        "puzzle-2.cnf",
        "puzzle-2.drat",
    ]
    assert {Path(f).name for f in first["files"]} == {"puzzle-1.cnf", "puzzle-1.drat"}
    # What was kept checks again, with the command that checks any proof.
    assert main(["certify", str(tmp_path / "puzzle-1.cnf"), str(tmp_path / "puzzle-1.drat")]) == 0


@pytest.mark.parametrize("kind", grid_kinds(), ids=lambda k: k.name)
def test_every_grid_kind_certifies_an_unsolvable_solve(kind, tmp_path, capsys):
    # The empty puzzle with two equal givens side by side breaks every grid kind's rules.
    empty = kind.empty(**({"size": "4"} if kind.name == "binairo" else {"box": (2, 2)}))
    clashing = kind.with_givens(empty, {(0, 0): 1, (0, 1): 1, (0, 2): 1})
    path = tmp_path / "clash.txt"
    path.write_text(kind.write(clashing))
    code, out, _ = run(capsys, kind.name, "solve", str(path), "--certify")
    assert code == 0 and ": unsolvable (certified: DRAT, checked), " in out.splitlines()[0]


def test_a_proof_that_does_not_check_is_a_loud_error_exit_1(monkeypatch, tmp_path, capsys):
    from mindgames.models.runner import PuzzleSolver
    from mindgames.solver.proof import CertificationError

    def forged(self, *args, **kwargs):
        raise CertificationError("the proof of puzzle-1 was rejected: lemma 3 does not follow")

    monkeypatch.setattr(PuzzleSolver, "check", forged)
    code, out, err = run(capsys, "sudoku", "check", str(SEED), "--certify")
    assert code == 1 and out == ""
    assert err.splitlines() == [
        "mindgames: error: certification failed: the proof of puzzle-1 was rejected: lemma 3 does not follow"
    ]


def test_count_has_no_certify_option(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["sudoku", "count", str(SEED), "--certify"])
    assert stop.value.code == 2


def test_proof_format_lrat_keeps_lrat_proofs_that_check(tmp_path, capsys):
    code, out, _ = run(
        capsys, "sudoku", "check", str(SEED), "--proof-dir", str(tmp_path), "--proof-format", "lrat", "--json"
    )
    assert code == 0
    for number, line in enumerate(out.splitlines(), 1):
        certificate = json.loads(line)["certificate"]
        assert certificate["kind"] == "lrat" and certificate["checked"] is True
        assert [Path(f).name for f in certificate["files"]] == [
            f"puzzle-{number}.cnf",
            f"puzzle-{number}.lrat",
        ]
        # our LRAT checker, from the command that checks any proof
        assert main(["certify", "--format", "lrat", *certificate["files"]]) == 0
    assert "LRAT text" in capsys.readouterr().out


@pytest.mark.parametrize("kind", grid_kinds(), ids=lambda k: k.name)
def test_every_grid_kind_certifies_with_lrat_too(kind, tmp_path, capsys):
    empty = kind.empty(**({"size": "4"} if kind.name == "binairo" else {"box": (2, 2)}))
    clashing = kind.with_givens(empty, {(0, 0): 1, (0, 1): 1, (0, 2): 1})
    path = tmp_path / "clash.txt"
    path.write_text(kind.write(clashing))
    code, out, _ = run(capsys, kind.name, "solve", str(path), "--proof-format", "lrat")  # implies --certify
    assert code == 0 and ": unsolvable (certified: LRAT, checked), " in out.splitlines()[0]
