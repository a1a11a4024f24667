"""Class experiments: every device runs the same small experiment on its own seeded stream,
and the class's outcomes are pooled beside the exact distribution of the probability lab.

Kinds (``KINDS``):

- ``dice``: roll the game's dice ``count`` times (default 20); outcome: the total.
  Exact: :func:`~ugentopoly_widget.probability.dice_distribution`.
- ``jail``: ``count`` times (default 10), a token starts a turn in jail (first try) and
  rolls once; outcome: the tile where that roll leaves it, or In Jail. Played by the engine
  (cards and all). Exact: :func:`~ugentopoly_widget.probability.next_roll_distribution`
  with ``in_jail=True, jail="long"`` (it rolls for doubles rather than paying first).
- ``turns``: play ``count`` fast turns (default 10) of the device's own two-player game
  (bots decide everything but the dice); outcome: where each roll ended. Exact: the long
  run's :func:`~ugentopoly_widget.probability.landing_distribution` per roll (ten turns from
  START are not the long run yet: the lesson is how far off the class is).

The server rolls, not the device: a device only says "roll" (so a class cannot forge its
results), and each device has its own stream (``random.Random(f"{seed}:{device number}")``),
so a rerun of the class with the same seed gives every device the same outcomes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine.bots import make_bot
from ..engine.game import Game
from .checks import RoomError

KINDS = ("dice", "jail", "turns")
DEFAULT_COUNT = {"dice": 20, "jail": 10, "turns": 10}
MAX_COUNT = 200
TITLES = {
    "dice": {"en": "Roll the dice {n} times: the totals",
             "nl": "Gooi {n} keer met de dobbelstenen: de totalen"},
    "jail": {"en": "From jail, one roll ({n} times): where does the token end?",
             "nl": "Vanuit de gevangenis, één worp ({n} keer): waar komt de pion?"},
    "turns": {"en": "{n} fast turns of your own game: where the rolls end",
              "nl": "{n} snelle beurten van je eigen spel: waar de worpen eindigen"},
}
IN_JAIL = {"en": "In Jail", "nl": "In de gevangenis"}


@dataclass
class DeviceRun:
    """One device's part of an experiment."""

    name: str
    number: int
    rng: random.Random
    outcomes: list[int] = field(default_factory=list)  # one per trial (turns: per roll)
    trials: int = 0
    game: Game | None = None  # the `turns` kind's own game
    bots: Any = None


@dataclass
class Experiment:
    number: int
    kind: str
    count: int
    seed: int
    labels: dict[str, list[str]]  # per language, one per outcome
    exact: list[float]  # the probability lab's distribution over the outcomes
    rules: Any  # the room game's RulesProfile (scratch games play by the same rules)
    board: Any
    opened_at: float
    dice: tuple[int, int] = (2, 6)  # how many dice, how many sides
    open: bool = True
    counts: list[int] = field(default_factory=list)  # pooled
    runs: dict[str, DeviceRun] = field(default_factory=dict)
    last_roll_at: float | None = None

    @property
    def id(self) -> int:
        return self.number

    @property
    def n(self) -> int:
        return sum(self.counts)

    def run(self, device: str, number: int, name: str, count: int) -> list[int]:
        """`count` more trials for `device` (refused past its share): their outcomes."""
        run = self.runs.get(device)
        if run is None:
            run = DeviceRun(name, number, random.Random(f"{self.seed}:{number}"))
            self.runs[device] = run
        if run.trials + count > self.count:
            left = self.count - run.trials
            raise RoomError(f"this device has done its {self.count} already" if left == 0
                            else f"only {left} left for this device")
        new: list[int] = []
        for _ in range(count):
            new.extend(self._trial(run))
            run.trials += 1
        run.outcomes.extend(new)
        for outcome in new:
            self.counts[outcome] += 1
        self.last_roll_at = time.monotonic()
        return new

    def _trial(self, run: DeviceRun) -> list[int]:
        if self.kind == "dice":
            return [self._dice_total(run.rng) - self._low]
        if self.kind == "jail":
            return [self._from_jail(run.rng)]
        return self._turn(run)

    @property
    def _low(self) -> int:
        return int(self.labels["en"][0])

    def _dice_total(self, rng: random.Random) -> int:
        count, sides = self.dice
        return sum(rng.randint(1, sides) for _ in range(count))

    def _scratch(self, seed: int) -> Game:
        return Game(self.rules, players=2, seed=seed, board=self.board)

    def _from_jail(self, rng: random.Random) -> int:
        game = self._scratch(rng.randrange(2**32))
        player = game.current_player
        game.testing.send_to_jail(player)
        game.apply({"type": "roll", "player": player})
        p = game.players[player]
        return game.board.size if p.in_jail else p.position

    def _turn(self, run: DeviceRun) -> list[int]:
        game = run.game
        if game is None:
            game = run.game = self._scratch(run.rng.randrange(2**32))
            run.bots = [make_bot("heuristic", seed=run.rng.randrange(2**32)) for _ in range(2)]
        before = game.landings("roll")
        turn = game.turn_number
        for _ in range(500):  # a turn is a handful of decisions; bounded all the same
            if game.is_over or game.turn_number > turn:
                break
            player = game.decision.player
            if player is None:
                break
            game.apply(run.bots[player].choose(game))
        after = game.landings("roll")
        out: list[int] = []
        for k, (a, b) in enumerate(zip(before.tiles, after.tiles, strict=True)):
            out.extend([k] * (b - a))
        out.extend([len(after.tiles)] * (after.in_jail - before.in_jail))
        return out

    def band(self) -> list[tuple[float, float]]:
        """Where a class of n rolls lands around the exact share, ±2·√(p(1−p)/n) (about 95 %
        of outcomes; it narrows as 1/√n)."""
        n = self.n
        if n == 0:
            return [(p, p) for p in self.exact]
        return [(max(0.0, p - 2 * math.sqrt(p * (1 - p) / n)),
                 min(1.0, p + 2 * math.sqrt(p * (1 - p) / n))) for p in self.exact]

    def summary(self, lang: str = "en") -> dict[str, Any]:
        """What the projector draws: outcomes, pooled counts, exact shares and the band."""
        labels = self.labels.get(lang, self.labels["en"])
        title = TITLES[self.kind].get(lang, TITLES[self.kind]["en"]).format(n=self.count)
        return {
            "id": self.id, "number": self.number, "kind": self.kind, "title": title,
            "count": self.count, "open": self.open, "labels": labels, "exact": self.exact,
            "counts": list(self.counts), "n": self.n, "band": self.band(),
            "devices": len(self.runs),
            "finished": sum(1 for r in self.runs.values() if r.trials >= self.count),
        }

    def mine(self, device: str) -> dict[str, Any]:
        run = self.runs.get(device)
        if run is None:
            return {"trials": 0, "outcomes": []}
        return {"trials": run.trials, "outcomes": run.outcomes[-40:]}


