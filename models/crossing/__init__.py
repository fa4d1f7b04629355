"""Crossing puzzles (river crossings and the pulley), as declarative puzzle files.

``spec`` reads a puzzle, ``presets`` holds the built-in ones, ``solve`` finds the
proven shortest plan on a time-expanded model (``compile``) over counted
interchangeable actors (``symmetry``, ``layout``), replays it (``checker``)
and cross-checks it with the explicit state graph (``states``).
"""

from .presets import PRESETS
from .solve import Options, Outcome, solve
from .spec import Spec, parse_document, parse_text

__all__ = ["Options", "Outcome", "PRESETS", "Spec", "parse_document", "parse_text", "solve"]
