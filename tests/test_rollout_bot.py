"""The rollout bot: which decisions it thinks about, that it overrules the strong bot it starts
from only when the rollouts say so, and that it plays as "rollout" in simulate() and in a
widget seat. (Its strength is measured by benchmarks/bench_bots.py --cases rollout.)"""

from __future__ import annotations

import pytest

from ugentopoly_widget import Game, SetupError, simulate
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.engine.strong.bot import StrongBot
from ugentopoly_widget.rollouts.bot import RolloutBot
from ugentopoly_widget.widget import UgentopolyWidget


def last_orange_lot(ann_cash: int) -> Game:
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=1, current="Ann",
                         owners={16: "Ann", 18: "Ann", 21: "Bob", 23: "Bob"},
                         cash={"Ann": ann_cash, "Bob": 1500}, positions={"Ann": 14})
    game.testing.script_dice((2, 3))
    game.act("roll")  # Ann on New York Avenue
    return game


def test_the_decisions_it_thinks_about() -> None:
    bot = RolloutBot(seed=1)
    game = last_orange_lot(900)
    default = bot.base.choose(game)
    assert [a.type for a in bot.candidates(game, default)] == ["buy", "decline"]
    start = Game("classic", players=2, seed=3)
    roll = start.legal_actions()[0]
    assert bot.candidates(start, roll) == [roll]  # nothing to think about: no rollouts
    before = bot.stats["thought"]
    bot.choose(start)
    assert bot.stats["thought"] == before


def test_it_overrules_the_strong_bot_only_when_the_rollouts_say_so() -> None:
    """On the last orange lot the strong bot buys; a strong bot told to decline is put right
    by the rollouts (declining costs points, see test_rollouts), unless the margin asks for
    more certainty than the rollouts give."""

    class Thrifty(RolloutBot):
        def choose(self, game: Game) -> A.Action:  # the strong bot told to decline
            self.base = _Decliner(seed=1)
            return super().choose(game)

    game = last_orange_lot(900)
    thrifty = Thrifty(seed=2, rollouts=72)
    assert thrifty.choose(game).type == "buy"
    assert thrifty.stats["changed"] == 1
    # with an impossible margin, noise never overrules the strong bot
    stubborn = Thrifty(seed=2, rollouts=72, margin=1000.0)
    assert stubborn.choose(game).type == "decline"


class _Decliner(StrongBot):
    def choose(self, game: Game) -> A.Action:
        for action in game.legal_actions():
            if action.type == "decline":
                return action
        return super().choose(game)


def test_a_game_against_the_heuristic_and_simulate_by_name() -> None:
    game = Game("classic", players=2, seed=4)
    bot = RolloutBot(seed=4, rollouts=8)
    play_game(game, [bot, HeuristicBot(seed=5)], until_turn=40)
    assert bot.stats["thought"] > 0 and bot.stats["seconds"] > 0
    results = simulate(2, "classic", bots=["rollout", "heuristic"], progress=False,
                       collect=(), options={"round_limit": 6})
    assert results.games.bot_0.tolist() == ["rollout", "rollout"]
    assert len(results.games) == 2
    with pytest.raises(SetupError, match="'heuristic', 'random', 'strong', 'rollout'"):
        simulate(2, "classic", bots=["genius", "heuristic"], progress=False)


def test_a_widget_seat_plays_rollout() -> None:
    w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=2,
                         seats=["rollout", "heuristic"])
    assert "rollout" in w.lobby["seat_kinds"]
    w.play_bots(turns=12)
    assert isinstance(w._bots[0], RolloutBot) and w.game.turn_number >= 12
    w.close()
