"""Luck or skill where there are no threads (issue 32, item 4: the browser site): the analysis
and the 36-roll map run a playout a step in slices of the event loop. The figures must be
those of the serial analyser and of a pool for the same seed and budget, the loop must get its
turn between every two slices, the analyser must stay incremental, and work of a line of play
left behind (an undo) must stop and never be shown. The widget's side runs here with
``threads_available`` made false, as in Pyodide."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Generator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from ugentopoly_widget import Game, UgentopolyWidget
from ugentopoly_widget.rollouts import slices
from ugentopoly_widget.rollouts.analysis import Analyser, analyse, explain, roll_map
from ugentopoly_widget.rollouts.analysis.rollmap import roll_map_steps
from ugentopoly_widget.rollouts.slices import Sliced, SlicedExecutor
from ugentopoly_widget.widget import analysis_live
from ugentopoly_widget.widget.analysis_view import analysis_payload

SMALL = {"rollouts": 6, "chance_rollouts": 2}  # (one a roll: no standard error, NaN)


def scenario() -> Game:
    """Ann about to roll onto New York Avenue, the last lot of her orange group."""
    return Game.scenario("classic", players=["Ann", "Bob"], owners={16: 0, 18: 0},
                         positions={"Ann": 14}, current="Ann", seed=3)


def blunder() -> Game:
    game = scenario()
    game.testing.script_dice((2, 3))
    game.act("roll")
    game.act("decline")  # ... and declines it
    return game


def one_step_a_slice() -> Any:
    """A clock that moves a second each time it is read: every slice plays one step."""
    ticks = itertools.count()
    return lambda: float(next(ticks))


def in_slices(steps: Generator[None, None, Any]) -> tuple[Any, list[int], Sliced[Any]]:
    """Run `steps` in slices of an event loop, a step a slice, with a ticker that stands for
    the page's messages; its result, the slices the ticker saw, the job."""
    async def run() -> tuple[Any, list[int], Sliced[Any]]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        seen: list[int] = []
        job = Sliced(steps, loop, on_done=done.set_result, on_error=done.set_exception,
                     clock=one_step_a_slice()).start()
        while not done.done():
            seen.append(job.slices)
            await asyncio.sleep(0)
        return done.result(), seen, job

    return asyncio.run(run())


# ------------------------------------------------------------------ the analysis itself


def test_the_analysis_in_slices_is_the_serial_one_and_a_pools() -> None:
    game = blunder()
    serial = Analyser(game, **SMALL).update()
    with ThreadPoolExecutor(2) as pool:
        pooled = analyse(game, executor=pool, **SMALL)
    analyser = Analyser(game, **SMALL)
    sliced, seen, job = in_slices(analyser.update_steps())
    assert sliced == serial == pooled
    assert sliced.decisions[0].verdict == "blunder" and sliced.chances  # something judged
    # a playout a step (36 outcomes of the roll, both choices of the decision, ...), and the
    # loop served between every two slices: a click would have been read
    assert job.slices >= analyser.playouts >= 36 * 2 + 2 * 6
    assert set(range(1, job.slices)) <= set(seen)


def test_incremental_in_slices_and_again_from_an_undo() -> None:
    """Turn by turn in slices: only the new actions judged (the playouts of the whole game
    once), the same table as the whole game's; an undo and another choice judged again from
    the change on, the rows before it kept."""
    game = blunder()
    record = game.record()
    whole = Analyser(game, **SMALL)
    want = whole.update()
    analyser = Analyser(**SMALL)
    for upto in (1, 2):
        part = {**record, "actions": record["actions"][:upto]}
        got, _, _ = in_slices(analyser.update_steps(part))
    assert got == want
    assert analyser.playouts == whole.playouts and analyser.points_evaluated == \
        whole.points_evaluated
    points, playouts = analyser.points_evaluated, analyser.playouts
    other = scenario()  # the same roll, then a purchase instead
    other.testing.script_dice((2, 3))
    other.act("roll")
    other.act("buy")
    again, _, _ = in_slices(analyser.update_steps(other))
    fresh = Analyser(other, **SMALL).update()  # (its settings count its own work)
    assert (again.decisions, again.chances, again.players) == (
        fresh.decisions, fresh.chances, fresh.players)
    assert analyser.points_evaluated - points == len(again.decisions)  # the roll not again
    assert analyser.playouts - playouts < playouts


