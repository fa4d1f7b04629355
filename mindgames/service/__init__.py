"""The solver service: ``mindgames serve`` (HTTP API, jobs, and the web page).

A thin layer over the library: requests are read into the library's puzzles
by its own parsers and answered by its solvers in worker processes.
"""

from .settings import Settings

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None):
    from .app import create_app as build

    return build(settings)
