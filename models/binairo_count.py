"""The old name of :mod:`mindgames.models.binairo.count`, for the command line's imports: every name is that module's."""

from typing import Any

from .binairo import count


def __getattr__(name: str) -> Any:
    return getattr(count, name)
