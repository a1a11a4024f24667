"""The rollouts' entry points under hostile or careless input (issue 30): counts above the
documented maximum refused before anything is allocated, every argument checked when the call
or the bot is made, Ctrl-C with worker processes, the workers capped as simulate() caps them,
and a cash-only offer rated with a fair price. Position ``g`` of the issue: a 2-player classic
game played by heuristic bots to turn 30."""

from __future__ import annotations

import functools
import os
import re
import signal
import threading
import time
import warnings
from typing import Any

import numpy as np
import pytest
from child import descendants, is_running

from ugentopoly_widget import Game, simulate
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.rollouts import (
    RolloutBot,
    RolloutError,
    action_values,
    rate_trade,
    runner,
    win_chances,
)
from ugentopoly_widget.rollouts.runner import MAX_PLAYOUTS, MAX_ROLLOUTS
from ugentopoly_widget.simulation import SimulationWarning, executors


@functools.lru_cache(maxsize=1)
def _g() -> Game:
    game = Game("classic", players=2, seed=1)
    play_game(game, [HeuristicBot(seed=1), HeuristicBot(seed=2)], until_turn=30)
    return game


def position_g() -> Game:
    """Position g (a fresh copy each time: a test may not change another's)."""
    return Game.replay(_g().record())


def fingerprint(game: Game) -> tuple[Any, ...]:
    e = game._engine
    return (game.state(), e.chance.rng.getstate(), len(game.actions), game.event_count)


HANG = 60.0  # seconds: only a hang takes this long


def children() -> set[int]:
    """This process's running descendants (a pool's workers are)."""
    return descendants()


# ---------------------------------------------------------------- 1: unbounded counts


