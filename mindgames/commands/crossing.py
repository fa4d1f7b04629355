"""``mindgames crossing list|solve|export``: river-crossing and pulley puzzles.

A puzzle is a built-in name (see ``list``) or a TOML/JSON file (``-`` reads
standard input).  ``--set key=value`` sets a built-in puzzle's parameter, or,
for a file, a dotted key of the document (``--set boat.capacity=3``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from mindgames.models.crossing import Options, parse_document, presets, solve
from mindgames.models.crossing.kind import plan_engines_help
from mindgames.models.crossing.solve import crossings
from mindgames.models.crossing.spec import load_document as document_of_text
from mindgames.models.crossing.spec import tomllib
from mindgames.models.crossing.svg import storyboard
from mindgames.models.crossing.toml_writer import to_toml
from mindgames.models.errors import PuzzleError, shorten
from mindgames.solver import Capability, engines_with
from mindgames.solver.proof import CertificationError

from ..io import UsageError, emit_json, fail, progress, read_text
from ..options import positive_float


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "crossing",
        help="river-crossing and pulley puzzles: proven shortest plans",
        description="Crossing puzzles: shortest plans proven by a breadth-first search over "
        "counted states, confirmed on a time-expanded SAT model.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    show = actions.add_parser("list", help="the built-in puzzles and their parameters")
    show.add_argument("--json", action="store_true", help="one JSON object")
    show.set_defaults(func=run_list)

    solver = actions.add_parser("solve", help="the proven shortest plan, or a proof there is none")
    _puzzle_arguments(solver)
    solver.add_argument(
        "--engine",
        choices=engines_with(Capability.PLAN_SEARCH),
        default="sat",
        help=f"{plan_engines_help()} (default: sat)",
    )
    solver.add_argument("--json", action="store_true", help="the result as one JSON object")
    solver.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="give up (status unknown, with what was proved) after this long; holds for the whole command",
    )
    solver.add_argument(
        "--count-shortest", action="store_true", help="also count the distinct shortest plans"
    )
    solver.add_argument(
        "--simple-paths",
        action="store_true",
        help="also count the plans that never repeat a state (with a length histogram)",
    )
    solver.add_argument("--svg", metavar="FILE", help="write a storyboard picture of the plan")
    solver.add_argument(
        "--no-cross-check",
        action="store_true",
        help="skip the networkx cross-checks (counted and explicit state graphs)",
    )
    solver.add_argument(
        "--no-symmetry",
        action="store_true",
        help="track every actor one by one (no counting of symmetric actors)",
    )
    solver.add_argument(
        "--certify",
        action="store_true",
        help="also prove the answer: a DRAT proof, checked by mindgames' own checker, "
        "that no shorter plan exists (unsolvable: that no plan exists)",
    )
    solver.add_argument(
        "--proof-dir",
        metavar="DIR",
        help="with --certify: keep the CNF and the proof there (check them again "
        "with `mindgames certify CNF PROOF`)",
    )
    solver.set_defaults(func=run_solve)

    why = actions.add_parser(
        "explain", help="why there is no plan, or no shorter one: a minimal set of the rules"
    )
    _puzzle_arguments(why)
    why.add_argument("--json", action="store_true", help="the explanation as one JSON object")
    why.add_argument(
        "--time-limit",
        type=positive_float,
        metavar="SECONDS",
        help="give up (explanation unknown) after this long",
    )
    why.set_defaults(func=run_explain)

    export = actions.add_parser("export", help="print a puzzle as a TOML puzzle file")
    _puzzle_arguments(export)
    export.add_argument("--json", action="store_true", help="JSON instead of TOML")
    export.set_defaults(func=run_export)


def _puzzle_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE", help="a built-in name, a .toml/.json file, or -")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="set a parameter (repeatable)"
    )


# -- actions -----------------------------------------------------------------
def run_list(args: argparse.Namespace) -> int:
    table = {name: presets.parameters(name) for name in presets.PRESETS}
    bounds = {name: {k: list(v) for k, v in presets.BOUNDS[name].items()} for name in presets.PRESETS}
    descriptions = {name: presets.describe(name) for name in presets.PRESETS}
    if args.json:
        emit_json({"puzzles": table, "bounds": bounds, "descriptions": descriptions})
        return 0
    for name, params in table.items():
        shown = (
            ", ".join(f"{k}={v} ({bounds[name][k][0]}..{bounds[name][k][1]})" for k, v in params.items())
            or "-"
        )
        print(f"{name:24} {shown}")
        print(f"{'':24} {descriptions[name]}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    document = load_document(args.puzzle, args.set)
    parse_document(document)  # only valid puzzles are exported
    if args.json:
        print(json.dumps(document, indent=2))
    else:
        sys.stdout.write(to_toml(document))
    return 0


def run_explain(args: argparse.Namespace) -> int:
    from mindgames.models.crossing.explain import explain

    spec = parse_document(load_document(args.puzzle, args.set))
    with progress(None, f"crossing explain: {spec.name}"):
        why = explain(spec, args.time_limit)
    if args.json:
        emit_json(why.to_json())
        return 0
    print(f"{spec.name}: {why.explanation}")
    print(f"  {why.text}")
    return 0


def run_solve(args: argparse.Namespace) -> int:
    if args.time_limit is not None and not (0 < args.time_limit < math.inf):
        raise UsageError(f"--time-limit {args.time_limit:g}: must be a positive number of seconds")
    if args.proof_dir is not None and not args.certify:
        raise UsageError("--proof-dir keeps a certificate's files: add --certify")
    if args.proof_dir is not None and os.path.exists(args.proof_dir) and not os.path.isdir(args.proof_dir):
        raise UsageError(f"--proof-dir {shorten(args.proof_dir, 60)}: not a directory")
    spec = parse_document(load_document(args.puzzle, args.set))
    options = Options(
        engine=args.engine,
        time_limit=args.time_limit,
        count_shortest=args.count_shortest,
        simple_paths=args.simple_paths,
        cross_check=not args.no_cross_check,
        use_symmetry=not args.no_symmetry,
        certify=args.certify,
        proof_dir=args.proof_dir,
    )
    try:
        with progress(None, "solving") as bar:
            outcome = solve(spec, options, report=lambda text: bar.update(description=text))
    except CertificationError as error:
        return fail(str(error), 1)
    except OSError as error:  # the proof directory could not be written
        if not args.proof_dir:
            raise
        raise UsageError(
            f"--proof-dir {shorten(args.proof_dir, 60)}: cannot write ({error.strerror or error})"
        ) from None
    if args.svg:
        if outcome.plan is None:
            print("mindgames: no plan, so no picture written", file=sys.stderr)
        else:
            picture = storyboard(spec.name, spec.is_river, outcome.banks, outcome.plan)
            try:
                Path(args.svg).write_text(picture, encoding="utf-8")
            except OSError as error:
                raise UsageError(f"{args.svg}: cannot write ({error.strerror or error})") from None
    if args.json:
        emit_json(outcome.as_json())
    else:
        print_outcome(outcome)
    return 0


# -- reading puzzles -----------------------------------------------------------
def load_document(source: str, settings: list[str]) -> dict[str, Any]:
    """The document of a built-in puzzle or a file, with ``--set`` applied."""
    pairs = [_setting(text) for text in settings]
    if source != "-" and not os.path.exists(source) and source in presets.PRESETS:
        return presets.build(source, dict(pairs))
    if source != "-" and not os.path.exists(source):
        raise UsageError(
            f"{shorten(source, 60)}: no such file and no built-in puzzle "
            f"(built-in: {', '.join(presets.PRESETS)})"
        )
    text = read_text(source)
    name = "standard input" if source == "-" else source
    document = document_of_text(text, name)
    for key, value in pairs:
        _set_dotted(document, key, value)
    changed = [text.strip() for text, (key, _) in zip(settings, pairs) if key != "name"]
    if changed and isinstance(document.get("name"), str) and "name" not in dict(pairs):
        # the file's title may state what was just changed ("boat of 2"): say so
        document["name"] = f"{document['name']} (with {', '.join(changed)})"
    return document


def _setting(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise UsageError(f"--set {shorten(text)}: expected KEY=VALUE")
    try:  # a TOML value (number, true/false, "string", [list]); never evaluated as code
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return key, value


def _set_dotted(document: dict, key: str, value: Any) -> None:
    *path, last = key.split(".")
    table = document
    for part in path:
        table = table.setdefault(part, {})
        if not isinstance(table, dict):
            raise PuzzleError(f"--set {shorten(key)}: {part} is not a table")
    table[last] = value


# -- text output -----------------------------------------------------------------
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


SHOWN_BLOCKS = 3  # a longer list of interchangeable blocks shows its first and last ones


def _abbreviated(label: str) -> str:
    """A block type's label, with a long list of blocks cut short (the JSON has them all):
    "(husband1+wife1) ~ (husband2+wife2) ~ ... ~ (husband100+wife100), 100 blocks"."""
    blocks = label.split(" ~ ")
    if len(blocks) <= SHOWN_BLOCKS + 1:
        return label
    return " ~ ".join([*blocks[: SHOWN_BLOCKS - 1], "...", blocks[-1]]) + f", {len(blocks)} blocks"


def _certified(certificate: dict | None) -> str:
    """What the answer's line says of its certificate (nothing without --certify)."""
    if certificate is None:
        return ""
    if not certificate["checked"]:
        return ", not certified"
    return ", certified: no proof needed" if certificate["kind"] == "none" else ", certified: DRAT, checked"


