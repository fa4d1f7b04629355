"""The documentation and ``mindgames --help`` say the same things: every command the pages'
usage synopses name exists with every option they give it, every command and action of the
command line has a page that shows it, and every option of an action is documented."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from mindgames.cli import build_parser, command_names

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TEXT = "\n".join(page.read_text(encoding="utf-8") for page in PAGES)
SYNOPSIS = re.compile(r"^```text\n(.*?)^```", re.MULTILINE | re.DOTALL)
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
# options every command has, documented once (docs/getting-started.md) rather than per action
EVERYWHERE = {"--help", "--memory-limit"}


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its subcommands only here
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def options(parser: argparse.ArgumentParser) -> set[str]:
    return {flag for action in parser._actions for flag in action.option_strings if flag.startswith("--")}


def actions() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """(command,) or (command, action) -> its parser, for every command line there is."""
    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}
    for name in command_names():
        command = subcommands(build_parser([name]))[name]
        inner = subcommands(command)
        if not inner:
            found[(name,)] = command
        for action, parser in inner.items():
            found[(name, action)] = parser
    return found


ACTIONS = actions()


def synopses() -> list[tuple[tuple[str, ...], str]]:
    """Each usage line of the pages' ```text blocks: (command words, the line)."""
    found = []
    for block in SYNOPSIS.findall(TEXT):
        for line in block.splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] == "mindgames":
                key = tuple(words[1:3]) if tuple(words[1:3]) in ACTIONS else (words[1],)
                found.append((key, line))
    return found


@pytest.mark.parametrize(
    "key, line", synopses(), ids=lambda value: " ".join(value) if isinstance(value, tuple) else ""
)
def test_a_usage_line_names_a_command_and_its_options(key: tuple[str, ...], line: str) -> None:
    assert key in ACTIONS, f"no command `mindgames {' '.join(key)}`: {line}"
    named = set(OPTION.findall(line.split("#", 1)[0]))
    assert named <= options(ACTIONS[key]), f"{line}: not options of it: {named - options(ACTIONS[key])}"


@pytest.mark.parametrize("key", sorted(ACTIONS), ids=" ".join)
def test_every_command_is_shown_and_every_option_documented(key: tuple[str, ...]) -> None:
    assert f"mindgames {' '.join(key)}" in TEXT or (len(key) == 2 and key[1] in ("solve", "check", "count"))
    missing = options(ACTIONS[key]) - EVERYWHERE - set(OPTION.findall(TEXT))
    assert not missing, f"mindgames {' '.join(key)}: options no page mentions: {sorted(missing)}"
