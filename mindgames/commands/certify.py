"""``mindgames certify CNF PROOF``: check a proof of unsatisfiability, from any source.

Exit codes: 0 the proof is verified; 1 it is not (rejected, or the time limit
came first), with a one-line reason; 2 unusable input (a missing file, not
DIMACS, a header that lies about its counts, a binary file that is not DRAT,
a number no literal can be, a file over the size limit).  Nothing but a
verified proof prints "verified".  ``--output FILE`` writes the verified proof
again, as LRAT (with the hints a formally verified checker such as cake_lpr
needs) or as text DRAT.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from mindgames.solver.proof import (
    MAX_BYTES,
    MAX_CLAUSES,
    CheckResult,
    ParseTimeLimit,
    Proof,
    ProofInputError,
    check_proof,
    drat_text,
    lrat_text,
    read_cnf,
    read_proof,
)
from mindgames.solver.proof.certify import write_atomically

from ..io import UsageError, emit_json, fail, progress
from ..options import positive_float, positive_int
from ..render import plural


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "certify",
        help="check a DRAT/LRAT proof that a CNF is unsatisfiable",
        description="Check, with mindgames' own checker, that PROOF (DRAT text or binary, or LRAT "
        "text; told apart automatically) refutes the DIMACS CNF. Exit 0 verified, 1 rejected, "
        "2 unusable input.",
    )
    parser.add_argument("cnf", metavar="CNF", help="the formula, DIMACS CNF")
    parser.add_argument("proof", metavar="PROOF", help="the proof: DRAT (text or binary) or LRAT")
    parser.add_argument(
        "--format",
        choices=("auto", "drat", "lrat"),
        default="auto",
        help="the proof's format (default: auto)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object with the verdict")
    parser.add_argument(
        "--max-bytes",
        type=positive_int,
        default=MAX_BYTES,
        metavar="N",
        help=f"largest CNF or proof file (default {MAX_BYTES})",
    )
    parser.add_argument(
        "--max-clauses",
        type=positive_int,
        default=MAX_CLAUSES,
        metavar="N",
        help=f"most clauses in the CNF, most steps in the proof (default {MAX_CLAUSES})",
    )
    parser.add_argument(
        "--time-limit", type=positive_float, metavar="S", help="seconds for reading the files and the check"
    )
    parser.add_argument(
        "--mode",
        choices=("backward", "forward"),
        help="DRAT: backward checks only the lemmas the refutation uses, as drat-trim does "
        "(default for proofs of 20,000 literals or more); forward checks every lemma in order "
        "(default for smaller ones, and a lemma that does not follow rejects the proof even if unused)",
    )
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the verified proof there, in --proof-format (nothing is written unless verified)",
    )
    parser.add_argument(
        "--proof-format",
        choices=("lrat", "drat"),
        help="with --output: lrat (default; from a DRAT proof: its core lemmas with hints, "
        "for checkers such as cake_lpr) or drat (text)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    end = None if args.time_limit is None else start + args.time_limit
    if args.proof_format is not None and args.output is None:
        raise UsageError("--proof-format says what --output writes: give --output FILE too")
    output_format = args.proof_format or "lrat"
    try:
        cnf = read_cnf(args.cnf, args.max_bytes, args.max_clauses, end)
        proof = read_proof(args.proof, args.max_bytes, args.max_clauses, args.format, end)
        if args.output is not None and output_format == "drat" and proof.kind == "lrat":
            raise UsageError(f"{args.proof}: an LRAT proof is not written out as DRAT")
        remaining = None if end is None else max(0.0, end - time.perf_counter())
        with progress(len(proof.steps), "certify") as bar:
            result = check_proof(
                cnf,
                proof,
                remaining,
                lambda done, total: bar.update(completed=done, total=total),
                lrat=args.output is not None and output_format == "lrat",
                mode=args.mode,
            )
    except ProofInputError as error:
        raise UsageError(str(error)) from None
    except ParseTimeLimit as error:
        return _report_time_limit(args, str(error), time.perf_counter() - start)
    except MemoryError:
        raise UsageError(f"{args.proof}: too large to check in the memory available") from None
    result.seconds = time.perf_counter() - start
    form = f"{proof.kind.upper()} {'binary' if proof.binary else 'text'}"
    if result.ok and args.output is not None:
        _write(args.output, _output_text(proof, result, output_format))
    status = "verified" if result.ok else "unknown" if result.timed_out else "rejected"
    if args.json:
        record = {"status": status, "cnf": args.cnf, "proof": args.proof, "format": form, **result.to_json()}
        if args.output is not None:
            record["output"] = {"file": args.output, "format": output_format} if result.ok else None
        emit_json(record)
    if result.ok:
        if not args.json:
            by = ", refuted by unit propagation" if result.refutation == "unit propagation" else ""
            written = f"; {output_format.upper()} written to {args.output}" if args.output else ""
            checked = f" ({result.checked:,} checked backward)" if result.mode == "backward" else ""
            print(
                f"verified: {args.proof} refutes {args.cnf} ({form}, {plural(result.lemmas, 'lemma')}{checked}{by}, "
                f"core {plural(result.core_size, 'clause')} + {plural(result.core_lemmas, 'lemma')}, "
                f"{result.seconds:.3f} s){written}"
            )
        return 0
    return fail(f"proof {'not verified' if result.timed_out else 'rejected'}: {result.reason}", 1)


def _report_time_limit(args: argparse.Namespace, reason: str, seconds: float) -> int:
    if args.json:
        result = CheckResult(False, reason, seconds=seconds, timed_out=True)
        emit_json(
            {"status": "unknown", "cnf": args.cnf, "proof": args.proof, "format": None, **result.to_json()}
        )
    return fail(f"proof not verified: {reason}", 1)


def _output_text(proof: Proof, result: CheckResult, output_format: str) -> str:
    if output_format == "lrat":
        assert result.lrat is not None
        return lrat_text(result.lrat)
    return drat_text(proof.steps)


def _write(path: str, text: str) -> None:
    try:
        write_atomically(Path(path), lambda temporary: Path(temporary).write_text(text, encoding="ascii"))
    except OSError as error:
        raise UsageError(f"--output {path}: cannot write ({error.strerror or error})") from None
