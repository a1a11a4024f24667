"""The reinforcement-learning environments (ugentopoly_widget.rl): PettingZoo's own tests, the
mask against the engine's legal actions, bounds, replay, rewards, errors, rendering.

The long random runs use masked random actions (uniform over the mask), the worst case for the
incremental tables: it mortgages and lifts mortgages at most steps."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from ugentopoly_widget import Game, SetupError, rl  # noqa: E402
from ugentopoly_widget.engine.actions import ProposeTrade  # noqa: E402
from ugentopoly_widget.rl import (  # noqa: E402
    ActionCodec,
    ActionIndexError,
    GameChangedError,
    MaskedActionError,
    Observer,
)

PROFILES = ("classic", "ugentopoly", "cell22")


def masked_steps(env: Any, rng: random.Random, steps: int, seed: int = 0,
                 each: Callable[[Any, dict[str, np.ndarray]], None] | None = None
                 ) -> Iterator[int]:
    """Step `env` (unwrapped) `steps` live steps with random masked actions, resetting
    finished episodes; calls ``each(env, observation)`` before every live step; yields the
    index taken."""
    env.reset(seed=seed)
    done = 0
    while done < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset(seed=rng.randrange(10**6))
            continue
        if each is not None:
            each(env, obs)
        legal = np.flatnonzero(obs["action_mask"])
        index = int(legal[rng.randrange(len(legal))])
        env.step(index)
        done += 1
        yield index


def run(env: Any, rng: random.Random, steps: int, seed: int = 0,
        each: Callable[[Any, dict[str, np.ndarray]], None] | None = None) -> None:
    for _ in masked_steps(env, rng, steps, seed, each):
        pass


# ---------------------------------------------------------------------- PettingZoo's tests

@pytest.mark.parametrize("profile", PROFILES)
def test_pettingzoo_api_test(profile: str) -> None:
    with warnings.catch_warnings():
        # api_test warns about every dict observation (its own classic games are named in a
        # list); nothing else may warn
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(rl.env(profile, players=4, max_turns=120), num_cycles=400)
        api_test(rl.env(profile, players=2, max_turns=60, reward_shaping=1.0), num_cycles=200)


@pytest.mark.parametrize("profile", PROFILES)
def test_pettingzoo_seed_test(profile: str) -> None:
    seed_test(lambda: rl.env(profile, players=3, max_turns=200), num_cycles=400)


def test_max_cycles_test_does_not_apply_max_turns_truncates() -> None:
    """PettingZoo's max_cycles_test needs a parallel_env(max_cycles=...): a Monopoly game is
    turn-based (AEC only). Its equivalent here: after max_turns player-turns every agent is
    truncated, never terminated, gets no reward for it, takes its dead step and leaves."""
    env = rl.env("ugentopoly", players=3, max_turns=7)
    assert not hasattr(env.unwrapped, "parallel_env")
    env.reset(seed=3)
    ended: dict[str, tuple[bool, bool, float]] = {}
    for agent in env.agent_iter(10_000):
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            ended[agent] = (terminated, truncated, reward)
            env.step(None)
            continue
        assert env.unwrapped.game.turn_number < 7
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.unwrapped.game.turn_number == 7 and not env.unwrapped.game.is_over
    assert ended == {f"player_{i}": (False, True, 0.0) for i in range(3)}
    assert env.agents == []


# ---------------------------------------------------------------------- mask and bounds

@pytest.mark.parametrize("profile,players", [("classic", 4), ("classic", 2), ("ugentopoly", 4),
                                             ("cell22", 3)])
def test_mask_is_exactly_the_encoded_legal_actions(profile: str, players: int) -> None:
    """Over thousands of random masked steps: every masked-in index is an action the engine
    accepts; every masked-out one decodes to nothing or to an action the engine refuses, but
    for trade offers past the allowance of the turn."""
    env = rl.raw_env(profile, players=players, max_turns=150)
    codec: ActionCodec = env.match.codec
    kinds: set[str] = set()

    def check(env: Any, obs: dict[str, np.ndarray]) -> None:
        game = env.game
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (codec.n,) and mask.any()
        offers = env.match.offers_left(game.decision.player)
        for index in range(codec.n):
            action = codec.decode(index, game)
            legal = action is not None and game.is_legal(action)
            if mask[index]:
                assert legal, (codec.names[index], action, game.decision)
                kinds.add(codec.names[index].split(":")[0])
            else:
                assert not legal or (codec.names[index].startswith("trade_") and offers <= 0), (
                    codec.names[index], action, game.decision)

    run(env, random.Random(profile), 1000 if players == 4 else 600, each=check)
    expected = {"roll", "buy", "decline"} | (
        {"end_turn", "mortgage", "unmortgage", "bid", "pass", "trade_buy", "trade_sell",
         "accept", "reject"} if profile == "classic" else set())
    assert expected <= kinds, expected - kinds


@pytest.mark.parametrize("profile", PROFILES)
def test_masked_out_actions_are_refused_and_change_nothing(profile: str) -> None:
    env = rl.raw_env(profile, players=4, max_turns=150)
    rng = random.Random(7)
    refused = 0

    def try_masked_out(env: Any, obs: dict[str, np.ndarray]) -> None:
        nonlocal refused
        masked_out = np.flatnonzero(obs["action_mask"] == 0)
        if not len(masked_out):
            return
        index = int(masked_out[rng.randrange(len(masked_out))])
        digest, agent = env.game.digest(), env.agent_selection
        with pytest.raises(MaskedActionError, match=f"action {index} .* is masked out"):
            env.step(index)
        refused += 1
        assert env.game.digest() == digest and env.agent_selection == agent
        again = env.observe(agent)
        assert np.array_equal(again["observation"], obs["observation"])
        assert np.array_equal(again["action_mask"], obs["action_mask"])

    run(env, random.Random(1), 1500, each=try_masked_out)
    assert refused >= 1000


@pytest.mark.parametrize("profile", PROFILES)
def test_observations_stay_in_bounds_and_match_a_fresh_build(profile: str) -> None:
    """The incremental tables give what a fresh build from the game gives, at every step, for
    the deciding seat and another; every observation lies in the declared Box."""
    env = rl.raw_env(profile, players=4, max_turns=400, reward_shaping=0.5)
    space = env.observation_space("player_0")

    def check(env: Any, obs: dict[str, np.ndarray]) -> None:
        assert space.contains(obs), "out of bounds"
        match, game = env.match, env.game
        codec = ActionCodec(game)
        fresh = Observer(game, codec, codec.tables, match.max_turns, match.max_offers)
        seat = game.decision.player
        for s in (seat, (seat + 1) % 4):
            assert np.array_equal(env.observe(f"player_{s}")["observation"],
                                  fresh.observe(game, s, match.offers_left(s)))
        assert np.array_equal(obs["action_mask"], codec.mask(game, match.offers_left(seat)))

    run(env, random.Random(2), 1500 if profile == "classic" else 1000, each=check)


def test_a_house_auction_is_observed() -> None:
    """A housing-shortage auction sells a house, not a tile: its decision has position None
    (the compiled observer refused None where it wanted a position: a TypeError mid-game)."""
    from classic_helpers import BROWN, RED, give, new_game, seats
    from test_rules_classic_buildings import _use_up_houses

    from ugentopoly_widget.engine import actions as A

    game = new_game()
    a, b, _ = seats(game)
    _use_up_houses(game, a, 1)
    give(game, b, *BROWN)
    target = next(pos for pos in RED if A.Build(a, pos) in game.legal_actions())
    game.apply(A.Build(a, target))
    assert game.decision.kind == "auction" and game.decision.data["position"] is None
    codec = ActionCodec(game)
    observer = Observer(game, codec, codec.tables, 1000, 1)
    seat = game.decision.player
    vector = observer.observe(game, seat, 1)
    lay = observer.layout
    assert not vector[lay["decision_tiles"]].any()  # no tile is auctioned
    assert vector[lay["decision_money"]][2] > 0  # the minimum bid (the house price)
    assert codec.mask(game, 1).any()


def test_observation_reads_like_the_public_api() -> None:
    env = rl.raw_env("classic", players=4, max_turns=300)

    def check(env: Any, obs: dict[str, np.ndarray]) -> None:
        game, observer = env.game, env.match.observer
        seat = game.decision.player
        vector = obs["observation"]
        lay = observer.layout
        n, scale = 4, 1500.0
        owner = vector[lay["owner"]].reshape(-1, n + 1)
        for k, q in enumerate(env.match.codec.properties):
            who = game.owner(q)
            relative = 0 if who is None else (who - seat) % n + 1
            assert owner[k].tolist() == [1.0 if c == relative else 0.0 for c in range(n + 1)]
            assert vector[lay["mortgaged"]][k] == float(game.is_mortgaged(q))
            assert vector[lay["level"]][k] == pytest.approx(game.buildings(q) / game.hotel_level)
        players = vector[lay["players"]].reshape(n, -1)
        for k in range(n):
            p = game.players[(seat + k) % n]
            worth = game.valuation((seat + k) % n)
            assert players[k][1] == pytest.approx(p.cash / (p.cash + scale) if p.cash else 0)
            assert players[k][2] == pytest.approx(worth / (worth + scale) if worth > 0 else 0)
            assert players[k][3] == pytest.approx(p.position / 40)
        decision = vector[lay["decision"]]
        assert decision.sum() == 1 and rl.observation.KINDS[int(decision.argmax())] == \
            game.decision.kind

    run(env, random.Random(5), 1500, each=check)


# ---------------------------------------------------------------------- replay

@pytest.mark.parametrize("profile", PROFILES)
def test_seeded_replay_gives_the_same_observations_and_digest(profile: str) -> None:
    """An episode replayed from its seed and its action indices sees the same observations;
    the engine's own replay of its record reaches the same digest, and observations built
    from the engine's replay, action by action, are the same too."""
    def episode(indices: list[int] | None) -> tuple[list[int], list[np.ndarray], Any]:
        env = rl.raw_env(profile, players=3, max_turns=60)
        env.reset(seed=11)
        rng = random.Random(4)
        taken: list[int] = []
        seen: list[np.ndarray] = []
        while env.agents:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seen.append(obs["observation"])
            legal = np.flatnonzero(obs["action_mask"])
            index = (indices[len(taken)] if indices is not None
                     else int(legal[rng.randrange(len(legal))]))
            taken.append(index)
            env.step(index)
        return taken, seen, env

    taken, seen, env = episode(None)
    again, seen_again, env_again = episode(taken)
    assert again == taken and len(seen) == len(seen_again) > 50
    assert all(np.array_equal(a, b) for a, b in zip(seen, seen_again, strict=True))
    game = env.game
    assert env_again.game.digest() == game.digest()
    record = game.record()
    assert Game.replay(record).digest() == game.digest()
    # observations from the engine's replay, action by action
    replayed = Game.replay(record, upto=0)
    codec = ActionCodec(replayed)
    observer = Observer(replayed, codec, codec.tables, 60, 1)
    offers: dict[tuple[int, int], int] = {}
    for k, action in enumerate(game.actions):
        seat = replayed.decision.player
        left = 1 - offers.get((replayed.turn_number, seat), 0)
        assert np.array_equal(observer.observe(replayed, seat, left), seen[k]), k
        if isinstance(action, ProposeTrade):
            key = (replayed.turn_number, seat)
            offers[key] = offers.get(key, 0) + 1
        replayed.apply(action)
    assert replayed.digest() == game.digest()


