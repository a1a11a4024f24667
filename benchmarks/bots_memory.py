"""Does the judge's use of fresh bots change its verdict? The analysis' rollouts start every
bot anew, while the game's own strong bots remember their trade offers (the ladder of
prices, the rounds since a new group). Here one decision of a strong-vs-strong game is played
on by rollouts to the end, each choice on the same seeds, once with fresh strong bots and once
with copies of the game's own bots as they were at that point.

    python benchmarks/bots_memory.py --seed 11 --index 162 --rollouts 400   # ~10 s, 2 cores

(Index 162 of seed 11's game: Ann rejects 176 for St. Charles Place, which completes Bob's
pink group; the analysis charges the rejection 7.6 points.)
"""

from __future__ import annotations

import argparse
import math
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ugentopoly_widget import Game  # noqa: E402
from ugentopoly_widget.engine.bots import play_game  # noqa: E402
from ugentopoly_widget.engine.records.positions import PositionCopy  # noqa: E402
from ugentopoly_widget.engine.strong.bot import StrongBot  # noqa: E402

CHUNKS = 8


def at(seed: int, index: int) -> tuple[Game, list[StrongBot]]:
    """The game of two strong bots at record index `index`, and its bots as they are then."""
    game = Game("classic", players=["Ann", "Bob"], seed=seed)
    bots = [StrongBot(1), StrongBot(2)]
    while len(game.actions) < index:
        player = game.decision.player
        assert player is not None
        game.apply(bots[player].choose(game))
    return game, bots


def remembering(bot: StrongBot) -> StrongBot:
    """A new strong bot with `bot`'s memory of the game (its offers, its rounds counted)."""
    copy = StrongBot(0)
    copy.ladder = bot.ladder.copy()
    copy._groups_key, copy._groups_round = bot._groups_key, bot._groups_round
    copy._looked_turn, copy._shortage_turn = bot._looked_turn, bot._shortage_turn
    return copy


def play(job: tuple[int, int, bool, int, int]) -> dict[str, list[float]]:
    seed, index, fresh, start, stop = job
    game, bots = at(seed, index)
    me = game.decision.player
    choices = [a for a in game.legal_actions()
               if type(a).__name__ in ("AcceptTrade", "RejectTrade", "Buy", "Decline")]
    position = PositionCopy(game)
    out: dict[str, list[float]] = {str(c): [] for c in choices}
    for k in range(start, stop):
        for choice in choices:
            position.reset()
            position.reseed(1000003 * k + 7)
            g = position.game
            g.apply(choice)
            players = ([StrongBot(2 * k), StrongBot(2 * k + 1)] if fresh
                       else [remembering(b) for b in bots])
            play_game(g, players, until_turn=g.turn_number + 600)
            out[str(choice)].append((me in g.winners) / max(1, len(g.winners))
                                    if g.is_over else 0.5)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--index", type=int, default=162, help="a trade answer or a purchase")
    parser.add_argument("--rollouts", type=int, default=400, help="per choice")
    args = parser.parse_args()
    step = max(1, args.rollouts // CHUNKS)
    for fresh in (True, False):
        jobs = [(args.seed, args.index, fresh, a, min(a + step, args.rollouts))
                for a in range(0, args.rollouts, step)]
        with Pool(2) as pool:
            parts = pool.map(play, jobs)
        values: dict[str, list[float]] = {}
        for part in parts:
            for choice, shares in part.items():
                values.setdefault(choice, []).extend(shares)
        line = [f"{c} {100 * sum(v) / len(v):.1f}" for c, v in values.items()]
        first, second = list(values.values())[:2]
        d = [a - b for a, b in zip(first, second, strict=True)]
        m = sum(d) / len(d)
        se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d))
        bots = "fresh bots" if fresh else "the game's own bots"
        print(f"{bots}: {' | '.join(line)} | "
              f"difference {100 * m:.1f} ± {100 * se:.1f}")


if __name__ == "__main__":
    main()
