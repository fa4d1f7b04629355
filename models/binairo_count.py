"""The old name of :mod:`mindgames.models.binairo.count`, for the command line's imports: every name is that module's."""

from .binairo import count


def __getattr__(name: str):
    return getattr(count, name)
