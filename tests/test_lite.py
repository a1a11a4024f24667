"""Issue 21 without a browser: what the browser site (scripts/lite, docs/lite.md) needs of the
package. Its runtime dependencies install there (markers), JavaScript's null from Pyodide
reads as None, and the visitor's path (import, widget, play, the Odds tab) never needs numpy.
The site itself is built and played in tests/browser/test_lite_site.py."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from typing import Any

import pytest
from helpers import same_payload
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]


def _lite_build() -> object:
    spec = importlib.util.spec_from_file_location("lite_build", REPO / "lite" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_runtime_dependency_installs_in_the_browser() -> None:
    """Evaluated as in Pyodide, each runtime dependency is one the site serves as a pure wheel
    (lite/wheels.txt); numpy, pandas, orjson and threadpoolctl are marked away. A new
    dependency without a pure wheel (scipy, say) fails here until it is marked
    `; sys_platform != 'emscripten'` (else `%pip install ugentopoly_widget` fails there)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    lite = _lite_build()
    env = lite.browser_environment("3.14.2")  # type: ignore[attr-defined]
    served = {canonicalize_name(Requirement(s).name)
              for s in lite.read_pins(REPO / "lite" / "wheels.txt")}  # type: ignore[attr-defined]
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    installed, marked = set(), set()
    for text in deps:
        req = Requirement(text)
        name = canonicalize_name(req.name)
        if req.marker is None or req.marker.evaluate({**env, "extra": ""}):
            installed.add(name)
        else:
            marked.add(name)
    assert installed <= served, f"not served in the browser: {sorted(installed - served)}"
    assert {"numpy", "pandas", "orjson", "threadpoolctl"} <= marked
    desk = {canonicalize_name(Requirement(t).name) for t in deps
            if Requirement(t).marker is None or Requirement(t).marker.evaluate()}
    assert marked <= desk, "a marker must not drop a dependency on a desk"


def test_javascript_null_from_pyodide_reads_as_none() -> None:
    """In the browser site a view's null arrives as pyodide.ffi.jsnull: the widget reads it as
    None (the lobby's start with the turn timer off sends one and was refused); elsewhere
    messages pass as they are."""
    from ugentopoly_widget.widget.requests import JS_NULL, from_view, setup_options

    jsnull = object()
    msg = {"type": "setup", "options": {"turn_timer_seconds": jsnull, "mode": "long"},
           "players": [{"name": "Ann", "x": [jsnull, 1]}]}
    got = from_view(msg, jsnull)
    assert got["options"]["turn_timer_seconds"] is None and got["players"][0]["x"] == [None, 1]
    assert setup_options(got["options"])["turn_timer_seconds"] is None
    assert JS_NULL is None and from_view(msg) is msg  # not in Pyodide: untouched


