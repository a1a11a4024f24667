"""The Gymnasium environment: one learner against bots that play inside step()."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from ugentopoly_widget import SetupError  # noqa: E402
from ugentopoly_widget.engine.bots import HeuristicBot  # noqa: E402
from ugentopoly_widget.rl import MaskedActionError, SingleAgentEnv  # noqa: E402


@pytest.mark.parametrize("profile,opponents", [
    ("classic", ["heuristic", "heuristic", "random"]),
    ("ugentopoly", ["random"]),
    ("cell22", ["heuristic", "random"]),
])
@pytest.mark.filterwarnings("ignore:.*not having a spec")
def test_gymnasium_check_env(profile: str, opponents: list[str]) -> None:
    env = SingleAgentEnv(profile, seat=1, opponents=opponents, max_turns=300)
    check_env(env, skip_render_check=True)
    check_env(SingleAgentEnv(profile, opponents=opponents, render_mode="ansi"))


def play(env: SingleAgentEnv, rng: random.Random, episodes: int) -> list[tuple[float, bool, bool]]:
    outcomes = []
    for episode in range(episodes):
        obs, info = env.reset(seed=episode)
        total, terminated, truncated = 0.0, False, False
        while not (terminated or truncated):
            mask = env.action_masks()
            assert mask.dtype == bool and np.array_equal(mask, info["action_mask"].astype(bool))
            assert env.observation_space.contains(obs)
            assert env.game.decision.player == env.seat  # the bots played meanwhile
            if env.skip_forced:
                assert mask.sum() > 1 or env.action_names[int(mask.argmax())] == "bankrupt"
            legal = np.flatnonzero(mask)
            index = int(legal[rng.randrange(len(legal))])
            obs, reward, terminated, truncated, info = env.step(index)
            total += reward
        assert env.action_masks().all()  # over: anything (a vector env's autoreset ignores it)
        outcomes.append((total, terminated, truncated))
    return outcomes


def test_the_learners_reward_is_its_own_result() -> None:
    env = SingleAgentEnv("cell22", seat=0, opponents=["random"], max_turns=400)
    outcomes = play(env, random.Random(1), 12)
    finished = [o for o in outcomes if o[1]]
    assert finished and {o[0] for o in finished} <= {1.0, -1.0}
    for total, terminated, truncated in outcomes:
        if truncated:
            assert total == 0.0 and not terminated
    game = env.game
    if game.is_over:
        assert (outcomes[-1][0] == 1.0) == (0 in game.winners)


def test_forced_decisions_are_taken_for_the_learner_unless_asked() -> None:
    env = SingleAgentEnv("ugentopoly", opponents=["heuristic"], skip_forced=False)
    env.reset(seed=3)
    rolls = 0
    for _ in range(40):
        mask = env.action_masks()
        rolls += env.action_names[int(mask.argmax())] == "roll" and mask.sum() == 1
        env.step(int(np.flatnonzero(mask)[0]))
    assert rolls > 10
    play(SingleAgentEnv("ugentopoly", opponents=["heuristic"], max_turns=200), random.Random(2), 3)


def test_opponents_may_be_bots_or_encoded_policies() -> None:
    calls = []

    def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append(observation.shape)
        return int(np.flatnonzero(mask)[-1])

    env = SingleAgentEnv("classic", opponents=[HeuristicBot(seed=1), first_legal],
                         max_turns=60)
    play(env, random.Random(4), 2)
    assert calls and calls[0] == env.observation_space.shape

    def cheat(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    env = SingleAgentEnv("classic", seat=1, opponents=[cheat])
    with pytest.raises(MaskedActionError):
        env.reset(seed=0)
        for _ in range(50):
            env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_a_masked_out_action_loses_or_raises() -> None:
    env = SingleAgentEnv("classic", opponents=["random"])
    obs, _ = env.reset(seed=5)
    digest = env.game.digest()
    bad = int(np.flatnonzero(~env.action_masks())[0])
    obs2, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == env.action_names[bad] and env.game.digest() == digest
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    strict = SingleAgentEnv("classic", opponents=["random"], illegal_action="raise")
    strict.reset(seed=5)
    with pytest.raises(MaskedActionError, match="is masked out"):
        strict.step(bad)
    assert strict.game.digest() == digest


@pytest.mark.parametrize("kwargs,message", [
    ({"opponents": []}, "one opponent per other seat"),
    ({"opponents": 42}, "one opponent per other seat"),
    ({"opponents": "heuristic", "players": 1}, "players is the number of seats"),
    ({"opponents": ["wizard"]}, "unknown opponent"),
    ({"opponents": [42]}, "a bot name, a bot or a policy"),
    ({"seat": 2}, "seat is a seat number"),
    ({"illegal_action": "ignore"}, "illegal_action"),
])
def test_bad_set_up_is_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        SingleAgentEnv("classic", **kwargs)


def test_seeded_episodes_repeat() -> None:
    def episode() -> tuple[list[int], str]:
        env = SingleAgentEnv("classic", opponents=["heuristic", "random"], max_turns=80)
        env.reset(seed=9)
        rng = random.Random(0)
        taken = []
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            taken.append(int(legal[rng.randrange(len(legal))]))
            _, _, terminated, truncated, _ = env.step(taken[-1])
            done = terminated or truncated
        return taken, env.game.digest()

    assert episode() == episode()


def test_discounted_shaping_adds_up_to_a_constant() -> None:
    """With shaping_gamma the learner's discount, a step's shaping is c * (gamma * share after -
    share before): the discounted return is the discounted sparse return minus c times the
    share at the first decision, whatever was played (Ng, Harada and Russell's condition for
    the best policy to stay the best)."""
    c, gamma = 2.0, 0.9
    for seed in range(3):
        env = SingleAgentEnv("cell22", opponents=["random"], reward_shaping=c,
                             shaping_gamma=gamma, options={"round_limit": 40})
        env.reset(seed=seed)
        values = env.game.valuations()
        start = max(0, values[0]) / sum(max(0, v) for v in values)
        rng = random.Random(seed)
        discounted, t, done = 0.0, 0, False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, reward, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
            discounted += gamma ** t * reward
            t += 1
            done = terminated or truncated
        sparse = {"win": 1.0, "loss": -1.0, "truncated": 0.0}[info["result"]]
        assert t >= 3 and discounted == pytest.approx(gamma ** (t - 1) * sparse - c * start,
                                                     abs=1e-9)
    with pytest.raises(SetupError, match="shaping_gamma"):
        SingleAgentEnv("cell22", shaping_gamma=0)
