"""What a student who knows Gymnasium and PettingZoo expects of the environments: ids and
specs, render_mode="human", the result in the last info, masks after a vector autoreset,
pickling and deep copies with the same future, named errors for calls out of order."""

from __future__ import annotations

import copy
import pickle
import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from ugentopoly_widget import Game, SetupError, rl  # noqa: E402
from ugentopoly_widget.rl import ResetNeededError, SingleAgentEnv  # noqa: E402

PROFILES = ("classic", "ugentopoly", "cell22")


# ---------------------------------------------------------------------- call order

def test_raw_env_calls_before_reset_and_after_the_end_are_named() -> None:
    env = rl.raw_env("cell22", players=2, max_turns=40)
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0")):
        with pytest.raises(ResetNeededError, match="call reset"):
            call()
    env.reset(seed=1)
    rng = random.Random(1)
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if terminated or truncated else int(legal[rng.randrange(len(legal))]))
    digest = env.game.digest()
    with pytest.raises(ResetNeededError, match="every agent's episode has ended"):
        env.step(0)
    assert env.game.digest() == digest
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))  # playable again


def test_single_agent_env_step_before_reset_is_named() -> None:
    env = SingleAgentEnv("cell22", opponents="random")
    with pytest.raises(ResetNeededError, match="before the first reset"):
        env.step(0)


# ---------------------------------------------------------------------- copies

def masked_random(env: Any, rng: random.Random, steps: int) -> list[tuple[Any, ...]]:
    """`steps` steps of a seeded random masked policy on an AEC env or a Gymnasium env; what
    each step saw (observation bytes, reward, ends), resetting (unseeded) at the end."""
    seen: list[tuple[Any, ...]] = []
    aec = hasattr(env, "agent_iter")
    for _ in range(steps):
        if aec:
            if not env.agents:
                env.reset()
            obs, reward, terminated, truncated, _ = env.last()
            seen.append((env.agent_selection, obs["observation"].tobytes(), reward,
                         terminated, truncated))
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if terminated or truncated else int(legal[rng.randrange(len(legal))]))
        else:
            legal = np.flatnonzero(env.action_masks())
            obs, reward, terminated, truncated, info = env.step(
                int(legal[rng.randrange(len(legal))]))
            seen.append((obs.tobytes(), reward, terminated, truncated, info.get("winner")))
            if terminated or truncated:
                env.reset()
    return seen


MAKERS: dict[str, Callable[[], Any]] = {
    "raw_env": lambda: rl.raw_env("classic", players=3, max_turns=120, reward_shaping=0.5),
    "env": lambda: rl.env("cell22", players=2, max_turns=80),
    "single": lambda: SingleAgentEnv("classic", opponents=["heuristic", "random"],
                                     max_turns=150),
    "single-uniform": lambda: SingleAgentEnv("ugentopoly", opponents="uniform", players=3),
    "curriculum": lambda: SingleAgentEnv("cell22", opponents="curriculum"),
}


@pytest.mark.parametrize("make", list(MAKERS))
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_copies_step_the_same_future(make: str, how: str) -> None:
    """A copy made before the first reset, and one made mid-episode, play the same future as
    the original under the same actions: the game, the generators (dice, bots, the next
    reset's seed), the episode's bookkeeping and a curriculum's level."""
    def duplicate(env: Any) -> Any:
        return pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)

    env = MAKERS[make]()
    fresh = duplicate(env)
    for e in (env, fresh):
        e.reset(seed=5)
    assert masked_random(env, random.Random(1), 60) == masked_random(fresh, random.Random(1), 60)
    twin = duplicate(env)
    assert twin.game is not env.game and twin.game.digest() == env.game.digest()
    assert masked_random(env, random.Random(2), 400) == masked_random(twin, random.Random(2), 400)
    assert twin.game.digest() == env.game.digest()


