"""The examples in the library's docstrings run as written (networkx style).

The modules are imported by their installed names (``mindgames.models.sudoku``, ...),
never as the repository's top-level folders, so an example tests what a user imports."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import mindgames.models
import mindgames.solver

# Modules that need optional packages (Ray) are left out when those are absent.
OPTIONAL = {"ray"}


def library_modules() -> list[str]:
    names = []
    for package in (mindgames.solver, mindgames.models):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", library_modules())
def test_docstring_examples_hold(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:  # an optional dependency, never our own module
        if missing.name and missing.name.split(".")[0] in OPTIONAL:
            pytest.skip(f"{name} needs {missing.name}")
        raise
    failures, _tried = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False, report=True
    )
    assert failures == 0, f"{failures} docstring example(s) of {name} failed"


def test_the_library_has_examples() -> None:
    """At least the package entry points show use (a guard that the walk finds the modules)."""
    finder = doctest.DocTestFinder()
    examples = sum(
        len(t.examples) for name in ("mindgames.solver",) for t in finder.find(importlib.import_module(name))
    )
    assert examples > 0
