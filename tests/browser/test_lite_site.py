"""Issue 21: the browser site (scripts/lite) built from a clean checkout and played offline.

The site is built once per module from a copy of the working tree as a fresh clone would hold
it, served on 127.0.0.1 and opened in Debian's chromium with every other host blocked and
counted (lite_harness.py). In JupyterLite's Lab and in Notebook 7's interface a person's
session is played: the play notebook runs with its one install line, the board is drawn, a
click on Roll reaches Python and the board changes, the Odds tab shows the exact heat map
(the browser's pure-Python chain, checked against numpy's answer here), a classic game
plays to a buy; in Lab also the bot's turn, the lobby, Dutch, and a save written to and read
back from the browser's file system. Nothing may leave 127.0.0.1.

The kernel's cold start takes 10-20 s on a busy 2-core machine: each interface gets generous
waits and one retry (a second failure fails the test; the first one is printed). Figures
(cold start, time to board, click round trip, bytes downloaded) go to
test-artifacts/lite-metrics-<ui>.json and are printed.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, REPO_ROOT, _unavailable
from .lite_harness import (
    RESOLVER_RULES,
    Blocked,
    CountingServer,
    build_site,
    clean_checkout,
    netlog_external,
    route_local_only,
)

pytestmark = pytest.mark.lite

KERNEL_READY_MS = 180_000
BOARD_MS = 120_000
STEP_MS = 30_000
ROOT = "[data-ugw=root]"


@dataclass
class Site:
    path: Path
    build_seconds: float


@pytest.fixture(scope="module")
def lite_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (scripts/test installs it)")
    prebuilt = os.environ.get("UGW_LITE_SITE")  # while developing: a site built before
    if prebuilt:
        return Site(Path(prebuilt), 0.0)
    base = tmp_path_factory.mktemp("lite")
    checkout = clean_checkout(REPO_ROOT, base / "checkout")
    ARTIFACTS.mkdir(exist_ok=True)
    venv = REPO_ROOT / ".lite" / "venv"  # the build environment is a tool, kept across runs
    seconds = build_site(checkout, base / "site", venv, ARTIFACTS / "lite-build.log")
    return Site(base / "site", seconds)


@pytest.fixture(scope="module")
def server(lite_site: Site) -> Iterator[CountingServer]:
    srv = CountingServer(lite_site.path)
    try:
        yield srv
    finally:
        srv.close()


# --------------------------------------------------------------------------- page helpers
_JS_KERNEL_READY = """
() => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return false;
  const w = app.shell.currentWidget;
  if (!w || !w.sessionContext) return false;
  const sc = w.sessionContext;
  if (!sc.session || !sc.session.kernel) return false;
  const k = sc.session.kernel;
  return k.status === 'idle' && k.connectionStatus === 'connected';
}
"""

_JS_CELLS = """
() => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  const cells = [];
  for (const cell of nb.widgets) {
    if (cell.model.type !== 'code') continue;
    const errors = [];
    const outputs = cell.model.outputs;
    for (let i = 0; i < outputs.length; i++) {
      const o = outputs.get(i).toJSON();
      if (o.output_type === 'error') errors.push(o.ename + ': ' + o.evalue);
    }
    cells.push({ count: cell.model.executionCount, errors });
  }
  return cells;
}
"""

_JS_EXECUTE = """
async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, stop_on_error: true, store_history: false });
  const out = [];
  let error = null;
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type, c = msg.content;
    if (t === 'stream') out.push(c.text);
    else if (t === 'error') error = c.ename + ': ' + c.evalue;
  };
  await future.done;
  return { out: out.join(''), error };
}
"""

_JS_ARM_TIMER = """
(index) => {
  const root = document.querySelectorAll('[data-ugw=root]')[index];
  const rec = { click: null, seq: null, seq0: root.dataset.seq };
  root.addEventListener('click', (ev) => { if (rec.click === null) rec.click = ev.timeStamp; },
                        { capture: true, once: true });
  const obs = new MutationObserver(() => {
    if (rec.seq !== null || root.dataset.seq === rec.seq0) return;
    rec.seq = performance.now();
    obs.disconnect();
  });
  obs.observe(root, { attributes: true, attributeFilter: ['data-seq'] });
  window.__ugwTimer = rec;
}
"""


SOLVE_TIMING = """
import json, time
from ugentopoly_widget import Game
from ugentopoly_widget.probability.model import Options, compile_movement
from ugentopoly_widget.probability.pure import build_pure_chain
out = {}
for profile in ("classic", "ugentopoly"):
    g = Game(profile, players=2, seed=1)
    t0 = time.perf_counter()
    chain = build_pure_chain(compile_movement(g.board, g.rules, Options()))
    chain.distribution("roll")
    t1 = time.perf_counter()
    chain.sampling_variance("roll")
    t2 = time.perf_counter()
    out[profile] = {"states": len(chain.states), "exact_ms": round(1000 * (t1 - t0)),
                    "variance_ms": round(1000 * (t2 - t1))}
