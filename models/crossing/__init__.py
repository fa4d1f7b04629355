"""Crossing puzzles (river crossings and the pulley), as declarative puzzle files.

``spec`` reads a puzzle and ``rules`` holds its rule classes, ``presets`` the
built-in ones; ``problem`` is the puzzle as a search problem; ``solve`` finds
the proven shortest plan on a time-expanded model (``compile``) over counted
interchangeable actors (``symmetry``, ``layout``), replays it (``checker``),
cross-checks it with the explicit state graph and, asked to, certifies it with
a checked proof (``certify``).  ``CROSSING`` is the kind of the registry.
"""

from .kind import CROSSING, CrossingKind
from .presets import PRESETS
from .problem import CrossingProblem, Move
from .rules import NotOutnumbered, NotTogether
from .solve import Options, Outcome, solve
from .spec import Spec, parse_document, parse_text

__all__ = [
    "CROSSING",
    "CrossingKind",
    "CrossingProblem",
    "Move",
    "NotOutnumbered",
    "NotTogether",
    "Options",
    "Outcome",
    "PRESETS",
    "Spec",
    "parse_document",
    "parse_text",
    "solve",
]
