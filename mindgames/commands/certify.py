"""``mindgames certify CNF PROOF``: check a proof of unsatisfiability, from any source.

Exit codes: 0 the proof is verified; 1 it is not (rejected, or the time limit
came first), with a one-line reason; 2 unusable input (a missing file, not
DIMACS, a header that lies about its counts, a binary file that is not DRAT,
a file over the size limit).  Nothing but a verified proof prints "verified".
"""

from __future__ import annotations

import argparse

from mindgames.solver.proof import MAX_BYTES, MAX_CLAUSES, ProofInputError, check_proof, read_cnf, read_proof

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
    parser.add_argument("--time-limit", type=positive_float, metavar="S", help="seconds for the check")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        cnf = read_cnf(args.cnf, args.max_bytes, args.max_clauses)
        proof = read_proof(args.proof, args.max_bytes, args.max_clauses, args.format)
        with progress(len(proof.steps), "certify") as bar:
            result = check_proof(cnf, proof, args.time_limit, lambda done, total: bar.update(completed=done))
    except ProofInputError as error:
        raise UsageError(str(error)) from None
    except MemoryError:
        raise UsageError(f"{args.proof}: too large to check in the memory available") from None
    form = f"{proof.kind.upper()} {'binary' if proof.binary else 'text'}"
    status = "verified" if result.ok else "unknown" if result.timed_out else "rejected"
    if args.json:
        emit_json(
            {"status": status, "cnf": args.cnf, "proof": args.proof, "format": form, **result.to_json()}
        )
    if result.ok:
        if not args.json:
            print(
                f"verified: {args.proof} refutes {args.cnf} ({form}, {plural(result.lemmas, 'lemma')}, "
                f"core {plural(result.core_size, 'clause')} + {plural(result.core_lemmas, 'lemma')}, "
                f"{result.seconds:.3f} s)"
            )
        return 0
    return fail(f"proof {'not verified' if result.timed_out else 'rejected'}: {result.reason}", 1)
