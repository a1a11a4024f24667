"""Test-only bot factories for the simulation tests (module level: worker processes get them).

Each is called as ``Factory(seed=...)`` like the real bots, and plays through the public API.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path
from typing import Any

from ugentopoly_widget import Game
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.bots import HeuristicBot
from ugentopoly_widget.simulation import game_seed

# Game seeds that trigger a fault: game 5 and game 2 of a run with seed 0.
KILL_SEED = game_seed(0, 5)
RAISE_SEED = game_seed(0, 2)


class Killer(HeuristicBot):
    """Plays like the heuristic bot, but its worker process dies in game 5 (every time)."""

    name = "heuristic"

    def choose(self, game: Game) -> A.Action:
        if game.seed == KILL_SEED:
            os._exit(3)
        return super().choose(game)


class KillOnce(HeuristicBot):
    """Its process dies in game 5 the first time only (a marker file remembers): the retry
    succeeds."""

    name = "heuristic"
    marker: Path | None = None  # set by the test before the run (inherited by forked workers)

    def choose(self, game: Game) -> A.Action:
        marker = KillOnce.marker or Path(os.environ["KILL_ONCE_MARKER"])
        if game.seed == KILL_SEED and not marker.exists():
            marker.write_text("died once")
            os._exit(3)
        return super().choose(game)


class Explosive(HeuristicBot):
    """Raises in game 2 of the run: a bug in a bot (or the engine) costs that game only."""

    name = "heuristic"

    def choose(self, game: Game) -> A.Action:
        if game.seed == RAISE_SEED and game.turn_number >= 3:
            raise RuntimeError("bot bug in game 2")
        return super().choose(game)


SEEN: list[weakref.ref[Game]] = []


class Watcher(HeuristicBot):
    """Remembers (weakly) every game it played: the reduction must drop them all."""

    name = "heuristic"

    def choose(self, game: Game) -> A.Action:
        if not SEEN or SEEN[-1]() is not game:
            SEEN.append(weakref.ref(game))
        return super().choose(game)


# Scripted classic games for hand counts: dice chosen per seat, stacked cards.
# Seat 0 rolls 1+2 twice: lands on 3 (Baltic Avenue, bought: 60) then 6.
# Seat 1 rolls 3+4 to Chance (7), whose stacked card sends it back 3 to Income Tax (4; pays the
# flat 200), then next turn three doubles: 6+6 to 16, 6+6 to 28, the third double: In Jail.
SCRIPT: dict[int, list[tuple[int, int]]] = {0: [(1, 2), (1, 2)], 1: [(3, 4), (6, 6), (6, 6),
                                                                     (6, 6)]}


class Scripted:
    """Rolls chosen dice (through game.testing), buys only Baltic Avenue, declines, passes."""

    name = "scripted"

    def __init__(self, seed: int | None = None) -> None:
        self.rolls: list[tuple[int, int]] | None = None

    def choose(self, game: Game) -> Any:
        d = game.decision
        me = d.player
        assert me is not None
        legal = game.legal_actions()
        by_type = {type(a): a for a in legal}
        if self.rolls is None:
            self.rolls = list(SCRIPT[me])
        if d.kind == "turn" and A.Roll in by_type:
            dice = self.rolls.pop(0)
            if me == 1 and dice == (3, 4):
                game.testing.stack_deck("CHANCE", ["card.chance.09"])
            game.testing.script_dice(dice)
            return by_type[A.Roll]
        if d.kind == "buy":
            if d.data["position"] == 3 and A.Buy in by_type:
                return by_type[A.Buy]
            return by_type[A.Decline]
        if d.kind == "tax":
            return A.ChooseTax(me, "flat")
        if d.kind == "post_roll":
            return by_type[A.EndTurn]
        if A.Pass in by_type:
            return by_type[A.Pass]
        return legal[0]
