"""Request bodies (pydantic): the envelope only; puzzles are read by the library's parsers."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    create_model,
    field_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from mindgames.models.actions import ACTIONS, select
from mindgames.solver import engine_info, engine_names


class EngineName:
    """A request's engine: one of the registry's, asked when the request comes (so an engine
    registered after this module was imported, a plug-in's, is accepted too); listed as an
    enum, each with its summary, when the OpenAPI schema is made.  Any other is a 422 worded as pydantic words a
    Literal's ("Input should be 'sat', 'cpsat' or 'backtrack'")."""

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(known_engine)

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "string", "enum": list(engine_names()), "description": engines_help()}


def known_engine(name: Any) -> str:
    names = engine_names()
    if not isinstance(name, str) or name not in names:
        *first, last = [repr(n) for n in names]
        expected = f"{', '.join(first)} or {last}" if first else last
        raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": expected})
    return name


def engines_help() -> str:
    """Every engine with its summary, for a field's description."""
    return "; ".join(f"{name}: {engine_info(name).summary}" for name in engine_names())


Engine = Annotated[str, EngineName]

#: what ``compare`` asks each engine: solve, check, count
Question = Literal[select(ACTIONS, comparable=True)]  # type: ignore[valid-type]
#: what a job answers: the actions that answer each puzzle as a job may, and binairo's count_grids
JobAction = Literal[(*select(ACTIONS, per_puzzle=True, job=True), "count_grids")]  # type: ignore[valid-type]
PuzzleValue = Union[str, list, dict]


