"""The game analysis on executors (the same seed, the same table serially, on threads, on
processes and on Dask; a cancel stops a pool) and its statistical checks (slow)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import make_bot, play_game
from ugentopoly_widget.rollouts.analysis import Analyser, analyse, core, roll_map

FAST: dict[str, Any] = {"rollouts": 12, "chance_rollouts": 2, "horizon": 2}


def bot_game(turns: int, seed: int = 5) -> Game:
    game = Game("classic", players=["Ann", "Bob"], seed=seed)
    play_game(game, [make_bot("strong", 1), make_bot("strong", 2)], until_turn=turns)
    return game


def test_the_same_seed_gives_the_same_table_everywhere(dask_client: Any) -> None:
    game = bot_game(8)
    serial = analyse(game, seed=3, **FAST)
    with ThreadPoolExecutor(2) as pool:
        threads = analyse(game, seed=3, executor=pool, **FAST)
    processes = analyse(game, seed=3, executor="processes", workers=2, **FAST)
    on_dask = analyse(game, seed=3, executor=dask_client, **FAST)
    assert serial.decisions and serial.chances
    for other in (threads, processes, on_dask):
        assert other.decisions == serial.decisions
        assert other.chances == serial.chances
        assert other.players == serial.players
    other_seed = analyse(game, seed=4, **FAST)
    assert other_seed.chances != serial.chances


def test_the_roll_map_is_the_same_everywhere(dask_client: Any) -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 1, 18: 1, 19: 1},
                         positions={"Ann": 10}, current="Ann")
    serial = roll_map(game, rollouts=6, horizon=2, seed=1)
    assert roll_map(game, rollouts=6, horizon=2, seed=1, executor="processes",
                    workers=2) == serial
    assert roll_map(game, rollouts=6, horizon=2, seed=1, executor=dask_client) == serial


def test_cancel_stops_a_pool_and_keeps_what_is_done(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "JOB_WORK", 50)  # small jobs: several for this short game
    game = bot_game(8)
    stop = threading.Event()
    calls: list[int] = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        stop.set()

    analyser = Analyser(game, executor="processes", workers=2, progress=progress,
                        cancel=stop, **FAST)
    part = analyser.update()
    full = analyse(game, **FAST)
    assert not part.complete and len(calls) == 1
    assert 0 < analyser.points_evaluated < len(full.decisions) + len(full.chances)
    assert part.decisions == full.decisions[:len(part.decisions)]
    stop.clear()
    analyser.progress = None
    rest = analyser.update()
    assert rest.decisions == full.decisions and rest.chances == full.chances


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="the judge finds real losses in the strong bot's play: "
                   "seed 11's game charges Ann 38 +- 5 points, Bob 15 +- 2, mostly Ann "
                   "rejecting Bob's offers at 1.5 to 2 times the price (turns 29 to 67) and "
                   "buying lone lots where declining them to auction wins more; rollouts "
                   "played to the end confirm them (the charged decisions cost 83 points "
                   "played out, benchmarks/judge_vs_full.py --seed 11), and the rollout bot "
                   "on the strong bot won 109 of 200 games against it (bench_bots.py --cases "
                   "rollout, seeds 31 and 41): the strong bot is not yet its own rollouts' equal, "
                   "and rules drawn from the charged positions do not make it so "
                   "(benchmarks/duel_trades.py: 49.6 % and 50.4 % against it; "
                   "docs/analysis.md, Limits); strict: a fixed bot turns this into a "
                   "failure, to be made a plain test")
def test_strong_bot_decisions_are_charged_no_more_than_noise() -> None:
    """A player given every choice by the strong bot, judged by strong-bot rollouts: its
    skill loss should be within its interval of zero."""
    game = bot_game(1000, seed=11)
    result = analyse(game, rollouts=72, chance_rollouts=2, horizon=8)
    for p in result.players:
        assert p.skill_loss <= 1.96 * p.skill_loss_se, p


def test_cancel_stops_dask_too(dask_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "JOB_WORK", 50)
    game = bot_game(8)
    stop = threading.Event()
    analyser = Analyser(game, executor=dask_client, progress=lambda done, total: stop.set(),
                        cancel=stop, **FAST)
    part = analyser.update()
    full = analyse(game, **FAST)
    assert not part.complete
    assert 0 < analyser.points_evaluated < len(full.decisions) + len(full.chances)
    stop.clear()
    analyser.progress = None
    assert analyser.update().decisions == full.decisions
