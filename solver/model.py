"""The engine-neutral Boolean model.

A puzzle kind describes its rules here, in terms of Boolean variables and
constraints over *literals* (DIMACS convention: variable ``v`` is the literal
``v``, its negation is ``-v``).  The engines (:mod:`mindgames.solver.sat`, :mod:`mindgames.solver.cpsat`,
:mod:`mindgames.solver.backtrack`) take such a model and never see the puzzle behind it.

Constraint kinds:

* clauses: at least one literal is true;
* cardinality: the number of true literals is ``<=``, ``>=`` or ``==`` a bound;
* linear: a weighted sum of literals is ``<=``, ``>=`` or ``==`` a bound;
* choices: exactly one literal of the group is true.  A choice is a finite
  domain variable in one-hot form; the order of choices (and of the literals
  inside one) is the order in which a backtracking search branches.

The *primary* variables define a solution: two assignments that agree on them
are the same solution.  Enumeration and counting range over the primary
variables only, so auxiliary variables never inflate a count.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

Operator = Literal["<=", ">=", "=="]
OPERATORS: tuple[str, ...] = ("<=", ">=", "==")


@dataclass(frozen=True)
class Cardinality:
    """``sum(lit is true for lit in literals) <op> bound``."""

    literals: tuple[int, ...]
    op: Operator
    bound: int


@dataclass(frozen=True)
class Linear:
    """``sum(weight * (lit is true)) <op> bound``, integer weights."""

    literals: tuple[int, ...]
    weights: tuple[int, ...]
    op: Operator
    bound: int


Value = TypeVar("Value", bound=Hashable)


@dataclass(frozen=True)
class Choice(Generic[Value]):
    """A finite-domain variable in one-hot form: it takes exactly one of ``values``.

    ``is_(v)`` is the literal "the variable takes v", to constrain or assume;
    ``value(assignment)`` reads the value an engine chose.  A two-valued
    choice is one Boolean variable (``is_(values[1])`` is it, ``is_(values[0])``
    its negation), so a 0/1 cell costs one variable, not two.

    >>> m = Model()
    >>> digit = m.new_choice(range(1, 4), primary=True)
    >>> digit.is_(2), digit.literals
    (2, (1, 2, 3))
    >>> bit = m.new_choice((0, 1))
    >>> bit.is_(0), bit.is_(1)
    (-4, 4)
    >>> digit.value([-1, 2, -3, 4]), bit.value([-1, 2, -3, 4])
    (2, 1)
    """

    values: tuple[Value, ...]
    literals: tuple[int, ...]

    def is_(self, value: Value) -> int:
        try:
            return self.literals[self.values.index(value)]
        except ValueError:
            raise ValueError(f"{value!r} is not among the values {self.values}") from None

    def value(self, assignment: Assignment) -> Value | None:
        """The value taken under ``assignment`` (None if no literal of it is true)."""
        for value, literal in zip(self.values, self.literals):
            if is_true(assignment, literal):
                return value
        return None


@dataclass
class Model:
    """A Boolean constraint model, built up by a puzzle kind.

    Every engine answers the same model: here two of three variables are true,
    but not both the first two.

    >>> from mindgames.solver import get_engine
    >>> m = Model()
    >>> x, y, z = m.new_vars(3, primary=True)
    >>> m.add_exactly([x, y, z], 2)
    >>> m.add_clause([-x, -y])
    >>> [get_engine(name).prepare(m).count().count for name in ("sat", "cpsat", "backtrack")]
    [2, 2, 2]
    >>> m.stats()
    {'variables': 3, 'primary': 3, 'clauses': 1, 'cardinalities': 1, 'linears': 0, 'choices': 0}
    """

    num_vars: int = 0
    clauses: list[tuple[int, ...]] = field(default_factory=list)
    cardinalities: list[Cardinality] = field(default_factory=list)
    linears: list[Linear] = field(default_factory=list)
    choices: list[tuple[int, ...]] = field(default_factory=list)
    primary: list[int] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)

    # -- variables ---------------------------------------------------------
    def new_var(self, name: str | None = None, primary: bool = False) -> int:
        """Create a variable and return it (a positive literal)."""
        self.num_vars += 1
        if name is not None:
            self.names[self.num_vars] = name
        if primary:
            self.primary.append(self.num_vars)
        return self.num_vars

    def new_vars(self, count: int, primary: bool = False) -> list[int]:
        return [self.new_var(primary=primary) for _ in range(count)]

    def new_choice(
        self, values: Iterable[Value], primary: bool = False, name: str | None = None
    ) -> Choice[Value]:
        """A finite-domain variable over ``values`` (one-hot); a branching point for search.

        Its literals are fresh consecutive variables, one per value, in the
        order of ``values`` (which is the order a backtracking search tries
        them); two values share one variable."""
        distinct = tuple(values)
        if len(distinct) < 2 or len(set(distinct)) != len(distinct):
            raise ValueError(f"a choice needs at least two distinct values, not {distinct!r}")
        if len(distinct) == 2:
            var = self.new_var(name, primary)
            choice = Choice(distinct, (-var, var))
            self.choices.append(choice.literals)  # exactly one of v, -v holds anyway
            return choice
        literals = tuple(
            self.new_var(None if name is None else f"{name}={value}", primary) for value in distinct
        )
        self.add_choice(literals)
        return Choice(distinct, literals)

    def add_all_different(self, choices: Sequence[Choice[Value]]) -> None:
        """No two of ``choices`` take the same value.

        When there are as many choices as values (a Sudoku unit) every value is
        taken exactly once, and saying so helps propagation ("5 must go
        somewhere in this row"), so that is what is added."""
        values = dict.fromkeys(v for choice in choices for v in choice.values)
        every_value_once = len(values) == len(choices) and all(
            len(choice.values) == len(values) for choice in choices
        )
        for value in values:
            literals = [choice.is_(value) for choice in choices if value in choice.values]
            if every_value_once:
                self.add_exactly(literals, 1)
            else:
                self.add_at_most(literals, 1)

    # -- constraints -------------------------------------------------------
    def add_clause(self, literals: Iterable[int]) -> None:
        """At least one of ``literals`` is true (empty: the model is unsatisfiable)."""
        self.clauses.append(self._checked(literals))

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        """Many clauses at once, each as :meth:`add_clause`; their literals are checked
        together (for models of tens of thousands of clauses, one check each is slow)."""
        new = [tuple(clause) for clause in clauses]
        variables = {abs(lit) for clause in new for lit in clause}
        if 0 in variables or max(variables, default=0) > self.num_vars:
            bad = next(lit for clause in new for lit in clause if lit == 0 or abs(lit) > self.num_vars)
            raise ValueError(f"literal {bad} names no variable of this model")
        self.clauses.extend(new)

    def add_implication(self, premise: int, conclusion: int) -> None:
        self.add_clause((-premise, conclusion))

    def add_cardinality(self, literals: Iterable[int], op: Operator, bound: int) -> None:
        if op not in OPERATORS:
            raise ValueError(f"unknown operator {op!r}")
        self.cardinalities.append(Cardinality(self._checked(literals), op, int(bound)))

    def add_exactly(self, literals: Iterable[int], k: int) -> None:
        self.add_cardinality(literals, "==", k)

    def add_at_most(self, literals: Iterable[int], k: int) -> None:
        self.add_cardinality(literals, "<=", k)

    def add_at_least(self, literals: Iterable[int], k: int) -> None:
        self.add_cardinality(literals, ">=", k)

    def add_linear(self, literals: Sequence[int], weights: Sequence[int], op: Operator, bound: int) -> None:
        if op not in OPERATORS:
            raise ValueError(f"unknown operator {op!r}")
        if len(literals) != len(weights):
            raise ValueError("literals and weights differ in length")
        self.linears.append(Linear(self._checked(literals), tuple(int(w) for w in weights), op, int(bound)))

    def add_choice(self, literals: Iterable[int]) -> None:
        """Exactly one of ``literals`` is true; also a branching point for search."""
        group = self._checked(literals)
        self.choices.append(group)
        self.add_exactly(group, 1)

    def add_and(self, output: int, literals: Sequence[int]) -> None:
        """Define ``output <-> AND(literals)``, both ways, so counts stay exact."""
        for lit in literals:
            self.add_clause((-output, lit))
        self.add_clause([output, *(-lit for lit in literals)])

    def add_or(self, output: int, literals: Sequence[int]) -> None:
        """Define ``output <-> OR(literals)``, both ways."""
        for lit in literals:
            self.add_clause((output, -lit))
        self.add_clause([-output, *literals])

    def add_xor(self, output: int, a: int, b: int) -> None:
        """Define ``output <-> (a XOR b)``, both ways."""
        self.add_clause((-output, a, b))
        self.add_clause((-output, -a, -b))
        self.add_clause((output, -a, b))
        self.add_clause((output, a, -b))

    # -- counts in order encoding (unary) ------------------------------------
    def new_count(self, size: int, primary: bool = False) -> Units:
        """A count in ``0..size``, order encoded: ``size`` literals ``u1 >= u2 >= ...``
        whose sum is the count, so "count >= k" is the single literal ``units[k-1]``."""
        units = self.new_vars(size, primary=primary)
        for lower, upper in zip(units, units[1:]):
            self.add_implication(upper, lower)
        return units

    def unary_sum(self, counts: Sequence[Units], cap: int) -> Units:
        """The sum of order-encoded counts, order encoded (a totalizer: pairwise
        merges, each output unit defined both ways, so propagation is arc
        consistent, unlike a generic pseudo-Boolean equation).  The sum may not
        exceed ``cap`` (the caller knows it cannot), which keeps every merge small.

        >>> m = Model()
        >>> a, b = m.new_count(2), m.new_count(1)
        >>> total = m.unary_sum([a, b], cap=3)
        >>> m.add_clause([a[1]]); m.add_clause([-b[0]])   # a = 2, b = 0
        >>> from mindgames.solver import get_engine
        >>> count_value(get_engine("sat").prepare(m).solve(()).assignment, total)
        2
        """
        counts = [c for c in counts if c]
        if not counts:
            return []
        while len(counts) > 1:
            merged = [self._merge(a, b, cap) for a, b in zip(counts[::2], counts[1::2])]
            counts = merged + ([counts[-1]] if len(counts) % 2 else [])
        return counts[0]

    def _merge(self, a: Units, b: Units, cap: int) -> Units:
        out = self.new_vars(min(len(a) + len(b), cap))
        for i in range(len(a) + 1):
            for j in range(len(b) + 1):
                # a >= i and b >= j  ->  out >= i + j  (past the cap: impossible; the
                # sums just past it suffice, the order encoding implies the rest)
                if i + j:
                    head = [*([-a[i - 1]] if i else []), *([-b[j - 1]] if j else [])]
                    if i + j <= len(out):
                        self.add_clause([*head, out[i + j - 1]])
                    elif i + j == len(out) + 1 or not i or not j:
                        self.add_clause(head)
                # a <= i and b <= j  ->  out <= i + j
                if i + j < len(out):
                    self.add_clause(
                        [*([a[i]] if i < len(a) else []), *([b[j]] if j < len(b) else []), -out[i + j]]
                    )
        return out

    def add_equal_counts(self, left: Units, right: Units) -> None:
        """Two order-encoded counts are equal (the longer one's extra units false)."""
        for j in range(max(len(left), len(right))):
            if j < len(left) and j < len(right):
                self.add_clause([-left[j], right[j]])
                self.add_clause([left[j], -right[j]])
            else:
                self.add_clause([-(left[j] if j < len(left) else right[j])])

    def add_at_most_count(self, count: Units, bound: Units) -> None:
        """``count <= bound``, both order encoded."""
        for j, unit in enumerate(count):
            self.add_clause([-unit, bound[j]] if j < len(bound) else [-unit])

    # -- helpers -----------------------------------------------------------
    def _checked(self, literals: Iterable[int]) -> tuple[int, ...]:
        lits = tuple(int(lit) for lit in literals)
        for lit in lits:
            if lit == 0 or abs(lit) > self.num_vars:
                raise ValueError(f"literal {lit} names no variable of this model")
        return lits

    def stats(self) -> dict[str, int]:
        return {
            "variables": self.num_vars,
            "primary": len(self.primary),
            "clauses": len(self.clauses),
            "cardinalities": len(self.cardinalities),
            "linears": len(self.linears),
            "choices": len(self.choices),
        }


Assignment = Sequence[int]
"""A solution as a DIMACS model: index ``v - 1`` holds ``v`` (true) or ``-v`` (false).

Engines fill every primary variable; others may be 0 (not reported)."""

Units = list[int]
"""A count in order encoding (:meth:`Model.new_count`): its value is how many units are true."""


def is_true(assignment: Assignment, literal: int) -> bool:
    """The value of ``literal`` under ``assignment``."""
    value = assignment[abs(literal) - 1]
    return value > 0 if literal > 0 else value < 0


def count_value(assignment: Assignment, units: Units) -> int:
    """The value of an order-encoded count under ``assignment``."""
    return sum(1 for unit in units if is_true(assignment, unit))


def projection(model: Model, assignment: Assignment) -> tuple[int, ...]:
    """The primary part of an assignment: what makes one solution differ from another."""
    return tuple(assignment[v - 1] for v in model.primary)
