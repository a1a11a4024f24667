"""Dice: every outcome of one roll, exactly, as the engine rolls them.

The engine rolls ``dice_count`` dice of ``dice_sides`` sides; a roll is a *double* when there
are at least two dice and they all show the same face.

>>> d = dice_distribution("classic")
>>> round(d.p_doubles, 6), round(d.p_max_doubles, 6)   # 1/6 and (1/6)**3
(0.166667, 0.00463)
>>> d.table.loc[d.table.total == 7, "ways"].item()
6
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any

from ..engine.rules import RulesProfile, get_profile
from .errors import DiceError

if TYPE_CHECKING:
    import pandas as pd

    from ..engine.game import Game


@dataclass(frozen=True)
class Roll:
    """One (total, double) outcome of a roll and its probability."""

    total: int
    double: bool
    probability: float


def resolve_rules(rules: RulesProfile | str | Game | None) -> RulesProfile:
    """A RulesProfile from a profile, a profile name, a Game or None (the default profile)."""
    from ..engine.game import Game

    if isinstance(rules, Game):
        return rules.rules
    if rules is None:
        return get_profile("ugentopoly")
    return get_profile(rules)


def check_dice(rules: RulesProfile) -> None:
    count, sides = rules.dice_count, rules.dice_sides
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 3:
        raise DiceError(f"dice_count={count!r}: the engine rolls 1, 2 or 3 dice")
    if isinstance(sides, bool) or not isinstance(sides, int) or not 2 <= sides <= 20:
        raise DiceError(f"dice_sides={sides!r}: dice have 2 to 20 sides")
    if rules.max_doubles is not None and (
        isinstance(rules.max_doubles, bool) or rules.max_doubles < 1
    ):
        raise DiceError(f"max_doubles={rules.max_doubles!r}: it is None or at least 1")


def roll_outcomes(rules: RulesProfile) -> tuple[Roll, ...]:
    """Every (total, double) outcome with its exact probability, in order of total."""
    check_dice(rules)
    count, sides = rules.dice_count, rules.dice_sides
    ways: Counter[tuple[int, bool]] = Counter()
    for faces in product(range(1, sides + 1), repeat=count):
        ways[(sum(faces), count >= 2 and min(faces) == max(faces))] += 1
    n = sides**count
    return tuple(Roll(t, d, w / n) for (t, d), w in sorted(ways.items()))


def totals_table(rules: RulesProfile) -> tuple[list[int], list[int], list[float], list[float]]:
    """Per dice total, in order: (totals, ways, probability, probability of a double)."""
    outcomes = roll_outcomes(rules)
    n = rules.dice_sides**rules.dice_count
    totals = sorted({r.total for r in outcomes})
    prob = [sum(r.probability for r in outcomes if r.total == t) for t in totals]
    dbl = [sum(r.probability for r in outcomes if r.total == t and r.double) for t in totals]
    return totals, [round(p * n) for p in prob], prob, dbl


@dataclass(frozen=True)
class DiceDistribution:
    """The exact distribution of one roll under a rules profile."""

    dice_count: int
    dice_sides: int
    table: pd.DataFrame  # total, ways, probability, double_probability
    p_doubles: float  # probability that one roll is a double
    max_doubles: int | None  # the rules' "this many doubles in a row: jail"
    p_max_doubles: float  # probability of that many doubles in a row (0 without the rule)
    mean: float
    variance: float

    def to_dict(self) -> dict[str, Any]:
        """Plain numbers for a front end: the histogram's exact heights."""
        return {
            "totals": [int(t) for t in self.table.total],
            "probabilities": [float(p) for p in self.table.probability],
            "p_doubles": self.p_doubles,
            "p_max_doubles": self.p_max_doubles,
            "mean": self.mean,
        }


def dice_distribution(rules: RulesProfile | str | Game | None = None) -> DiceDistribution:
    """Sums of one roll, P(double) and P(the jail-making run of doubles), exactly.

    ``rules`` is a profile, a profile name, a Game, or None for two six-sided dice."""
    import pandas as pd

    profile = resolve_rules(rules)
    totals, ways, probs, doubles = totals_table(profile)
    table = pd.DataFrame(
        {"total": totals, "ways": ways, "probability": probs, "double_probability": doubles})
    p_doubles = sum(doubles)
    mean = sum(t * p for t, p in zip(totals, probs, strict=True))
    variance = sum((t - mean) ** 2 * p for t, p in zip(totals, probs, strict=True))
    runs = profile.max_doubles if profile.doubles_roll_again else None
    return DiceDistribution(
        dice_count=profile.dice_count,
        dice_sides=profile.dice_sides,
        table=table,
        p_doubles=p_doubles,
        max_doubles=runs,
        p_max_doubles=p_doubles**runs if runs is not None else 0.0,
        mean=mean,
        variance=variance,
    )


__all__ = ["DiceDistribution", "Roll", "dice_distribution", "roll_outcomes", "resolve_rules",
           "totals_table"]
