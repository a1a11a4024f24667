"""Random arguments of the right and the wrong types thrown at the surfaces of issue 30: the
rollouts (win_chances, action_values, rate_trade, the rollout bot), the live estimator (thread
and process, closed or dropped), the probability lessons' hitting times and survival curves,
and the widget's win chances and trade advice. Each case runs in a forked child with a memory
cap and a timeout (tests/child.py); it must end in a named error or a correct result — never an
unnamed exception, a hang or unbounded memory — and leave nothing running: the child counts its
descendant processes and its threads before the call and after it (a little while allowed for
what stops asynchronously). The cases are drawn from fixed seeds: a failure names its case."""

from __future__ import annotations

import functools
import gc
import math
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from child import descendants, run_in_child
from test_analysis_fuzz import JUNK, describe, pick

from ugentopoly_widget import Game
from ugentopoly_widget.engine.actions import ProposeTrade, TradeSide
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.probability import hitting_times
from ugentopoly_widget.probability.covering import simulate_hitting_times
from ugentopoly_widget.probability.games import survival_curve
from ugentopoly_widget.rollouts import RolloutBot, action_values, rate_trade, win_chances
from ugentopoly_widget.rollouts.live_process import discard_spare, live_estimator
from ugentopoly_widget.widget import UgentopolyWidget

TIMEOUT = 90.0  # seconds a case may take (only a hang takes that long)
MEMORY_MB = 700  # address space a case may add
SETTLE = 30.0  # seconds what stops asynchronously (a process told to close) may take


def _g() -> Game:
    game = Game("classic", players=2, seed=1)
    play_game(game, [HeuristicBot(seed=1), HeuristicBot(seed=2)], until_turn=30)
    return game


G = _g()  # the position g (each case is a fork: its copy is its own)
BUYING = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 0}, positions={"Ann": 14},
                       current="Ann")
BUYING.testing.script_dice((2, 3))
BUYING.act("roll")  # Ann may buy New York Avenue: a decision the rollout bot thinks about
TRADING = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                        owners={16: "Ann", 18: "Ann", 19: "Bob", 1: "Bob"})
OVER = Game("classic", players=2, seed=3)
play_game(OVER, [HeuristicBot(seed=1), HeuristicBot(seed=2)])
GAMES: list[Any] = [G, BUYING, TRADING]


def contained(call: Callable[[], Any]) -> Callable[[], tuple[Any, ...]]:
    """`call` as the child runs it: how it ended (a value, or the error's module, name and
    message), and the processes and threads left after it (waited for up to SETTLE s)."""
    def run() -> tuple[Any, ...]:
        processes, threads = descendants(), set(threading.enumerate())
        try:
            ended: tuple[Any, ...] = ("ok", call())
        except Exception as exc:  # (a BaseException other than these: the child reports it)
            ended = ("raised", type(exc).__module__, type(exc).__qualname__, str(exc)[:300])
        discard_spare()  # a warm process kept on purpose (close(wait=False)): ended now
        end = time.monotonic() + SETTLE
        while True:
            left = (sorted(descendants() - processes),
                    sorted(t.name for t in set(threading.enumerate()) - threads))
            if left == ([], []) or time.monotonic() > end:
                return (*ended, left)
            # an estimator dropped without close() stops when collected (a full collection
            # of a forked heap copies it: only when something is still running)
            gc.collect()
            time.sleep(0.05)
    return run


def check(outcome: tuple[Any, ...], case: str, valid: Callable[[Any], bool]) -> None:
    """A named error or a valid result, and nothing left running (`outcome`: run_in_child's
    report of a `contained` call)."""
    assert outcome[0] == "ok", f"{case}: {outcome[:5]}"  # not a timeout, a death, an escape
    ended = outcome[1]
    left = ended[-1]
    assert left == ([], []), f"{case}: left running (processes, threads): {left}"
    if ended[0] == "ok":
        assert valid(ended[1]), f"{case}: a wrong result {ended[1]!r}"
    else:
        assert str(ended[1]).startswith("ugentopoly_widget"), f"{case}: {ended[1:4]}"


