"""A crossing puzzle's answer in words: the plan step by step with the banks after each,
its proof, the cross-checks and the certificate (what ``mindgames crossing solve`` prints)."""

from __future__ import annotations

from mindgames.models.words import plural

from .solve import Outcome, crossings

SHOWN_BLOCKS = 3  # a longer list of interchangeable blocks shows its first and last ones


def _count(n: int, thing: str) -> str:
    return f"{n:,} {thing}" if n == 1 else f"{n:,} {thing}s"


def _found(length: int | None) -> str:
    return "the goal is unreachable" if length is None else f"shortest {crossings(length)}"


def _verdict(check: dict) -> str:
    # a disagreement is a VerificationError, never printed as a result
    return "agrees" if check.get("agrees") else "not compared (no proven answer)"


def _who(content: dict[str, int]) -> str:
    parts = [name if n == 1 else f"{name} x{n}" for name, n in content.items()]
    return ", ".join(parts) if parts else "-"


def _load(names: tuple[str, ...]) -> str:
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return _who(counts)


def _abbreviated(label: str) -> str:
    """A block type's label, with a long list of blocks cut short (the JSON has them all):
    "(husband1+wife1) ~ (husband2+wife2) ~ ... ~ (husband100+wife100), 100 blocks"."""
    blocks = label.split(" ~ ")
    if len(blocks) <= SHOWN_BLOCKS + 1:
        return label
    return " ~ ".join([*blocks[: SHOWN_BLOCKS - 1], "...", blocks[-1]]) + f", {len(blocks)} blocks"


def _certified(certificate: dict | None) -> str:
    """What the answer's line says of its certificate (nothing without certify)."""
    if certificate is None:
        return ""
    if not certificate["checked"]:
        return ", not certified"
    return ", certified: no proof needed" if certificate["kind"] == "none" else ", certified: DRAT, checked"


def certificate_lines(certificate: dict) -> list[str]:
    """What was proved and checked, or why nothing was; the files kept."""
    lines = []
    if certificate["kind"] == "none":
        lines.append(f"certificate: {certificate['about']}")
    elif certificate["checked"]:
        seconds = sum(certificate["seconds"].values())
        lines.append(
            f"certificate: DRAT proof of {certificate['claim']}, {certificate['lemmas']:,} lemmas, "
            f"checked by mindgames' checker ({seconds:.2f} s)"
        )
    else:
        lines.append(f"certificate: {certificate['reason']}")
    lines.extend(f"certificate: kept {path}" for path in certificate.get("files", []))
    invariant = certificate.get("invariant")
    if invariant is not None:
        lines.extend(_invariant_lines(invariant))
    return lines


def _invariant_lines(invariant: dict) -> list[str]:
    """The invariant behind an "unsolvable": proved and checked, or why not."""
    if not invariant["checked"]:
        return [f"certificate: invariant {invariant['reason']}"]
    seconds = sum(invariant["seconds"].values())
    lines = [
        f"certificate: DRAT proofs that the {plural(invariant['states'], 'reachable counted state')} "
        f"are closed under moves and exclude the goal (an inductive invariant: no plan at all), "
        f"{invariant['lemmas']:,} lemmas, checked by mindgames' checker ({seconds:.2f} s)"
    ]
    for part in invariant["parts"].values():
        lines.extend(f"certificate: kept {path}" for path in part.get("files", []))
    return lines


def outcome_lines(outcome: Outcome) -> list[str]:
    """The answer as lines of text."""
    spec = outcome.spec
    assert spec is not None  # every answer of solve() carries its puzzle
    near, far = spec.sides
    lines = []
    certified = _certified(outcome.certificate)
    if outcome.status == "solved":
        assert outcome.crossings is not None
        lines.append(f"{outcome.name}: solved in {crossings(outcome.crossings)} (proven shortest{certified})")
    elif outcome.status == "unsolvable":
        lines.append(f"{outcome.name}: unsolvable (proven{certified})")
    else:
        lines.append(f"{outcome.name}: unknown")
    if outcome.plan:
        assert outcome.banks is not None
        width = len(str(len(outcome.plan)))
        for step, (move, bank) in enumerate(zip(outcome.plan, outcome.banks[1:]), start=1):
            if spec.is_river:
                direction = "->" if move.to_far else "<-"
                text = f"{_load(move.to_far or move.to_near)} {direction} {far if move.to_far else near}"
            else:
                text = f"down: {_load(move.to_far)}; up: {_load(move.to_near)}"
            lines.append(f"  {step:>{width}}. {text}")
            lines.append(f"  {'':>{width}}  {near}: {_who(bank['near'])} | {far}: {_who(bank['far'])}")
    lines.append(f"proof: {outcome.proof}")
    if outcome.confirmation:
        lines.append(f"model: {outcome.confirmation}")
    check = outcome.cross_check
    if check:
        if check.get("counted_graph_states") is not None:
            lines.append(
                f"cross-check: counted state graph of {_count(check['counted_graph_states'], 'state')}, "
                f"{_found(check['counted_graph_crossings'])}: {_verdict(check)}"
            )
        if check.get("graph_states") is not None:
            plans = _count(check["graph_shortest_plans"], "shortest plan")
            found = _found(check["graph_crossings"])
            found = f"{found}, {plans}" if check["graph_crossings"] is not None else found
            lines.append(
                f"cross-check: explicit state graph of {_count(check['graph_states'], 'state')}, "
                f"{found}: {_verdict(check)}"
            )
        if check.get("note"):
            lines.append(f"cross-check: {check['note']}")
    if outcome.methods:
        lines.append(f"agreeing: {', '.join(outcome.methods)}")
    if outcome.shortest_plans is not None:
        sp = outcome.shortest_plans
        lines.append(f"shortest plans: {sp['count']}{'' if sp['complete'] else ' (incomplete)'}")
    if outcome.simple_paths is not None:
        sp = outcome.simple_paths
        hist = ", ".join(f"{k}: {v}" for k, v in sp["histogram"].items())
        lines.append(f"simple paths: {sp['count']}{'' if sp['complete'] else ' (incomplete)'} ({hist})")
    if outcome.certificate is not None:
        lines.extend(certificate_lines(outcome.certificate))
    blocks = [b for b in outcome.abstraction.get("blocks", []) if "~" in b or " x " in b]
    if blocks:
        lines.append(f"counted as interchangeable: {'; '.join(map(_abbreviated, blocks))}")
    lines.append(f"engine: {outcome.engine}, {outcome.seconds:.2f} s")
    return lines