print(json.dumps(out))
"""


class Visit:
    """One cold visit of the site in a fresh browser context."""

    def __init__(self, page: Any, t0: float) -> None:
        self.page = page
        self.t0 = t0
        self.clicks_ms: list[float] = []

    def since(self) -> float:
        return round(time.monotonic() - self.t0, 2)

    def run(self, code: str) -> str:
        self.page.wait_for_function(_JS_KERNEL_READY, timeout=KERNEL_READY_MS, polling=100)
        res = self.page.evaluate(_JS_EXECUTE, code)
        if res["error"]:
            raise AssertionError(f"the kernel raised on {code!r}: {res['error']}")
        return str(res["out"]).strip()

    def root(self, index: int = 0) -> Any:
        return self.page.locator(ROOT).nth(index)

    def wait_armed(self, index: int, selector: str) -> None:
        # seen unarmed in three frames in a row (the arming starts a frame after the drawing)
        self.page.evaluate("() => { window.__ugwArmed = null; }")
        self.page.wait_for_function(
            "([i, sel]) => { const r = document.querySelectorAll('[data-ugw=root]')[i];"
            " const b = r && r.querySelector(sel); const seen = window.__ugwArmed;"
            " if (!b || b.hasAttribute('data-arming') || b.disabled) {"
            " window.__ugwArmed = null; return false; }"
            " if (seen && seen.el === b) return ++seen.frames >= 2;"
            " window.__ugwArmed = { el: b, frames: 0 }; return false; }",
            arg=[index, selector], timeout=STEP_MS, polling="raf")

    def click(self, selector: str, index: int = 0) -> float:
        """Click a decision button as a person would; ms until Python's new state is drawn."""
        self.wait_armed(index, selector)
        self.page.evaluate(_JS_ARM_TIMER, index)
        self.root(index).locator(selector).first.click()
        self.page.wait_for_function("() => window.__ugwTimer.seq !== null", timeout=STEP_MS)
        rec = self.page.evaluate("() => window.__ugwTimer")
        assert rec["click"] is not None, f"the click on {selector} never reached the widget"
        ms = round(rec["seq"] - rec["click"], 1)
        self.clicks_ms.append(ms)
        return ms

    def wait_done(self, index: int, selector: str, seq: str) -> None:
        """Until board `index`'s `selector` (the win bar, the live analysis) reports its work
        done for the state `seq`."""
        self.page.wait_for_function(
            "([i, sel, seq]) => { const r = document.querySelectorAll('[data-ugw=root]')[i];"
            " const b = r && r.querySelector(sel);"
            " return b && b.dataset.seq === seq && b.dataset.status === 'done'; }",
            arg=[index, selector, seq], timeout=4 * BOARD_MS)

    def run_all_from_menu(self) -> None:
        """Run ▸ Run All Cells, from the menu bar (Lab and Notebook 7 share it)."""
        self.page.locator(".lm-MenuBar-item", has_text="Run").first.click()
        self.page.locator(".lm-Menu-item", has_text="Run All Cells").first.click()

    def wait_cells_done(self) -> None:
        self.page.wait_for_function(
            "(js) => { const cells = eval(js)(); return cells.length > 0 &&"
            " cells.every((c) => c.count !== null); }",
            arg=_JS_CELLS, timeout=BOARD_MS)
        cells = self.page.evaluate(_JS_CELLS)
        errors = [e for c in cells for e in c["errors"]]
        assert not errors, f"cells raised in the browser: {errors}"


def expected_exact(profile: str, seed: int, per: str = "roll") -> list[float]:
    """The Odds tab's exact shares as the desktop (numpy) computes them."""
    from ugentopoly_widget import Game
    from ugentopoly_widget.widget.odds import heat_payload

    payload = heat_payload(Game(profile, players=2, seed=seed), "exact", per=per)
    return [*payload["values"], payload["jail"]]