def whole_float_as_int(value: Any) -> Any:
    """``3.0`` -> ``3``: JSON Schema's ``integer`` (what the OpenAPI document says) is any
    number with no fractional part, so a whole number written with a point is one; anything
    else goes on to the strict ``int`` check (``3.5``, ``"3"``, ``true`` are still refused)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: a whole number as JSON Schema's ``integer`` means it: ``3`` or ``3.0``
WholeNumber = Annotated[int, BeforeValidator(whole_float_as_int)]

PUZZLE_DOC = (
    "one puzzle in any format the CLI reads for the kind: a string (a line, a grid "
    "with newlines, a file's text), a list of rows, or the JSON object form; for "
    'crossing a built-in name (with "params") or a puzzle document'
)


PARAMS_DOC = (
    'crossing: a built-in puzzle\'s parameters, whole numbers (JSON integers: "3" is '
    'refused, not read as 3), e.g. {"pairs": 3, "capacity": 2}; each puzzle\'s '
    "parameters, defaults and allowed ranges are listed by GET /v1/crossing/presets, "
    "and a value out of its range is a 422 naming it"
)

# strict: a value of the wrong JSON type is a 422 naming the field, never silently converted
# ("3" is not 3, 1 is not true); a number is still accepted where seconds are expected.
STRICT = ConfigDict(extra="forbid", strict=True)


def kind_option_fields() -> dict[str, Any]:
    """Each option of the registry's kinds as a request field (binairo's ``rules``, Sudoku's
    ``box`` and ``diagonals``, crossing's ``count_shortest``, ...): a switch is a boolean, an
    option with choices one of them, any other a string the kind reads (``"3x2"``).  A grid
    kind's option left out is as the puzzle says (None); a plan kind's has its default."""
    from mindgames.models.kind import PlanKind
    from mindgames.models.registry import grid_kinds, kinds

    fields: dict[str, Any] = {}
    for plan in kinds():
        if not isinstance(plan, PlanKind):
            continue
        for option in plan.options:
            if option.name in fields or option.name in SharedOptions.model_fields:
                continue  # (engine: a field of every request)
            annotation: Any = bool if option.flag else Literal[option.choices] if option.choices else str
            description = f"{plan.name}: {plan.request_help(option)}"
            fields[option.name] = (annotation, Field(option.default, description=description))
    for kind in grid_kinds():
        for option in kind.options:
            if option.name in fields:  # an option several kinds share is declared once
                continue
            if option.flag:
                annotation = Optional[bool]
            elif option.choices:
                annotation = Optional[Literal[option.choices]]  # type: ignore[valid-type]
            else:
                annotation = Optional[str]
            fields[option.name] = (annotation, Field(None, description=f"{kind.name}: {option.help}"))
    return fields


class SharedOptions(BaseModel):
    model_config = STRICT

    engine: Engine = Field("sat")  # described by the registry (EngineName)
    time_limit: float | None = Field(None, gt=0, le=1e9, description="seconds per puzzle")
    limit: WholeNumber | None = Field(
        None,
        ge=0,
        le=10**15,
        description="count: stop at this many solutions (default 10,000, as the command line's "
        "--limit; 0: no limit, the time limit ends the count)",
    )
    certify: bool = Field(
        False,
        description="solve, check: prove 'unique' / 'unsolvable' (grid "
        "puzzles) or 'no shorter plan' / 'no plan' (crossings) "
        "with a DRAT proof our own checker verifies, "
        "within the same time limit; the answer gains `certificate` "
        "(kind, checked, lemmas, seconds)",
    )
    params: dict[str, WholeNumber] | None = Field(
        None, description=PARAMS_DOC, examples=[{"pairs": 3, "capacity": 2}]
    )
    links: bool = Field(
        False,
        description="grid puzzles: the answer gains `links`, by site (puzzlink, tatham, ...): the link "
        "opening the puzzle there (`puzzle`), and the solved grid's (`solution`), or `error`: "
        "what the site cannot show",
    )


#: the request's options: the shared ones and every grid kind's own
Options = create_model("Options", __base__=SharedOptions, **kind_option_fields())


class SolveRequest(Options):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {
                    "puzzle": "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                },
                {
                    "puzzles": ["1..0\n....\n....\n....", [[1, None, None, 0]] + [[None] * 4] * 3],
                    "rules": "takuzu",
                },
                {"puzzle": "missionaries-cannibals", "params": {"pairs": 3, "capacity": 2}},
            ]
        },
    )

    puzzle: PuzzleValue | None = Field(None, description=PUZZLE_DOC)
    puzzles: list[PuzzleValue] | None = Field(None, description="a batch: answers in input order")


class CompareRequest(SolveRequest):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {
                    "puzzle": ".6.798.127941.5.682.14..957...21.5...563..241.1254.73963.874...1.56.28..4289.1.7.",
                    "engines": list(engine_names()),
                    "question": "check",
                    "time_limit": 2,
                },
            ]
        },
    )

    engines: list[Engine] | None = Field(
        None, min_length=1, description="the engines compared, at most each once (default: every engine)"
    )
    question: Question = Field("check", description="what each engine is asked")

    @field_validator("engines")
    @classmethod
    def at_most_every_engine(cls, engines: list[str] | None) -> list[str] | None:
        """No longer than the registry (a plug-in's engine counts: it is asked now)."""
        most = len(engine_names())
        if engines is not None and len(engines) > most:
            raise PydanticCustomError(
                "too_long",
                "List should have at most {max_length} items after validation, not {actual_length}",
                {"field_type": "List", "max_length": most, "actual_length": len(engines)},
            )
        return engines


def listed_kinds(schema: dict[str, Any]) -> None:
    """The registry's kind names as the field's enum, asked when the OpenAPI document is made
    (a kind registered after this module was imported is listed too); any other name is still
    read, and answered as the routes answer an unknown kind."""
    from mindgames.models.registry import KIND_NAMES

    schema["enum"] = list(KIND_NAMES)


class JobRequest(SolveRequest):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {"kind": "sudoku", "action": "count", "puzzles": ["." * 81], "limit": 1000000},
                {"kind": "binairo", "action": "count_grids", "size": "8"},
            ]
        },
    )

    kind: str = Field(..., description="the puzzle kind", json_schema_extra=listed_kinds)
    action: JobAction = Field(
        ..., description="count_grids: count every grid of `size` (kinds that can: GET /v1/kinds)"
    )
    size: WholeNumber | str | None = Field(
        None, description='count_grids: N or RxC (e.g. 8 or "6x8"), checked when the job is submitted'
    )
    method: Literal["mitm", "dfs"] | None = Field(None, description="count_grids method")


