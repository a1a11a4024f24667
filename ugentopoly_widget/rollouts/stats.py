"""Estimates from rollouts: means with standard errors that use the first-roll strata, paired
differences, and intervals. Plain Python (lists, ``math``): the browser site has no numpy, and
at a few thousand rollouts per figure the sums cost microseconds next to the rollouts'
milliseconds (``benchmarks/bench_rollouts.py --cases figures``).

A rollout's result is a number per player (1 for a win, 1/m for a win shared by m, 0 else).
With strata (the first roll), the variance of the mean is the within-stratum variance only:
Var = sum_h (n_h/n)^2 s_h^2 / n_h, with n_h rollouts in stratum h. What the first roll
explains is taken out; it is plain sampling's variance when the first roll explains nothing.
Fewer than two rollouts in some stratum: the plain standard error (conservative).

>>> x = [1.0, 0.0] * 50
>>> round(standard_error(x, None), 4)
0.0503
>>> standard_error(x, [0, 1] * 50)   # the stratum explains everything
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..simulation.stats import _z, wilson


def mean(values: Sequence[float]) -> float:
    """The mean (NaN of nothing); exactly rounded (``math.fsum``)."""
    return math.fsum(values) / len(values) if len(values) else math.nan


def differences(after: Sequence[float], before: Sequence[float]) -> list[float]:
    """Paired differences, rollout by rollout (the shorter length)."""
    return [a - b for a, b in zip(after, before, strict=False)]


def standard_error(values: Sequence[float], strata: Sequence[int] | None) -> float:
    """The standard error of the mean of `values` (stratified when `strata` is given)."""
    n = len(values)
    if n < 2:
        return math.nan
    if strata is not None:
        size = max(strata) + 1
        counts, sums, squares = [0] * size, [0.0] * size, [0.0] * size
        for h, v in zip(strata, values, strict=False):  # one pass (a live bar's every batch)
            counts[h] += 1
            sums[h] += v
            squares[h] += v * v
        present = [h for h in range(size) if counts[h]]
        if len(present) > 1 and min(counts[h] for h in present) >= 2:
            var = 0.0
            for h in present:
                nh = counts[h]
                mean_h = sums[h] / nh
                var_h = max((squares[h] - nh * mean_h * mean_h) / (nh - 1), 0.0)
                var += (nh / n) ** 2 * var_h / nh
            return math.sqrt(var)
    centre = math.fsum(values) / n
    return math.sqrt(math.fsum((v - centre) * (v - centre) for v in values) / (n - 1) / n)


def interval(p: float, se: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """A Wilson interval for a proportion estimated with standard error `se` from `n`
    rollouts: Wilson's at the effective sample size p(1-p)/se^2 (the strata's gain), so that
    it stays inside [0, 1] and honest near 0 and 1 (a proportion seen 0 times out of n)."""
    if n <= 0:
        return (0.0, 1.0)
    if not math.isfinite(se):
        return (0.0, 1.0)
    effective = n if se <= 0 or p <= 0 or p >= 1 else min(10 * n, max(1.0, p * (1 - p) / se**2))
    # an unstratified se gives exactly n - 1, which rounding puts a hair on either side (numpy's
    # sums and plain ones differ there): counted whole, not truncated to n - 2
    whole = int(effective + 1e-9)
    k = round(p * effective)
    return wilson(int(min(max(k, 0), whole)), whole, confidence)


def difference_interval(delta: float, se: float, confidence: float = 0.95
                        ) -> tuple[float, float]:
    """A normal interval for a paired difference."""
    if not math.isfinite(se):
        return (math.nan, math.nan)
    half = _z(confidence) * se
    return (delta - half, delta + half)


__all__ = ["standard_error", "interval", "difference_interval", "mean", "differences"]
