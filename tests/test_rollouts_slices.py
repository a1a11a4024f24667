"""Rollouts without numpy and without threads (issue 32, the browser site): plain lists in
Outcomes and the statistics, and the slices of the event loop that stand in for a worker
thread in Pyodide. The figures must be the thread's, the process's and numpy's; the loop must
get its turn between every two slices (a click waits for one slice at most)."""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine.actions import ProposeTrade, TradeSide
from ugentopoly_widget.rollouts import LiveEstimator, rate_trade, stats, win_chances
from ugentopoly_widget.rollouts.runner import STEP_TURNS, Outcomes, checked_request
from ugentopoly_widget.rollouts.slices import Sliced, SlicedLiveEstimator, finish
from ugentopoly_widget.rollouts.stats import standard_error
from ugentopoly_widget.rollouts.trades import rating_steps
from ugentopoly_widget.simulation.stats import wilson

REPO = Path(__file__).resolve().parents[1]


def position() -> Game:
    return Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann", 18: "Ann", 19: "Bob", 1: "Bob"})


def request(game: Game, rollouts: int = 36, **kw: Any) -> Any:
    return checked_request(game, rollouts=rollouts, bots="strong", seed=5, max_turns=1000,
                           at_cap="apart", **kw)


def counting_clock() -> Any:
    """A clock that moves one second each time it is read: every slice plays one step."""
    ticks = itertools.count()
    return lambda: float(next(ticks))


# ------------------------------------------------------------------ plain lists, same figures


def test_standard_error_is_numpys_formula() -> None:
    rng = np.random.default_rng(1)
    values = rng.integers(0, 2, 500).astype(float)
    strata = rng.integers(0, 36, 500)
    plain = float(np.std(values, ddof=1) / np.sqrt(len(values)))
    assert standard_error(values.tolist(), None) == pytest.approx(plain, rel=1e-12)
    counts = np.bincount(strata)
    nh = counts[counts > 0].astype(float)
    mean_h = np.bincount(strata, weights=values)[counts > 0] / nh
    var_h = (np.bincount(strata, weights=values * values)[counts > 0] - nh * mean_h**2) / (nh - 1)
    stratified = float(np.sqrt(np.sum((nh / 500) ** 2 * var_h / nh)))
    assert standard_error(values.tolist(), strata.tolist()) == pytest.approx(stratified,
                                                                             rel=1e-9)
    assert standard_error(values, strata) == standard_error(values.tolist(), strata.tolist())
    # one rollout in some stratum: the plain error (conservative); fewer than two: none
    assert standard_error([1.0, 0.0, 1.0], [0, 0, 1]) == pytest.approx(
        float(np.std([1.0, 0.0, 1.0], ddof=1) / np.sqrt(3)))
    assert np.isnan(standard_error([1.0], [0]))


def test_outcomes_join_in_rollout_order_and_keep_prefixes() -> None:
    req = request(position())
    whole = req.run([[], []])
    assert whole.count == 36 and whole.variants == 2 and whole.players == 2
    assert len(whole.share(1, 0)) == 36 and whole.strata is not None
    told: list[tuple[int, int]] = []
    steps = request(position(), progress=lambda done, total: told.append((done, total))
                    ).run_steps([[], []], step=5)
    parts_seen = 0
    while True:
        try:
            next(steps)
            parts_seen += 1
        except StopIteration as stop:
            sliced: Outcomes = stop.value
            break
    # each rollout cut into steps of STEP_TURNS turns (both variants played to the end)
    turns = sum(whole.turns[0]) + sum(whole.turns[1])
    assert parts_seen > turns // STEP_TURNS
    assert told == [(n, 36) for n in (5, 10, 15, 20, 25, 30, 35, 36)]
    for field in ("wins", "finished", "turns", "strata"):
        assert getattr(sliced, field) == getattr(whole, field), field
    head = whole.head(10)
    assert head.count == 10 and head.share(0, 1) == whole.share(0, 1)[:10]
    assert head.strata == whole.strata[:10]
    shuffled = Outcomes.join([whole.head(36), ]).wins == whole.wins
    assert shuffled


# ------------------------------------------------------------------ slices of an event loop


