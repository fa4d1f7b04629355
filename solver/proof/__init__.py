"""Checkable proofs: certified "unsolvable" and "unique" answers.

>>> from mindgames.solver.proof import CNF, check_proof, parse_proof
>>> cnf = CNF(1, [(1,), (-1,)])
>>> check_proof(cnf, parse_proof(b"0\\n")).ok
True

* :mod:`.formats` reads and writes DIMACS CNF, DRAT (text and binary) and LRAT;
* :mod:`.checker` is our own proof checker (RUP/RAT, deletions, core marking);
  :class:`LoadedFormula` loads a formula once for many checks of formulas extending it;
* :mod:`.certify` solves a model's CNF with a proof-emitting solver and checks the proof;
  :class:`ProofBase` keeps what the certificates of one model (a puzzle shape) share.
"""

from __future__ import annotations

from .certify import (
    DEFAULT_SOLVER,
    PROOF_SOLVERS,
    Certificate,
    CertificationError,
    ProofBase,
    certify_answer,
    certify_cnf,
    certify_unique,
    certify_unsat,
)
from .check import check_proof
from .checker import CheckResult, LoadedFormula, lrat_text, normalised
from .formats import (
    CNF,
    MAX_BYTES,
    MAX_CLAUSES,
    ParseTimeLimit,
    Proof,
    ProofInputError,
    drat_binary,
    drat_text,
    parse_dimacs,
    parse_proof,
    read_cnf,
    read_proof,
    write_dimacs,
)

__all__ = [
    "CNF",
    "Certificate",
    "CertificationError",
    "CheckResult",
    "DEFAULT_SOLVER",
    "LoadedFormula",
    "MAX_BYTES",
    "MAX_CLAUSES",
    "PROOF_SOLVERS",
    "ParseTimeLimit",
    "Proof",
    "ProofBase",
    "ProofInputError",
    "certify_answer",
    "certify_cnf",
    "certify_unique",
    "certify_unsat",
    "check_proof",
    "lrat_text",
    "normalised",
    "drat_binary",
    "drat_text",
    "parse_dimacs",
    "parse_proof",
    "read_cnf",
    "read_proof",
    "write_dimacs",
]
