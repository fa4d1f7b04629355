"""``python -m mindgames``: the same as the ``mindgames`` console script."""

from .cli import entry

if __name__ == "__main__":
    entry()
