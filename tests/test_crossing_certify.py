"""Certified crossing answers (``--certify``): the plan replayed, plus a DRAT proof, checked
by our own checker, that the time-expanded model has no shorter plan (unsolvable: no plan
up to the horizon no loop-free plan can exceed, and the reachable counted states proved an
inductive invariant that excludes the goal)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from mindgames.cli import main
from mindgames.models.crossing import Options, parse_document, presets, solve
from mindgames.models.crossing import certify as crossing_certify
from mindgames.models.crossing.certify import INVARIANT_PARTS, prove_invariant
from mindgames.models.crossing.checker import replay
from mindgames.models.crossing.solve import Run
from mindgames.solver.proof import Certificate, check_proof, read_cnf, read_proof

# the module, not the function ``solve`` the package exports under its name
crossing_solve = importlib.import_module("mindgames.models.crossing.solve")


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
    assert certificate["no_plan_within"] == outcome.crossings - 1  # the horizon the proof proves
    assert "invariant" not in certificate  # the replayed plan and the horizon proof decide
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
    assert certificate["no_plan_within"] == reachable - 1
    assert "never repeats a state" in certificate["about"]
    # the count behind the horizon is proved: the reachable states are an inductive invariant
    invariant = certificate["invariant"]
    assert invariant["checked"] is True and invariant["states"] == reachable
    assert set(invariant["parts"]) == set(INVARIANT_PARTS)
    assert all(part["checked"] for part in invariant["parts"].values())
    assert "that count is proved by the invariant" in certificate["about"]


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


def reachable_states(name: str, **settings) -> Run:
    """A certifying run of an unsolvable preset, with its reachable counted states."""
    run = Run(parse_document(presets.build(name, settings)), Options(certify=True, cross_check=False))
    assert run.solve().status == "unsolvable" and run.reachable is not None
    return run


def test_the_reachable_states_prove_their_invariant_part_by_part():
    run = reachable_states("jealous-husbands", return_capacity=1)
    _, found = prove_invariant(run.layout, run.reachable)
    assert {part: c.certified for part, c in found.items()} == dict.fromkeys(INVARIANT_PARTS, True)


@pytest.mark.parametrize(
    "name,settings", [("jealous-husbands", {"return_capacity": 1}), ("missionaries-cannibals", {"pairs": 4})]
)
def test_the_invariant_is_refuted_when_one_reachable_state_is_left_out(name, settings):
    run = reachable_states(name, **settings)
    states = run.reachable
    assert states is not None and len(states) > 2
    for left_out in (states[1], states[-1]):  # a state next to the start, and the farthest
        fewer = [key for key in states if key != left_out]
        invariant, found = prove_invariant(run.layout, fewer)
        closed = found["closed"]
        assert closed.status == "sat" and not closed.certified  # a counterexample, not a proof
        assert closed.assignment is not None
        assert f"to {left_out} outside it" in invariant.counterexample("closed", closed.assignment)
        assert found["start"].certified and found["goal"].certified
    # the start left out: the first part fails too
    _, found = prove_invariant(run.layout, states[1:])
    assert found["start"].status == "sat"


def test_the_invariant_is_refuted_when_the_set_holds_a_goal():
    run = reachable_states("jealous-husbands", return_capacity=1)
    counts, _ = run.layout.counted_start()
    everyone_across = (tuple(tuple(row[::-1]) for row in counts), 1)
    assert run.layout.is_counted_goal(everyone_across)
    invariant, found = prove_invariant(run.layout, [*run.reachable, everyone_across])
    goal = found["goal"]
    assert goal.status == "sat" and goal.assignment is not None
    assert "meets the goal" in invariant.counterexample("goal", goal.assignment)


def test_the_invariant_is_skipped_with_a_reason_past_its_limit(monkeypatch):
    monkeypatch.setattr(crossing_solve, "INVARIANT_STATES", 3)  # the run keeps no more
    monkeypatch.setattr(crossing_certify, "INVARIANT_STATES", 3)
    outcome = certified("jealous-husbands", return_capacity=1)
    invariant = outcome.certificate["invariant"]
    assert invariant["checked"] is False and invariant["states"] == 8
    assert invariant["reason"] == "not proved: 8 reachable counted states (limit 3)"
    assert outcome.certificate["checked"] is True  # the horizon proof stands on its own
    assert "that count is the search's, outside the proof" in outcome.certificate["about"]


def test_an_unsolvable_answer_without_the_search_has_no_invariant_and_says_why():
    spec = parse_document(presets.build("jealous-husbands", {"return_capacity": 1}))
    outcome = solve(spec, Options(certify=True, cross_check=False, counted_limit=2))
    assert outcome.status == "unsolvable"
    invariant = outcome.certificate["invariant"]
    assert invariant["checked"] is False and invariant["states"] is None
    assert "did not list the reachable counted states" in invariant["reason"]


def test_cli_prints_the_invariant(capsys):
    argv = ["crossing", "solve", "jealous-husbands", "--set", "return_capacity=1", "--certify"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert (
        "DRAT proofs that the 8 reachable counted states are closed under moves and exclude the goal" in out
    )


def test_a_set_that_is_not_an_invariant_is_a_loud_error_exit_1(capsys, monkeypatch):
    proved = crossing_certify.prove_invariant

    def one_state_short(layout, states, *args):
        return proved(layout, states[:-1], *args)

    monkeypatch.setattr(crossing_certify, "prove_invariant", one_state_short)
    argv = ["crossing", "solve", "jealous-husbands", "--set", "return_capacity=1", "--certify"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "not an invariant of the model: a move leads from" in err and err.count("\n") == 1