# Rollouts per second under Pyodide: the strong bots from a classic game's second turn (the
# win bar's position above), in this thread, as the win bar's slices play them.
ROLLOUT_SPEED = """
import json, time
from ugentopoly_widget.rollouts.runner import checked_request
request = checked_request(c.game, rollouts=36, bots="strong", seed=7, max_turns=1000,
                          at_cap="apart")
t0 = time.perf_counter()
out = request.run([()])
print(json.dumps({"rollouts": out.count, "seconds": time.perf_counter() - t0,
                  "turns": sum(out.turns[0]) / out.count}))
"""


# What a click costs the kernel beside its own reply while the win bar is on: the position
# handed to the estimator (a copy of the game), and a whole click handled in Python.
UPDATE_TIMING = """
import json, time
from ugentopoly_widget.engine.records.positions import PositionCopy
t0 = time.perf_counter(); PositionCopy(c.game); t1 = time.perf_counter()
c._win.update(c.game); t2 = time.perf_counter()
print(json.dumps({"copy": round(1000 * (t1 - t0), 1), "update": round(1000 * (t2 - t1), 1)}))
"""


def win_chances_in_the_browser(visit: Visit, classic: Any, index: int,
                               metrics: dict[str, Any], ui: str) -> None:
    """Advice and the win bar without numpy. Advice's figures are rate_trade's on the desk.
    The win bar, switched on from the Odds tab, states the browser's budget, a click on the
    board is answered while the rollouts run (slices of the event loop), and the figures
    drawn are win_chances' on the desk for that position and budget."""
    from ugentopoly_widget import Game
    from ugentopoly_widget.rollouts import rate_trade, win_chances
    from ugentopoly_widget.widget.win_chances import BROWSER_BUDGET

    page = visit.page
    # Advice (from code, the quick figures): rate_trade in slices, as the dialog's button asks
    record = json.loads(visit.run("import json; print(json.dumps(c.game.record()))"))
    me = int(visit.run("print(c.game.decision.player)"))
    offer = {"player": me, "partner": 1 - me, "give": {"cash": 10}, "get": {}}
    visit.run(f"advice = c.advise_trade({offer!r}, rollouts=18, fair=False)\n"
              "print(advice['status'])")
    page.wait_for_function(_JS_KERNEL_READY, timeout=KERNEL_READY_MS, polling=100)
    deadline = time.monotonic() + BOARD_MS / 1000
    while visit.run("print(c.trade_advice['status'])") != "done":
        assert time.monotonic() < deadline, visit.run("print(c.trade_advice)")
        page.wait_for_timeout(500)
    advice = json.loads(visit.run("print(json.dumps(c.trade_advice))"))
    desk = rate_trade(Game.replay(record), offer, rollouts=18, fair=False)
    for side, row in zip(advice["sides"], desk.sides, strict=True):
        assert side["p_with"] == pytest.approx(row["p_with"], abs=1e-12)
        assert side["p_without"] == pytest.approx(row["p_without"], abs=1e-12)
    assert "18 rollouts per side" in advice["text"]["en"]

    classic.locator("[data-ugw=tab-odds]").click()
    toggle = classic.locator("[data-ugw=win-toggle]")
    toggle.click()
    started = time.monotonic()
    bar = classic.locator("[data-ugw=win-bar]")
    budget = bar.locator("[data-ugw=win-budget]")
    budget.wait_for(timeout=STEP_MS)
    assert budget.get_attribute("data-budget") == str(BROWSER_BUDGET)
    assert f"{BROWSER_BUDGET} rollouts" in budget.inner_text()
    bar.locator("[data-ugw=win-seg]").first.wait_for(timeout=BOARD_MS)  # a first estimate
    metrics["win_first_s"] = round(time.monotonic() - started, 2)
    # the board answers while the rollouts run: each click a new position, estimated again
    assert bar.get_attribute("data-status") == "running"
    root = visit.root(index)
    clicks: list[float] = []
    while len(clicks) < 6:
        for action in ("end_turn", "buy", "roll"):
            selector = f"button[data-ugw-action={action}]"
            if root.locator(selector).count():
                clicks.append(visit.click(selector, index))
                break
        bar.locator("[data-ugw=win-seg]").first.wait_for(timeout=BOARD_MS)  # estimating
    metrics["clicks_while_rolling_out_ms"] = clicks
    seq = visit.run("print(c.state['seq'])")
    started = time.monotonic()
    visit.wait_done(index, "[data-ugw=win-bar]", seq)
    metrics["win_done_s"] = round(time.monotonic() - started, 2)
    shown = [float(x) for x in bar.locator("[data-ugw=win-seg]").evaluate_all(
        "(segs) => segs.map((s) => s.dataset.pWin)")]
    assert bar.get_attribute("data-rollouts") == str(BROWSER_BUDGET)
    record = json.loads(visit.run("import json; print(json.dumps(c.game.record()))"))
    desk = win_chances(Game.replay(record), rollouts=BROWSER_BUDGET, seed=0)
    assert shown == pytest.approx(desk.p_win.tolist(), abs=1e-12), (shown, desk)
    assert classic.locator("[data-ugw=error]").is_hidden()
    bar.scroll_into_view_if_needed()
    bar.screenshot(path=str(ARTIFACTS / f"lite-{ui}-win-chances.png"))
    metrics["win_longest_slice_ms"] = round(1000 * float(visit.run("print(c._win.longest)")))
    metrics["win_update_ms"] = json.loads(visit.run(UPDATE_TIMING))
    toggle.click()  # off: the rollouts stop, the speed is measured alone
    speed = json.loads(visit.run(ROLLOUT_SPEED))
    metrics["pyodide_rollouts"] = {**speed, "per_second": round(
        speed["rollouts"] / speed["seconds"], 1)}