def test_reset_seed_draws_every_random_choice() -> None:
    a, b = rl.raw_env("classic", players=4), rl.raw_env("classic", players=4)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.game.seed == b.game.seed and a.agent_selection == b.agent_selection
    a.reset()
    b.reset()
    assert a.game.seed == b.game.seed  # the stream seeded by the last seed goes on
    b.reset(seed=6)
    assert a.game.seed != b.game.seed


# ---------------------------------------------------------------------- rewards

def test_win_and_loss_are_plus_and_minus_one_and_end_every_agent() -> None:
    """Ugentopoly ends when a player cannot pay: the richest wins (+1), the other loses (-1),
    both are terminated (not truncated) and take their dead steps."""
    env = rl.raw_env("ugentopoly", players=2, max_turns=100)
    env.reset(seed=1)
    game = env.game
    mover = game.current_player
    other = 1 - mover
    game.testing.give_property(other, 9)
    game.testing.set_cash(mover, 1)  # less than the rent
    assert game.players[mover].position == 0
    game.testing.script_dice((4, 5))
    obs, reward, terminated, truncated, _ = env.last()
    roll = env.action_names.index("roll")
    assert obs["action_mask"][roll] == 1 and not terminated and not truncated
    env.step(roll)
    assert game.is_over and game.winners == [other]
    results = {}
    while env.agents:
        agent = env.agent_selection
        _, reward, terminated, truncated, _ = env.last()
        results[agent] = (reward, terminated, truncated)
        env.step(None)
    assert results == {f"player_{mover}": (-1.0, True, False),
                       f"player_{other}": (1.0, True, False)}


