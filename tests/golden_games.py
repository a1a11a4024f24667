"""Seeded bot games of every profile and mode, summed up as digests of state, events and log.

The golden file ``tests/data/golden_games.json`` was written by an engine *without* the speed
work (no compiled build, fast bot paths, checkpoints or compact events): main at d6b7aee, whose
rules include the hardening fixes (fair round count, official net worth, card-chain cap). The
regression test plays the same games on the build under test and compares. Regenerate from
another checkout (run from outside both checkouts, so that the current directory does not shadow
PYTHONPATH) with:

    cd /tmp && PYTHONPATH=/path/to/checkout python /path/to/this/tests/golden_games.py \
        --write /path/to/this/tests/data/golden_games.json

Digests are computed here (not by ``Game.digest``) so that they do not depend on the code under
test: the dynamic state, every event's dict form and the English log.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot, play_game

# id -> (profile, options, players)
CONFIGS: dict[str, tuple[str, dict[str, Any], int]] = {
    "ugentopoly": ("ugentopoly", {"turn_limit": 300}, 4),
    "ugentopoly-flags": ("ugentopoly", {"turn_limit": 200, "max_jail_turns": 2,
                                         "rank_by": "net_worth",
                                         "end_when_money_reaches_zero": True,
                                         "card_move_to_jail_tile_jails": True}, 3),
    "classic": ("classic", {"turn_limit": 600}, 4),
    "classic-short": ("classic", {"turn_limit": 600, "mode": "short"}, 3),
    "classic-timed": ("classic", {"turn_limit": 300, "mode": "timed"}, 4),
    "classic-pot-shortage": ("classic", {"turn_limit": 600, "free_parking_pot": True,
                                         "income_tax_choice": False, "bank_houses": 8,
                                         "bank_hotels": 2}, 4),
    "classic-2p": ("classic", {"turn_limit": 500}, 2),
    "cell22": ("cell22", {"turn_limit": 300}, 4),
    "cell22-1die": ("cell22", {"turn_limit": 300, "dice_count": 1, "round_limit": 40}, 3),
}
MIXES = ("heuristic", "random", "mixed")
SEEDS = range(12)


def bots_for(mix: str, seed: int, players: int) -> list[RandomBot | HeuristicBot]:
    if mix == "heuristic":
        return [HeuristicBot(seed=seed * 10 + k) for k in range(players)]
    if mix == "random":
        return [RandomBot(seed=seed * 10 + k) for k in range(players)]
    return [HeuristicBot(seed=k) if k % 2 else RandomBot(seed=seed * 7 + k)
            for k in range(players)]


def summary(game: Game) -> dict[str, str]:
    """Digests of the final state, the events (dict form) and the English log."""
    def sha(value: Any) -> str:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    return {
        "state": sha(game.state()),
        "events": sha([e.to_dict() for e in game.events]),
        "log": sha(game.log("en")),
    }


def play(config: str, mix: str, seed: int) -> Game:
    profile, options, players = CONFIGS[config]
    game = Game(profile, players=players, seed=seed, options=options)
    play_game(game, bots_for(mix, seed, players))
    assert game.is_over
    return game


def generate() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for config in CONFIGS:
        for mix in MIXES:
            for seed in SEEDS:
                game = play(config, mix, seed)
                out[f"{config}/{mix}/{seed}"] = {**summary(game), "turns": str(game.turn_number)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", help="write the golden JSON here (default: print it)")
    args = parser.parse_args()
    data = generate()
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if args.write:
        with open(args.write, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
