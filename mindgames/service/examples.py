"""The OpenAPI documentation's examples and shared response descriptions (for /docs and the README)."""

from __future__ import annotations

from typing import Any, Union

from .schemas import Answer, Batch, ErrorBody


def example(value: Any, description: str = "") -> dict:
    """An OpenAPI 200 response with an example body (for /docs and the README)."""
    return {
        200: {"description": description or "success", "content": {"application/json": {"example": value}}}
    }


SOLVED = {
    "index": 0,
    "status": "solved",
    "solution": [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]],
    "engine": "sat",
    "seconds": 0.002,
}
COMPARED = example(
    {
        "rows": [
            {
                "index": 0,
                "engine": "sat",
                "status": "solved",
                "uniqueness": "unique",
                "answer": "unique",
                "seconds": 0.0009,
                "stats": {"decisions": 1, "conflicts": 1, "propagations": 1508, "restarts": 0},
            },
            {
                "index": 0,
                "engine": "backtrack",
                "status": "solved",
                "uniqueness": "unique",
                "answer": "unique",
                "seconds": 0.0033,
                "stats": {"nodes": 855, "backtracks": 95, "max_depth": 30},
            },
        ],
        "summary": {
            "summary": True,
            "engines": [
                {
                    "engine": "sat",
                    "puzzles": 1,
                    "answered": 1,
                    "median_seconds": 0.0009,
                    "total_seconds": 0.0009,
                    "baseline": "backtrack",
                    "vs_baseline": "3.7x",
                },
                {
                    "engine": "backtrack",
                    "puzzles": 1,
                    "answered": 1,
                    "median_seconds": 0.0033,
                    "total_seconds": 0.0033,
                    "baseline": "backtrack",
                    "vs_baseline": "1x",
                },
            ],
            "agree": True,
            "disagreements": [],
            "interrupted": False,
        },
        "agreement": "agreement: the engines agree on the puzzle",
    },
    "one row per puzzle and engine (rows shortened), the summary per engine, the agreement line",
)
JOB = {
    "id": "3f2a9c0d1e4b5a67",
    "kind": "sudoku",
    "action": "solve",
    "status": "done",
    "progress": {"done": 1, "total": 1, "solutions": None},
    "result": None,
    "error": None,
    "message": None,
    "created": 1767225600.0,
    "started": 1767225600.1,
    "finished": 1767225600.2,
    "results": [SOLVED],
}


ANSWERS: dict = {
    200: {
        "model": Union[Answer, Batch, dict[str, Any]],
        "content": {
            "application/json": {
                "examples": {
                    "one puzzle": {"value": SOLVED},
                    "a batch": {
                        "value": {
                            "results": [
                                SOLVED,
                                {**SOLVED, "index": 1, "status": "unsolvable", "solution": None},
                            ]
                        }
                    },
                }
            }
        },
        "description": "one answer (for `puzzle`: the CLI's --json object; for crossing "
        'the `crossing solve --json` object) or `{"results": [...]}` '
        "in input order (for `puzzles`)",
    }
}
BUSY = {
    429: {
        "model": ErrorBody,
        "description": "max_waiting requests already wait for a solver (with Retry-After)",
    },
    503: {
        "model": ErrorBody,
        "description": "no solver process free within max_queue_seconds, "
        "or none can start (with Retry-After)",
    },
}

ERRORS = {
    400: {"model": ErrorBody, "description": "malformed request (e.g. invalid JSON)"},
    401: {"model": ErrorBody, "description": "missing or wrong bearer token"},
    404: {"model": ErrorBody, "description": "unknown kind or job"},
    413: {"model": ErrorBody, "description": "body or puzzle count over its limit"},
    422: {"model": ErrorBody, "description": "invalid request or puzzle"},
}
#: what every route with a JSON body may answer besides: the gate's content-type check
POSTED = {
    415: {
        "model": ErrorBody,
        "description": "the request does not say Content-Type: application/json",
    }
}
#: what every route of the jobs database may answer besides
JOB_STORE = {
    503: {
        "model": ErrorBody,
        "description": "the jobs database is held by another process (with Retry-After) or gone",
    }
}
#: where a job made by a 202 answer is followed (OpenAPI links: clients and stateful tests)
JOB_LINKS = {
    "GetJob": {
        "operationId": "get_job",
        "parameters": {"job_id": "$response.body#/id"},
        "description": "the job's status, progress and results",
    },
    "CancelJob": {
        "operationId": "cancel_job",
        "parameters": {"job_id": "$response.body#/id"},
        "description": "stop the job, keeping its results so far",
    },
    "DeleteJob": {
        "operationId": "delete_job",
        "parameters": {"job_id": "$response.body#/id"},
        "description": "delete the job (stopped first if it runs)",
    },
}