# The analysis' speed under Pyodide: the classic game so far judged at the browser's budget
# by a fresh analyser in the kernel's thread (the tab's switch off), then the 36-roll map.
ANALYSIS_SPEED = """
import json, time
from ugentopoly_widget.rollouts.analysis import Analyser, roll_map
from ugentopoly_widget.widget import analysis_live as al
a = Analyser(rollouts=al.BROWSER_ROLLOUTS, chance_rollouts=al.BROWSER_CHANCE_ROLLOUTS)
t0 = time.perf_counter(); a.update(c.game.record()); t1 = time.perf_counter()
roll_map(c.game, rollouts=al.BROWSER_ROLL_MAP_ROLLOUTS); t2 = time.perf_counter()
# and in the middle of a game (more to build and trade): strong bots to turn 30, its roll map
from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import make_bot, play_game
mid = Game("classic", players=["Ann", "Bob"], seed=13)
play_game(mid, [make_bot("strong", 1), make_bot("strong", 2)], until_turn=30)
while not mid.is_over and not any(x.type == "roll" for x in mid.legal_actions()):
    mid.apply(make_bot("strong", 3).choose(mid))
t3 = time.perf_counter(); roll_map(mid, rollouts=al.BROWSER_ROLL_MAP_ROLLOUTS)
t4 = time.perf_counter()
print(json.dumps({"actions": len(c.game.actions), "points": a.points_evaluated,
                  "playouts": a.playouts, "seconds": t1 - t0,
                  "roll_map_playouts": 36 * al.BROWSER_ROLL_MAP_ROLLOUTS,
                  "roll_map_seconds": t2 - t1, "mid_turn": mid.turn_number,
                  "mid_roll_map_seconds": t4 - t3}))
"""

# A roll of the player to move that lands on a lot for sale they can pay (None: there is none).
SCRIPT_A_PURCHASE = """
g = c.game
me = g.decision.player
at = g.players[me].position
found = None
for a in range(1, 7):
    for b in range(1, 7):
        tile = (at + a + b) % g.board.size
        if a != b and g.board.tiles[tile].is_property and g.owner(tile) is None \
                and g.board.tiles[tile].cost < g.players[me].cash and found is None:
            found = (a, b)
if found:
    g.testing.script_dice(found)
print(found is not None)
"""