def run_case(call: Callable[[], Any], case: str, valid: Callable[[Any], bool]) -> None:
    check(run_in_child(contained(call), timeout=TIMEOUT, memory_mb=MEMORY_MB), case, valid)


# ---------------------------------------------------------------- the rollouts


def rollout_kwargs(rng: random.Random) -> dict[str, Any]:
    choices: dict[str, list[Any]] = {
        "rollouts": [1, 36, 72, np.int64(36)],
        "bots": ["heuristic", "random", ["heuristic", "random"], HeuristicBot,
                 functools.partial(HeuristicBot, reserve=300), functools.partial(RolloutBot)],
        "seed": [0, 7, np.int64(3)],
        "max_turns": [30, 200, np.int64(100)],
        "executor": [None, "processes"],
        "workers": [1, 2, np.int64(2), 10_000],
        "at_cap": ["apart", "richest"],
        "confidence": [0.9, 0.95, np.float64(0.99)],
        "progress": [None, lambda done, total: None, lambda: None],
    }
    kwargs = {key: pick(rng, good) for key, good in choices.items() if rng.random() < 0.4}
    kwargs.setdefault("rollouts", 36)
    kwargs.setdefault("max_turns", 200)  # short rollouts: the cases stay quick
    return kwargs


def _chances(table: Any) -> bool:
    p = table.p_win.to_numpy()
    return bool(len(table) >= 2 and (p >= 0).all() and (p <= 1).all()
                and p.sum() + table.p_unfinished.iloc[0] <= 1 + 1e-9)


@pytest.mark.parametrize("case", range(10))
def test_win_chances_fuzz(case: int) -> None:
    rng = random.Random(30_100 + case)
    game = pick(rng, [G, G, BUYING, OVER])
    kwargs = rollout_kwargs(rng)
    run_case(lambda: _summary(win_chances(game, **kwargs)),
             f"win_chances({describe(game)}, {describe(kwargs)})", _chances)


def _summary(table: Any) -> Any:
    return table[["p_win", "p_unfinished"]].copy()


@pytest.mark.parametrize("case", range(6))
def test_action_values_fuzz(case: int) -> None:
    rng = random.Random(30_200 + case)
    game = pick(rng, [G, BUYING, BUYING])
    kwargs = rollout_kwargs(rng)
    if isinstance(game, Game) and not game.is_over:
        legal = game.legal_actions()
        choices: dict[str, list[Any]] = {
            "actions": [None, legal[:1], [a.to_dict() for a in legal[:2]], legal[:2]],
            "players": [None, "all", 0, [1], np.int64(1)],
            "lang": ["en", "nl"],
        }
        kwargs.update({k: pick(rng, good) for k, good in choices.items() if rng.random() < .4})

    def valid(table: Any) -> bool:
        return bool(len(table) >= 1 and table.bot_choice.sum() == 1
                    and ((table.p_win >= 0) & (table.p_win <= 1)).all())

    run_case(lambda: action_values(game, **kwargs)[["p_win", "bot_choice"]].copy(),
             f"action_values({describe(game)}, {describe(kwargs)})", valid)


@pytest.mark.parametrize("case", range(6))
def test_rate_trade_fuzz(case: int) -> None:
    rng = random.Random(30_300 + case)
    offer = pick(rng, [
        {"player": 0, "partner": 1, "give": {"cash": 300}, "get": {"properties": [19]}},
        {"player": 0, "partner": 1, "give": {"cash": 100}, "get": {}},  # cash only
        ProposeTrade(0, 1, give=TradeSide(properties=(16,)), get=TradeSide(cash=200)),
        {"player": 0, "partner": 1, "give": {"cash": 10**6}, "get": {}},
        {"player": 1, "partner": 0, "give": {}, "get": {"cash": 5}},
        {"player": 0, "partner": 1, "give": JUNK[rng.randrange(len(JUNK))], "get": {}},
    ])
    kwargs = rollout_kwargs(rng)
    kwargs["rollouts"] = 36 if rng.random() < 0.7 else kwargs["rollouts"]
    kwargs["fair"] = pick(rng, [True, False])

    def call() -> tuple[Any, ...]:
        rating = rate_trade(TRADING, offer, **kwargs)
        return rating.fair_cash, rating.fair_note, len(rating.table), rating.explain("nl")

    def valid(value: Any) -> bool:
        fair, note, sides, words = value
        return sides == 2 and isinstance(words, str) and (
            (note == "not_asked" and fair is None) or isinstance(fair, int))

    run_case(call, f"rate_trade({describe(offer)}, {describe(kwargs)})", valid)