def test_a_game_pickles_and_copies_with_its_dice_to_come() -> None:
    game = Game("classic", players=2, seed=9)
    for _ in range(150):
        game.apply(game.legal_actions()[-1])
    game.testing.script_dice((3, 4))  # a testing step pending in the copy too
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert twin.digest() == game.digest() and twin.board is game.board
        original = copy.deepcopy(game)
        for _ in range(200):
            if original.is_over:
                break
            action = original.legal_actions()[-1]
            assert twin.legal_actions()[-1] == action
            original.apply(action)
            twin.apply(action)
        assert twin.digest() == original.digest() and twin.log() == original.log()


def test_a_watched_environment_copies_without_its_viewers() -> None:
    class Viewer:
        game: Any = None

    env = rl.raw_env("cell22", players=2)
    viewer = env.watch(Viewer())
    env.reset(seed=1)
    twin = pickle.loads(pickle.dumps(env))
    twin.reset(seed=2)
    assert viewer.game is env.game is not twin.game


# ---------------------------------------------------------------------- Gymnasium ids

@pytest.mark.parametrize("profile", PROFILES)
def test_gymnasium_make_every_profile(profile: str) -> None:
    key = {"classic": "Classic", "ugentopoly": "Ugentopoly", "cell22": "Cell22"}[profile]
    env = gymnasium.make(f"ugentopoly_widget/{key}-v0", opponents="random", max_turns=300)
    assert env.spec is not None and env.spec.id == f"ugentopoly_widget/{key}-v0"
    assert env.unwrapped.match.profile == profile
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    # MaskablePPO reads the mask through the wrappers (get_wrapper_attr)
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"] > 0)
    made = gymnasium.make(env.spec)  # the spec makes the same environment again
    assert made.unwrapped.match.max_turns == 300
    direct = SingleAgentEnv(profile, opponents="random")
    assert direct.spec is not None and direct.spec.id == env.spec.id
    module_form = gymnasium.make(f"ugentopoly_widget.rl:ugentopoly_widget/{key}-v0")
    assert isinstance(module_form.unwrapped, SingleAgentEnv)


# ---------------------------------------------------------------------- render_mode="human"

