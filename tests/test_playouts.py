"""Seeded random playouts of every profile and mode, invariants checked after every action.

The default run plays 200 complete games per profile/mode; `pytest -m soak` plays 2000.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from invariants import check_ledger, check_state, money_snapshot

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("ugentopoly", {"turn_limit": 150}, 4),
    ("ugentopoly", {"turn_limit": 150, "max_jail_turns": 2, "rank_by": "net_worth",
                    "end_when_money_reaches_zero": True,
                    "card_move_to_jail_tile_jails": True}, 3),
    ("classic", {"turn_limit": 400}, 4),
    ("classic", {"turn_limit": 400, "mode": "short"}, 3),
    ("classic", {"turn_limit": 150, "mode": "timed", "time_limit_minutes": 60}, 4),
    ("classic", {"turn_limit": 400, "free_parking_pot": True, "income_tax_choice": False,
                 "bank_houses": 8, "bank_hotels": 2}, 4),
    ("cell22", {"turn_limit": 300}, 4),
    ("cell22", {"turn_limit": 300, "dice_count": 1, "round_limit": 40}, 3),
]
IDS = [f"{p}-{'-'.join(f'{k}={v}' for k, v in o.items() if k != 'turn_limit')}"
       for p, o, _ in CONFIGS]


def play_checked(profile: str, options: dict[str, Any], players: int, seed: int) -> Game:
    game = Game(profile, players=players, seed=seed, options=options)
    rng = random.Random(seed)
    # a mix of random and heuristic seats, so both odd and sensible play are covered
    bots = [RandomBot(seed=seed * 7 + k) if rng.random() < 0.5 else HeuristicBot(seed=k)
            for k in range(players)]
    check_state(game)
    for _ in range(200_000):
        if game.is_over:
            break
        before = money_snapshot(game)
        player = game.decision.player
        assert player is not None
        events = game.apply(bots[player].choose(game))
        check_ledger(before, money_snapshot(game), events)
        check_state(game)
    assert game.is_over, "the game did not end"
    assert game.winners and set(game.winners) <= set(game.ranking)
    assert sorted(game.ranking) == list(range(players))
    return game


@pytest.mark.parametrize(("profile", "options", "players"), CONFIGS, ids=IDS)
def test_random_playouts(profile: str, options: dict[str, Any], players: int) -> None:
    reasons: dict[str, int] = {}
    for seed in range(200):
        game = play_checked(profile, options, players, seed)
        reason = game._engine.over_reason
        reasons[reason] = reasons.get(reason, 0) + 1
    print(profile, options, reasons)


@pytest.mark.soak
@pytest.mark.parametrize(("profile", "options", "players"), CONFIGS, ids=IDS)
def test_soak_playouts(profile: str, options: dict[str, Any], players: int) -> None:
    for seed in range(1000, 3000):
        play_checked(profile, options, players, seed)


@pytest.mark.parametrize("profile", ["ugentopoly", "classic", "cell22"])
def test_same_seed_same_game_despite_global_random(profile: str) -> None:
    logs = []
    for disturb in (1, 2):
        random.seed(disturb)
        game = Game(profile, players=3, seed=99, options={"turn_limit": 120})
        bots = [RandomBot(seed=k) for k in range(3)]
        while not game.is_over:
            random.random()  # the global generator must not matter
            random.seed(random.random())
            game.apply(bots[game.decision.player or 0].choose(game))
        logs.append(game.log("en"))
    assert logs[0] == logs[1]
    assert len(logs[0]) > 100


def test_different_seeds_differ() -> None:
    a = Game("ugentopoly", players=2, seed=1)
    b = Game("ugentopoly", players=2, seed=2)
    for game in (a, b):
        for _ in range(30):
            game.apply(RandomBot(seed=0).choose(game))
    assert a.log() != b.log()
