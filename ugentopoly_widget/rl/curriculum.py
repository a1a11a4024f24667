"""An opponent curriculum: from an easy bot to the target bot, moved on by the learner's wins.

``SingleAgentEnv(..., opponents="curriculum")`` draws each episode's opponents from a mixture
of two neighbouring stages (``("random", "heuristic")`` by default): at level 0.3 an opponent is
the heuristic bot with probability 0.3, else the random bot. After every episode the level moves
by ``step * (won - target)``: up after a win, down after a loss, so the learner keeps meeting
opponents it beats about ``target`` of the time (the games whose result it can still change,
where the learning signal is) and the level climbs to the last stage as it gets better.
Against the target bot from the start, a fresh learner loses every game: every return is the
same -1 and it has nothing to learn from.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ..engine.bots import BOTS
from ..engine.errors import SetupError

OPPONENT_NAMES = ("uniform", *sorted(BOTS))


class Curriculum:
    """Opponents by stage, moved on by the learner's results (see the module doc).

    Args:
        stages: opponent names from the easiest to the target (two or more).
        target: the win rate the level settles at while the last stage is out of reach.
        step: how far one episode moves the level (a win: ``step * (1 - target)`` up).
        level: the starting level (0: the first stage only; ``len(stages) - 1``: the last).
    """

    def __init__(self, stages: Sequence[str] = ("random", "heuristic"), *, target: float = 0.5,
                 step: float = 0.02, level: float = 0.0) -> None:
        stages = tuple(stages) if not isinstance(stages, str) else ()
        if len(stages) < 2 or any(s not in OPPONENT_NAMES for s in stages):
            raise SetupError(f"a curriculum's stages are two or more of {OPPONENT_NAMES}")
        for name, value, low, high in (("target", target, 0.0, 1.0), ("step", step, 0.0, 1.0),
                                       ("level", level, 0.0, len(stages) - 1.0)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or not low <= value <= high:
                raise SetupError(f"a curriculum's {name} is a number from {low:g} to {high:g}")
        self.stages = stages
        self.target = float(target)
        self.step = float(step)
        self.level = float(level)
        self.episodes = 0

    @property
    def top(self) -> float:
        return len(self.stages) - 1.0

    def draw(self, rng: random.Random | Any, seats: int) -> list[str]:
        """The opponents' names of one episode (`rng`: anything with ``random()``)."""
        base = min(int(self.level), len(self.stages) - 2)
        harder = self.level - base
        return [self.stages[base + 1] if rng.random() < harder else self.stages[base]
                for _ in range(seats)]

    def record(self, won: bool) -> None:
        """Move the level after an episode (a truncated one counts as not won)."""
        self.episodes += 1
        self.level = min(self.top, max(0.0, self.level + self.step * (float(won) - self.target)))

    def __repr__(self) -> str:
        return f"Curriculum({self.stages}, level={self.level:.2f})"


__all__ = ["Curriculum", "OPPONENT_NAMES"]
