"""Self-play through PettingZoo (rl.SelfPlayEnv): every seat's own reward at the end of a
game, whoever acted last; the opponent pool; the bankruptcy of a seat on its own action."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from ugentopoly_widget import SetupError, rl  # noqa: E402
from ugentopoly_widget.rl import ResetNeededError, SelfPlayEnv  # noqa: E402


def scripted(names: tuple[str, ...]) -> Any:
    """A policy: the first of `names` that is masked in, else the first legal index."""
    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        for name in ("bankrupt", "roll", "end_turn"):
            if name in names:
                k = names.index(name)
                if mask[k]:
                    return k
        return int(np.flatnonzero(mask)[0])
    return policy


def setup_bankruptcy(env: SelfPlayEnv, debtor_is_learner: bool) -> None:
    """At the learner's first decision: both players on Go; the debtor has 1 in cash and
    nothing else, the other owns Baltic Avenue (3: rent 4). The learner's next roll is a 10
    (Jail, just visiting) unless it is the debtor; the debtor's roll is a 3."""
    game = env.env.game
    learner = int(env.learner.split("_")[1])
    assert game.decision.player == learner and game.decision.kind == "turn"
    debtor = learner if debtor_is_learner else 1 - learner
    for seat in (0, 1):
        game.testing.place(seat, 0)
    game.testing.set_cash(debtor, 1)
    game.testing.give_property(1 - debtor, 3)
    game.testing.script_dice(*([(1, 2)] if debtor_is_learner else [(4, 6), (1, 2)]))


def first_learner_turn(seat: int, policy: Any) -> SelfPlayEnv:
    """A 2-player classic SelfPlayEnv whose learner holds `seat` and decides a turn first."""
    for seed in range(200):
        env = SelfPlayEnv(rl.raw_env("classic", players=2), [policy], seat=seat)
        env.reset(seed=seed)
        game = env.env.game
        if game.decision.kind == "turn" and game.turn_number == 1:
            return env
    raise AssertionError("no seed where the learner plays first")


@pytest.mark.parametrize("seat", [0, 1])
def test_the_loser_of_its_own_bankruptcy_gets_minus_one(seat: int) -> None:
    names = rl.raw_env("classic", players=2).action_names
    env = first_learner_turn(seat, scripted(names))
    setup_bankruptcy(env, debtor_is_learner=True)
    _, reward, terminated, truncated, _ = env.step(names.index("roll"))
    assert (reward, terminated) == (0.0, False)
    mask = env.action_masks()
    assert env.env.game.decision.kind == "debt" and mask[names.index("bankrupt")]
    _, reward, terminated, truncated, info = env.step(names.index("bankrupt"))
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["winner"] == f"player_{1 - seat}" and info["result"] == "loss"


@pytest.mark.parametrize("seat", [0, 1])
def test_the_winner_gets_plus_one_when_the_loser_acted_last(seat: int) -> None:
    """The opponent goes bankrupt on its own action: the game is over before the learner acts
    again, and PettingZoo's dead step hands the learner its +1 (the tutorial wrapper's bug
    gave it nothing: the episode ended on the opponent's step, with the opponent's reward)."""
    names = rl.raw_env("classic", players=2).action_names
    env = first_learner_turn(seat, scripted(names))
    setup_bankruptcy(env, debtor_is_learner=False)
    _, reward, terminated, _, _ = env.step(names.index("roll"))  # to Jail, just visiting
    assert not terminated and env.env.game.players[seat].position == 10
    _, reward, terminated, truncated, info = env.step(names.index("end_turn"))
    game = env.env.game
    assert game.is_over and game.winners == [seat]
    assert game.actions[-1].player == 1 - seat and type(game.actions[-1]).__name__ == \
        "DeclareBankruptcy"
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["winner"] == f"player_{seat}" and info["result"] == "win"
    assert info["ranking"] == [f"player_{seat}", f"player_{1 - seat}"]


