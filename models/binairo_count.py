"""``models.binairo_count`` is :mod:`models.binairo.count` (kept for the command line's imports)."""
import sys

from .binairo import count

sys.modules[__name__] = count
