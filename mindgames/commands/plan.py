"""``mindgames KIND list|solve|explain|export`` for every plan kind of :mod:`mindgames.models.registry`.

Nothing here names a kind: the subcommands, the kind's options
(:class:`mindgames.models.kind.Option`: ``--engine``, ``--count-shortest``, a switch on
by default as ``--no-cross-check``, ...), reading, the text output and the JSON all
come from the :class:`~mindgames.models.kind.PlanKind` object.  A puzzle is a built-in
name (see ``list``) or a TOML/JSON file (``-`` reads standard input); ``--set key=value``
sets a built-in puzzle's parameter, or, for a file, a dotted key of the document
(``--set boat.capacity=3``).  What one kind does beyond this lives in its *extension*,
the module ``mindgames.commands.KIND`` when it exists, whose
``extend(parser, actions, parsers, kind)`` adds to the command.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from mindgames.models.errors import PuzzleError, shorten
from mindgames.models.kind import Option, PlanKind
from mindgames.solver.proof import CertificationError

from ..io import UsageError, emit_json, fail, progress, read_text
from ..options import positive_float

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

#: what each action of a plan kind does, in the words of its help
PLAN_ACTIONS: dict[str, str] = {
    "list": "the built-in puzzles and their parameters",
    "solve": "the proven shortest plan, or a proof there is none",
    "explain": "why there is no plan, or no shorter one: a minimal set of the rules",
    "export": "print a puzzle as a TOML puzzle file",
}


def register(subparsers: argparse._SubParsersAction, kind: PlanKind) -> None:
    """``mindgames KIND ...``: list, and each action of the kind, then what its extension adds."""
    parser = subparsers.add_parser(kind.name, help=kind.summary, description=kind.summary)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    parsers: dict[str, argparse.ArgumentParser] = {}

    show = parsers["list"] = actions.add_parser("list", help=PLAN_ACTIONS["list"])
    show.add_argument("--json", action="store_true", help="one JSON object")
    show.set_defaults(func=run_list, plan_kind=kind)

    if "solve" in kind.actions:
        solver = parsers["solve"] = actions.add_parser("solve", help=PLAN_ACTIONS["solve"])
        _puzzle_arguments(solver)
        add_plan_options(solver, kind.options)
        solver.add_argument("--json", action="store_true", help="the result as one JSON object")
        solver.add_argument(
            "--time-limit",
            type=float,
            metavar="SECONDS",
            help="give up (status unknown, with what was proved) after this long; holds for the whole command",
        )
        solver.add_argument("--svg", metavar="FILE", help="write a storyboard picture of the plan")
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
        solver.set_defaults(func=run_solve, plan_kind=kind)

    if "explain" in kind.actions:
        why = parsers["explain"] = actions.add_parser("explain", help=PLAN_ACTIONS["explain"])
        _puzzle_arguments(why)
        why.add_argument("--json", action="store_true", help="the explanation as one JSON object")
        why.add_argument(
            "--time-limit",
            type=positive_float,
            metavar="SECONDS",
            help="give up (explanation unknown) after this long",
        )
        why.set_defaults(func=run_explain, plan_kind=kind)

    if "export" in kind.actions:
        export = parsers["export"] = actions.add_parser("export", help=PLAN_ACTIONS["export"])
        _puzzle_arguments(export)
        export.add_argument("--json", action="store_true", help="JSON instead of TOML")
        export.set_defaults(func=run_export, plan_kind=kind)

    more = extension(kind.name)
    if more is not None:
        more.extend(parser, actions, parsers, kind)


def extension(kind_name: str) -> ModuleType | None:
    """The kind's extension module (``mindgames.commands.KIND``), if it has one."""
    name = f"{__package__}.{kind_name}"
    return importlib.import_module(name) if importlib.util.find_spec(name) is not None else None


def add_plan_options(parser: argparse.ArgumentParser, options: tuple[Option, ...]) -> None:
    """Each of the kind's options as ``--name`` with its default; a switch on by default as
    ``--no-name`` (its help: "skip " and the option's help)."""
    for option in options:
        flag = option.name.replace("_", "-")
        if option.flag and option.default is True:
            parser.add_argument(
                f"--no-{flag}", dest=option.name, action="store_false", help=f"skip {option.help}"
            )
        elif option.flag:
            parser.add_argument(f"--{flag}", dest=option.name, action="store_true", help=option.help)
        else:
            parser.add_argument(
                f"--{flag}",
                dest=option.name,
                type=_argument_type(option),
                choices=option.choices,
                default=option.default,
                metavar=None if option.choices else option.name.upper(),
                help=option.help,
            )