def test_a_cancelled_analysis_in_slices_stops_at_its_next_step_and_goes_on_later() -> None:
    game = blunder()
    stop = {"now": False}
    analyser = Analyser(game, cancel=lambda: stop["now"], **SMALL)

    async def run() -> tuple[Any, int]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        job = Sliced(analyser.update_steps(), loop, on_done=done.set_result,
                     on_error=done.set_exception, clock=one_step_a_slice()).start()
        await until(lambda: job.slices >= 10 or done.done())
        stop["now"] = True
        at = job.slices
        return await done, job.slices - at

    partial, after = asyncio.run(run())
    assert not partial.complete and partial.settings["cancelled"]
    assert after <= 1  # the step in progress, no more
    assert analyser.playouts < 48
    stop["now"] = False
    assert analyser.update() == Analyser(game, **SMALL).update()


def test_the_roll_map_in_slices_is_roll_maps() -> None:
    game = scenario()
    serial = roll_map(game, rollouts=3, seed=4)
    with ThreadPoolExecutor(2) as pool:
        pooled = roll_map(game, rollouts=3, seed=4, executor=pool)
    sliced, seen, job = in_slices(roll_map_steps(game, rollouts=3, seed=4))
    assert sliced == serial == pooled
    assert job.slices >= 36 * 3 and set(range(1, job.slices)) <= set(seen)
    with pytest.raises(Exception, match="about to roll"):  # refused at once
        roll_map_steps(blunder(), rollouts=3)


def test_a_job_of_a_generation_left_behind_stops_at_its_next_step() -> None:
    """The worker's side in slices: the widget's generation moves on (an undo) while a job
    runs; the job returns what it has at its next step instead of playing on."""
    game = blunder()
    record = game.record()
    base = {k: v for k, v in record.items() if k != "actions"}
    part = (base, 0, record["actions"], record["injections"])  # (the scenario's set-up)
    settings = {"seed": 0, "thresholds": (2, 5, 10), "lang": "en", **SMALL}
    shared = analysis_live._Generation()
    shared.value = 1

    async def run() -> tuple[Any, int, int]:
        executor = SlicedExecutor(asyncio.get_running_loop(), clock=one_step_a_slice())
        future = executor.submit(analysis_live.run_analysis_steps, analysis_live.ENGINE,
                                 ("test-widget", 1), 1, part, settings, shared)
        while executor.slices < 5 and not future.done():
            await asyncio.sleep(0)
        shared.value = 2  # an undo
        at = executor.slices
        while not future.done():
            await asyncio.sleep(0)
        return future.result(), at, executor.slices

    (result, _), at, end = asyncio.run(run())
    assert not result.complete and end - at <= 1


# ------------------------------------------------------------------ the widget, no threads


@pytest.fixture
def no_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slices, "threads_available", lambda: False)  # Pyodide's


def message(w: UgentopolyWidget, content: dict[str, Any]) -> None:
    w._on_msg(w, {**content, "seq": w.state["seq"]})
    assert not w.error, w.error


async def until(check: Any, seconds: float = 300) -> None:
    """Wait on the loop until `check()` (a hang fails, however slow the machine)."""
    for _ in range(int(seconds / 0.001)):
        if check():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("never came")


def test_the_widget_in_slices_shows_analyses_figures_and_its_budget(no_threads: None) -> None:
    """The Analysis tab's switch in the browser: slices of the kernel's loop, the browser's
    budget in the trait (the view says it), the verdict and luck equal to analyse() of the
    game at that budget; the view's clicks read between the slices."""
    from ugentopoly_widget.widget.analysis_live import (
        BROWSER_CHANCE_ROLLOUTS,
        BROWSER_ROLLOUTS,
    )

    async def main() -> tuple[UgentopolyWidget, dict[str, Any], list[int], int]:
        w = UgentopolyWidget.from_game(scenario(), turn_pause=0)
        message(w, {"type": "analysis", "on": True})
        waiting = dict(w.analysis)
        executor = w._an_executor
        assert isinstance(executor, SlicedExecutor)
        executor.clock = one_step_a_slice()
        seen: list[int] = []

        async def ticker() -> None:  # what else waits on the loop (a click's message)
            while True:
                seen.append(executor.slices)
                await asyncio.sleep(0)

        tick = asyncio.ensure_future(ticker())
        w.game.testing.script_dice((2, 3))
        message(w, {"type": "act", "action": {"type": "roll", "player": 0}})
        message(w, {"type": "act", "action": {"type": "decline", "player": 0}})
        await until(lambda: w.analysis.get("status") == "done"
                    and w.analysis.get("seq") == w.state["seq"])
        tick.cancel()
        return w, waiting, seen, executor.slices

    w, waiting, seen, played = asyncio.run(main())
    assert waiting.pop("seq") < w.state["seq"]
    assert waiting == {"on": True, "status": "waiting", "browser": True,
                       "rollouts": BROWSER_ROLLOUTS, "chance_rollouts": BROWSER_CHANCE_ROLLOUTS}
    direct = analyse(w.game, rollouts=BROWSER_ROLLOUTS, chance_rollouts=BROWSER_CHANCE_ROLLOUTS)
    words = {"en": explain(direct, "en"), "nl": explain(direct, "nl")}
    assert w.analysis == analysis_payload(direct, seq=w.state["seq"],
                                          actions=len(w.game.actions), explain=words,
                                          browser=True)
    assert w.analysis["verdict"]["verdict"] == "blunder"
    assert w.analysis["browser"] is True and w.analysis["chance_rollouts"] == 2
    assert played > 36 and set(range(1, played)) <= set(seen)
    w.close()