def test_a_rating_in_slices_is_rate_trade() -> None:
    """The Advice of the browser: rating_steps one rollout a step, one step a slice (a clock
    that says each slice is over), on an event loop that runs a ticker between slices."""
    game = position()
    offer = ProposeTrade(0, 1, give=TradeSide(cash=300), get=TradeSide(properties=(19,)))
    desk = rate_trade(game, offer, rollouts=36, seed=3)

    async def sliced() -> tuple[Any, list[int], Sliced[Any]]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        seen: list[int] = []
        job = Sliced(rating_steps(game, offer, rollouts=36, seed=3, step=1), loop,
                     on_done=done.set_result, on_error=done.set_exception,
                     clock=counting_clock()).start()
        while not done.done():
            seen.append(job.slices)
            await asyncio.sleep(0)
        return done.result(), seen, job

    rating, seen, job = asyncio.run(sliced())
    assert rating.sides == desk.sides and rating.fair_cash == desk.fair_cash
    assert rating.explain("en") == desk.explain("en")
    # a slice per rollout (2 variants x 36, then the bisection's runs of 36)
    assert job.slices >= 36 + 2 * 36
    assert set(range(1, job.slices)) <= set(seen), "the loop ran between every two slices"


def test_a_cancelled_rating_stops_before_its_next_step() -> None:
    game = position()
    offer = ProposeTrade(0, 1, give=TradeSide(cash=300), get=TradeSide(properties=(19,)))

    async def run() -> Sliced[Any]:
        loop = asyncio.get_running_loop()
        outcome: list[Any] = []
        job = Sliced(rating_steps(game, offer, rollouts=36, step=1), loop,
                     on_done=outcome.append, on_error=outcome.append,
                     clock=counting_clock()).start()
        for _ in range(5):
            await asyncio.sleep(0)
        job.cancel()
        await asyncio.sleep(0.1)  # the next slice's time (GAP_SECONDS) has come: it stops
        assert outcome == []
        return job

    job = asyncio.run(run())
    assert 1 <= job.slices <= 6
    assert job.steps.gi_frame is None  # closed


def test_an_error_in_a_slice_goes_to_on_error() -> None:
    def steps() -> Any:
        yield
        raise ValueError("no more")

    async def run() -> list[Any]:
        got: list[Any] = []
        Sliced(steps(), asyncio.get_running_loop(), on_done=got.append,
               on_error=got.append).start()
        for _ in range(5):
            await asyncio.sleep(0)
        return got

    got = asyncio.run(run())
    assert len(got) == 1 and isinstance(got[0], ValueError)
    assert finish(iter_result(7)) == 7


def iter_result(value: int) -> Any:
    yield
    return value


def test_the_live_estimate_in_slices_is_the_threads() -> None:
    """The win bar of the browser: the same figures as a worker thread's and win_chances',
    the rollouts cut into slices of a few turns, the loop served between every two."""
    game = Game("classic", players=["Ann", "Bob"], seed=4)
    thread = LiveEstimator(budget=72, seed=2)
    thread.update(game)
    want = thread.wait(timeout=300)
    thread.close()
    assert want is not None and want.done

    async def sliced() -> tuple[Any, list[int], SlicedLiveEstimator]:
        estimates: list[Any] = []
        live = SlicedLiveEstimator(loop=asyncio.get_running_loop(), budget=72, seed=2,
                                   on_update=estimates.append, clock=counting_clock())
        live.update(game)
        seen: list[int] = []
        while not (estimates and estimates[-1].done):
            seen.append(live.slices)
            await asyncio.sleep(0)
        live.close()
        return estimates, seen, live

    estimates, seen, live = asyncio.run(sliced())
    assert estimates[-1].figures == want.figures and estimates[-1].rollouts == 72
    assert len(estimates) == 72  # each rollout published once played
    # a slice plays one step of STEP_TURNS turns here: a rollout (tens of turns) spans many,
    # so a click waits for a few turns of play, never for a whole rollout (before: 72 slices)
    assert live.slices > 5 * 72 and set(range(1, live.slices)) <= set(seen)
    table = win_chances(game, rollouts=72, seed=2)
    assert [p["p_win"] for p in want.figures["players"]] == pytest.approx(
        table.p_win.tolist(), abs=1e-12)