def analysis_in_the_browser(visit: Visit, classic: Any, index: int,
                            metrics: dict[str, Any], ui: str) -> None:
    """The Analysis tab without numpy, in slices of the kernel's loop: the switch, the
    browser's budget said, a purchase played and its verdict (and the roll's luck) drawn with
    the figures analyse() gives on the desk for that budget, then the 36-roll map with
    roll_map()'s figures and its budget said."""
    from ugentopoly_widget import Game
    from ugentopoly_widget.rollouts.analysis import analyse, roll_map
    from ugentopoly_widget.widget.analysis_live import (
        BROWSER_CHANCE_ROLLOUTS,
        BROWSER_ROLL_MAP_ROLLOUTS,
        BROWSER_ROLLOUTS,
    )

    page = visit.page
    root = visit.root(index)
    deadline = time.monotonic() + BOARD_MS / 1000
    while not root.locator("button[data-ugw-action=roll]").count():  # to a roll
        assert time.monotonic() < deadline, "no roll came"
        for action in ("end_turn", "buy", "continue"):
            selector = f"button[data-ugw-action={action}]"
            if root.locator(selector).count():
                visit.click(selector, index)
                break
        else:
            page.wait_for_timeout(300)
    classic.locator("[data-ugw=tab-analysis]").click()
    tab = classic.locator("[data-ugw=analysis]")
    tab.locator("[data-ugw=analysis-toggle]").click()
    budget = tab.locator("[data-ugw=analysis-budget]")
    budget.wait_for(timeout=STEP_MS)
    assert budget.get_attribute("data-rollouts") == str(BROWSER_ROLLOUTS)
    assert budget.get_attribute("data-chance-rollouts") == str(BROWSER_CHANCE_ROLLOUTS)
    assert f"{BROWSER_ROLLOUTS} rollouts per option" in budget.inner_text()
    assert visit.run(SCRIPT_A_PURCHASE) == "True"
    metrics["analysis_clicks_ms"] = [visit.click("button[data-ugw-action=roll]", index),
                                     visit.click("button[data-ugw-action=buy]", index)]
    started = time.monotonic()
    buy = int(visit.run("print(len(c.game.actions) - 1)"))
    live = classic.locator("[data-ugw=analysis-live]")
    verdict = live.locator(f"[data-ugw=analysis-verdict][data-index='{buy}']")
    verdict.wait_for(timeout=4 * BOARD_MS)
    metrics["analysis_verdict_s"] = round(time.monotonic() - started, 2)
    # the newest position is judged first (Analyser(latest_first=True)), then the turns
    # before the switch: the summary is the whole game's once the analysis has caught up
    seq = visit.run("print(c.state['seq'])")
    visit.wait_done(index, "[data-ugw=analysis-live]", seq)
    metrics["analysis_caught_up_s"] = round(time.monotonic() - started, 2)
    record = json.loads(visit.run("import json; print(json.dumps(c.game.record()))"))
    desk = analyse(Game.replay(record), rollouts=BROWSER_ROLLOUTS,
                   chance_rollouts=BROWSER_CHANCE_ROLLOUTS, seed=0)
    row = next(d for d in desk.decisions if d.index == buy)
    assert verdict.get_attribute("data-verdict") == row.verdict
    assert float(verdict.get_attribute("data-loss") or "nan") == pytest.approx(
        row.chosen.loss, abs=1e-9)
    luck = live.locator("[data-ugw=analysis-luck]")
    chance = max(desk.chances, key=lambda c: c.index)
    assert int(luck.get_attribute("data-index") or -1) == chance.index == buy - 1
    assert float(luck.get_attribute("data-luck") or "nan") == pytest.approx(chance.luck,
                                                                            abs=1e-9)
    summary = tab.locator("[data-ugw=analysis-summary]")
    summary.wait_for(timeout=STEP_MS)
    for p in desk.players:
        shown = tab.locator(f"[data-ugw=analysis-player-{p.player}]")
        assert float(shown.get_attribute("data-luck") or "nan") == pytest.approx(p.luck,
                                                                                 abs=1e-9)
        assert float(shown.get_attribute("data-skill-loss") or "nan") == pytest.approx(
            p.skill_loss, abs=1e-9)
    assert classic.locator("[data-ugw=error]").is_hidden()
    above = classic.locator("[data-ugw=above-board]")  # the live lines over the board
    above.scroll_into_view_if_needed()
    above.screenshot(path=str(ARTIFACTS / f"lite-{ui}-analysis-live.png"))
    tab.scroll_into_view_if_needed()
    tab.screenshot(path=str(ARTIFACTS / f"lite-{ui}-analysis.png"))
    # the 36-roll map of the next player (the turn ended)
    visit.click("button[data-ugw-action=end_turn]", index)
    tab.locator("[data-ugw=roll-map-ask]:not([disabled])").click()
    started = time.monotonic()
    seq = visit.run("print(c.state['seq'])")
    grid = classic.locator(f"[data-ugw=roll-map][data-seq='{seq}']")
    grid.wait_for(timeout=4 * BOARD_MS)
    metrics["roll_map_s"] = round(time.monotonic() - started, 2)
    note = grid.locator("[data-ugw=roll-map-budget]")
    assert note.get_attribute("data-rollouts") == str(BROWSER_ROLL_MAP_ROLLOUTS)
    assert f"{BROWSER_ROLL_MAP_ROLLOUTS} rollouts per outcome" in note.inner_text()
    record = json.loads(visit.run("import json; print(json.dumps(c.game.record()))"))
    want = roll_map(Game.replay(record), rollouts=BROWSER_ROLL_MAP_ROLLOUTS, seed=0)
    cells = grid.locator("[data-ugw=roll-cell]")
    assert cells.count() == 36
    shown_p = [float(x) for x in cells.evaluate_all("(cs) => cs.map((c) => c.dataset.pWin)")]
    assert shown_p == pytest.approx([o.p_win for o in want.outcomes], abs=1e-9)
    grid.scroll_into_view_if_needed()
    grid.screenshot(path=str(ARTIFACTS / f"lite-{ui}-roll-map.png"))
    assert visit.run("import sys; print('numpy' in sys.modules, 'pandas' in sys.modules)") \
        == "False False"
    metrics["analysis_longest_slice_ms"] = round(1000 * float(visit.run(
        "print(c._an_executor.longest)")))
    tab.locator("[data-ugw=analysis-toggle]").click()  # off: the speed measured alone
    speed = json.loads(visit.run(ANALYSIS_SPEED))
    metrics["pyodide_analysis"] = {**speed, "playouts_per_second": round(
        (speed["playouts"] + speed["roll_map_playouts"])
        / (speed["seconds"] + speed["roll_map_seconds"]), 1), "mid_playouts_per_second": round(
        speed["roll_map_playouts"] / speed["mid_roll_map_seconds"], 1)}


