"""Solving along Sudoku Explainer's ladder: the grade, the hint and what a hint depends on.

The techniques are :mod:`.techniques`; the ladder that orders them and the rating are
:mod:`.rating`; this module sits above both and answers the questions the interfaces ask.
"""

from __future__ import annotations

from mindgames.solver.deadline import Deadline

from .puzzle import Sudoku
from .rating import difficulty_of, next_rated_step, rate
from .techniques import Board, Cell, Solving, Step, grade_of
from .variants import refuse_constraints


def solve_by_ladder(puzzle: Sudoku, deadline: Deadline = Deadline(None)) -> Solving:
    """Solve along Sudoku Explainer's ladder (:mod:`mindgames.models.sudoku.rating`) until
    solved or stuck; the rating is its ER, the grade the range of :data:`GRADE_TOPS` holding it.
    Raises Contradiction if the givens clash, TimeLimitReached when ``deadline`` passes first."""
    refuse_constraints(puzzle.constraints, "the deduction ladder (grade)")
    if _last_solved and _last_solved[0] == puzzle:  # explain asks for the grade, then the rating
        return _last_solved[1]
    rated = rate(puzzle, deadline)
    solving = Solving(rated.steps, rated.board, grade_of(rated.er), rated.er, rated.ep, rated.ed)
    _last_solved[:] = [puzzle, solving]
    return solving


#: the last puzzle solved along the ladder and its Solving (one, for grade then rating)
_last_solved: list = []


def grade(puzzle: Sudoku, deadline: Deadline = Deadline(None)) -> tuple[int, str, list[str]]:
    """(grade, its name, the techniques used) of a puzzle with one solution."""
    solving = solve_by_ladder(puzzle, deadline=deadline)
    return solving.grade, solving.grade_name, solving.techniques


def depends_on(start: Board, steps: list[Step], last: Step) -> list[Step]:
    """The steps among ``steps`` (applied in order from ``start``) that ``last`` depends on:
    first those that removed a candidate it requires, those their own steps require, and so
    on; then each of them left out where the rest still holds (two steps removing the same
    candidate: one is enough).  Removing any step returned takes away a candidate absence
    that a later returned step (or ``last``) requires.  A step without ``requires`` depends on
    every step before it."""
    removed_by: dict[tuple[Cell, int], int] = {}
    for index, step in enumerate(steps):
        for gone in step.eliminate:
            removed_by.setdefault(gone, index)

    def wanted(step: Step, before: int) -> set[int]:
        if step.requires is None:
            return set(range(before))
        return {i for gone in step.requires if (i := removed_by.get(gone, before)) < before}

    kept: set[int] = set()
    todo = wanted(last, len(steps))
    while todo:
        index = todo.pop()
        if index not in kept:
            kept.add(index)
            todo |= wanted(steps[index], index) - kept
    chosen = [steps[index] for index in sorted(kept)]
    if any(step.requires is None and step.recheck is None for step in [*chosen, last]):
        return chosen
    for step in list(chosen):  # fewer steps never make a step hold that did not: one pass is minimal
        fewer = [other for other in chosen if other is not step]
        if holds(start, fewer, last):
            chosen = fewer
    return chosen


def holds(start: Board, steps: list[Step], last: Step) -> bool:
    """Whether each of ``steps`` and then ``last``, applied in order from ``start``, finds the
    candidates it requires gone (each step's pattern is there when it is taken)."""
    board = start.copy()
    for step in [*steps, last]:
        if step.requires is None:
            assert step.recheck is not None
            if not step.recheck(board):
                return False
        elif any(value in board.candidates.get(cell, ()) for cell, value in step.requires):
            return False
        if step is not last:
            board.apply(step)
    return True


def hint(puzzle: Sudoku, deadline: Deadline = Deadline(None)) -> tuple[Step | None, list[Step]]:
    """The next value the ladder places, and the eliminations before it that it depends on
    (pruned by :func:`depends_on`: the steps taken but not needed are left out).

    (None, steps) when the ladder is stuck before placing anything, or nothing is open."""
    refuse_constraints(puzzle.constraints, "the deduction ladder (hint)")
    board = Board.of(puzzle)
    board.deadline = deadline
    start = board.copy()
    before: list[Step] = []
    while not board.solved:
        found = next_rated_step(board)
        if found is None:
            return None, before
        _difficulty, step = found
        if step.place is not None:
            return step, depends_on(start, before, step)
        before.append(step)
        board.apply(step)
    return None, before


def step_json(step: Step) -> dict:
    """One step as the interfaces show it (cells 1-based)."""
    reply: dict = {"technique": step.technique, "text": step.text}
    reply["because"] = [[r + 1, c + 1] for r, c in step.because]
    if step.place is not None:
        (r, c), value = step.place
        reply["place"] = {"row": r + 1, "col": c + 1, "value": value}
    reply["eliminate"] = [{"row": r + 1, "col": c + 1, "value": value} for (r, c), value in step.eliminate]
    return reply


def hint_json(puzzle: Sudoku, deadline: Deadline = Deadline(None)) -> dict | None:
    """The next step as the interfaces show it (cells 1-based): the value the ladder places
    next; ``steps`` the eliminations it depends on and itself, ``eliminate`` every candidate
    those steps remove (each cell named); None when the ladder is stuck."""
    step, before = hint(puzzle, deadline)
    if step is None:
        return None
    assert step.place is not None, "hint returns only a step that places a value"
    (r, c), value = step.place
    text = step.text
    if before:
        text = "; then ".join([*(s.text for s in before), text])
    chain = [*before, step]
    hardest = max(chain, key=difficulty_of)
    because = sorted({cell for s in chain for cell in s.because})
    return {
        "row": r + 1,
        "col": c + 1,
        "value": value,
        "technique": hardest.technique,
        "rating": max(difficulty_of(s) for s in chain),
        "because": [[br + 1, bc + 1] for br, bc in because],
        "text": text,
        "eliminate": [
            {"row": er + 1, "col": ec + 1, "value": v} for s in chain for (er, ec), v in s.eliminate
        ],
        "steps": [step_json(s) for s in chain],
    }