def test_an_undo_in_slices_drops_the_old_lines_work(no_threads: None) -> None:
    """An undo while the decline is analysed in slices: the job stops at its next step, the
    verdict about the decline is never shown, the analysis of what is left follows."""
    async def main() -> tuple[UgentopolyWidget, list[dict[str, Any]], int]:
        w = UgentopolyWidget.from_game(scenario(), turn_pause=0)
        shown: list[dict[str, Any]] = []
        w.observe(lambda change: shown.append(change["new"]), names="analysis")
        w.show_analysis(True, **SMALL)
        executor = w._an_executor
        assert isinstance(executor, SlicedExecutor)
        executor.clock = one_step_a_slice()
        w.game.testing.script_dice((2, 3))
        message(w, {"type": "act", "action": {"type": "roll", "player": 0}})
        await until(lambda: w.analysis.get("status") == "done")
        message(w, {"type": "act", "action": {"type": "decline", "player": 0}})
        await until(lambda: executor.slices >= 3)
        at = executor.slices
        message(w, {"type": "undo"})
        await until(lambda: w.analysis.get("status") == "done"
                    and w.analysis.get("seq") == w.state["seq"])
        return w, shown, executor.slices - at

    w, shown, after = asyncio.run(main())
    assert w.analysis["upto"] == len(w.game.actions) == 1 and w.analysis["verdict"] is None
    assert all(not value.get("verdict") for value in shown), "a verdict left behind was shown"
    # the old job's step in progress, then the record walked again (one action): the roll's
    # row is kept, not judged again (72 playouts)
    assert after < 10, after  # (the roll judged again: 72 playouts more)
    w.close()


STEPS: list[int] = []  # the steps each roll map of counted_roll_map played


def counted_roll_map(record: dict[str, Any], settings: dict[str, Any]) -> Any:
    """The widget's roll map engine, counting its steps."""
    STEPS.append(0)
    result = yield from analysis_live.roll_map_steps(record, settings)
    STEPS[-1] = -1  # finished
    return result


def counting(steps: Generator[None, None, Any]) -> Generator[None, None, Any]:
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value
        STEPS[-1] += 1
        yield


def test_the_roll_map_in_slices_from_the_view(no_threads: None,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Map the 36 rolls in the browser: the browser's budget, roll_map()'s figures; a map
    asked for a position the game then leaves stops at its next step and is never shown."""
    from ugentopoly_widget.widget.analysis_live import BROWSER_ROLL_MAP_ROLLOUTS

    real = analysis_live.roll_map_steps
    monkeypatch.setattr(analysis_live, "roll_map_steps",
                        lambda record, settings: counting(real(record, settings)))

    async def main() -> tuple[UgentopolyWidget, dict[str, Any], dict[str, Any]]:
        w = UgentopolyWidget.from_game(scenario(), turn_pause=0)
        w.roll_map_engine = "test_analysis_slices:counted_roll_map"
        message(w, {"type": "roll_map"})
        working = dict(w.roll_map)
        await until(lambda: w.roll_map.get("status") == "done")
        done = dict(w.roll_map)
        message(w, {"type": "roll_map"})  # asked again, then the game moves on
        await until(lambda: STEPS[-1] >= 3)
        w.game.testing.script_dice((2, 3))
        message(w, {"type": "act", "action": {"type": "roll", "player": 0}})
        await asyncio.sleep(0.2)
        return w, working, done

    STEPS.clear()
    w, working, done = asyncio.run(main())
    assert working["status"] == "working" and working["seq"] == done["seq"]
    direct = roll_map(scenario(), rollouts=BROWSER_ROLL_MAP_ROLLOUTS, seed=0)
    assert done["browser"] is True and done["rollouts"] == BROWSER_ROLL_MAP_ROLLOUTS
    assert [c["p_win"] for c in done["cells"]] == [o.p_win for o in direct.outcomes]
    assert [c["gain"] for c in done["cells"]] == [o.gain for o in direct.outcomes]
    assert STEPS[0] == -1 and 3 <= STEPS[1] < 36 * BROWSER_ROLL_MAP_ROLLOUTS  # stopped
    assert w.roll_map.get("status") != "done"  # the left-behind map never shown
    w.close()
