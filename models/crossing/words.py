"""The crossing's counted noun, shared by the solver (:mod:`.solve`) and the proofs (:mod:`.certify`)."""

from __future__ import annotations

from mindgames.models.words import plural


def crossings(n: int) -> str:
    """``n`` crossings, as every crossing message counts them.

    >>> crossings(1), crossings(11)
    ('1 crossing', '11 crossings')
    """
    return plural(n, "crossing")


__all__ = ["crossings"]
