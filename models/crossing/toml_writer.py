"""Writes a puzzle document as TOML (the subset the puzzle format uses)."""

from __future__ import annotations

import json
from typing import Any


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def to_toml(document: dict[str, Any]) -> str:
    """Plain keys first, then tables, then arrays of tables (in document order)."""
    lines: list[str] = []
    tables: list[tuple[str, dict[str, Any] | list[dict[str, Any]]]] = []
    for key, value in document.items():
        if isinstance(value, dict):
            tables.append((key, value))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            tables.append((key, value))
        else:
            lines.append(f"{key} = {_value(value)}")
    for key, value in tables:
        entries = [value] if isinstance(value, dict) else value
        for entry in entries:
            lines.append("")
            lines.append(f"[{key}]" if isinstance(value, dict) else f"[[{key}]]")
            lines.extend(f"{k} = {_value(v)}" for k, v in entry.items())
    return "\n".join(lines) + "\n"
