"""Whole numbers as the public API takes them: Python ints and numpy integers alike.

A game number read from a results table is a ``numpy.int64``; it names the same game as the
int 3. ``True`` is not a number of games, nor is 3.0.

>>> import numpy as np
>>> as_integer(np.int64(3)), as_integer(3), as_integer(True), as_integer(3.0)
(3, 3, None, None)
"""

from __future__ import annotations

import numbers


def as_integer(value: object) -> int | None:
    """`value` as an int when it is an integral number (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return None  # numpy's bool_ is not Integral; numpy's integers are
    return int(value)


__all__ = ["as_integer"]
