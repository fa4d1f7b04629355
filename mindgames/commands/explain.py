"""``mindgames KIND explain|hint FILE`` for every grid kind: :mod:`mindgames.models.explain` on the command line.

explain
    unsolvable: a minimal set of clashing givens; several solutions: the open
    cells and a minimal set of givens that makes it unique (``--fix`` writes
    the fixed puzzles instead, in the kind's format that reads back); unique:
    its grade and the techniques it needs (for kinds with a ladder).
hint
    the next cell that can be deduced, its value, the technique and why (the steps it depends on).
path (Sudoku)
    the whole logical path along Sudoku Explainer's ladder, step by step, and the rating.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mindgames.models.actions import ACTIONS, select
from mindgames.models.errors import TimeLimitReached
from mindgames.models.explain import Explainer
from mindgames.models.kind import GridKind
from mindgames.models.registry import get_kind
from mindgames.solver import engine_names

from ..io import emit_json, seconds_left, stdout_is_terminal
from ..options import add_kind_options, positive_float
from ..render import side_by_side
from . import writing
from .answering import read_puzzles


def register(actions: argparse._SubParsersAction, kind: GridKind, started: float) -> None:
    """The kind's actions that explain (``explain``, ``hint``) beside its other actions."""
    for action in select(kind.actions, explains=True):
        sub = actions.add_parser(action, help=ACTIONS[action].help)
        sub.add_argument("file", metavar="FILE", help="puzzle file, or - for standard input")
        sub.add_argument("--engine", choices=engine_names(), default="sat", help="default: sat")
        sub.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
        sub.add_argument("--time-limit", type=positive_float, metavar="S", help="seconds per puzzle")
        if action == "explain":
            sub.add_argument(
                "--fix",
                action="store_true",
                help="write each puzzle made unique by the givens added (as the kind writes puzzles)",
            )
        add_kind_options(sub, kind.options)
        if action == "explain":
            writing.add_options(sub, kind)
        sub.set_defaults(func=run, action=action, started=started)


def run(args: argparse.Namespace) -> int:
    kind = get_kind(args.kind)
    items = read_puzzles(kind, args)
    explainer = Explainer(kind, engine=args.engine)
    numbered = len(items) > 1
    color = stdout_is_terminal() and not args.json
    for index, item in enumerate(items):
        head = f"puzzle {index + 1}: " if numbered else ""
        reply: dict[str, Any] = {"index": index}
        explanation = None
        if not item.ok:
            reply.update(status="invalid", error=str(item.error))
        else:
            time_limit = seconds_left(args.time_limit, args.started) if index == 0 else args.time_limit
            try:
                if args.action == "hint":
                    reply.update(explainer.hint(item.puzzle, time_limit))
                else:
                    explanation = explainer.explain(item.puzzle, time_limit)
                    reply.update(explanation.to_json())
            except TimeLimitReached as stop:
                reply.update(status="unknown", error=str(stop))
        fixed = getattr(args, "fix", False)
        if fixed and writing.asked(args):
            done = explanation is not None and explanation.explanation != "clash"
            shown = explainer.fixed(item.puzzle, explanation) if done else None
            status = reply.get("text") if done else f"not fixed: {reply.get('error') or reply.get('text')}"
            writing.print_written(kind, args, shown, None, str(status), head)
        elif fixed:
            if explanation is not None and explanation.explanation != "clash":
                print(kind.write(explainer.fixed(item.puzzle, explanation)).rstrip("\n"))
            else:
                print(f"# {head}not fixed: {reply.get('error') or reply.get('text')}")
        elif args.json:
            reply.update(writing.json_fields(kind, args, item.puzzle))
            emit_json(reply)
        elif writing.asked(args):
            status = reply.get("text") or f"{reply['status']}: {reply.get('error')}"
            writing.print_written(kind, args, item.puzzle, None, str(status), head)
        else:
            print_reply(kind, item.puzzle, reply, explanation, head, color)
        sys.stdout.flush()
    return 0


def print_reply(
    kind: GridKind, puzzle: Any, reply: dict[str, Any], explanation: Any, head: str, color: bool
) -> None:
    """The answer in words, then the puzzle (beside two solutions when it has several)."""
    if "error" in reply:
        print(f"{head}{reply['status']}: {reply['error']}")
        return
    print(f"{head}{kind.describe(puzzle)}: {reply['text']}")
    lines = kind.draw(puzzle, None, color)
    if explanation is not None and explanation.explanation == "clash":  # beside it: the clash alone
        givens = kind.given_cells(puzzle)
        clash = kind.with_givens(puzzle, {cell: givens[cell] for cell in explanation.clash})
        lines = side_by_side(lines, kind.draw(clash, None, color))
    if explanation is not None and explanation.explanation == "open":
        for witness in explanation.solutions[:2]:
            lines = side_by_side(lines, kind.draw(puzzle, witness, color))
    print("\n".join(lines))
    print()


def register_path(actions: argparse._SubParsersAction, started: float) -> None:
    """``mindgames sudoku path FILE``: the whole logical path (Sudoku's ladder only)."""
    sub = actions.add_parser(
        "path", help="the whole logical path, step by step, with its Sudoku Explainer rating"
    )
    sub.add_argument("file", metavar="FILE", help="puzzle file, or - for standard input")
    sub.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    sub.add_argument("--time-limit", type=positive_float, metavar="S", help="seconds per puzzle")
    sub.add_argument("--engine", choices=engine_names(), default="sat", help="default: sat")
    sub.set_defaults(func=run_path, action="path", started=started)


def run_path(args: argparse.Namespace) -> int:
    from mindgames.models.sudoku.rating import path_json
    from mindgames.models.sudoku.techniques import Contradiction
    from mindgames.solver.deadline import Deadline

    kind = get_kind(args.kind)
    items = read_puzzles(kind, args)
    numbered = len(items) > 1
    for index, item in enumerate(items):
        head = f"puzzle {index + 1}: " if numbered else ""
        reply: dict[str, Any] = {"index": index}
        if not item.ok:
            reply.update(status="invalid", error=str(item.error))
        else:
            time_limit = seconds_left(args.time_limit, args.started) if index == 0 else args.time_limit
            try:
                reply.update(path_json(item.puzzle, Deadline(time_limit)))
            except TimeLimitReached as stop:
                reply.update(status="unknown", error=str(stop))
            except Contradiction as clash:
                reply.update(status="unsolvable", error=str(clash))
        if args.json:
            emit_json(reply)
        elif "error" in reply:
            print(f"{head}{reply['status']}: {reply['error']}")
        else:
            print_path(head, reply)
        sys.stdout.flush()
    return 0


def print_path(head: str, reply: dict[str, Any]) -> None:
    """Each step on a line as Sudoku Explainer lists them (rating, technique: text), then ER/EP/ED."""
    for step in reply["steps"]:
        print(f"{head}{step['step']:>3}. {step['rating']:.1f}, {step['technique']}: {step['text']}")
    end = "solved" if reply["solved"] else "stuck (the rest needs search)"
    print(f"{head}{end}; ER {reply['rating']:.1f}, EP {reply['rating_ep']:.1f}, ED {reply['rating_ed']:.1f}")
    print()