def _argument_type(option: Option) -> Any:
    """``option.value`` with its PuzzleError as argparse's own kind of error (exit 2, usage)."""

    def value(text: str) -> Any:
        try:
            return option.value(text)
        except PuzzleError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    value.__name__ = option.name  # argparse names the type in "invalid NAME value"
    return value


def _puzzle_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE", help="a built-in name, a .toml/.json file, or -")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="set a parameter (repeatable)"
    )


# -- actions -----------------------------------------------------------------
def run_list(args: argparse.Namespace) -> int:
    kind: PlanKind = args.plan_kind
    names = kind.preset_names()
    table = {name: kind.preset_parameters(name) for name in names}
    bounds = {name: {k: list(v) for k, v in kind.preset_bounds(name).items()} for name in names}
    descriptions = {name: kind.preset_description(name) for name in names}
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
    kind: PlanKind = args.plan_kind
    document = load_document(kind, args.puzzle, args.set)
    kind.parse_document(document)  # only valid puzzles are exported
    if args.json:
        print(json.dumps(document, indent=2))
    else:
        sys.stdout.write(kind.write(document))
    return 0


def run_explain(args: argparse.Namespace) -> int:
    kind: PlanKind = args.plan_kind
    puzzle = kind.parse_document(load_document(kind, args.puzzle, args.set))
    title = kind.describe(puzzle)
    with progress(None, f"{kind.name} explain: {title}"):
        why = kind.explain(puzzle, args.time_limit)
    if args.json:
        emit_json(why.to_json())
        return 0
    print(f"{title}: {why.explanation}")
    print(f"  {why.text}")
    return 0


def run_solve(args: argparse.Namespace) -> int:
    kind: PlanKind = args.plan_kind
    if args.time_limit is not None and not (0 < args.time_limit < math.inf):
        raise UsageError(f"--time-limit {args.time_limit:g}: must be a positive number of seconds")
    if args.proof_dir is not None and not args.certify:
        raise UsageError("--proof-dir keeps a certificate's files: add --certify")
    if args.proof_dir is not None and os.path.exists(args.proof_dir) and not os.path.isdir(args.proof_dir):
        raise UsageError(f"--proof-dir {shorten(args.proof_dir, 60)}: not a directory")
    puzzle = kind.parse_document(load_document(kind, args.puzzle, args.set))
    settings = {option.name: getattr(args, option.name) for option in kind.options}
    try:
        with progress(None, "solving") as bar:
            answer = kind.solve(
                puzzle,
                settings,
                args.time_limit,
                certify=args.certify,
                proof_dir=args.proof_dir,
                report=lambda text: bar.update(description=text),
            )
    except CertificationError as error:
        return fail(str(error), 1)
    except OSError as error:  # the proof directory could not be written
        if not args.proof_dir:
            raise
        raise UsageError(
            f"--proof-dir {shorten(args.proof_dir, 60)}: cannot write ({error.strerror or error})"
        ) from None
    if args.svg:
        picture = kind.picture(puzzle, answer)
        if picture is None:
            print("mindgames: no plan, so no picture written", file=sys.stderr)
        else:
            try:
                Path(args.svg).write_text(picture, encoding="utf-8")
            except OSError as error:
                raise UsageError(f"{args.svg}: cannot write ({error.strerror or error})") from None
    if args.json:
        emit_json(answer.as_json())
    else:
        for line in kind.answer_lines(answer):
            print(line)
    return 0


# -- reading puzzles -----------------------------------------------------------
def load_document(kind: PlanKind, source: str, settings: list[str]) -> dict[str, Any]:
    """The document of a built-in puzzle or a file, with ``--set`` applied."""
    pairs = [_setting(text) for text in settings]
    names = kind.preset_names()
    if source != "-" and not os.path.exists(source) and source in names:
        return kind.preset_document(source, dict(pairs))
    if source != "-" and not os.path.exists(source):
        raise UsageError(
            f"{shorten(source, 60)}: no such file and no built-in puzzle (built-in: {', '.join(names)})"
        )
    text = read_text(source)
    name = "standard input" if source == "-" else source
    document = kind.load_document(text, name)
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