# --------------------------------------------------------------------------- the session
def play_session(visit: Visit, ui: str, metrics: dict[str, Any]) -> None:
    page = visit.page
    page.wait_for_function(_JS_KERNEL_READY, timeout=KERNEL_READY_MS, polling=100)
    metrics["kernel_idle_shown_s"] = visit.since()  # the UI says idle before Pyodide is up
    visit.run("pass")  # answered once Pyodide, micropip, piplite and IPython are in
    metrics["kernel_ready_s"] = visit.since()
    if ui == "lab":
        page.locator(".jp-StatusBar-TextItem", has_text="Python (Pyodide) | Idle").first \
            .wait_for(timeout=STEP_MS)
    visit.run_all_from_menu()
    board = visit.root(0)
    board.locator("[data-ugw-tile]").nth(39).wait_for(state="attached", timeout=BOARD_MS)
    metrics["board_s"] = visit.since()
    assert board.locator("[data-ugw-tile]").count() == 40  # the Ugentopoly board
    visit.wait_cells_done()
    metrics["cells_done_s"] = visit.since()
    assert visit.run("print(w)").startswith("UgentopolyWidget(ugentopoly, 2 players, turn 1")
    env = visit.run("import sys, ugentopoly_widget.engine as e; print(sys.platform, e.compiled)")
    assert env == "emscripten False", env

    # Roll: the click reaches Python, Python's new state is drawn
    assert board.locator("[data-ugw-tile='0'] [data-ugw-token='0']").count() == 1
    metrics["roll_ms"] = visit.click("button[data-ugw-action=roll]")
    where = int(visit.run("print(w.game.players[0].position)"))
    assert where != 0
    board.locator(f"[data-ugw-tile='{where}'] [data-ugw-token='0']").wait_for(timeout=STEP_MS)
    assert board.locator("[data-ugw-tile='0'] [data-ugw-token='0']").count() == 0

    # The Odds tab: the exact long-run heat map, as numpy computes it on a desk
    board.locator("[data-ugw=tab-odds]").click()
    odds = board.locator("[data-ugw=odds]")
    odds.locator("[data-ugw=heat-mode-exact]").click()
    board.locator("[data-ugw=heat-cell][data-value]").first.wait_for(timeout=BOARD_MS)
    metrics["odds_exact_s"] = visit.since()
    assert odds.locator("[data-ugw=heat-mode-exact]").get_attribute("aria-pressed") == "true"
    # rollouts run without numpy (slices of the event loop): the win bar's switch is there
    assert odds.locator("[data-ugw=win-toggle]").count() == 1
    got = json.loads(visit.run("import json; print(json.dumps([*w.heat['values'], "
                               "w.heat['jail']]))"))
    want = expected_exact("ugentopoly", 2024)
    assert len(got) == len(want) == 41
    assert max(abs(a - b) for a, b in zip(got, want, strict=True)) < 1e-12, (got, want)
    assert board.locator("[data-ugw=heat-cell]").count() >= 40
    assert board.locator("[data-ugw=error]").is_hidden()
    board.screenshot(path=str(ARTIFACTS / f"lite-{ui}-odds.png"))
    # main's Odds tab on the pure path: per turn, the dice/convergence/jail charts
    odds.locator("[data-ugw=per-turn]").click()
    odds.locator("[data-ugw=per-turn][aria-pressed=true]").wait_for(timeout=STEP_MS)
    got = json.loads(visit.run("import json; print(json.dumps([*w.heat['values'], "
                               "w.heat['jail'], w.heat['per']]))"))
    assert got.pop() == "turn"
    want = expected_exact("ugentopoly", 2024, per="turn")
    assert max(abs(a - b) for a, b in zip(got, want, strict=True)) < 1e-12, (got, want)
    odds.locator("[data-ugw=stats-toggle]").click()
    for chart in ("dice-hist", "convergence", "jail-chart"):
        odds.locator(f"[data-ugw={chart}]").wait_for(timeout=BOARD_MS)
    metrics["odds_stats_s"] = visit.since()
    assert odds.locator("[data-ugw^=jail-short-]").count() >= 8  # groups, stations, jail
    assert board.locator("[data-ugw=error]").is_hidden()
    board.screenshot(path=str(ARTIFACTS / f"lite-{ui}-odds-stats.png"))

    # A classic game, from a new cell, played to a buy
    code = ('from ugentopoly_widget import UgentopolyWidget\n'
            'c = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=11, turn_pause=0)\n'
            'c.game.testing.script_dice((1, 2))  # to Baltic Avenue\nc')
    page.evaluate(
        "(code) => { const app = window.jupyterapp; const nb = app.shell.currentWidget;"
        " nb.content.activeCellIndex = nb.content.widgets.length - 1;"
        " return app.commands.execute('notebook:insert-cell-below').then(() => {"
        " nb.content.activeCell.model.sharedModel.setSource(code);"
        " return app.commands.execute('notebook:run-cell'); }); }", code)
    classic = page.locator(ROOT).last
    classic.locator("[data-ugw-tile]").nth(39).wait_for(state="attached", timeout=BOARD_MS)
    index = page.locator(ROOT).count() - 1
    first = visit.run("print(c.game.current_player)")
    visit.click("button[data-ugw-action=roll]", index)
    metrics["buy_ms"] = visit.click("button[data-ugw-action=buy]", index)
    assert visit.run("print(c.game.owner(3))") == first
    classic.locator("[data-ugw-tile='3'][data-owner]").wait_for(timeout=STEP_MS)

    # rollouts in the kernel's loop, in both interfaces (Notebook 7 runs the loop as Lab does,
    # but its page is another: the tab, the live lines and the map in its layout)
    win_chances_in_the_browser(visit, classic, index, metrics, ui)
    analysis_in_the_browser(visit, classic, index, metrics, ui)

    if ui != "lab":
        return
    # The pure-Python solve under Pyodide: chain built + exact shares, then the variances
    # of the convergence chart (ms; docs/lite.md)
    metrics["pyodide_solve_ms"] = json.loads(visit.run(SOLVE_TIMING))
    # Lab only (the same code paths): the bot's turn, Dutch, the lobby, save and load
    deadline = time.monotonic() + BOARD_MS / 1000  # (only a hang takes this long)
    while time.monotonic() < deadline:  # finish the person's turn: the bot then plays its own
        state = visit.run("print(w.game.decision.player, w.game.decision.kind, "
                          "w.game.turn_number)")
        player, kind, _turn = state.split()
        if player == "0" and kind == "turn" and int(_turn) > 1:
            break
        for action in ("buy", "end_turn", "continue", "roll"):
            sel = f"button[data-ugw-action={action}]"
            if board.locator(sel).count():
                visit.click(sel)
                break
        else:
            page.wait_for_timeout(300)
    bot_turns = visit.run("print(sum(1 for e in w.game.events if e.kind == 'turn_started' "
                          "and e.player == 1))")
    assert int(bot_turns) >= 1, "the bot never played"
    board.locator("[data-ugw=lang]").click()
    page.wait_for_function("() => document.querySelector('[data-ugw=root]').lang === 'nl'",
                           timeout=STEP_MS)
    assert visit.run("print(w.lang)") == "nl"
    lobby = visit.root(1)
    lobby.locator("[data-ugw=lobby]").wait_for(timeout=STEP_MS)
    lobby.locator("[data-ugw=start]").click()
    lobby.locator("[data-ugw-tile], [data-ugw=error]:not([hidden])").first.wait_for(
        state="attached", timeout=BOARD_MS)
    assert lobby.locator("[data-ugw-tile]").count(), visit.run("print(lobby.errors)")
    assert "turn 1" in visit.run("print(lobby)")
    saved = visit.run("from ugentopoly_widget import Game\nw.game.save('lite-save.json')\n"
                      "g = Game.load('lite-save.json')\nprint(g.turn_number == w.game.turn_number, "
                      "len(g.players))")
    assert saved == "True 2", saved
    listing = page.evaluate(
        "async () => (await window.jupyterapp.serviceManager.contents.get('')).content"
        ".map((f) => f.name)")
    assert "lite-save.json" in listing, listing  # the browser's file system (IndexedDB)


