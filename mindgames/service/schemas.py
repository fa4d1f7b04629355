"""Request bodies (pydantic): the envelope only; puzzles are read by the library's parsers."""

from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

Engine = Literal["sat", "cpsat", "backtrack"]
PuzzleValue = Union[str, list, dict]

PUZZLE_DOC = ("one puzzle in any format the CLI reads for the kind: a string (a line, a grid "
              "with newlines, a file's text), a list of rows, or the JSON object form; for "
              "crossing a built-in name (with \"params\") or a puzzle document")


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")

    engine: Engine = Field("sat", description="sat (CaDiCaL), cpsat (OR-Tools) or backtrack")
    time_limit: Optional[float] = Field(None, gt=0, le=1e9, description="seconds per puzzle")
    limit: Optional[int] = Field(None, ge=1, le=10**15, description="count: stop at this many")
    rules: Optional[Literal["takuzu", "unruly"]] = Field(None, description="binairo rule set")
    params: Optional[dict[str, int]] = Field(None, description="crossing: a built-in puzzle's parameters")
    count_shortest: bool = Field(False, description="crossing: also count the shortest plans")
    simple_paths: bool = Field(False, description="crossing: also count plans never repeating a state")
    cross_check: bool = Field(True, description="crossing: cross-check with the explicit state graph")


class SolveRequest(Options):
    puzzle: Optional[PuzzleValue] = Field(None, description=PUZZLE_DOC)
    puzzles: Optional[list[PuzzleValue]] = Field(None, description="a batch: answers in input order")


class JobRequest(SolveRequest):
    kind: str = Field(..., description="sudoku, binairo or crossing")
    action: Literal["solve", "check", "count", "count_grids"] = Field(
        ..., description="count_grids: count every binairo grid of `size`")
    size: Optional[str] = Field(None, max_length=20, description="count_grids: N or RxC")
    method: Optional[Literal["mitm", "dfs"]] = Field(None, description="count_grids method")


class ErrorBody(BaseModel):
    error: str
    limit: Optional[str] = None
    detail: Optional[list[Any]] = None
