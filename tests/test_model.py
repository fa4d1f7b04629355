"""The engine-neutral model's finite-domain pieces: choices and all-different."""

from __future__ import annotations

from math import perm

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.solver import ENGINE_NAMES, Model, get_engine


@settings(max_examples=12, deadline=None)
@given(values=st.integers(2, 4), variables=st.integers(1, 4), engine=st.sampled_from(ENGINE_NAMES))
def test_all_different_choices_count_the_arrangements(values, variables, engine):
    variables = min(variables, values)
    m = Model()
    choices = [m.new_choice(range(values), primary=True) for _ in range(variables)]
    m.add_all_different(choices)
    assert get_engine(engine).prepare(m).count().count == perm(values, variables)


def test_a_choice_decodes_to_the_value_the_engine_chose():
    m = Model()
    cell = m.new_choice("abc", primary=True)
    answer = get_engine("sat").prepare(m).solve([cell.is_("c")])
    assert answer.status == "sat" and cell.value(answer.assignment) == "c"


def test_a_two_valued_choice_is_one_variable_tried_in_order():
    m = Model()
    bit = m.new_choice((0, 1), primary=True)
    assert m.num_vars == 1 and m.choices == [(-1, 1)]
    first = get_engine("backtrack").prepare(m).enumerate(keep=2).solutions
    assert [bit.value(a) for a in first] == [0, 1]


@pytest.mark.parametrize("values", [(), (1,), (1, 1)])
def test_a_choice_needs_two_distinct_values(values):
    with pytest.raises(ValueError):
        Model().new_choice(values)


def test_asking_for_a_value_outside_the_domain_names_it():
    with pytest.raises(ValueError, match="7"):
        Model().new_choice((1, 2, 3)).is_(7)


def test_a_limit_of_zero_searches_nothing():
    m = Model()
    m.new_vars(3, primary=True)
    for engine in ENGINE_NAMES:
        found = get_engine(engine).prepare(m).enumerate(limit=0)
        assert (found.count, found.complete) == (0, False)


def test_clauses_added_at_once_are_checked_like_one_by_one():
    model = Model()
    a, b = model.new_vars(2)
    model.add_clauses([(a, -b), (-a, b)])
    assert model.clauses == [(a, -b), (-a, b)]
    for bad in (0, 3, -3):
        with pytest.raises(ValueError, match=f"literal {bad} names no variable"):
            model.add_clauses([(a,), (b, bad)])
    assert model.clauses == [(a, -b), (-a, b)]  # nothing of a rejected batch is kept
