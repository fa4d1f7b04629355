"""mindgames: the command line and the HTTP service, thin layers over :mod:`models` and :mod:`solver`."""

import os
import sys

__version__ = "0.1.0"


def _unshadow_models_package() -> None:
    """Keep python-sat's ``models.py`` script from hiding the ``models`` package.

    python-sat installs command-line scripts, one of them ``models.py``, into the
    same ``bin`` directory as the ``mindgames`` console script; a console script
    runs with that directory first on ``sys.path``, so ``import models`` would
    find the script instead of this project's package."""
    if not sys.path or not sys.path[0]:
        return
    script_dir = os.path.abspath(sys.path[0])
    if os.path.isfile(os.path.join(script_dir, "models.py")) and not os.path.isfile(
        os.path.join(script_dir, "models", "__init__.py")
    ):
        del sys.path[0]
        loaded = sys.modules.get("models")
        if loaded is not None and not hasattr(loaded, "__path__"):
            del sys.modules["models"]


_unshadow_models_package()
