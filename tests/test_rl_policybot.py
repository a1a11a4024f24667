"""A trained policy as an engine bot (rl.PolicyBot): it plays as the environment's agent would,
in simulate() and in a widget's seat; the widget's lobby offers it; evaluate() counts wins."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from test_widget_sync import FakeFrontEnd  # noqa: E402

from ugentopoly_widget import SetupError, rl  # noqa: E402
from ugentopoly_widget.rl import MaskedActionError, PolicyBot, SingleAgentEnv  # noqa: E402
from ugentopoly_widget.simulation import simulate  # noqa: E402
from ugentopoly_widget.widget import UgentopolyWidget  # noqa: E402


def linear(seed: int, n_obs: int, n_act: int) -> Any:
    """A fixed random linear policy in NumPy: argmax over the masked logits (a stand-in for a
    trained network)."""
    weights = np.random.default_rng(seed).normal(size=(n_act, n_obs))

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.argmax(np.where(mask > 0, weights @ observation, -np.inf)))
    return policy


class Predictor:
    """The shape of a stable-baselines3 model: predict(obs, action_masks=..., deterministic)."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.calls = 0

    def predict(self, observation: np.ndarray, action_masks: np.ndarray | None = None,
                deterministic: bool = False) -> tuple[np.ndarray, None]:
        assert action_masks is not None and action_masks.dtype == bool
        self.calls += 1
        batch = observation.reshape(-1, observation.shape[-1])
        masks = action_masks.reshape(batch.shape[0], -1)
        return np.array([self.policy(o, m.astype(np.int8)) for o, m in zip(batch, masks,
                                                                             strict=True)]), None


def test_a_policy_bot_plays_as_the_environments_agent_would() -> None:
    """The same policy as an encoded opponent and as a PolicyBot (an engine bot): the same
    games, action for action."""
    env = SingleAgentEnv("classic", opponents="random")
    policy = linear(1, env.observation_space.shape[0], env.action_space.n)
    digests = []
    for opponent in (policy, PolicyBot(Predictor(policy), max_turns=200)):
        env = SingleAgentEnv("classic", opponents=[opponent], max_turns=200)
        rng = random.Random(3)
        for seed in range(3):
            env.reset(seed=seed)
            done = False
            while not done:
                legal = np.flatnonzero(env.action_masks())
                _, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
                done = terminated or truncated
            digests.append(env.game.digest())
    assert digests[:3] == digests[3:]


def test_a_policy_bot_plays_in_simulate_and_refuses_a_masked_out_choice() -> None:
    env = SingleAgentEnv("cell22", opponents="random")
    bot = PolicyBot(linear(2, env.observation_space.shape[0], env.action_space.n))
    results = simulate(4, "cell22", bots=[lambda seed: bot, "heuristic"], progress=False,
                       collect=(), options={"round_limit": 30})
    assert len(results.games) == 4

    def cheat(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    game = rl.raw_env("cell22", players=2).game
    with pytest.raises(MaskedActionError, match="agent's policy chose action"):
        PolicyBot(cheat).choose(game)
    with pytest.raises(SetupError, match="a policy is"):
        PolicyBot(42)


def test_a_policy_bot_takes_a_widget_seat_and_the_lobby_offers_it() -> None:
    env = SingleAgentEnv("classic", opponents="random")
    bot = PolicyBot(linear(3, env.observation_space.shape[0], env.action_space.n),
                    name="my agent")
    w = UgentopolyWidget("classic", players=["Ann", "Bot"], seed=4, seats=["heuristic", bot])
    assert w.seats == ["heuristic", "my agent"] and "my agent" in w.lobby["seat_kinds"]
    w.play_bots(turns=20)
    assert w.game.turn_number >= 20 and w._bots[1] is bot
    assert any(a.player == 1 for a in w.game.actions)
    # the lobby starts a new game with the agent in a seat
    fe = FakeFrontEnd(w)
    players = [{"name": "A", "token": "hat", "colour": "#111111", "seat": "person"},
               {"name": "B", "token": "dog", "colour": "#222222", "seat": "my agent"}]
    fe.request({"type": "setup", "profile": "classic", "players": players,
                "seq": w.state["seq"]})
    assert w.seats == ["person", "my agent"] and not w.error
    players[1]["seat"] = "nobody"
    fe.request({"type": "setup", "profile": "classic", "players": players,
                "seq": w.state["seq"]})
    assert "seat is one of" in w.error["message"] and "my agent" in w.error["message"]
    with pytest.raises(SetupError, match="built-in seat kind"):
        w.add_bot(PolicyBot(lambda o, m: 0, name="heuristic"))
    with pytest.raises(SetupError, match="another bot is seated"):
        w.add_bot(PolicyBot(lambda o, m: 0, name="my agent"))
    with pytest.raises(SetupError, match="choose"):
        w.add_bot(object(), name="x")
    w.close()


def test_evaluate_counts_wins_with_an_interval() -> None:
    result = rl.evaluate("uniform", "cell22", "random", games=24, batch=8, max_turns=300)
    assert result.games == 24 == result.wins + result.losses + result.truncated
    assert 0 <= result.low <= result.win_rate <= result.high <= 1
    assert "against random" in str(result)
    env = SingleAgentEnv("cell22", opponents="random")
    model = Predictor(linear(5, env.observation_space.shape[0], env.action_space.n))
    batched = rl.evaluate(model, "cell22", "random", games=12, batch=6, max_turns=300)
    one_by_one = rl.evaluate(model.policy, "cell22", "random", games=12, batch=1,
                             max_turns=300)
    assert (batched.wins, batched.losses) == (one_by_one.wins, one_by_one.losses)
    assert model.calls < 12 * 50  # one predict per step for the whole batch
    with pytest.raises(SetupError, match="games"):
        rl.evaluate("uniform", games=0)
