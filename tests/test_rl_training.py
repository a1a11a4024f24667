"""The training path: demonstrations of the house bots (NumPy only), and the recipe of
rl.sb3 (stable-baselines3 + sb3-contrib: those tests are skipped where the learner is not
installed, as in CI; they never count as passed there)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from ugentopoly_widget import rl  # noqa: E402
from ugentopoly_widget.engine import actions as A  # noqa: E402
from ugentopoly_widget.engine.bots import BotError, make_bot  # noqa: E402
from ugentopoly_widget.rl.imitation import demonstrations, nearest_index  # noqa: E402

HAS_SB3 = importlib.util.find_spec("sb3_contrib") is not None
needs_sb3 = pytest.mark.skipif(not HAS_SB3, reason="stable-baselines3 / sb3-contrib absent")


@pytest.mark.parametrize("teacher", ["heuristic", "strong"])
def test_the_teachers_choices_map_to_masked_in_indices(teacher: str) -> None:
    """Every decision of the teacher maps to an index that is masked in; a fixed action
    maps to itself, a bid to the highest level not above it."""
    env = rl.SingleAgentEnv("classic", opponents="heuristic", max_turns=300)
    bot = make_bot(teacher, seed=1)
    kinds = set()
    for seed in range(3):
        env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            game, codec = env.game, env.match.codec
            action = bot.choose(game)
            index = nearest_index(codec, game, action, mask)
            assert mask[index], (action, codec.names[index])
            fixed = codec.index_of(action)
            if fixed is not None and mask[fixed]:
                assert index == fixed
            if isinstance(action, A.Bid):
                amount = codec.bid_amounts(game)[index - codec.bid0]
                assert amount <= action.amount or amount == game.decision.data["min_bid"]
            kinds.add(codec.names[index].split(":")[0])
            _, _, terminated, truncated, _ = env.step(index)
            done = terminated or truncated
    assert {"buy", "end_turn", "build", "bid"} <= kinds


def test_demonstrations_hold_the_teachers_rows_and_returns() -> None:
    demos = demonstrations("cell22", games=4, gamma=0.5, options={"round_limit": 20})
    n = len(demos)
    assert n > 20 and demos.observations.shape[0] == demos.masks.shape[0] == n
    assert demos.masks[np.arange(n), demos.actions].all()  # every action masked in
    assert demos.games == 4 and 0 <= demos.wins <= 4
    # no shaping: a row's return is the game's result discounted by 0.5 per decision to go
    returns = demos.returns[demos.returns != 0]
    exponents = np.log2(np.abs(returns))
    assert np.allclose(exponents, np.round(exponents), atol=1e-4) and exponents.max() == 0
    assert (np.abs(returns) == 1).sum() == 4  # each game's last decision: its result


@needs_sb3
def test_the_recipe_trains_saves_and_seats_a_model(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    from ugentopoly_widget.rl.sb3 import train

    run = train("cell22", "random", steps=512, n_envs=2, imitation_games=2, imitation_epochs=2,
                ppo={"n_steps": 64, "batch_size": 64, "policy_kwargs": {"net_arch": [16]}},
                env_kwargs={"options": {"round_limit": 20}}, log_every=256, eval_every=256,
                eval_games=4, eval_opponents=("heuristic", "random"), final_games=4,
                verbose=False)
    assert run.curve and run.curve[-1]["steps"] >= 512
    first = run.curve[0]  # the curve starts from the policy before any update
    assert first["steps"] == 0 and {"eval_win_heuristic", "eval_win_random"} <= set(first)
    assert any(row["steps"] >= 256 and "eval_win_random" in row for row in run.curve[1:])
    assert run.imitation["imitation_rows"] > 0
    assert run.imitation["imitation_teacher"] == "strong"  # the recipe's default teacher
    assert set(run.final) == {"heuristic", "strong", "random"}
    assert run.final["random"].games == 4
    path = tmp_path / "agent.zip"
    run.model.save(path)
    model = MaskablePPO.load(path)
    bot = rl.PolicyBot(model)
    game = rl.raw_env("cell22", players=2).game
    action = bot.choose(game)
    assert game.is_legal(action)


@needs_sb3
def test_keep_best_ends_with_the_policy_that_won_most() -> None:
    """keep_best restores the evaluated policy that won most: evaluated again with the same
    games it wins exactly as often as it did then (the evaluation plays the most likely
    action, game k seeded with k)."""
    from ugentopoly_widget.rl.sb3 import train

    # a learning rate far too high: 256 steps of PPO spoil the clone (0.625 -> 0.0 of 8 games)
    run = train("cell22", "random", steps=256, n_envs=2, imitation_games=2,
                imitation_epochs=2, ppo={"n_steps": 64, "batch_size": 64, "learning_rate": 3e-2,
                                         "policy_kwargs": {"net_arch": [16]}},
                env_kwargs={"options": {"round_limit": 20}}, log_every=256, eval_every=256,
                eval_games=8, eval_opponents=("random",), verbose=False)
    evaluated = [row for row in run.curve if "eval_win_random" in row]
    best = max(evaluated, key=lambda row: row["eval_win_random"])  # the first of equals
    # the last row evaluates the final policy: it must be worse, or the test proves nothing
    assert evaluated[-1] is run.curve[-1]
    assert evaluated[-1]["eval_win_random"] < best["eval_win_random"]
    assert run.kept_steps == best["steps"] == 0
    again = rl.evaluate(run.model, "cell22", "random", games=8, options={"round_limit": 20})
    assert again.win_rate == best["eval_win_random"]


@needs_sb3
def test_an_unknown_teacher_is_refused_before_training() -> None:
    from ugentopoly_widget.rl.sb3 import train

    with pytest.raises(BotError, match="unknown bot 'grandmaster'"):
        train("cell22", "random", steps=64, teacher="grandmaster", verbose=False)


@needs_sb3
def test_self_play_adds_frozen_copies_of_the_learner() -> None:
    from ugentopoly_widget.rl.sb3 import train

    run = train("cell22", "self", steps=256, n_envs=1, imitation_games=0,
                ppo={"n_steps": 64, "batch_size": 64, "policy_kwargs": {"net_arch": [16]}},
                env_kwargs={"options": {"round_limit": 10}}, log_every=128, verbose=False)
    assert run.curve[-1]["steps"] >= 256