def test_a_held_or_moved_on_estimate_in_slices() -> None:
    """hold() (a click being answered) puts the slices off; a new position drops the old
    one's work at its next step (a rollout half played too: the new position's figures are
    win_chances' own); close() stops it."""
    game = Game("classic", players=["Ann", "Bob"], seed=4)

    async def run() -> None:
        live = SlicedLiveEstimator(loop=asyncio.get_running_loop(), budget=3600,
                                   clock=counting_clock())
        live.hold(3600)
        live.update(game)
        for _ in range(10):
            await asyncio.sleep(0)
        assert live.latest is None and live.slices == 0  # held: nothing played
        live.hold(0)
        live._scheduled.cancel() if live._scheduled is not None else None
        live._scheduled = None
        live._start_worker()
        while live.latest is None:
            await asyncio.sleep(0)
        first = live.generation
        busy = live.slices + 3  # into the next rollout, a few steps
        while live.slices < busy:
            await asyncio.sleep(0)
        assert live.latest.rollouts == 1 and live._rolling is not None
        game.testing.script_dice((3, 4))
        game.act("roll")
        live.update(game, tag="after")
        while live.latest is None or live.latest.tag != "after":
            await asyncio.sleep(0)
        assert live.generation == first + 1 and live.latest.rollouts <= 2
        after = live.latest
        table = win_chances(game, rollouts=after.rollouts, seed=0)
        assert [p["p_win"] for p in after.figures["players"]] == pytest.approx(
            table.p_win.tolist(), abs=1e-12)
        live.close()
        played = live.slices
        for _ in range(10):
            await asyncio.sleep(0)
        assert live.slices == played  # closed: no more slices

    asyncio.run(run())


def test_without_a_loop_wait_plays_the_slices() -> None:
    game = Game("classic", players=["Ann", "Bob"], seed=4)
    live = SlicedLiveEstimator(budget=36, seed=1)
    assert live.loop is None
    live.update(game)
    estimate = live.wait()
    assert estimate is not None and estimate.done and estimate.rollouts == 36


# ------------------------------------------------------------------ no numpy, no pandas

NO_NUMPY = r"""
import importlib.abc, json, sys


class NotHere(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("numpy", "pandas", "scipy", "threadpoolctl"):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None


sys.meta_path.insert(0, NotHere())
from ugentopoly_widget import Game
from ugentopoly_widget.engine.actions import Buy, Decline
from ugentopoly_widget.rollouts.chances import summarize
from ugentopoly_widget.rollouts.runner import checked_request
from ugentopoly_widget.rollouts.values import value_rows

game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 0, 18: 0},
                     positions={"Ann": 14}, current="Ann", seed=3)
game.testing.script_dice((2, 3))
game.act("roll")
request = checked_request(game, rollouts=36, bots="strong", seed=2, max_turns=1000,
                          at_cap="apart")
choices = [Buy(0), Decline(0)]
out = request.run([[a] for a in choices])
rows = value_rows(game, out, choices, 0, 0, [1], 0.95, "en")
print("RESULT " + json.dumps({
    "chances": summarize(out, 0)["players"][0]["p_win"],
    "rows": [[r["text"], r["p_win"], r["delta"], r["delta_se"]] for r in rows],
    "loaded": sorted(m for m in sys.modules if m.partition(".")[0] in ("numpy", "pandas"))}))
"""


def test_the_runner_and_the_figures_need_no_numpy() -> None:
    """What the win bar, Advice and the game analysis run on (checked_request, Request.run,
    Outcomes, summarize, value_rows) with numpy and pandas refused at import: the same
    figures as action_values gives with them."""
    from ugentopoly_widget.engine.actions import Buy, Decline
    from ugentopoly_widget.rollouts import action_values

    proc = subprocess.run([sys.executable, "-c", NO_NUMPY], capture_output=True, text=True,
                          timeout=300, cwd=REPO, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = next(x for x in proc.stdout.splitlines() if x.startswith("RESULT "))
    got = json.loads(line.removeprefix("RESULT "))
    assert got["loaded"] == []
    game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 0, 18: 0},
                         positions={"Ann": 14}, current="Ann", seed=3)
    game.testing.script_dice((2, 3))
    game.act("roll")
    table = action_values(game, rollouts=36, seed=2, actions=[Buy(0), Decline(0)],
                          bots="strong")
    desk = {r.text: (r.p_win, r.delta) for r in table.itertuples()}
    assert [r[0] for r in got["rows"]] == table.text.tolist()
    for text, p_win, delta, _se in got["rows"]:
        assert (p_win, delta) == pytest.approx(desk[text], abs=1e-12)


def test_the_interval_counts_an_effective_sample_of_n_minus_1_whole() -> None:
    # 17 wins in 36 unstratified rollouts: p(1-p)/se^2 is n - 1 = 35 exactly, which sums in a
    # different order put a hair above or below; either way Wilson's at 35, not at 34 (the
    # win-chances notebook's interval moved when numpy's sums became plain ones)
    values = [1.0] * 17 + [0.0] * 19
    p = sum(values) / 36
    se = stats.standard_error(values, None)
    expected = wilson(17, 35, 0.95)
    for nudged in (se, math.nextafter(se, 0.0), math.nextafter(se, 1.0)):
        assert stats.interval(p, nudged, 36) == expected