class CancelRequest(BaseModel):
    """A cancel's body: ``{}``.  It has one so that the request, like every POST to the API, is
    JSON (the gate refuses any other: what a page on another site can send without asking)."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [{}]})


class ExportRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {"puzzle": "missionaries-cannibals", "params": {"pairs": 3, "capacity": 2}},
                {"puzzle": "jealous-husbands", "params": {"couples": 4, "capacity": 3}},
            ]
        },
    )

    puzzle: str = Field(..., max_length=100, description="a built-in puzzle name (GET /v1/crossing/presets)")
    params: dict[str, WholeNumber] | None = Field(None, description=PARAMS_DOC)


def export_request(kind: str, presets: list[str]) -> type[ExportRequest]:
    """The export request of plan kind ``kind``: its built-in puzzles' names listed as the enum
    of ``puzzle`` (another name is read still, and refused with the kind's own message)."""
    return create_model(
        f"{kind.title().replace('-', '')}ExportRequest",
        __base__=ExportRequest,
        puzzle=(
            str,
            Field(
                ...,
                max_length=100,
                description=f"a built-in puzzle name (GET /v1/{kind}/presets)",
                json_schema_extra={"enum": presets},
            ),
        ),
    )


class ValidationProblem(BaseModel):
    """One thing wrong with a request, as pydantic found it: where (``["body", "limit"]``) and what."""

    loc: list[Union[str, int]]
    msg: str


class ErrorBody(BaseModel):
    """Every error's body: the message; the limit it broke, if one; for a request that does not
    fit its schema (422), each problem found (at most 20)."""

    error: str
    limit: str | None = None
    detail: list[ValidationProblem] | None = None


class Answer(BaseModel):
    """One puzzle's answer: the object ``mindgames KIND ACTION --json`` prints (sudoku and
    binairo; a crossing answer is the ``crossing solve --json`` object instead)."""

    model_config = ConfigDict(extra="allow")

    index: int
    status: Literal["solved", "unsolvable", "unknown", "invalid"]
    solution: list[list[int]] | None = None
    uniqueness: Literal["unique", "multiple"] | None = None
    solutions: list[Any] | None = None
    count: int | None = None
    complete: bool | None = None
    engine: str | None = None
    seconds: float = 0.0
    stats: dict[str, int] = Field(
        default_factory=dict,
        description="the engine's search counters "
        "(backtrack: nodes, backtracks, max_depth; sat: decisions, conflicts, "
        "propagations, restarts; cpsat: branches, conflicts, booleans)",
    )
    error: str | None = None
    message: str | None = None


class Batch(BaseModel):
    results: list[dict[str, Any]]


def generate_option_fields() -> dict[str, Any]:
    """Each generate option of the registry's grid kinds as a request field (Sudoku's ``box``,
    ``diagonals``, ``regions``; binairo's ``size``, ``rules``; ...): a switch is a boolean, an
    option with choices one of them, any other a string or a whole number the kind reads."""
    from mindgames.models.registry import grid_kinds

    fields: dict[str, Any] = {}
    for kind in grid_kinds():
        for option in kind.generate_options:
            if option.name in fields:  # an option several kinds share is declared once
                continue
            if option.flag:
                annotation: Any = Optional[bool]
            elif option.choices:
                annotation = Optional[Literal[option.choices]]  # type: ignore[valid-type]
            else:
                annotation = Optional[Union[str, WholeNumber]]
            fields[option.name] = (annotation, Field(None, description=f"{kind.name}: {option.help}"))
    return fields


class GenerateSettings(BaseModel):
    model_config = STRICT

    engine: Engine = Field("sat", description="sat (CaDiCaL), cpsat (OR-Tools) or backtrack")
    seed: WholeNumber | None = Field(
        None,
        ge=0,
        le=2**63,
        description="puzzle i is made from seed + i (the same seed, the same puzzles on the same "
        "engine); default: a random seed, given back in each record",
    )
    count: WholeNumber = Field(
        1,
        ge=1,
        le=10**9,
        description="how many puzzles; more than max_puzzles is a 413, more than a few "
        "(GENERATED_AT_ONCE) a job (202 with its id)",
    )
    time_limit: float | None = Field(
        None,
        gt=0,
        le=1e9,
        description="seconds for them all (answered at once: at most max_seconds); the puzzles "
        "not made by then are `unknown`",
    )
    links: bool = Field(
        False,
        description="each record gains `links`, by site: the link opening the puzzle there "
        "(`puzzle`) and its solved grid (`solution`), or `error`: what the site cannot show",
    )


#: a generate request's settings: the shared ones and every grid kind's generate options
GenerateOptions = create_model("GenerateOptions", __base__=GenerateSettings, **generate_option_fields())


class GenerateRequest(GenerateOptions):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {"box": "3x3", "seed": 7},
                {"size": 8, "rules": "takuzu", "count": 3, "seed": 1},
                {"box": "2x3", "diagonals": True, "count": 50, "time_limit": 60},
            ]
        },
    )