def test_dense_shaping_adds_up_to_a_constant() -> None:
    """Potential-based shaping: over an episode it adds c * (0 - 1/N) to the sparse return of
    every agent, whatever happened; each step's shaping is the change in the share of all
    valuations (non-zero in a real game)."""
    c = 2.0
    totals = {f"player_{i}": 0.0 for i in range(3)}
    env = rl.raw_env("classic", players=3, max_turns=40, reward_shaping=c)
    env.reset(seed=8)
    rng = random.Random(3)
    nonzero = 0
    finals: dict[str, float] = {}
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            finals[env.agent_selection] = 0.0
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        for agent, reward in env.rewards.items():
            totals[agent] += reward
            nonzero += reward != 0
    game = env.game
    winners = set(game.winners) if game.is_over else set()
    for i in range(3):
        sparse = (1.0 if i in winners else -1.0) if game.is_over or game.players[i].bankrupt \
            else 0.0
        assert totals[f"player_{i}"] == pytest.approx(sparse - c / 3, abs=1e-9)
    assert nonzero > 10


# ---------------------------------------------------------------------- errors

def test_bad_actions_are_refused_with_named_errors() -> None:
    env = rl.env("classic", players=2)
    env.reset(seed=2)
    digest = env.unwrapped.game.digest()
    for bad, message in ((1.0, "not float"), (True, "not bool"), (None, "None is the action"),
                         (-1, "outside Discrete"), (10**6, "outside Discrete"),
                         ("roll", "not str")):
        with pytest.raises(ActionIndexError, match=message):
            env.step(bad)
    assert env.unwrapped.game.digest() == digest
    env.step(np.int32(env.unwrapped.action_names.index("roll")))  # NumPy integers are fine
    env.step(np.array(np.flatnonzero(env.last()[0]["action_mask"])[0]))  # a 0-d array too


