"""Puzzle kinds: each module parses a puzzle, states its rules, compiles them into a
:class:`solver.Model`, decodes an engine's answer and verifies it independently.

``sudoku`` (any box shape, X, jigsaw), ``binairo`` (Takuzu/Unruly, with exact grid
counting in ``binairo_count``) and ``crossing`` (river crossings and the pulley).
"""