def print_certificate(certificate: dict) -> None:
    """What was proved and checked, or why nothing was; the files kept."""
    if certificate["kind"] == "none":
        print(f"certificate: {certificate['about']}")
    elif certificate["checked"]:
        seconds = sum(certificate["seconds"].values())
        print(
            f"certificate: DRAT proof of {certificate['claim']}, {certificate['lemmas']:,} lemmas, "
            f"checked by mindgames' checker ({seconds:.2f} s)"
        )
    else:
        print(f"certificate: {certificate['reason']}")
    for path in certificate.get("files", []):
        print(f"certificate: kept {path}")


def print_outcome(outcome) -> None:
    spec = outcome.spec
    near, far = spec.sides
    certified = _certified(outcome.certificate)
    if outcome.status == "solved":
        print(f"{outcome.name}: solved in {crossings(outcome.crossings)} (proven shortest{certified})")
    elif outcome.status == "unsolvable":
        print(f"{outcome.name}: unsolvable (proven{certified})")
    else:
        print(f"{outcome.name}: unknown")
    if outcome.plan:
        width = len(str(len(outcome.plan)))
        for step, (move, bank) in enumerate(zip(outcome.plan, outcome.banks[1:]), start=1):
            if spec.is_river:
                direction = "->" if move.to_far else "<-"
                text = f"{_load(move.to_far or move.to_near)} {direction} {far if move.to_far else near}"
            else:
                text = f"down: {_load(move.to_far)}; up: {_load(move.to_near)}"
            print(f"  {step:>{width}}. {text}")
            print(f"  {'':>{width}}  {near}: {_who(bank['near'])} | {far}: {_who(bank['far'])}")
    print(f"proof: {outcome.proof}")
    if outcome.confirmation:
        print(f"model: {outcome.confirmation}")
    check = outcome.cross_check
    if check:
        if check.get("counted_graph_states") is not None:
            print(
                f"cross-check: counted state graph of {_count(check['counted_graph_states'], 'state')}, "
                f"{_found(check['counted_graph_crossings'])}: {_verdict(check)}"
            )
        if check.get("graph_states") is not None:
            plans = _count(check["graph_shortest_plans"], "shortest plan")
            found = _found(check["graph_crossings"])
            found = f"{found}, {plans}" if check["graph_crossings"] is not None else found
            print(
                f"cross-check: explicit state graph of {_count(check['graph_states'], 'state')}, "
                f"{found}: {_verdict(check)}"
            )
        if check.get("note"):
            print(f"cross-check: {check['note']}")
    if outcome.methods:
        print(f"agreeing: {', '.join(outcome.methods)}")
    if outcome.shortest_plans is not None:
        sp = outcome.shortest_plans
        print(f"shortest plans: {sp['count']}{'' if sp['complete'] else ' (incomplete)'}")
    if outcome.simple_paths is not None:
        sp = outcome.simple_paths
        hist = ", ".join(f"{k}: {v}" for k, v in sp["histogram"].items())
        print(f"simple paths: {sp['count']}{'' if sp['complete'] else ' (incomplete)'} ({hist})")
    if outcome.certificate is not None:
        print_certificate(outcome.certificate)
    blocks = [b for b in outcome.abstraction.get("blocks", []) if "~" in b or " x " in b]
    if blocks:
        print(f"counted as interchangeable: {'; '.join(map(_abbreviated, blocks))}")
    print(f"engine: {outcome.engine}, {outcome.seconds:.2f} s")