def one_visit(server: CountingServer, ui: str, artifacts: Path) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    netlog = artifacts / f"lite-netlog-{ui}.json"
    blocked = Blocked()
    metrics: dict[str, Any] = {"ui": ui}
    mark = server.mark()
    console: list[str] = []
    navigations: list[tuple[float, str]] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True,
            args=[*CHROMIUM_ARGS, RESOLVER_RULES, f"--log-net-log={netlog}"])
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            route_local_only(context, blocked)
            page = context.new_page()
            page.on("console", lambda m: console.append(f"[{m.type}] {m.text}"))
            page.on("pageerror", lambda e: console.append(f"[pageerror] {e}"))
            app = "lab" if ui == "lab" else "notebooks"
            t0 = time.monotonic()
            page.goto(f"{server.url}/{app}/index.html?path=play.ipynb")
            visit = Visit(page, t0)
            page.on("framenavigated", lambda f: navigations.append(
                (visit.since(), f.url)) if f == page.main_frame else None)
            try:
                play_session(visit, ui, metrics)
                page.screenshot(path=str(artifacts / f"lite-{ui}.png"))
            except BaseException:
                page.screenshot(path=str(artifacts / f"lite-{ui}-failed.png"))
                (artifacts / f"lite-{ui}-console.txt").write_text(
                    "\n".join([*console, f"navigations: {navigations}"]))
                raise
            metrics["clicks_ms"] = visit.clicks_ms
            metrics["navigations"] = navigations
            context.close()
        finally:
            browser.close()
    netlog_external(netlog, blocked)
    served = server.since(mark)
    metrics["requests"] = len(served)
    metrics["downloaded_bytes"] = sum(s.size for s in served if s.status == 200)
    metrics["not_found"] = sorted({s.path for s in served if s.status == 404})
    metrics["blocked_routed"] = blocked.routed
    metrics["netlog_site_external"] = blocked.netlog_site
    metrics["netlog_browser_internal_external"] = blocked.netlog_browser
    assert not blocked.routed, f"requests left 127.0.0.1: {blocked.routed}"
    assert not blocked.netlog_site, f"the site asked other hosts: {blocked.netlog_site}"
    return metrics


