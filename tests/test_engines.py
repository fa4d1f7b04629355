"""The engine-neutral model and the three engines: same questions, same answers."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mindgames.solver import (
    ENGINE_NAMES,
    Capability,
    Model,
    NotSupported,
    engine_info,
    engines_with,
    get_engine,
    is_true,
)

ENGINES = list(ENGINE_NAMES)


def brute_force_count(model: Model) -> int:
    """Count assignments of the primary variables that extend to a model (tiny models only)."""
    solutions = set()
    n = model.num_vars
    for bits in itertools.product((False, True), repeat=n):
        value = lambda lit: bits[abs(lit) - 1] == (lit > 0)  # noqa: E731
        ok = all(any(value(l) for l in c) for c in model.clauses)
        for card in model.cardinalities:
            total = sum(value(l) for l in card.literals)
            ok &= {"<=": total <= card.bound, ">=": total >= card.bound, "==": total == card.bound}[card.op]
        for lin in model.linears:
            total = sum(w for l, w in zip(lin.literals, lin.weights) if value(l))
            ok &= {"<=": total <= lin.bound, ">=": total >= lin.bound, "==": total == lin.bound}[lin.op]
        if ok:
            solutions.add(tuple(bits[v - 1] for v in model.primary))
    return len(solutions)


literal = st.integers(1, 6).flatmap(lambda v: st.sampled_from([v, -v]))
op = st.sampled_from(["<=", ">=", "=="])


@st.composite
def small_models(draw) -> Model:
    model = Model()
    model.new_vars(6)
    model.primary.extend(draw(st.lists(st.integers(1, 6), min_size=1, max_size=6, unique=True)))
    for clause in draw(st.lists(st.lists(literal, min_size=1, max_size=3), max_size=5)):
        model.add_clause(clause)
    for lits, o, k in draw(
        st.lists(
            st.tuples(st.lists(literal, min_size=1, max_size=5, unique_by=abs), op, st.integers(0, 4)),
            max_size=3,
        )
    ):
        model.add_cardinality(lits, o, k)
    for lits, o, k in draw(
        st.lists(
            st.tuples(st.lists(literal, min_size=1, max_size=4, unique_by=abs), op, st.integers(-3, 9)),
            max_size=2,
        )
    ):
        weights = draw(st.lists(st.integers(-4, 5), min_size=len(lits), max_size=len(lits)))
        model.add_linear(lits, weights, o, k)
    return model


@settings(max_examples=60, deadline=None)
@given(small_models())
def test_every_engine_counts_exactly_what_brute_force_counts(model):
    expected = brute_force_count(model)
    for name in ENGINES:
        found = get_engine(name).prepare(model).count()
        assert found.complete
        assert found.count == expected, name


@settings(max_examples=40, deadline=None)
@given(small_models())
def test_every_answer_says_how_much_search_it_took(model):
    for name in ENGINES:
        session = get_engine(name).prepare(model)
        for answer in (session.solve(), session.count(), session.check_unique()):
            assert list(answer.stats) == list(type(session).STATS), name
            assert all(isinstance(v, int) and v >= 0 for v in answer.stats.values()), name
        counted = session.count()
        if name == "backtrack":  # every solution is reached by trying a value (or none is needed)
            assert counted.stats["nodes"] >= counted.count or model.num_vars == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_count_ranges_over_primary_variables_only(engine):
    model = Model()
    a, b = model.new_var(primary=True), model.new_var(primary=True)
    either = model.new_var()  # auxiliary, defined both ways
    model.add_or(either, [a, b])
    assert get_engine(engine).prepare(model).count().count == 4


@pytest.mark.parametrize("engine", ENGINES)
def test_assumptions_restrict_one_question_only(engine):
    model = Model()
    xs = model.new_vars(4, primary=True)
    model.add_exactly(xs, 2)
    session = get_engine(engine).prepare(model)
    assert session.count([xs[0]]).count == 3
    assert session.check_unique([xs[0], xs[1]]).status == "unique"
    assert session.solve([xs[0], xs[1], xs[2]]).status == "unsat"
    assert session.count().count == 6  # nothing left over from the questions before


@pytest.mark.parametrize("engine", ENGINES)
def test_multiple_comes_with_two_distinct_witnesses(engine):
    model = Model()
    xs = model.new_vars(3, primary=True)
    model.add_exactly(xs, 1)
    answer = get_engine(engine).prepare(model).check_unique()
    assert answer.status == "multiple"
    first, second = answer.witnesses
    assert [is_true(first, x) for x in xs] != [is_true(second, x) for x in xs]


@pytest.mark.parametrize("engine", ENGINES)
def test_limit_stops_a_count_and_says_it_is_incomplete(engine):
    model = Model()
    model.new_vars(5, primary=True)
    found = get_engine(engine).prepare(model).count(limit=3)
    assert (found.count, found.complete) == (3, False)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_empty_clause_makes_the_model_unsatisfiable(engine):
    model = Model()
    model.new_var(primary=True)
    model.add_clause([])
    assert get_engine(engine).prepare(model).solve().status == "unsat"


def random_3sat(variables: int, ratio: float, seed: int) -> Model:
    """Random 3-SAT at the satisfiability threshold: hard for every engine at this size."""
    rng = random.Random(seed)
    model = Model()
    model.new_vars(variables, primary=True)
    for _ in range(int(variables * ratio)):
        chosen = rng.sample(range(1, variables + 1), 3)
        model.add_clause([v if rng.random() < 0.5 else -v for v in chosen])
    return model


@pytest.mark.parametrize("engine", ENGINES)
def test_time_limit_yields_unknown_instead_of_hanging(engine):
    # 400 variables at ratio 4.26: neither CaDiCaL nor CP-SAT decides it in 20 s here.
    session = get_engine(engine).prepare(random_3sat(400, 4.26, seed=1))
    assert session.solve(time_limit=0.2).status == "unknown"
    found = session.count(time_limit=0.2)
    assert found.complete is False


def test_unknown_engine_is_named_in_the_error():
    with pytest.raises(ValueError, match="unknown engine 'minisat'"):
        get_engine("minisat")


def test_callers_find_engines_by_what_they_can_do():
    assert engines_with(Capability.NATIVE_LINEAR) == ("cpsat",)  # crossing counts in integers
    assert engines_with(Capability.UNSAT_CORES) == ("sat",)  # explanations start from a core
    assert engines_with(Capability.SHARES_MODELS) == ("sat",)  # one warm model for every jigsaw
    assert engines_with(Capability.PLAN_SEARCH) == ("sat", "cpsat")  # crossing puzzles
    assert engines_with(Capability.SEARCH_STATS) == ENGINE_NAMES


@pytest.mark.parametrize("engine", ENGINES)
def test_each_engine_and_its_sessions_answer_to_its_registered_name(engine):
    made = get_engine(engine)
    session = made.prepare(Model())
    assert made.name == session.engine_name == engine
    assert made.capabilities == engine_info(engine).capabilities


@pytest.mark.parametrize("engine", ENGINES)
def test_unsat_cores_where_offered_and_a_clear_no_elsewhere(engine):
    model = Model()
    a, b = model.new_var(primary=True), model.new_var(primary=True)
    model.add_clause([-a, -b])
    session = get_engine(engine).prepare(model)
    if get_engine(engine).supports(Capability.UNSAT_CORES):
        assert set(session.unsat_core([a, b])) == {a, b}
        assert session.unsat_core([a]) is None
    else:
        with pytest.raises(NotSupported, match=f"^engine {engine} does not offer unsat cores$"):
            session.unsat_core([a, b])


def test_literals_must_name_existing_variables():
    model = Model()
    model.new_var()
    with pytest.raises(ValueError, match="literal 2"):
        model.add_clause([1, 2])