@pytest.mark.parametrize("case", range(5))
def test_rollout_bot_fuzz(case: int) -> None:
    rng = random.Random(30_400 + case)
    choices: dict[str, list[Any]] = {
        "seed": [None, 1, np.int64(2)], "rollouts": [2, 8, np.int64(4)],
        "margin": [0, 1.0, np.float64(2.0)], "max_turns": [20, 60],
    }
    kwargs = {key: pick(rng, good) for key, good in choices.items() if rng.random() < 0.5}
    kwargs.setdefault("rollouts", 4)
    kwargs.setdefault("max_turns", 60)

    def call() -> tuple[str, int]:
        from ugentopoly_widget import simulate

        bot = RolloutBot(**kwargs)
        chosen = bot.choose(Game.replay(BUYING.record()))
        results = simulate(2, "classic", bots=[functools.partial(RolloutBot, **kwargs),
                                               "heuristic"], progress=False,
                           options={"round_limit": 4}, collect=())
        return type(chosen).__name__, len(results.games) + len(results.failures)

    run_case(call, f"RolloutBot({describe(kwargs)})", lambda v: v[1] == 2 and v[0] in (
        "Buy", "Decline", "Mortgage"))


# ---------------------------------------------------------------- the live estimator


@pytest.mark.parametrize("case", range(10))
def test_live_estimator_fuzz(case: int) -> None:
    rng = random.Random(30_500 + case)
    choices: dict[str, list[Any]] = {
        "worker": ["thread", "process", "auto"], "budget": [36, 72, np.int64(36)],
        "bots": ["heuristic", ["heuristic", "random"], ["heuristic"] * 3, HeuristicBot],
        "seed": [0, np.int64(5)], "max_turns": [100, np.int64(300)],
        "at_cap": ["apart", "richest"], "batch": [12, 36],
        "on_update": [None, lambda estimate: None, lambda: None],
        "on_error": [None, lambda text: None],
    }
    kwargs = {key: pick(rng, good) for key, good in choices.items() if rng.random() < 0.4}
    kwargs.setdefault("worker", rng.choice(["thread", "process"]))
    kwargs.setdefault("max_turns", 100)
    game = pick(rng, [G, G, Game("classic", players=3, seed=2), OVER])
    hold = pick(rng, [0, 0.05, None, None])
    ending = rng.choice(["close", "close(wait=False)", "drop", "close twice"])

    def call() -> tuple[int, bool]:
        live = live_estimator(**kwargs)
        try:
            if hold is not None:
                live.hold(hold)
            live.update(game)
            estimate = live.wait(timeout=TIMEOUT / 3)
            rollouts = estimate.rollouts if estimate is not None else 0
            return rollouts, bool(estimate is None or estimate.rollouts > 0)
        finally:
            if ending == "close":
                live.close()
            elif ending == "close(wait=False)":
                live.close(wait=False)
            elif ending == "close twice":
                live.close(wait=False)
                live.close()
            del live  # "drop": collected, never closed

    run_case(call, f"live_estimator({describe(kwargs)}) on {describe(game)}, hold "
                   f"{describe(hold)}, then {ending}", lambda v: v[1])


# ---------------------------------------------------------------- the lessons