@pytest.mark.parametrize("ui", ["lab", "notebooks"])
def test_site_plays_offline(lite_site: Site, server: CountingServer, ui: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    failures = []
    tries = int(os.environ.get("UGW_LITE_TRIES", "2"))
    for attempt in range(1, tries + 1):  # one retry: a cold kernel start on a loaded machine
        try:
            metrics = one_visit(server, ui, ARTIFACTS)
            break
        except Exception:
            failures.append(traceback.format_exc())
            sys.stderr.write(f"\n[lite] {ui}: attempt {attempt} failed:\n{failures[-1]}\n")
            if attempt == tries:
                raise
    metrics["attempts"] = len(failures) + 1
    metrics["build_s"] = round(lite_site.build_seconds, 1)
    sizes = json.loads((lite_site.path / "lite-build.json").read_text())
    metrics["site_bytes"] = sizes["bytes"]
    (ARTIFACTS / f"lite-metrics-{ui}.json").write_text(json.dumps(metrics, indent=1))
    print(f"\n[lite] {ui}: " + json.dumps(
        {k: metrics[k] for k in ("kernel_ready_s", "board_s", "roll_ms", "clicks_ms",
                                 "downloaded_bytes", "site_bytes", "build_s", "attempts")}))
    if os.environ.get("UGW_LITE_SHOW"):
        print(json.dumps(metrics, indent=1))
