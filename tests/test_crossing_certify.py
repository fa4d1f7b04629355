"""Certified crossing answers (``--certify``): the plan replayed, plus a DRAT proof, checked
by our own checker, that the time-expanded model has no shorter plan (unsolvable: no plan
up to the horizon no loop-free plan can exceed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindgames.cli import main
from mindgames.models.crossing import Options, parse_document, presets, solve
from mindgames.models.crossing import certify as crossing_certify
from mindgames.models.crossing.checker import replay
from mindgames.solver.proof import Certificate, check_proof, read_cnf, read_proof


def certified(name: str, engine: str = "sat", proof_dir: Path | None = None, **settings):
    spec = parse_document(presets.build(name, settings))
    return solve(
        spec,
        Options(
            engine=engine,
            certify=True,
            cross_check=False,
            proof_dir=None if proof_dir is None else str(proof_dir),
        ),
    )


@pytest.mark.parametrize("name", list(presets.PRESETS))
def test_every_preset_is_certified_shortest(name):
    outcome = certified(name)
    certificate = outcome.certificate
    assert outcome.status == "solved"
    replay(outcome.spec, outcome.plan)
    assert certificate["kind"] == "drat" and certificate["checked"] is True
    assert certificate["lemmas"] > 0 and set(certificate["seconds"]) == {"solve", "proof", "check"}
    assert certificate["claim"] == f"no plan of at most {outcome.crossings - 1} crossings"
    assert certificate["horizon"] == outcome.crossings
    assert "idle steps only come last" in certificate["about"]
    assert "files" not in certificate  # nothing kept without a proof directory


@pytest.mark.parametrize(
    "name,settings",
    [
        ("jealous-husbands", {"return_capacity": 1}),
        ("missionaries-cannibals", {"pairs": 4}),
        ("jealous-husbands", {"couples": 4}),
        ("queens-tower", {"max_difference": 10}),
    ],
)
def test_unsolvable_presets_are_certified_at_the_longest_loop_free_horizon(name, settings):
    outcome = certified(name, **settings)
    certificate = outcome.certificate
    reachable = outcome.abstraction["reachable_counted_states"]
    assert outcome.status == "unsolvable"
    assert certificate["checked"] is True and certificate["horizon"] == reachable - 1
    assert "never repeats a state" in certificate["about"]


def test_the_certificate_says_the_proof_is_about_the_counted_model():
    about = certified("jealous-husbands").certificate["about"]
    assert "counted model" in about and "(husband1+wife1) ~ (husband2+wife2)" in about
    assert "maps the puzzle onto itself" in about
    copies = certified("missionaries-cannibals").certificate["about"]
    assert "3 x missionary" in copies and "by definition" in copies
    assert "tracks every actor" in certified("wolf-goat-cabbage").certificate["about"]


def test_the_certificate_does_not_depend_on_the_engine_that_found_the_answer():
    assert certified("dangerous-family", engine="cpsat").certificate["checked"] is True


def test_kept_files_check_again_and_a_tampered_proof_fails(tmp_path):
    certificate = certified("wolf-goat-cabbage", proof_dir=tmp_path).certificate
    cnf_path, proof_path = map(Path, certificate["files"])
    assert check_proof(read_cnf(cnf_path), read_proof(proof_path)).ok
    lines = proof_path.read_text().splitlines()
    truncated = tmp_path / "truncated.drat"
    truncated.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    assert not check_proof(read_cnf(cnf_path), read_proof(truncated)).ok
    # the same proof for another formula: the model without its goal clauses is satisfiable
    cnf = read_cnf(cnf_path)
    weaker = type(cnf)(cnf.num_vars, [c for c in cnf.clauses if len(c) != 1])
    assert not check_proof(weaker, read_proof(proof_path)).ok


def test_cli_says_certified_next_to_the_answer(capsys, tmp_path):
    assert main(["crossing", "solve", "wolf-goat-cabbage", "--certify", "--proof-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "solved in 7 crossings (proven shortest, certified: DRAT, checked)" in out
    assert "certificate: DRAT proof of no plan of at most 6 crossings" in out
    assert len(list(tmp_path.iterdir())) == 2
    assert (
        main(["crossing", "solve", "jealous-husbands", "--set", "return_capacity=1", "--certify", "--json"])
        == 0
    )
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unsolvable" and record["certificate"]["checked"] is True


def test_a_rejected_proof_is_a_loud_error_exit_1(capsys, monkeypatch):
    def rejected(*args, **kwargs):
        return Certificate("unsat", checked=False, reason="lemma 12 does not follow (RUP and RAT fail)")

    monkeypatch.setattr(crossing_certify, "certify_unsat", rejected)
    assert main(["crossing", "solve", "wolf-goat-cabbage", "--certify"]) == 1
    captured = capsys.readouterr()
    assert "proof rejected by the checker: lemma 12" in captured.err and captured.err.count("\n") == 1
    assert "certified" not in captured.out


def test_proof_dir_without_certify_is_a_usage_error(capsys, tmp_path):
    assert main(["crossing", "solve", "wolf-goat-cabbage", "--proof-dir", str(tmp_path)]) == 2
    assert "add --certify" in capsys.readouterr().err


def test_a_start_that_breaks_a_rule_needs_no_proof():
    document = {
        "name": "quarrel",
        "boat": {"capacity": 1},
        "actors": [{"name": "a"}, {"name": "b"}],
        "rules": [{"kind": "not_together", "who": ["a"], "with_any": ["b"], "where": ["banks"]}],
    }
    outcome = solve(parse_document(document), Options(certify=True))
    assert outcome.status == "unsolvable"
    assert (
        outcome.certificate["kind"] == "none"
        and "the start already breaks rules[0]" in outcome.certificate["about"]
    )


def test_an_unknown_answer_is_not_certified_and_says_why():
    spec = parse_document(presets.build("jealous-husbands", {"couples": 100}))
    certificate = solve(spec, Options(certify=True, time_limit=0.001)).certificate
    assert certificate["checked"] is False and "nothing was decided" in certificate["reason"]