def open_experiment(game: Game, kind: str, *, count: int | None, seed: int | None,
                    number: int, clock: Callable[[], float]) -> Experiment:
    """A new experiment on the room's game (its board, rules and options)."""
    if kind not in KINDS:
        raise RoomError(f"an experiment is one of {list(KINDS)}, not {str(kind)[:20]!r}")
    if count is None:
        count = DEFAULT_COUNT[kind]
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise RoomError(f"an experiment's count is 1 to {MAX_COUNT}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    if kind == "jail" and game.rules.jail_skip_turns:
        raise RoomError("in this game jail skips turns (no roll from jail): choose another")
    labels, exact = exact_distribution(game, kind)
    return Experiment(number=number, kind=kind, count=count, seed=int(seed), labels=labels,
                      exact=exact, rules=game.rules, board=game.board, opened_at=clock(),
                      counts=[0] * len(exact),
                      dice=(game.rules.dice_count, game.rules.dice_sides))


def exact_distribution(game: Game, kind: str) -> tuple[dict[str, list[str]], list[float]]:
    """The outcomes' labels (en, nl) and their exact probabilities, from the probability lab."""
    from ..probability import dice_distribution, landing_distribution, next_roll_distribution

    if kind == "dice":
        table = dice_distribution(game).table
        totals = [str(int(t)) for t in table["total"]]
        return {"en": totals, "nl": totals}, [float(p) for p in table["probability"]]
    labels: dict[str, list[str]] = {}
    exact: list[float] = []
    for lang in ("en", "nl"):
        if kind == "jail":
            # the token rolls for doubles (it does not pay first): the "long" strategy
            frame = next_roll_distribution(game.board, game.rules, in_jail=True, jail="long",
                                           lang=lang)
        else:
            frame = landing_distribution(game, per="roll", lang=lang)
        names = [str(n) for n in frame["name"]]
        names[-1] = IN_JAIL[lang]  # the last row: in jail (the tile's own row: visiting)
        labels[lang] = names
        exact = [float(p) for p in frame["probability"]]
    return labels, exact


def table(experiments: list[Experiment]) -> Any:
    """One row per outcome of every device's trials (pandas)."""
    import pandas as pd

    rows: list[dict[str, Any]] = []
    for e in experiments:
        labels = e.labels["en"]
        for run in e.runs.values():
            for k, outcome in enumerate(run.outcomes):
                rows.append({"experiment": e.number, "kind": e.kind, "device": run.name,
                             "device_number": run.number, "trial": k + 1,
                             "outcome": outcome, "label": labels[outcome],
                             "exact": e.exact[outcome]})
    columns = ["experiment", "kind", "device", "device_number", "trial", "outcome", "label",
               "exact"]
    return pd.DataFrame(rows, columns=columns)


__all__ = ["DEFAULT_COUNT", "Experiment", "KINDS", "exact_distribution", "open_experiment",
           "table"]
