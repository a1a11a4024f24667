"""Estimates from rollouts: means with standard errors that use the first-roll strata, paired
differences, and intervals.

A rollout's result is a number per player (1 for a win, 1/m for a win shared by m, 0 else).
With strata (the first roll), the variance of the mean is the within-stratum variance only:
Var = sum_h (n_h/n)^2 s_h^2 / n_h, with n_h rollouts in stratum h. What the first roll
explains is taken out; it is plain sampling's variance when the first roll explains nothing.
Fewer than two rollouts in some stratum: the plain standard error (conservative).

>>> import numpy as np
>>> x = np.array([1.0, 0.0] * 50)
>>> round(standard_error(x, None), 4)
0.0503
>>> standard_error(x, np.array([0, 1] * 50))   # the stratum explains everything
0.0
"""

from __future__ import annotations

import math

import numpy as np

from ..simulation.stats import _z, wilson


def standard_error(values: np.ndarray, strata: np.ndarray | None) -> float:
    """The standard error of ``values.mean()`` (stratified when `strata` is given)."""
    n = len(values)
    if n < 2:
        return math.nan
    if strata is not None:
        counts = np.bincount(strata)
        present = counts[counts > 0]
        if len(present) > 1 and present.min() >= 2:
            sums = np.bincount(strata, weights=values)
            squares = np.bincount(strata, weights=values * values)
            nh = counts[counts > 0].astype(float)
            mean_h = sums[counts > 0] / nh
            var_h = (squares[counts > 0] - nh * mean_h * mean_h) / (nh - 1)
            var = float(np.sum((nh / n) ** 2 * np.maximum(var_h, 0.0) / nh))
            return math.sqrt(var)
    return float(np.std(values, ddof=1) / math.sqrt(n))


def interval(p: float, se: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """A Wilson interval for a proportion estimated with standard error `se` from `n`
    rollouts: Wilson's at the effective sample size p(1-p)/se^2 (the strata's gain), so that
    it stays inside [0, 1] and honest near 0 and 1 (a proportion seen 0 times out of n)."""
    if n <= 0:
        return (0.0, 1.0)
    if not math.isfinite(se):
        return (0.0, 1.0)
    effective = n if se <= 0 or p <= 0 or p >= 1 else min(10 * n, max(1.0, p * (1 - p) / se**2))
    k = round(p * effective)
    return wilson(int(min(max(k, 0), int(effective))), int(effective), confidence)


def difference_interval(delta: float, se: float, confidence: float = 0.95
                        ) -> tuple[float, float]:
    """A normal interval for a paired difference."""
    if not math.isfinite(se):
        return (math.nan, math.nan)
    half = _z(confidence) * se
    return (delta - half, delta + half)


__all__ = ["standard_error", "interval", "difference_interval"]
