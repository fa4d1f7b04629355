"""What an engine can do beyond the common questions: the names callers ask for.

A module of its own so that the engine interface (:mod:`mindgames.solver.engine`) and the
registry that states each engine's capabilities (:mod:`mindgames.solver.registry`) both
import it without importing each other."""

from __future__ import annotations

from enum import Enum


class Capability(str, Enum):
    """What an engine can do beyond the questions every engine answers.

    Callers ask for a capability (``engine.supports(Capability.UNSAT_CORES)``,
    ``engines_with(Capability.PLAN_SEARCH)``), never for an engine by its name, so a new
    engine that offers it is used where it fits."""

    #: linear constraints over integers natively: a count can be a sum of weighted literals,
    #: where a clausal engine needs it order-encoded in unary (the crossing models do so)
    NATIVE_LINEAR = "native_linear"
    #: one solver answers question after question under assumptions, keeping what it learnt
    INCREMENTAL = "incremental"
    #: :meth:`Session.unsat_core`: which of the assumptions cannot hold together
    UNSAT_CORES = "unsat_cores"
    #: its solver writes DRAT proofs of unsatisfiability on the CNF it solves (the CNF and
    #: solver that ``--certify`` proves answers on: :mod:`mindgames.solver.proof.certify`)
    PROOF_OUTPUT = "proof_output"
    #: counters of its search in every answer's ``stats`` (:attr:`Session.STATS`)
    SEARCH_STATS = "search_stats"
    #: a prepared session pays for itself over many questions, so one model shared by many
    #: shapes (told apart by assumed literals: every jigsaw layout of a size) is worth
    #: keeping warm; other engines get each shape's own, smaller model
    SHARES_MODELS = "shares_models"
    #: fit for crossing puzzles' time-expanded models (up to hundreds of thousands of
    #: constraints, each horizon a question): ``mindgames crossing solve --engine``
    PLAN_SEARCH = "plan_search"

    @property
    def phrase(self) -> str:
        """The capability in words, for messages."""
        return _PHRASES[self]


_PHRASES = {
    Capability.NATIVE_LINEAR: "native linear constraints",
    Capability.INCREMENTAL: "incremental solving under assumptions",
    Capability.UNSAT_CORES: "unsat cores",
    Capability.PROOF_OUTPUT: "proof output",
    Capability.SEARCH_STATS: "search statistics",
    Capability.SHARES_MODELS: "one warm model shared by many shapes",
    Capability.PLAN_SEARCH: "plan search (crossing models)",
}


__all__ = ["Capability"]