def test_a_game_changed_from_outside_is_refused() -> None:
    env = rl.raw_env("classic", players=2)
    env.reset(seed=2)
    game = env.game
    game.apply(game.legal_actions()[0])  # not through step()
    with pytest.raises(GameChangedError, match="changed outside the environment"):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    env.game.undo() if env.game.can_undo() else env.game.apply(env.game.legal_actions()[0])
    with pytest.raises(GameChangedError):
        env.step(0)


@pytest.mark.parametrize("kwargs,message", [
    ({"options": {"time_limit_minutes": 5, "mode": "timed"}}, "no wall clock"),
    ({"options": {"turn_timer_seconds": 30}}, "no wall clock"),
    ({"max_turns": 0}, "max_turns"),
    ({"players": 9}, "players"),
    ({"render_mode": "rgb"}, "render_mode"),
    ({"max_offers_per_turn": -1}, "max_offers_per_turn"),
    ({"reward_shaping": True}, "reward_shaping"),
])
def test_bad_set_up_is_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        rl.raw_env("classic", **kwargs)


def test_the_encoding_is_fixed_per_board_and_documented_by_name() -> None:
    sizes = {p: rl.raw_env(p, players=4).action_space("player_0").n for p in PROFILES}
    assert sizes == {"classic": 520, "ugentopoly": 14, "cell22": 24}
    names = rl.raw_env("classic", players=4).action_names
    assert names[:14] == rl.SINGLES and len(set(names)) == len(names)
    assert "build:39" in names and "trade_buy:39:x1.5" in names and "trade_sell:+2:39:x2" in names
    assert rl.raw_env("classic", players=2).action_space("player_0").n == 520 - 2 * 28 * 3


# ---------------------------------------------------------------------- render and watch

def test_render_ansi_and_rgb_array() -> None:
    env = rl.raw_env("classic", players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "Decision:" in text and "turn 1," in text
    pytest.importorskip("resvg_py")
    env = rl.raw_env("classic", players=2, render_mode="rgb_array", render_size=200)
    env.reset(seed=1)
    picture = env.render()
    assert isinstance(picture, np.ndarray)
    assert picture.shape == (200, 200, 3) and picture.dtype == np.uint8
    # the board's colour bands and text, far from one flat colour; its centre is pale green
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 50
    r, g, b = picture[100, 60].astype(int)
    assert g > r and g > b and g > 200
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert rl.raw_env("classic").render() is None


def test_a_viewer_watches_each_episode() -> None:
    class Viewer:
        game: Any = None

    env = rl.raw_env("cell22", players=2)
    viewer = env.watch(Viewer())
    env.reset(seed=1)
    assert viewer.game is env.game
    first = env.game
    env.reset(seed=2)
    assert viewer.game is env.game is not first
    with pytest.raises(TypeError, match="settable `game`"):
        env.watch(object())


def test_a_widget_follows_the_environments_game() -> None:
    from ugentopoly_widget import UgentopolyWidget

    env = rl.raw_env("classic", players=2)
    env.reset(seed=4)
    widget = env.watch(UgentopolyWidget.from_game(env.game))
    before = widget.state["seq"]
    run(env, random.Random(1), 40, seed=4)  # resets at seed=4: the same first game again
    assert widget.game is env.game
    assert widget.state["seq"] > before  # it redrew as the environment played
    assert Game.replay(env.game.record()).digest() == env.game.digest()