@pytest.mark.parametrize("profile", PROFILES)
def test_checkers_pass_with_human_rendering(profile: str, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(rl.env(profile, players=2, max_turns=60, render_mode="human"), num_cycles=60)
    seed_test(lambda: rl.env(profile, players=2, max_turns=60, render_mode="human"),
              num_cycles=60)
    check_env(SingleAgentEnv(profile, opponents="random", max_turns=200, render_mode="human"))
    printed = capsys.readouterr().out
    assert "Decision:" in printed and "player_0" in printed and "Player 1" not in printed


def test_human_mode_shows_every_step_and_render_returns_none(
        capsys: pytest.CaptureFixture[str]) -> None:
    env = SingleAgentEnv("cell22", opponents="random", render_mode="human")
    env.reset(seed=3)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert env.render() is None
    boards = capsys.readouterr().out.count("Decision:")
    assert boards == 3  # the reset, the step, render()


# ---------------------------------------------------------------------- the last info

def test_the_last_info_names_the_winner_and_the_ranking() -> None:
    env = SingleAgentEnv("ugentopoly", opponents="heuristic")  # 100 rounds: always a winner
    for seed in range(4):
        env.reset(seed=seed)
        rng = random.Random(seed)
        done, total = False, 0.0
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, reward, terminated, truncated, info = env.step(
                int(legal[rng.randrange(len(legal))]))
            total += reward
            done = terminated or truncated
        game = env.game
        assert terminated and not truncated and game.is_over
        winner = f"player_{game.winners[0]}"
        assert info["winner"] == winner == info["ranking"][0]
        assert info["result"] == ("win" if winner == "player_0" else "loss")
        assert info["net_worths"] == {f"player_{i}": game.net_worth(i) for i in range(2)}
        assert info["end_reason"] in ("round_limit", "bankruptcy", "last_player_standing")
        assert info["return"] == total and info["steps"] >= 1 and info["turns"] > 0
        assert info["opponents"] == ["heuristic"]


def test_aec_infos_carry_the_result_to_every_agent() -> None:
    env = rl.raw_env("classic", players=3, max_turns=2000)
    env.reset(seed=4)
    rng = random.Random(4)
    finals: dict[str, dict[str, Any]] = {}
    while env.agents:
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            finals[env.agent_selection] = info
            env.step(None)
            continue
        assert info == {}
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    game = env.game
    assert game.is_over and set(finals) == {"player_0", "player_1", "player_2"}
    winner = f"player_{game.winners[0]}"
    out = [a for a, info in finals.items() if info["end_reason"] == "bankrupt"]
    assert len(out) == 1 and finals[out[0]]["result"] == "loss"
    for agent, info in finals.items():
        if agent not in out:
            assert info["winner"] == winner and info["ranking"] == [
                f"player_{s}" for s in game.ranking]
            assert info["result"] == ("win" if agent == winner else "loss")


def test_truncation_says_so() -> None:
    env = SingleAgentEnv("ugentopoly", opponents="random", options={"round_limit": None},
                         max_turns=20)
    env.reset(seed=1)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        done = terminated or truncated
    assert truncated and info["result"] == "truncated" and info["winner"] is None
    assert info["end_reason"] == "max_turns" and len(info["ranking"]) == 2


def test_ugentopoly_ends_by_default_and_the_round_limit_can_be_lifted() -> None:
    assert rl.raw_env("ugentopoly").game.rules.round_limit == 100
    assert rl.raw_env("cell22").game.rules.round_limit == 200
    assert rl.raw_env("classic").game.rules.round_limit is None
    assert rl.raw_env("ugentopoly", options={"round_limit": None}).game.rules.round_limit is None
    assert SingleAgentEnv("ugentopoly", options={"turn_limit": 50}).game.rules.round_limit \
        is None


# ---------------------------------------------------------------------- vector envs

@pytest.mark.parametrize("vector", ["sync", "async"])
def test_no_all_zero_mask_after_an_autoreset(vector: str) -> None:
    """Gymnasium's vector envs reset a finished sub-environment at the next step (autoreset),
    ignoring that step's action: the mask of a finished episode must still hold something, or
    a masked sampler (and MaskablePPO's distribution) fails on it."""
    cls = gymnasium.vector.SyncVectorEnv if vector == "sync" else gymnasium.vector.AsyncVectorEnv
    envs = cls([lambda: SingleAgentEnv("cell22", opponents="random",
                                       options={"round_limit": 4})] * 2)
    try:
        _, infos = envs.reset(seed=1)
        rng = np.random.default_rng(0)
        ends = 0
        for _ in range(120):
            masks = infos["action_mask"]
            assert masks.shape == (2, envs.single_action_space.n) and masks.any(axis=1).all()
            actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
            _, _, terminated, truncated, infos = envs.step(np.array(actions))
            ends += int((terminated | truncated).sum())
        assert ends >= 4
    finally:
        envs.close()


# ---------------------------------------------------------------------- opponents

def test_uniform_opponents_pick_uniformly_over_the_mask() -> None:
    policy = rl.UniformPolicy(seed=1)
    mask = np.zeros(10, dtype=np.int8)
    mask[[2, 5, 7]] = 1
    counts = np.bincount([policy(np.zeros(3), mask) for _ in range(3000)], minlength=10)
    assert set(np.flatnonzero(counts)) == {2, 5, 7} and counts[[2, 5, 7]].min() > 900
    env = SingleAgentEnv("classic", opponents="uniform", players=3)
    env.reset(seed=2)
    assert env.match.n == 3
    with pytest.raises(SetupError, match="2 opponents for 4 players"):
        SingleAgentEnv("classic", opponents=["random", "uniform"], players=4)
    with pytest.raises(SetupError, match="unknown opponent"):
        SingleAgentEnv("classic", opponents="wizard")
