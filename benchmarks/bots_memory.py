"""Does the judge's use of fresh bots change its verdict? The analysis' rollouts start every
bot anew, while the game's own strong bots remember their trade offers (the ladder of
prices, the rounds since a new group). Here one decision of a strong-vs-strong game is played
on by rollouts to the end (``action_values``: each choice on the same seeds), once with fresh
strong bots and once with copies of the game's own bots as they were at that point.

    python benchmarks/bots_memory.py --seed 11 --index 162 --rollouts 400   # ~20 s

(Index 162 of seed 11's game: Ann rejects 176 for St. Charles Place, which completes Bob's
pink group; the analysis charges the rejection 7.6 points.)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ugentopoly_widget import Game  # noqa: E402
from ugentopoly_widget.engine.strong.bot import StrongBot  # noqa: E402
from ugentopoly_widget.rollouts import action_values  # noqa: E402

THOUGHT = ("AcceptTrade", "RejectTrade", "Buy", "Decline")


def at(seed: int, index: int) -> tuple[Game, list[StrongBot]]:
    """The game of two strong bots at record index `index`, and its bots as they are then."""
    game = Game("classic", players=["Ann", "Bob"], seed=seed)
    bots = [StrongBot(1), StrongBot(2)]
    while len(game.actions) < index:
        player = game.decision.player
        assert player is not None
        game.apply(bots[player].choose(game))
    return game, bots


def remembering(bot: StrongBot) -> Callable[..., StrongBot]:
    """A factory of new strong bots with `bot`'s memory of the game (its offers, its rounds
    counted), as action_values asks for bots: ``factory(seed=...)``."""

    def make(seed: int | None = None) -> StrongBot:
        copy = StrongBot(seed)
        copy.ladder = bot.ladder.copy()
        copy._groups_key, copy._groups_round = bot._groups_key, bot._groups_round
        copy._looked_turn, copy._shortage_turn = bot._looked_turn, bot._shortage_turn
        return copy

    return make


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--index", type=int, default=162, help="a trade answer or a purchase")
    parser.add_argument("--rollouts", type=int, default=400, help="per choice")
    args = parser.parse_args()
    game, bots = at(args.seed, args.index)
    choices = [a for a in game.legal_actions() if type(a).__name__ in THOUGHT]
    lineups: dict[str, Any] = {"fresh bots": "strong",
                               "the game's own bots": [remembering(b) for b in bots]}
    for name, lineup in lineups.items():
        # (the game's own bots are closures: no worker process can take them, nor the rest)
        table = action_values(game, rollouts=args.rollouts, actions=choices, bots=lineup)
        line = " | ".join(f"{r.action} {100 * r.p_win:.1f} (against the bot's choice "
                          f"{100 * r.delta:+.1f} ± {100 * r.delta_se:.1f})"
                          for r in table.itertuples())
        print(f"{name}: {line}")


if __name__ == "__main__":
    main()