# What the browser site lacks, each import refused by a meta-path finder placed first; the
# child then does what a visitor does. A module on that path that imports one of these at its
# top fails the child (a guarded import, such as probability/__init__'s, is what the site
# needs: it is counted but allowed to fail).
BROWSER_PLAY = r"""
import importlib.abc, json, sys

BLOCKED = set(sys.argv[1].split(","))
tried = []


class NotInTheBrowser(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            tried.append(name)
            raise ModuleNotFoundError(f"No module named {name!r} (blocked: as in the browser)",
                                      name=name)
        return None


sys.meta_path.insert(0, NotInTheBrowser())

import ugentopoly_widget
from ugentopoly_widget import UgentopolyWidget
from ugentopoly_widget.widget import odds

out = {"use_numpy": odds.USE_NUMPY, "profiles": {}}


def rollouts():
    # The win bar and the trade dialog's Advice as the browser runs them: no threads (as in
    # Pyodide), so in slices of the event loop, while a ticker stands for the page's clicks.
    import asyncio
    from ugentopoly_widget.rollouts import slices

    slices.threads_available = lambda: False  # Pyodide's Thread.start fails
    w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)
    w.game.testing.script_dice((1, 2))
    first = w.game.decision.player
    for act in ("roll", "buy", "end_turn"):  # Baltic Avenue bought; the other's turn
        w._handle_custom_msg({"type": "act", "seq": w.state["seq"],
                              "action": {"type": act, "player": first}}, [])
        assert not w.error, w.error

    async def main():
        ticks = []

        an_ticks = []

        async def ticker():  # what else waits on the loop (a click's message): the slices
            while True:        # played when it ran
                ticks.append(w._win.slices if w._win is not None else -1)
                an_ticks.append(getattr(w._an_executor, "slices", -1))
                await asyncio.sleep(0)

        tick = asyncio.ensure_future(ticker())
        w._handle_custom_msg({"type": "win_chances", "on": True, "budget": 36}, [])
        assert not w.error, w.error
        first = dict(w.win_chances)
        while w.win_chances.get("status") != "done":
            await asyncio.sleep(0.01)
        win = dict(w.win_chances)
        sliced = w._win.slices
        seq = w.state["seq"]
        w.advice_rollouts = 18
        me = w.game.decision.player  # asks the other for the lot just bought
        offer = {"player": me, "partner": 1 - me, "give": {"cash": 100},
                 "get": {"properties": [3]}}
        w._handle_custom_msg({"type": "trade_advice", "offer": offer, "seq": seq}, [])
        assert not w.error, w.error
        assert w.trade_advice["status"] == "working", w.trade_advice
        while w.trade_advice.get("status") not in ("done", "error"):
            await asyncio.sleep(0.01)
        # the Analysis tab's switch and its 36-roll map (small budgets: the pure engine)
        w.analysis_rollouts, w.analysis_chance_rollouts, w.roll_map_rollouts = 4, 2, 2
        w._handle_custom_msg({"type": "analysis", "on": True}, [])
        assert not w.error, w.error
        analysis_waiting = dict(w.analysis)
        while (w.analysis.get("status") not in ("done", "error")
               or w.analysis.get("seq") != w.state["seq"]):
            await asyncio.sleep(0.01)
        w._handle_custom_msg({"type": "roll_map", "seq": w.state["seq"]}, [])
        assert not w.error, w.error
        while w.roll_map.get("status") not in ("done", "error"):
            await asyncio.sleep(0.01)
        an_sliced = w._an_executor.slices
        tick.cancel()
        return {"waiting": first, "win": win, "slices": sliced, "ticks": sorted(set(ticks)),
                "advice": dict(w.trade_advice), "offer": offer, "record": w.game.record(),
                "analysis_waiting": analysis_waiting, "analysis": dict(w.analysis),
                "roll_map": dict(w.roll_map), "analysis_slices": an_sliced,
                "analysis_ticks": sorted(set(an_ticks))}

    return asyncio.run(main())
for profile in ("classic", "ugentopoly"):
    w = UgentopolyWidget(profile, players=["Ann", "Bob"], seed=1)

    def view(message):  # as the view's message arrives (its state number added)
        w._handle_custom_msg({**message, "seq": w.state["seq"]}, [])
        assert not w.error, w.error

    me = w.game.decision.player
    w.game.testing.script_dice((1, 2))  # classic: Baltic Avenue; Ugentopoly: a street too
    view({"type": "act", "action": {"type": "roll", "player": me}})
    position, decision = w.game.players[me].position, w.game.decision.kind
    view({"type": "act", "action": {"type": "buy", "player": me}})
    if w.game.decision.kind == "post_roll":  # Ugentopoly's turn ends by itself
        view({"type": "act", "action": {"type": "end_turn", "player": me}})
    w._handle_custom_msg({"type": "probability", "mode": "exact", "stats": True}, [])
    assert not w.error, w.error
    got = out["profiles"][profile] = {
        "position": position, "decision": decision, "me": me,
        "owner": w.state["owner"][position], "mode": w.heat.get("mode"),
        "heat": [*w.heat.get("values", []), w.heat.get("jail")],
        "stats": sorted(w.stats), "turn": w.game.decision.player,
        "stats_payload": w.stats, "payloads": {},
    }
    for per in ("roll", "turn"):  # every mode of the Odds tab, per roll and per turn
        for mode in ("exact", "observed", "difference", "next"):
            w._handle_custom_msg({"type": "probability", "mode": mode, "per": per}, [])
            assert not w.error, w.error
            got["payloads"][f"{mode}/{per}"] = w.heat
    w._handle_custom_msg({"type": "probability", "jail": "long"}, [])  # the long jail's chain
    assert not w.error, w.error
    got["payloads"]["next/long"] = w.heat
    w.roll_once(0)  # the Roll once fan: the next roll's arrows, then the roll
    got["fan"] = {k: v for k, v in w.fan.items() if k != "seq"}
    got["rollouts_available"] = w.rollouts_available  # the view shows their buttons
    if profile == "classic" and "numpy" in BLOCKED:
        got["rollouts"] = rollouts()
out["tried"] = sorted(set(tried))
out["loaded"] = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
out["chain_loaded"] = "ugentopoly_widget.probability.chain" in sys.modules
print("RESULT " + json.dumps(out))
"""


