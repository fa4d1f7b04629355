"""The command line as a whole: options every command shares, and how failures end."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from mindgames import cli
from mindgames.limits import MIN_MEMORY_MB, default_memory_limit_mb


def leaf_parsers(parser: argparse.ArgumentParser, path=()):
    subcommands = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subcommands:
        yield path, parser
        return
    for action in subcommands:
        for name, child in action.choices.items():
            yield from leaf_parsers(child, path + (name,))


def test_every_command_takes_a_memory_limit_with_a_bounded_default():
    leaves = [
        (path, parser) for path, parser in leaf_parsers(cli.build_parser()) if path != ("serve",)
    ]  # the server caps each of its processes itself
    assert len(leaves) >= 10
    for path, parser in leaves:
        options = {o for a in parser._actions for o in a.option_strings}
        assert "--memory-limit" in options, path
        assert parser.get_default("memory_limit") == default_memory_limit_mb()
    assert MIN_MEMORY_MB <= default_memory_limit_mb() <= 8192


def test_a_memory_limit_too_small_to_start_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["sudoku", "solve", "x.txt", "--memory-limit", "10"])
    assert stop.value.code == 2
    assert "at least 256 MB" in capsys.readouterr().err


def test_running_out_of_memory_is_one_line_and_exit_code_3(monkeypatch, capsys):
    from mindgames.commands import grid

    def greedy(args):
        raise MemoryError

    monkeypatch.setattr(grid, "run", greedy)
    code = cli.main(["sudoku", "solve", "x.txt", "--memory-limit", "0"])
    err = capsys.readouterr().err
    assert code == 3
    assert err.count("\n") == 1 and "out of memory" in err


def test_the_memory_limit_caps_the_process_and_the_command_says_so():
    # A real process: cap it at 300 MB, then ask for a gigabyte.
    script = (
        "import sys\n"
        "from mindgames import cli\n"
        "from mindgames.commands import grid\n"
        "grid.run = lambda args: len(bytearray(2**30))\n"
        "sys.exit(cli.main(['sudoku', 'solve', 'x.txt', '--memory-limit', '300'], cap_memory=True))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stderr
    assert "memory limit of 300 MB" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_module_is_named_without_a_traceback(monkeypatch, capsys):
    from mindgames.commands import grid

    def broken(args):
        raise ModuleNotFoundError("No module named 'pysat'", name="pysat")

    monkeypatch.setattr(grid, "run", broken)
    code = cli.main(["sudoku", "solve", "x.txt", "--memory-limit", "0"])
    assert code == 2
    assert "'pysat'" in capsys.readouterr().err


def test_what_serve_imports_is_a_default_dependency():
    """`pip install . && mindgames serve` must work: no import of the service is an extra."""
    import ast
    import re
    from pathlib import Path

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    declared = {re.split(r"[<>=!;\[ ]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}
    imported = set()
    for source in [*(root / "mindgames" / "service").glob("*.py"), root / "mindgames/commands/serve.py"]:
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = imported - set(sys.stdlib_module_names) - {"models", "solver", "mindgames"}
    # starlette comes with fastapi, pydantic_core (its documented way to write a custom type)
    # with pydantic; every other import must be declared by name.
    assert third_party - {"starlette", "pydantic_core"} <= declared, third_party - declared
