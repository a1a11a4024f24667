"""Confidence intervals: Wilson for proportions, Student t for means and paired differences.

Pure Python (``statistics.NormalDist`` and a continued fraction for the t distribution), so the
analysis layer needs no scipy; the tests check these against scipy.

>>> low, high = wilson(8, 10)
>>> round(low, 4), round(high, 4)
(0.4902, 0.9433)
>>> round(t_quantile(0.975, 9), 4)
2.2622
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence is between 0 and 1, not {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion (sound near 0 and 1, unlike the normal one).
    No trials: the whole range (0, 1)."""
    if trials < 0 or not 0 <= successes <= max(trials, 0):
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    z = _z(confidence)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, no rounding dust
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def _betacf(a: float, b: float, x: float) -> float:
    # Lentz's continued fraction for the incomplete beta function (Numerical Recipes 6.4).
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x)
        + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The t value below which a share `p` of Student's t(df) lies (bisection on the CDF)."""
    if not 0 < p < 1 or df <= 0:
        raise ValueError("t_quantile needs 0 < p < 1 and df > 0")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2


@dataclass(frozen=True)
class MeanCI:
    n: int
    mean: float
    std: float
    low: float
    high: float


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> MeanCI:
    """Mean with a Student t interval (n - 1 degrees of freedom). n < 2: no interval (nan)."""
    n = len(values)
    if n == 0:
        return MeanCI(0, math.nan, math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n < 2:
        return MeanCI(n, mean, math.nan, math.nan, math.nan)
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    _z(confidence)
    half = t_quantile(0.5 + confidence / 2, n - 1) * std / math.sqrt(n)
    return MeanCI(n, mean, std, mean - half, mean + half)


def paired_ci(a: Sequence[float], b: Sequence[float], confidence: float = 0.95) -> MeanCI:
    """Mean of the differences a_i - b_i of paired observations, with a t interval: the right
    interval for common random numbers, where a_i and b_i share game i's dice."""
    if len(a) != len(b):
        raise ValueError("paired observations need equal lengths")
    return mean_ci([x - y for x, y in zip(a, b, strict=True)], confidence)


__all__ = ["wilson", "t_quantile", "t_cdf", "mean_ci", "paired_ci", "MeanCI"]
