"""mkdocs hook: the library's source as installed, for mkdocstrings to read, and its docstrings'
doctest examples shown as code.

The repository keeps the library in ``models/`` and ``solver/``; installed, they are
``mindgames.models`` and ``mindgames.solver`` (pyproject's package-dir).  mkdocstrings reads
source statically (griffe) and follows no such mapping, so this hook lays out the installed
package as a tree of symbolic links, ``site-api/mindgames/`` (``mindgames/``'s entries plus
``models`` and ``solver``), which mkdocs.yml names as the handler's ``paths``.

The docstrings' examples are doctests (``>>>`` lines and their output, tested by
tests/test_doctests.py), written without Markdown fences: :class:`DoctestFences` fences them, so
an output such as ``[2, 2, 2]`` is code, not a Markdown link.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]
TREE = ROOT / "site-api"
MAPPED = {"models": ROOT / "models", "solver": ROOT / "solver"}  # pyproject's package-dir


def lay_out() -> None:
    package = TREE / "mindgames"
    package.mkdir(parents=True, exist_ok=True)
    wanted = {entry.name: entry for entry in (ROOT / "mindgames").iterdir() if entry.name != "__pycache__"}
    wanted.update(MAPPED)
    for link in package.iterdir():
        if link.is_symlink() and (link.name not in wanted or link.resolve() != wanted[link.name]):
            link.unlink()
    for name, target in wanted.items():
        link = package / name
        if not link.is_symlink():
            link.symlink_to(target)


FENCE = re.compile(r"^\s*(```|~~~)")


class DoctestFences(Preprocessor):
    """A run of doctest lines (``>>>``, ``...`` and the output up to a blank line), outside any
    fence, becomes a ``pycon`` code block."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fenced = False
        in_doctest = False
        for line in lines:
            if not in_doctest and FENCE.match(line):
                fenced = not fenced
            elif not fenced and not in_doctest and line.lstrip().startswith(">>>"):
                out += ["", "```pycon"]
                in_doctest = True
            elif in_doctest and not line.strip():
                out += ["```", ""]
                in_doctest = False
            out.append(line.strip() if in_doctest else line)
        if in_doctest:
            out.append("```")
        return out


class DoctestExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        md.preprocessors.register(DoctestFences(md), "doctest_fences", 40)  # before the fences' own


@event_priority(100)  # before mkdocstrings reads the Markdown extensions
def on_config(config: Any) -> Any:
    lay_out()
    config.markdown_extensions.append(DoctestExtension())
    return config


lay_out()  # when mkdocs loads this hook: before any page asks for the reference