@pytest.mark.parametrize("case", range(6))
def test_hitting_times_fuzz(case: int) -> None:
    rng = random.Random(30_600 + case)
    targets = pick(rng, [30, [30, 5], "jail", [5, 39], "orange", 0, [10, 30]])
    kwargs = {key: pick(rng, good) for key, good in {
        "walkers": [64, 256], "seed": [1, np.int64(2)], "per": ["roll", "turn"],
        "max_rolls": [200, 2000], "jail": ["short", "long"]}.items() if rng.random() < 0.4}
    kwargs.setdefault("walkers", 256)

    def call() -> tuple[list[float], list[float]]:
        simulated = simulate_hitting_times("classic", targets=targets, **kwargs)
        exact = hitting_times("classic", targets=targets if isinstance(targets, list)
                              else [targets], per=kwargs.get("per", "roll"),
                              jail=kwargs.get("jail", "short"))
        return simulated["mean"].tolist(), exact["expected"].tolist()

    def valid(value: Any) -> bool:  # an unreachable target is inf in both, never NaN
        simulated, exact = value
        return all((math.isinf(s) == math.isinf(e)) and not math.isnan(s)
                   for s, e in zip(simulated, exact, strict=True))

    run_case(call, f"simulate_hitting_times(targets={describe(targets)}, {describe(kwargs)})",
             valid)


@pytest.mark.parametrize("case", range(8))
def test_survival_curve_fuzz(case: int) -> None:
    rng = random.Random(30_700 + case)
    flags = [pick(rng, [True, False, 1, 0, np.bool_(True), np.int64(0), "True", "False"])
             for _ in range(3)]
    turns = pick(rng, [[5, 9, 7], [0, 3, 3]])

    def call() -> list[float]:
        table = pd.DataFrame({"turns": list(turns) if isinstance(turns, list) else turns,
                              "ended": flags})
        return survival_curve(table).survival.tolist()

    def valid(curve: Any) -> bool:  # only real booleans (or 1/0) get a curve, a right one
        if not all(isinstance(f, (bool, np.bool_)) or (
                isinstance(f, (int, np.integer)) and f in (0, 1)) for f in flags):
            return False
        ended = {t for t, f in zip(turns, flags, strict=True) if f}
        return len(curve) == len(ended) and all(0 <= s <= 1 for s in curve)

    run_case(call, f"survival_curve(turns={describe(turns)}, ended={describe(flags)})", valid)


# ---------------------------------------------------------------- the widget


@pytest.mark.parametrize("case", range(4))
def test_widget_win_chances_and_advice_fuzz(case: int) -> None:
    rng = random.Random(30_800 + case)
    w = UgentopolyWidget.from_game(Game.replay(TRADING.record()), seats=["person", "person"])
    w.advice_rollouts = 36
    seq = w.state["seq"]
    offer = {"player": 0, "partner": 1, "give": {"cash": 300}, "get": {"properties": [19]}}
    requests: list[Any] = []
    for _ in range(8):
        kind = rng.choice(["win_chances", "trade_advice", "act", "setup"])
        content: dict[str, Any] = {"type": kind, "seq": seq}
        if kind == "win_chances":
            content.update(on=pick(rng, [True, False]), budget=pick(rng, [36, 72]))
        elif kind == "trade_advice":
            content["offer"] = pick(rng, [offer, {**offer, "give": {"cash": 50}},
                                          {**offer, "get": {}}])
        elif kind == "act":
            content["action"] = {"type": "roll", "player": 0}
        else:
            content.update(profile="classic", players=[
                {"name": n, "token": t, "colour": c, "seat": "person"}
                for n, t, c in (("A", "hat", "#111111"), ("B", "dog", "#222222"),
                                ("C", "car", "#333333"))[:rng.choice([2, 3])]])
        if rng.random() < 0.3:
            content[rng.choice(["on", "budget", "offer", "seq"])] = rng.choice(JUNK)
        requests.append(content)

    def call() -> list[str]:
        for content in requests:
            w._handle_custom_msg(content, [])
        if w.win_chances_shown:
            w.wait_win_chances(timeout=TIMEOUT / 3)
        w.close()
        return [e for e in w.errors if "internal error" in e]

    outcome = run_in_child(contained(call), timeout=TIMEOUT, memory_mb=MEMORY_MB)
    check(outcome, f"widget requests {describe(requests)}", lambda bad: bad == [])
