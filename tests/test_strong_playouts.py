"""Strong-bot games of every profile, invariants checked after every action, every action of
the strong bot checked legal (a subclass goes through the validated Game.apply), and none
stuck: every game ends within its limit and no turn takes more than MAX_ACTIONS_A_TURN actions
(a bot that offers, builds or mortgages in a loop would).

The default run plays a few games per setting; ``pytest -m soak`` plays 2,000 per profile
(tests/test_strong_playouts.py::test_soak_strong_playouts; figures in docs/bots.md)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from invariants import check_ledger, check_state, money_snapshot

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot, play_game
from ugentopoly_widget.engine.strong.bot import StrongBot

MAX_ACTIONS_A_TURN = 400

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("ugentopoly", {"turn_limit": 300}, 2),
    ("ugentopoly", {"turn_limit": 300}, 4),
    ("classic", {"turn_limit": 1000}, 2),
    ("classic", {"turn_limit": 1000}, 4),
    ("classic", {"turn_limit": 600, "bank_houses": 12, "bank_hotels": 4,
                 "free_parking_pot": True}, 3),
    ("classic", {"turn_limit": 400, "mode": "short"}, 3),
    ("cell22", {"turn_limit": 400}, 2),
    ("cell22", {"turn_limit": 400}, 5),
]
IDS = [f"{p}-{n}p-{'-'.join(f'{k}={v}' for k, v in o.items() if k != 'turn_limit')}"
       for p, o, n in CONFIGS]


class CheckedStrong(StrongBot):
    """The strong bot, played through the validated Game.apply (a subclass is not trusted)."""


def seat_bots(players: int, seed: int, mix: bool) -> list[Any]:
    """Strong bots in every seat, or (mix) strong in half the seats beside heuristic and
    random ones, so that odd play meets the strong bot's answers too."""
    rng = random.Random(seed)
    out: list[Any] = []
    for k in range(players):
        pick = rng.random() if mix else 0.0
        out.append(CheckedStrong(seed=k) if pick < 0.5 or k == 0
                   else HeuristicBot(seed=k) if pick < 0.75 else RandomBot(seed=seed + k))
    return out


def play_checked(profile: str, options: dict[str, Any], players: int, seed: int,
                 mix: bool, invariants: bool = True) -> Game:
    game = Game(profile, players=players, seed=seed, options=options)
    bots = seat_bots(players, seed, mix)
    turn, actions = game.turn_number, 0
    for _ in range(1_000_000):
        if game.is_over:
            break
        before = money_snapshot(game) if invariants else None
        player = game.decision.player
        assert player is not None
        events = game.apply(bots[player].choose(game))
        if invariants:
            assert before is not None
            check_ledger(before, money_snapshot(game), events)
            check_state(game)
        if game.turn_number != turn:
            turn, actions = game.turn_number, 0
        actions += 1
        assert actions <= MAX_ACTIONS_A_TURN, f"stuck in turn {turn}: {game.log()[-5:]}"
    assert game.is_over, "the game did not end"
    assert game.winners and sorted(game.ranking) == list(range(players))
    return game


@pytest.mark.parametrize(("profile", "options", "players"), CONFIGS, ids=IDS)
def test_strong_playouts(profile: str, options: dict[str, Any], players: int) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(6):
        game = play_checked(profile, options, players, seed, mix=seed % 2 == 1)
        reasons[game._engine.over_reason] += 1
    print(profile, players, options, dict(reasons))


def test_the_trusted_path_plays_the_same_game() -> None:
    """play_game applies the strong bot's actions unchecked: the same game as through
    Game.apply, action for action."""
    for profile in ("classic", "ugentopoly", "cell22"):
        fast = Game(profile, players=3, seed=5, options={"turn_limit": 300})
        play_game(fast, [StrongBot(seed=k) for k in range(3)])
        slow = play_checked(profile, {"turn_limit": 300}, 3, 5, mix=False, invariants=False)
        assert [str(a) for a in fast.actions] == [str(a) for a in slow.actions]


@pytest.mark.soak
@pytest.mark.parametrize("profile", ["ugentopoly", "classic", "cell22"])
def test_soak_strong_playouts(profile: str) -> None:
    """2,000 games of the profile (2 to 4 players, every other one mixed with heuristic and
    random seats), invariants after every action."""
    limits = {"ugentopoly": {"turn_limit": 400}, "classic": {"turn_limit": 1500},
              "cell22": {"turn_limit": 600}}
    reasons: Counter[str] = Counter()
    for seed in range(2000):
        players = 2 + seed % 3
        game = play_checked(profile, limits[profile], players, 10_000 + seed, mix=seed % 2 == 1)
        reasons[game._engine.over_reason] += 1
    print(profile, dict(reasons))
