"""The live estimator's life (issue 30): one dropped without close() stops when it is
collected (thread and process); close() is idempotent and close(wait=False) returns at once;
bots that do not fit a game are refused by name in both flavours, and a process that dies is
said, in the estimator and in the widget; the widget's switch never waits for a process and
reuses a warm one. Every wait here only bounds a hang: nothing depends on the machine's
speed."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from child import is_running

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.rollouts import RolloutError, live_process
from ugentopoly_widget.rollouts.live import LiveEstimator
from ugentopoly_widget.rollouts.live_process import (
    ProcessLiveEstimator,
    discard_spare,
    live_estimator,
    spare_pid,
)
from ugentopoly_widget.widget import UgentopolyWidget

HANG = 120.0  # seconds: only a hang takes this long


def position_g() -> Game:
    """The issue's position g: a 2-player classic game, heuristic bots, turn 30."""
    game = Game("classic", players=2, seed=1)
    play_game(game, [HeuristicBot(seed=1), HeuristicBot(seed=2)], until_turn=30)
    return game


def until(condition: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + HANG
    while not condition():
        assert time.monotonic() < end, f"not in {HANG} s: {what}"
        time.sleep(0.02)


def first_batch(live: LiveEstimator) -> None:
    end = time.monotonic() + HANG
    while live.latest is None:
        assert time.monotonic() < end, f"no first batch in {HANG} s"
        time.sleep(0.02)


def gone(pid: int) -> bool:
    return not is_running(pid)


def readers_running() -> list[threading.Thread]:
    """The threads that read a rollout process's messages."""
    return [t for t in threading.enumerate() if t.name == "win-chances-reader"]


@pytest.fixture(autouse=True)
def no_spare() -> Any:
    discard_spare()
    yield
    discard_spare()


# ---------------------------------------------------------------- 5: dropped without close()


def test_a_thread_estimator_dropped_without_close_stops_when_collected() -> None:
    live = LiveEstimator(budget=10**6)  # far more than it will ever play here
    live.update(position_g())
    first_batch(live)
    worker = live._thread
    assert worker is not None and worker.is_alive()
    del live
    gc.collect()
    worker.join(HANG)
    assert not worker.is_alive(), "the worker played on for an estimator nobody holds"


def test_a_process_estimator_dropped_without_close_stops_when_collected() -> None:
    live = live_estimator(worker="process", budget=10**6)
    assert isinstance(live, ProcessLiveEstimator)
    live.update(position_g())
    first_batch(live)
    pid, readers = live.pid, readers_running()
    assert readers
    del live
    gc.collect()
    for reader in readers:
        reader.join(HANG)
    assert not readers_running() and gone(pid), "the child or its reader outlived the owner"
    assert spare_pid() is None  # not kept warm: nobody closed it


@pytest.mark.parametrize("worker", ["thread", "process"])
def test_close_is_idempotent_and_stops_everything(worker: str) -> None:
    live = live_estimator(worker=worker, budget=10**6)  # type: ignore[arg-type]
    live.update(position_g())
    first_batch(live)
    live.close()
    live.close()
    live.close(wait=False)
    assert live.closed
    if isinstance(live, ProcessLiveEstimator):
        assert gone(live.pid) and not readers_running()
    else:
        assert live._thread is not None and not live._thread.is_alive()
    generation = live.generation
    live.update(position_g())  # a closed estimator takes no more positions
    assert live.generation == generation and live.errors == []


def test_close_without_waiting_keeps_the_process_warm_for_the_next_estimator() -> None:
    first = live_estimator(worker="process", budget=36, seed=3)
    assert isinstance(first, ProcessLiveEstimator)
    game = position_g()
    first.update(game)
    one = first.wait(HANG)
    first.close(wait=False)
    assert spare_pid() == first.pid  # stopped, not ended
    second = live_estimator(worker="process", budget=36, seed=3)
    assert isinstance(second, ProcessLiveEstimator)
    assert second.pid == first.pid and spare_pid() is None
    second.update(game)
    two = second.wait(HANG)
    assert one is not None and two is not None
    assert two.figures["players"] == one.figures["players"]  # the same seeds: the same figures
    assert second.generation > first.generation  # an old estimate can never pass for a new one
    second.close()
    assert gone(first.pid)


def test_a_warm_process_not_taken_is_ended_after_its_time(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(live_process, "SPARE_SECONDS", 0.2)
    live = live_estimator(worker="process", budget=36)
    assert isinstance(live, ProcessLiveEstimator)
    live.close(wait=False)
    pid = live.pid
    until(lambda: gone(pid) and spare_pid() is None, "the spare ended")


# ---------------------------------------------------------------- 6: bots that do not fit


@pytest.mark.parametrize("bots", ["nope", ["heuristic", "nobody"], ["heuristic"] * 9 + [3]])
def test_bots_that_cannot_be_made_are_refused_when_the_estimator_is_made(bots: Any) -> None:
    messages = []
    for worker in ("thread", "process"):
        with pytest.raises(RolloutError) as info:
            live_estimator(worker=worker, bots=bots)  # type: ignore[arg-type]
        messages.append(str(info.value))
    assert messages[0] == messages[1] or "by name only" in messages[1]
    assert spare_pid() is None


def test_bots_that_do_not_fit_the_seats_are_refused_by_update_in_both_flavours() -> None:
    three = Game("classic", players=3, seed=1)
    messages = []
    for worker in ("thread", "process"):
        live = live_estimator(worker=worker, bots=["heuristic", "heuristic"],  # type: ignore[arg-type]
                              budget=36, seed=2)
        with pytest.raises(RolloutError, match=r"one per seat \(3\), not 2") as info:
            live.update(three)
        messages.append(str(info.value))
        live.update(position_g())  # the estimator is whole: a game that fits is estimated
        estimate = live.wait(HANG)
        assert estimate is not None and estimate.done and live.errors == []
        live.close()
    assert messages[0] == messages[1]


def test_a_process_that_dies_is_said_and_the_estimator_stops() -> None:
    told: list[str] = []
    live = live_estimator(worker="process", budget=10**6, on_error=told.append)
    assert isinstance(live, ProcessLiveEstimator)
    live.update(position_g())
    first_batch(live)
    os.kill(live.pid, signal.SIGKILL)
    until(lambda: live.failed, "the death noticed")
    assert live.wait(HANG) is None or live.failed  # wait() returns: nothing more comes
    assert told and "the rollout process ended" in told[0]
    live.close()


# ---------------------------------------------------------------- 6 and 7: in the widget


def widget() -> UgentopolyWidget:
    return UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1,
                            seats=["person", "person"])


def setup_request(w: UgentopolyWidget, players: int) -> None:
    tokens = ["hat", "dog", "car", "ship"]
    w._on_msg(w, {"type": "setup", "seq": w.state["seq"], "profile": "classic", "players": [
        {"name": f"P{k}", "token": tokens[k], "colour": f"#00000{k}", "seat": "person"}
        for k in range(players)]})


def test_a_lobby_game_the_bots_do_not_fit_turns_the_chances_off_with_a_message() -> None:
    for worker in ("process", "thread"):  # a process (by name) or a thread (a class)
        w = widget()
        bots: Any = ["heuristic", "heuristic"] if worker == "process" else [HeuristicBot] * 2
        w.show_win_chances(True, budget=36, bots=bots)
        assert isinstance(w._win, ProcessLiveEstimator) == (worker == "process")
        w.wait_win_chances(HANG)
        setup_request(w, 3)  # a 3-player game from the lobby
        assert len(w.game.players) == 3
        assert w.win_chances == {} and not w.win_chances_shown
        assert "win chances turned off: bots: one per seat (3), not 2" in w.errors
        w.close()


def test_a_dead_rollout_process_turns_the_widgets_chances_off_with_a_message() -> None:
    w = widget()
    w.show_win_chances(True, budget=10**5)
    estimator = w._win
    assert isinstance(estimator, ProcessLiveEstimator)
    until(lambda: estimator.latest is not None, "a first batch")
    os.kill(estimator.pid, signal.SIGKILL)
    until(lambda: estimator.failed, "the death noticed")
    w.wait_win_chances(HANG)  # (no event loop here: the news is taken when next used)
    assert w.win_chances == {} and not w.win_chances_shown
    assert any(e.startswith("win chances turned off: the rollout process ended")
               for e in w.errors), w.errors
    w.close()


def test_the_switch_never_waits_for_the_process_and_reuses_a_warm_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Forty requests on and off from the view: none waits on the kernel's thread for a child
    to import or to end (before: each off waited, 0.9 s on average), and one process does all
    the work (before: one started per on)."""
    started: list[int] = []
    waited_in: list[str] = []
    real_popen, real_wait = subprocess.Popen.__init__, subprocess.Popen.wait

    def popen(self: subprocess.Popen[Any], *args: Any, **kwargs: Any) -> None:
        real_popen(self, *args, **kwargs)
        started.append(self.pid)

    def wait(self: subprocess.Popen[Any], timeout: float | None = None) -> int:
        waited_in.append(threading.current_thread().name)
        return real_wait(self, timeout)

    monkeypatch.setattr(subprocess.Popen, "__init__", popen)
    monkeypatch.setattr(subprocess.Popen, "wait", wait)
    w = widget()
    took = []
    for k in range(40):
        begun = time.perf_counter()
        w._on_msg(w, {"type": "win_chances", "on": k % 2 == 0, "budget": 1000})
        took.append(time.perf_counter() - begun)
    assert w.errors == [] and w.win_chances == {}
    assert len(started) == 1, f"{len(started)} processes started"
    assert threading.main_thread().name not in waited_in
    w.show_win_chances(True, budget=36, seed=3)  # and the warm process estimates right
    figures = w.wait_win_chances(HANG)
    assert figures["rollouts"] == 36 and len(started) == 1
    w.close()
    took.sort()
    print(f"\nswitch on/off from the view: median {1000 * took[len(took) // 2]:.1f} ms, "
          f"max {1000 * took[-1]:.1f} ms (the first starts the process)")
