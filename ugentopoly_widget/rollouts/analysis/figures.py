"""From the rollouts' values to the rows: means, paired standard errors, the best choice and
the verdict, the luck of a roll or a card, the players' sums. Plain Python (no numpy)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from .results import ChanceRow, DecisionRow, OptionValue, PlayerSummary, Thresholds
from .walk import Meta

# A choice is charged a loss only when the best choice beats it by more than this many paired
# standard errors: with several choices, the best of the noisy estimates is ahead of an equal
# choice by chance alone, and a player who plays well would be charged that noise at every
# decision (the rollout bot's rule: noise never overrules).
MARGIN = 2.0


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def std_error(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return math.nan
    m = mean(values)
    var = sum((v - m) * (v - m) for v in values) / (n - 1)
    return math.sqrt(max(var, 0.0) / n)


def decision_row(meta: Meta, values: Sequence[Sequence[float]], thresholds: Thresholds,
                 ) -> DecisionRow:
    means = [mean(v) for v in values]
    ses = [std_error(v) for v in values]
    chosen = meta.actual
    top = max(range(len(values)), key=lambda v: (means[v], v == chosen))
    diff = [a - b for a, b in zip(values[top], values[chosen], strict=True)]
    gap, gap_se = mean(diff), std_error(diff)
    best = top if gap > MARGIN * (gap_se if math.isfinite(gap_se) else 0.0) else chosen
    options = []
    for v in range(len(values)):
        d = [a - b for a, b in zip(values[best], values[v], strict=True)]
        loss_se = 100 * std_error(d) if v != best else 0.0
        if v == chosen and best == chosen:
            loss_se = 100 * gap_se if top != chosen else 0.0
        options.append(OptionValue(meta.choices[v].to_dict(), meta.descriptions[v], means[v],
                                   ses[v], max(0.0, 100 * mean(d)), loss_se,
                                   meta.words[v] if meta.words else {}))
    order = sorted(range(len(values)), key=lambda v: (v != best, -means[v], v))
    return DecisionRow(meta.index, meta.turn, meta.player, meta.decision, options[chosen],
                       options[best], tuple(options[v] for v in order),
                       thresholds.verdict(options[chosen].loss))


def chance_row(meta: Meta, values: Sequence[Sequence[float]]) -> ChanceRow:
    """The luck of the outcome that happened: its value minus the exact mean over the
    outcomes (each equally likely), paired rollout by rollout."""
    n = len(values[0])
    per_rollout = [mean([v[k] for v in values]) for k in range(n)]
    actual = values[meta.actual]
    before, after = mean(per_rollout), mean(actual)
    luck = [a - m for a, m in zip(actual, per_rollout, strict=True)]
    return ChanceRow(meta.index, meta.turn, meta.player, "roll" if meta.kind == "roll"
                     else "card", meta.outcome, before, after, 100 * (after - before),
                     100 * std_error(luck), meta.outcome_words)


def summaries(names: Sequence[str], results: Sequence[float], decisions: Sequence[DecisionRow],
              chances: Sequence[ChanceRow], confidence: float = 0.95
              ) -> tuple[PlayerSummary, ...]:
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    out = []
    for k, name in enumerate(names):
        mine = [r for r in decisions if r.player == k]
        luck_rows = [r for r in chances if r.player == k]
        luck = sum((r.luck for r in luck_rows), 0.0)
        luck_se = math.sqrt(sum(r.luck_se ** 2 for r in luck_rows if math.isfinite(r.luck_se)))
        loss = sum((r.loss for r in mine), 0.0)
        loss_se = math.sqrt(sum(r.loss_se ** 2 for r in mine if math.isfinite(r.loss_se)))
        adjusted = 100 * results[k] - luck
        out.append(PlayerSummary(
            k, name, results[k], luck, luck_se, loss, loss_se,
            sum(r.verdict == "inaccuracy" for r in mine), sum(r.verdict == "mistake" for r in mine),
            sum(r.verdict == "blunder" for r in mine), adjusted, adjusted - z * luck_se,
            adjusted + z * luck_se))
    return tuple(out)


__all__ = ["decision_row", "chance_row", "summaries", "mean", "std_error", "MARGIN"]