@pytest.mark.parametrize("call", [
    lambda g: win_chances(g, rollouts=10**9),
    lambda g: win_chances(g, rollouts=10**12, executor="processes", workers=2),
    lambda g: action_values(g, rollouts=10**12),
    lambda g: rate_trade(g, {"player": g.decision.player, "partner": 1 - g.decision.player,
                             "give": {"cash": 10}, "get": {}}, rollouts=10**12),
    lambda g: win_chances(g, rollouts=np.int64(MAX_ROLLOUTS + 1)),
])
def test_rollouts_above_the_maximum_are_refused_before_anything_is_allocated(
        call: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """(Before: a bare MemoryError, or rollouts played for ever; here a rollout played or a
    pool started fails the test at once instead of hanging it.)"""

    def played(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("rollouts played or a pool started before the count was checked")

    monkeypatch.setattr(runner, "play_rollouts", played)
    monkeypatch.setattr(executors, "new_process_pool", played)  # (imported by execute)
    game = position_g()
    before, running = fingerprint(game), children()
    with pytest.raises(RolloutError, match=f"at most {MAX_ROLLOUTS:,}"):
        call(game)
    assert fingerprint(game) == before and children() <= running


def test_rollouts_times_choices_have_a_maximum_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """action_values plays every choice `rollouts` times: the product is bounded as well (a
    lower bound here, so that the test needs no huge count)."""
    monkeypatch.setattr(runner, "MAX_PLAYOUTS", 100)
    played: list[int] = []
    monkeypatch.setattr(runner, "play_rollouts", lambda *a, **k: played.append(1))
    game = position_g()
    assert len(game.legal_actions()) >= 2
    with pytest.raises(RolloutError, match="at most 100 in one call"):
        action_values(game, rollouts=60)
    with pytest.raises(RolloutError, match="at most 100 in one call"):  # with and without
        rate_trade(game, {"player": game.decision.player, "partner": 1 - game.decision.player,
                          "give": {"cash": 10}, "get": {}}, rollouts=60)
    assert played == [] and MAX_PLAYOUTS == 10_000_000


# ---------------------------------------------------------------- 2: arguments checked early


class Counting:
    """A progress callback, or a bot factory, that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0


@pytest.mark.parametrize("kwargs, words", [
    ({"confidence": "x"}, "confidence is a number between 0 and 1"),
    ({"confidence": 1.0}, "confidence"),
    ({"confidence": float("nan")}, "confidence"),
    ({"confidence": True}, "confidence"),
    ({"progress": "yes"}, "progress is None or a callable"),
    ({"progress": lambda: None}, "does not take two arguments"),
    ({"progress": lambda done: None}, "does not take two arguments"),
    ({"workers": 0}, "workers must be a positive integer"),
    ({"workers": "2", "executor": "processes"}, "workers must be a positive integer"),
    ({"seed": 2**63}, "seed must be"),
    ({"max_turns": 10**9}, "max_turns"),
    ({"max_turns": np.float64(5)}, "max_turns"),
    ({"at_cap": ["apart"]}, "at_cap"),
    ({"bots": functools.partial(RolloutBot, rollouts=8)}, "cannot play rollouts"),
    ({"bots": lambda seed: None}, "has no choose"),
    ({"bots": lambda: HeuristicBot()}, "factory(seed=...)"),
    ({"bots": []}, "empty list"),
    ({"bots": b"heuristic"}, "bots is a bot name"),
])
def test_every_argument_is_checked_before_any_rollout(kwargs: dict[str, Any], words: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    game = position_g()
    before, running = fingerprint(game), children()
    played: list[int] = []
    monkeypatch.setattr(runner, "play_rollouts", lambda *a, **k: played.append(1))
    for call in (win_chances, action_values):
        with pytest.raises(RolloutError, match=re.escape(words)):
            call(game, rollouts=72, **kwargs)
    offer = {"player": game.decision.player, "partner": 1 - game.decision.player,
             "give": {"cash": 10}, "get": {}}
    with pytest.raises(RolloutError, match=re.escape(words)):
        rate_trade(game, offer, rollouts=72, **kwargs)
    assert played == [] and fingerprint(game) == before and children() <= running


def test_bad_settings_of_action_values_and_rate_trade_are_named() -> None:
    game = position_g()
    offer = {"player": game.decision.player, "partner": 1 - game.decision.player,
             "give": {"cash": 10}, "get": {}}
    for kwargs, words in (({"lang": "fr"}, "lang is one of"), ({"lang": ["en"]}, "lang"),
                          ({"players": "everyone"}, "players is 'all'"),
                          ({"players": np.array([5])}, "no player 5"),
                          ({"actions": "0:roll"}, "actions is a list"),
                          ({"actions": [{"type": "fly"}]}, "actions:"),
                          ({"actions": [{1: 2}]}, "actions:")):
        with pytest.raises(RolloutError, match=re.escape(words)):
            action_values(game, rollouts=36, **kwargs)
    with pytest.raises(RolloutError, match="fair is True or False"):
        rate_trade(game, offer, rollouts=36, fair="yes")  # type: ignore[arg-type]
    with pytest.raises(RolloutError, match="not a trade offer"):
        rate_trade(game, {**offer, 5: 1}, rollouts=36)  # type: ignore[dict-item]


def test_actions_given_as_dicts_are_valued_as_the_actions() -> None:
    game = position_g()
    actions = game.legal_actions()[:2]
    as_dicts = action_values(game, rollouts=36, seed=4, actions=[a.to_dict() for a in actions])
    as_actions = action_values(game, rollouts=36, seed=4, actions=actions)
    assert as_dicts.text.tolist() == as_actions.text.tolist()
    assert as_dicts.p_win.tolist() == as_actions.p_win.tolist()


def test_numpy_integers_are_taken_as_simulate_takes_them() -> None:
    game = position_g()
    plain = win_chances(game, rollouts=36, seed=3, max_turns=500)
    numpy = win_chances(game, rollouts=np.int64(36), seed=np.int64(3), max_turns=np.int32(500),
                        confidence=np.float64(0.95))
    assert numpy.p_win.tolist() == plain.p_win.tolist()
    assert numpy.attrs["rollouts"] == 36 and type(numpy.attrs["seed"]) is int


def test_a_progress_callback_is_called_as_progress_done_total() -> None:
    seen: list[tuple[int, int]] = []
    win_chances(position_g(), rollouts=72, progress=lambda done, total: seen.append(
        (done, total)))
    assert seen == [(36, 72), (72, 72)]
    win_chances(position_g(), rollouts=36, progress=print)  # no signature check fails it


@pytest.mark.parametrize("kwargs, words", [
    ({"rollouts": 0}, "rollouts must be a positive integer"),
    ({"rollouts": -1}, "rollouts must be a positive integer"),
    ({"rollouts": "8"}, "rollouts must be a positive integer"),
    ({"rollouts": 2.5}, "rollouts must be a positive integer"),
    ({"rollouts": 10**6}, "at most 10,000"),
    ({"margin": float("nan")}, "margin"),
    ({"margin": -1}, "margin"),
    ({"margin": "1"}, "margin"),
    ({"max_turns": 0}, "max_turns"),
    ({"max_turns": -1}, "max_turns"),
    ({"seed": "x"}, "seed"),
])
def test_the_rollout_bot_checks_its_settings_when_made(kwargs: dict[str, Any], words: str
                                                       ) -> None:
    with pytest.raises(RolloutError, match=re.escape(words)):
        RolloutBot(**kwargs)
    if "seed" in kwargs:
        return  # (simulate gives the factory a seed of its own)
    with pytest.raises(RolloutError, match=re.escape(words)):  # refused before any game
        simulate(4, "classic", bots=[functools.partial(RolloutBot, **kwargs), "heuristic"],
                 progress=False, options={"round_limit": 5})


def test_the_rollout_bot_takes_numpy_settings() -> None:
    bot = RolloutBot(seed=np.int64(2), rollouts=np.int64(4), margin=np.float64(0.5),
                     max_turns=np.int64(50))
    assert (bot.rollouts, bot.margin, bot.max_turns) == (4, 0.5, 50)
    assert type(bot.rollouts) is int


def test_a_bot_that_fails_in_the_rollouts_is_named() -> None:
    class Broken(HeuristicBot):
        def choose(self, game: Game) -> Any:
            raise ZeroDivisionError("the bot's own bug")

    with pytest.raises(RolloutError, match="the bots failed: ZeroDivisionError"):
        win_chances(position_g(), rollouts=4, bots=Broken)
    with pytest.raises(RolloutError, match="failed to choose: ZeroDivisionError"):
        action_values(position_g(), rollouts=4, bots=Broken)


# ---------------------------------------------------------------- 3: Ctrl-C on processes


class SlowBot(HeuristicBot):
    """Each rollout takes seconds: a Ctrl-C always comes in the middle of a chunk."""

    def choose(self, game: Game) -> Any:
        time.sleep(0.01)
        return super().choose(game)


@pytest.mark.parametrize("bots", ["heuristic", SlowBot])
def test_ctrl_c_with_worker_processes_raises_at_once_and_ends_them(
        bots: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGINT in the middle of the rollouts, as a terminal or a notebook sends it: the call
    raises KeyboardInterrupt without waiting for the chunks in progress, and the workers are
    gone (before the fix: ProcessPoolExecutor.shutdown(wait=True) waited for them)."""
    game = position_g()
    running = children()
    stopping = threading.Event()  # the call has taken the interrupt: no more presses
    real_stop: Any = executors.stop_pool

    def stop_pool(*args: Any, **kwargs: Any) -> None:
        stopping.set()
        real_stop(*args, **kwargs)

    monkeypatch.setattr(executors, "stop_pool", stop_pool)  # (execute imports it when run)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    workers: list[int] = []

    returned = threading.Event()
    hung: list[int] = []

    def press() -> None:  # once the workers run, as a person would; again if it was lost
        while not stopping.wait(0.05):
            workers[:] = sorted(children() - running)
            if len(workers) >= 2:
                os.kill(os.getpid(), signal.SIGINT)
                stopping.wait(1.0)
        # the call took the interrupt; if it then waits for its workers (a chunk takes minutes,
        # hours with the slow bot), end them after HANG so that the test fails, not hangs
        if not returned.wait(HANG):
            hung[:] = sorted(children() - running)
            for pid in hung:
                os.kill(pid, signal.SIGKILL)

    presser = threading.Thread(target=press, daemon=True)
    presser.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            win_chances(game, rollouts=200_000, bots=bots, executor="processes", workers=2)
    finally:
        returned.set()
        stopping.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert len(workers) == 2, "the workers never ran"
    # 100,000 rollouts a chunk take minutes (hours with the slow bot): a call that waits for
    # the chunks in progress is still waiting after HANG seconds; and the workers are gone
    assert not hung, f"the call waited for its workers {hung} after Ctrl-C"
    assert children() <= running and not any(is_running(p) for p in workers), (
        f"left running: {sorted(children() - running)}")


KILLED_PARENT = """
import os, threading, time
from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.rollouts import win_chances
g = Game("classic", players=2, seed=1)
play_game(g, [HeuristicBot(seed=1), HeuristicBot(seed=2)], until_turn=30)
def tell():
    me = os.getpid()
    while True:
        with open(f"/proc/{me}/task/{me}/children") as listing:
            kids = listing.read().split()
        if len(kids) >= 2:
            print(" ".join(kids), flush=True)
            return
        time.sleep(0.05)
threading.Thread(target=tell, daemon=True).start()
win_chances(g, rollouts=200_000, executor="processes", workers=2)
"""


def test_workers_end_with_a_parent_that_is_killed() -> None:
    """kill -9 of the process that runs the rollouts (a kernel restarted): its workers do not
    live on with parent 1 (before: they did, blocked on a queue they hold themselves)."""
    import subprocess
    import sys

    parent = subprocess.Popen([sys.executable, "-c", KILLED_PARENT], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert parent.stdout is not None
        workers = [int(p) for p in parent.stdout.readline().split()]
        assert len(workers) == 2, workers
    finally:
        parent.kill()
        parent.wait()
    end = time.monotonic() + 60  # (only a hang takes this long)
    while any(is_running(p) for p in workers) and time.monotonic() < end:
        time.sleep(0.05)
    orphans = [p for p in workers if is_running(p)]
    for pid in orphans:  # (a failing run leaves nothing behind either)
        os.kill(pid, signal.SIGKILL)
    assert not orphans, f"orphaned workers {orphans}"


# ---------------------------------------------------------------- 4: workers capped


def test_workers_are_capped_as_simulate_caps_them(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    real = executors.new_process_pool

    def recording(workers: int) -> Any:
        sizes.append(workers)
        return real(workers)

    monkeypatch.setattr(executors, "new_process_pool", recording)
    game = position_g()
    with pytest.warns(SimulationWarning, match=r"workers=10,000 capped at 2: .*2 chunks"):
        table = win_chances(game, rollouts=72, seed=2, executor="processes", workers=10_000)
    assert sizes == [2]
    assert table.p_win.tolist() == win_chances(game, rollouts=72, seed=2).p_win.tolist()
    with warnings.catch_warnings():  # a count that fits, or the default: no cap warning
        # only the cap's warning: an unrelated one (an ImportWarning from a lazy import after
        # another test reloaded a module) must not fail this test
        warnings.simplefilter("error", SimulationWarning)
        win_chances(game, rollouts=72, executor="processes", workers=2)
        win_chances(game, rollouts=36, executor="processes")
    assert sizes[-2:] == [2, 1]


# ---------------------------------------------------------------- 8: cash-only offers


def test_a_cash_only_offer_is_rated_with_a_fair_price() -> None:
    """Both hold 1500: the bisection's first try is net cash 0, no deal at all (the engine
    refuses an empty trade): it is "without", exactly."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann", 19: "Bob"})
    rating = rate_trade(game, {"player": 0, "partner": 1, "give": {"cash": 100}, "get": {}},
                        rollouts=36)
    assert rating.fair_note == "even" and rating.fair_cash is not None
    assert abs(rating.fair_cash) < 1500  # a gift is fair near nothing, well inside the range
    assert rating.table.cash_paid.tolist() == [100, -100]
    assert "Even for Ann" in rating.explain()
