"""The judge at a rollout's end (rollouts/analysis/evaluate.py): a finished game's shares are
exact; otherwise the calibrated model, whose rent term values houses built."""

from __future__ import annotations

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import make_bot, play_game
from ugentopoly_widget.rollouts.analysis.evaluate import Evaluator, model_z


def orange(houses: int, cash: int) -> Game:
    return Game.scenario("classic", players=["Ann", "Bob"], owners={"orange": "Ann"},
                         buildings={"orange": houses} if houses else None,
                         cash={"Ann": cash, "Bob": 1500}, current="Bob")


def test_houses_built_are_worth_more_than_their_price_in_cash() -> None:
    """Nine houses on orange (900) against the 900 kept: the houses win more often; without
    the rent term the model saw them as even (houses count at half their price in the
    valuation)."""
    judge = Evaluator()
    built = judge(orange(3, 600))
    kept = judge(orange(0, 1500))
    assert sum(built) == pytest.approx(1) and sum(kept) == pytest.approx(1)
    assert built[0] > kept[0] + 0.05
    assert model_z(1000, 1000, 100) < model_z(1000, 1000, 0)  # rent to pay lowers a chance


def test_a_finished_game_is_valued_exactly() -> None:
    game = Game("classic", players=["Ann", "Bob"], seed=3)
    play_game(game, [make_bot("strong", 1), make_bot("strong", 2)])
    assert game.is_over
    shares = Evaluator()(game)
    assert shares == [1.0 if k in game.winners else 0.0 for k in range(2)]