def test_the_single_agent_env_pays_the_winner_of_an_opponents_bankruptcy() -> None:
    names = rl.raw_env("classic", players=2).action_names
    for seed in range(100):
        env = rl.SingleAgentEnv("classic", opponents=[scripted(names)], skip_forced=False)
        env.reset(seed=seed)
        game = env.game
        if game.decision.kind == "turn" and game.turn_number == 1:
            break
    else:
        raise AssertionError("no seed where the learner plays first")
    for s in (0, 1):
        game.testing.place(s, 0)
    game.testing.set_cash(1, 1)
    game.testing.give_property(0, 3)
    game.testing.script_dice((4, 6), (1, 2))
    env.step(names.index("roll"))
    _, reward, terminated, _, info = env.step(names.index("end_turn"))
    assert game.is_over and type(game.actions[-1]).__name__ == "DeclareBankruptcy"
    assert (reward, terminated) == (1.0, True) and info["winner"] == "player_0"


def test_seats_rotate_and_opponents_come_from_the_pool() -> None:
    calls: list[str] = []

    def tagged(tag: str) -> Any:
        def policy(observation: np.ndarray, mask: np.ndarray) -> int:
            calls.append(tag)
            return int(np.flatnonzero(mask)[0])
        return policy

    env = SelfPlayEnv(rl.raw_env("cell22", players=3, max_turns=30), [tagged("a")])
    env.add_opponent(tagged("b"))
    learners = []
    rng = random.Random(1)
    for episode in range(6):
        obs, info = env.reset(seed=3 if episode == 0 else None)
        learners.append(env.learner)
        assert env.observation_space.contains(obs) and info["learner"] == env.learner
        done = False
        while not done:
            mask = env.action_masks()
            assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
            legal = np.flatnonzero(mask)
            action = int(legal[rng.randrange(len(legal))])
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert "return" in info and env.action_masks().all()
    assert learners == ["player_0", "player_1", "player_2"] * 2
    assert {"a", "b"} <= set(calls)
    with pytest.raises(ResetNeededError, match="call reset"):
        env.step(0)
    env.pool_size = 2
    env.add_opponent("uniform")
    assert len(env.pool) == 2 and env.pool[-1] == "uniform"


@pytest.mark.filterwarnings("ignore:.*not having a spec")
def test_selfplay_env_passes_gymnasiums_checker() -> None:
    check_env(SelfPlayEnv(rl.raw_env("cell22", players=2, max_turns=200)), skip_render_check=True)


def test_bad_selfplay_set_up_is_refused() -> None:
    with pytest.raises(SetupError, match="seat is"):
        SelfPlayEnv(rl.raw_env("cell22", players=2), seat=2)
    with pytest.raises(SetupError, match="a policy is"):
        SelfPlayEnv(rl.raw_env("cell22", players=2), [42])
    with pytest.raises(ResetNeededError, match="before the first reset"):
        SelfPlayEnv(rl.raw_env("cell22", players=2)).step(0)


class _Model:
    """A stand-in for a library model: ``predict`` records how it was asked to play."""

    def __init__(self) -> None:
        self.asked: list[bool] = []

    def predict(self, observation: np.ndarray, action_masks: np.ndarray,
                deterministic: bool = False) -> tuple[np.ndarray, None]:
        self.asked.append(deterministic)
        return np.array([int(np.flatnonzero(action_masks)[0])]), None


@pytest.mark.parametrize("deterministic", [False, True])
def test_model_opponents_sample_their_policy_unless_told(deterministic: bool) -> None:
    """Frozen copies of the learner sample their policy by default, as the learner does in
    training (a deterministic copy of a young policy repeats one move: games that stall)."""
    model = _Model()
    kwargs = {} if not deterministic else {"deterministic": True}
    env = SelfPlayEnv(rl.raw_env("cell22", players=2, max_turns=10), [model], **kwargs)
    env.reset(seed=0)
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        done = terminated or truncated
    assert model.asked and set(model.asked) == {deterministic}