def browser_missing() -> set[str]:
    """The runtime dependencies marked away from the browser (pyproject), and scipy."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    env = _lite_build().browser_environment("3.14.2")  # type: ignore[attr-defined]
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    marked = {Requirement(t).name.replace("-", "_") for t in deps
              if Requirement(t).marker is not None
              and not Requirement(t).marker.evaluate({**env, "extra": ""})}  # type: ignore[union-attr]
    return marked | {"scipy"}


def check_rollouts_in_slices(got: dict[str, Any]) -> None:
    """The win bar and Advice played without numpy, in slices of the event loop, give the
    figures of win_chances and rate_trade on the desk (numpy, the compiled engine): the same
    seeds, the same rollouts."""
    from ugentopoly_widget import Game
    from ugentopoly_widget.rollouts import rate_trade, win_chances

    assert got["waiting"]["browser"] is True and got["waiting"]["budget"] == 36
    win = got["win"]
    assert win["browser"] is True and win["rollouts"] == 36 and win["status"] == "done"
    # cut up, and the loop ran between every two slices (a click would have been read)
    assert got["slices"] >= 2
    assert set(range(1, got["slices"])) <= set(got["ticks"]), (got["slices"], got["ticks"])
    game = Game.replay(got["record"])
    table = win_chances(game, rollouts=36, seed=0)
    for row, mine in zip(table.itertuples(), win["players"], strict=True):
        assert mine["p_win"] == pytest.approx(row.p_win, abs=1e-12)
        assert mine["se"] == pytest.approx(row.se, abs=1e-12)
    advice = got["advice"]
    assert advice["status"] == "done", advice
    assert advice["rollouts"] == 18 and "18 rollouts per side" in advice["text"]["en"]
    rating = rate_trade(game, got["offer"], rollouts=18)
    for side, row in zip(advice["sides"], rating.sides, strict=True):
        assert side["p_with"] == pytest.approx(row["p_with"], abs=1e-12)
        assert side["delta"] == pytest.approx(row["delta"], abs=1e-12)
    assert advice["fair_cash"] == rating.fair_cash and advice["fair_note"] == rating.fair_note
    # no numpy, no probability lab: no rent figures (the desk has them)
    assert advice["sides"][0]["rent_change"] is None and math.isfinite(
        rating.sides[0]["rent_change"])
    check_analysis_in_slices(got, game)


def _no_nan(value: Any) -> Any:
    if isinstance(value, float) and value != value:
        return "NaN"
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_nan(v) for v in value]
    return value


def check_analysis_in_slices(got: dict[str, Any], game: Any) -> None:
    """The Analysis tab and the 36-roll map without numpy, in slices: the browser's budget
    said, and the figures of analyse() and roll_map() on the desk for that budget."""
    from ugentopoly_widget.rollouts.analysis import analyse, explain, roll_map
    from ugentopoly_widget.widget.analysis_view import analysis_payload

    assert got["analysis_waiting"]["browser"] is True
    assert (got["analysis_waiting"]["rollouts"], got["analysis_waiting"]["chance_rollouts"]) \
        == (4, 2)
    mine = got["analysis"]
    assert mine["status"] == "done" and mine["browser"] is True, mine
    direct = analyse(game, rollouts=4, chance_rollouts=2, seed=0)
    words = {"en": explain(direct, "en"), "nl": explain(direct, "nl")}
    desk = analysis_payload(direct, seq=mine["seq"], actions=len(game.actions), explain=words,
                            browser=True)
    same_payload(_no_nan(mine), _no_nan(json.loads(json.dumps(desk))), "analysis")
    assert mine["verdict"] is not None and mine["luck"] is not None  # the buy, the roll
    assert got["analysis_slices"] >= 2
    assert set(range(1, got["analysis_slices"])) <= set(got["analysis_ticks"])
    rm = got["roll_map"]
    assert rm["status"] == "done" and rm["browser"] is True and rm["rollouts"] == 2, rm
    want = roll_map(game, rollouts=2, seed=0)
    assert [c["p_win"] for c in rm["cells"]] == pytest.approx(
        [o.p_win for o in want.outcomes], abs=1e-12)
    assert [c["gain"] for c in rm["cells"]] == pytest.approx(
        [o.gain for o in want.outcomes], abs=1e-12)


def test_the_browser_path_never_imports_numpy() -> None:
    """With numpy, pandas, orjson, threadpoolctl and scipy refused at import (a meta-path
    finder, in a fresh Python): import the package, make a widget, play a roll, a buy and an
    end of turn by the view's messages, open the Odds tab's exact heat map and dice stats.
    All of it works, on the pure path, with the numbers numpy's chain gives on the desk."""
    import json
    import os
    import subprocess
    import sys

    from ugentopoly_widget import Game
    from ugentopoly_widget.probability import landing_distribution

    blocked = browser_missing()
    assert {"numpy", "pandas", "orjson", "threadpoolctl", "scipy"} <= blocked
    def play(refused: set[str]) -> dict[str, Any]:
        proc = subprocess.run(
            [sys.executable, "-c", BROWSER_PLAY, ",".join(sorted(refused))],
            capture_output=True, text=True, timeout=300, cwd=REPO,
            env={**os.environ, "UGENTOPOLY_PURE": "1"})  # the browser runs the pure engine
        assert proc.returncode == 0, proc.stderr[-3000:]
        line = next(x for x in proc.stdout.splitlines() if x.startswith("RESULT "))
        result: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
        return result

    out, desk = play(blocked), play(set())
    assert out["use_numpy"] is False and out["loaded"] == []
    assert not out["chain_loaded"], "probability.chain (numpy) is off the browser path"
    # asked for and refused, as planned: numpy by probability/__init__'s guarded import and
    # widget/odds' find_spec, orjson by the sync's fallback to json
    assert set(out["tried"]) <= {"numpy", "orjson"}, out["tried"]
    for profile, got in out["profiles"].items():
        assert got["position"] == 3 and got["decision"] == "buy", got
        assert got["owner"] == got["me"] and got["turn"] != got["me"]  # bought, turn ended
        assert got["mode"] == "exact"
        assert got["stats"] == ["convergence", "dice", "jail_strategies", "strategy"]
        exact = landing_distribution(Game(profile, players=2, seed=1)).probability.to_list()
        assert max(abs(a - b) for a, b in zip(got["heat"], exact, strict=True)) < 1e-13
        # every panel of main's Odds tab, the same on the pure path as numpy's on the desk:
        # heat per roll and per turn in all four modes (fills, inks, notes, observed counts,
        # next roll's dice ways), the long jail, the jail comparison, the convergence chart
        mine = desk["profiles"][profile]
        assert set(got["payloads"]) == set(mine["payloads"]) and len(got["payloads"]) == 9
        for key, payload in got["payloads"].items():
            assert payload["mode"] == key.partition("/")[0] and payload["fills"], key
            same_payload(payload, mine["payloads"][key], key)
        assert got["payloads"]["exact/turn"]["values"] != got["payloads"]["exact/roll"]["values"]
        assert got["payloads"]["next/long"]["strategy"] == "long"
        assert got["payloads"]["observed/roll"]["notes"], "observed notes name counts"
        jail = got["stats_payload"]["jail_strategies"]
        if profile == "classic":  # paying at once or staying: other long runs
            assert jail["short"] != jail["long"] and not jail["same"]
        same_payload(got["stats_payload"], mine["stats_payload"], "stats")
        assert got["fan"]["arrows"] and got["fan"]["landed"] is not None
        same_payload(got["fan"], mine["fan"], "fan")
        assert got["rollouts_available"] is True
    check_rollouts_in_slices(out["profiles"]["classic"]["rollouts"])

