"""mindgames: logic puzzles compiled into constraint models and proved by real engines.

The library is :mod:`mindgames.models` (the puzzle kinds) over :mod:`mindgames.solver`
(the engine-neutral model and the engines); the command line and the HTTP service are
thin layers over both.  In the repository the two live in the top-level folders
``models/`` and ``solver/``; the install maps them into this namespace
(``[tool.setuptools.package-dir]`` in pyproject.toml)."""

__version__ = "0.1.0"
