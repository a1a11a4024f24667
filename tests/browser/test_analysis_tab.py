"""Issue 32 in a real browser: luck or skill. Switched on from the Analysis tab, the last
decision's verdict and the last roll's luck appear under the board's top bar with Python's
figures (data- attributes equal ``w.analysis``); the tab's chart, summary and biggest mistakes
are the analysis'; a mistake clicked shows the position before it, read-only, with a banner
and a way back; the 36-roll map of the player about to roll is Python's; all of it in view at
a 1920x1080 projector and a 1280x800 laptop with the file browser open, in English and Dutch,
light and dark. The click's reply with the analysis on is measured beside it off."""

from __future__ import annotations

import json
import statistics
from urllib.parse import unquote

import pytest

from .board_checks import axe_serious, inject_axe, set_theme, settle, shot
from .classroom_checks import in_view
from .conftest import REPO_ROOT, Kernel, OpenNotebook
from .latency import click_times, install_timers, median_gap, rounds
from .test_board_layout import _sidebar
from .test_widget_browser import IMPORTS, root_of, wait_armed

# the analysis' stand-in (tests/analysis_fakes.py: fixed figures) or the analysis itself
# (rollouts/analysis, small budgets for a shared machine), each in its worker process
ENGINES = {
    "stand-in": "w.analysis_engine = 'analysis_fakes:step'\n"
                "w.roll_map_engine = 'analysis_fakes:roll_map_of'\n",
    "analysis": "w.analysis_rollouts = 12\nw.analysis_chance_rollouts = 2\n"
                "w.roll_map_rollouts = 4\n",
}


def cells(engine: str) -> list[str]:
    """Ann owns two oranges and stands four tiles before New York Avenue, the third."""
    return [
        IMPORTS + "\nimport sys\nfrom ugentopoly_widget import Game\n"
        f"sys.path.insert(0, {str(REPO_ROOT / 'tests')!r})",
        'g = Game.scenario("classic", players=["Ann", "Bob"], seed=3, current="Ann",\n'
        '                  positions={"Ann": 14, "Bob": 0}, owners={16: "Ann", 18: "Ann"})\n'
        "w = UgentopolyWidget.from_game(g, seats=['person', 'person'])\n"
        f"w.turn_pause = 0\n{ENGINES[engine]}w",
    ]


def _py(kernel: Kernel, expr: str) -> object:
    return json.loads(kernel.eval(f"__import__('json').dumps({expr})"))


def _wait_analysed(page, kernel: Kernel) -> dict:  # type: ignore[no-untyped-def]
    """The analysis of the game as it is, complete in Python and drawn with its seq."""
    value = _py(kernel, "w.wait_analysis(timeout=120)")
    assert isinstance(value, dict) and value["status"] == "done", value
    page.wait_for_function(
        "(s) => { const b = document.querySelector('[data-ugw=analysis-live]');"
        " return b && !b.hidden && b.dataset.status === 'done' && b.dataset.seq === String(s); }",
        arg=value["seq"], timeout=30_000)
    return value


def _live(root) -> dict:  # type: ignore[no-untyped-def]
    return root.evaluate("""(r) => {
      const v = r.querySelector('[data-ugw=analysis-verdict]');
      const l = r.querySelector('[data-ugw=analysis-luck]');
      return { verdict: v && { verdict: v.dataset.verdict, loss: Number(v.dataset.loss),
                 se: Number(v.dataset.lossSe), index: Number(v.dataset.index),
                 text: v.textContent },
               luck: l && { luck: Number(l.dataset.luck), index: Number(l.dataset.index),
                 text: l.textContent } };
    }""")


def _in_view(root, where: str) -> None:  # type: ignore[no-untyped-def]
    view = in_view(root, "[data-ugw=analysis-verdict]", "[data-ugw=analysis-luck]",
                   "[data-ugw=actions] button", "[data-ugw=board]")
    for sel, boxes in view.items():
        assert boxes, f"{where}: no {sel}"
        out = [b for b in boxes if not b["inside"]]
        assert not out, f"{where}: {sel} out of view {out}"
    # nor hidden in the board's centre (the roll map shares it with the decision)
    clipped = root.evaluate("""(r) => {
      const c = r.querySelector('[data-ugw=center]').getBoundingClientRect();
      return [...r.querySelectorAll('[data-ugw=center] button, [data-ugw=roll-cell]')]
        .filter((e) => e.getClientRects().length).map((e) => [e.textContent.trim(),
          e.getBoundingClientRect()]).filter(([, b]) => b.top < c.top - 1
          || b.bottom > c.bottom + 1 || b.left < c.left - 1 || b.right > c.right + 1)
        .map(([t]) => t); }""")
    assert not clipped, f"{where}: cut off in the board's centre: {clipped}"


@pytest.mark.parametrize("engine", list(ENGINES))
def test_the_analysis_shows_python_figures_live_after_and_looking_back(
    open_notebook: OpenNotebook, kernel: Kernel, engine: str
) -> None:
    page = open_notebook(cells(engine), f"analysis-{engine}.ipynb")
    page.set_viewport_size({"width": 1920, "height": 1080})
    root = root_of(page)
    assert root.locator("[data-ugw=analysis-live]").is_hidden(), "off by default"

    # switched on from the Analysis tab: a request to Python
    root.locator("[data-ugw=tab-analysis]").click()
    toggle = root.locator("[data-ugw=analysis-toggle]")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    kernel.wait_for("bool(w.analysis.get('on'))", "True")

    # Ann rolls 2 + 3 (New York Avenue, her third orange) and declines it: the verdict and
    # the roll's luck
    kernel.run("w.game.testing.script_dice((2, 3))")
    wait_armed(page, "[data-ugw=actions] button[data-ugw-action=roll]")
    root.locator("[data-ugw=actions] button[data-ugw-action=roll]").click()
    wait_armed(page, "[data-ugw=actions] button[data-ugw-action=decline]")
    root.locator("[data-ugw=actions] button[data-ugw-action=decline]").click()
    kernel.wait_for("w.game.decision.kind", "auction")
    kernel.run("w.pass_(); w.pass_()")  # nobody bids
    value = _wait_analysed(page, kernel)
    live = _live(root)
    verdict, luck = value["verdict"], value["luck"]
    assert verdict is not None and luck is not None
    # the last decision judged (the analysis judges the auction's passes too)
    assert live["verdict"]["verdict"] == verdict["verdict"]
    assert live["verdict"]["loss"] == verdict["loss"]
    assert live["verdict"]["se"] == verdict["loss_se"]
    assert live["verdict"]["index"] == verdict["index"]
    # declining the last lot of one's own group: the stand-in's first decline is a mistake,
    # the analysis finds a blunder
    decline = {m["index"]: m["verdict"] for m in value["mistakes"]}.get(1)
    assert decline == ("mistake" if engine == "stand-in" else "blunder")
    assert verdict["text"]["en"] in live["verdict"]["text"]
    assert live["luck"]["luck"] == luck["luck"] and live["luck"]["index"] == luck["index"] == 0
    assert luck["text"]["en"] in live["luck"]["text"]

    # the tab: chart lines end at the summaries, the table and the mistakes are Python's
    tab = root.locator("[data-ugw=analysis]")
    last = value["series"][-1]
    for row in value["players"]:
        i = row["player"]
        line = tab.locator(f"[data-ugw=analysis-luck-line-{i}]")
        assert float(line.get_attribute("data-final") or "nan") == last["luck"][i] == row["luck"]
        skill = tab.locator(f"[data-ugw=analysis-skill-line-{i}]")
        assert float(skill.get_attribute("data-final") or "nan") == row["skill_loss"]
        summary = tab.locator(f"[data-ugw=analysis-player-{i}]")
        assert float(summary.get_attribute("data-luck") or "nan") == row["luck"]
        assert float(summary.get_attribute("data-adjusted") or "nan") == row["adjusted"]
    listed = [int(b.get_attribute("data-index") or -1)
              for b in tab.locator("[data-ugw=analysis-mistakes] button").all()]
    assert listed == [m["index"] for m in value["mistakes"]] and 1 in listed
    assert value["explain"]["en"] in tab.locator("[data-ugw=analysis-explain]").inner_text()
    _in_view(root, "1920x1080")
    settle(page)
    shot(page, f"analysis-{engine}-1920")
    # Save picture: the chart as SVG and PNG files, with its lines
    tab.locator("[data-ugw=analysis-save]").click()
    tab.locator("[data-ugw=picture-luck-skill-png]").wait_for(state="visible")
    svg = unquote(tab.locator("[data-ugw=picture-luck-skill-svg]").get_attribute("href") or "")
    assert svg.startswith("data:image/svg+xml") and "analysis-luck-line-0" in svg

    # a mistake clicked: the position before it, read-only, a banner and the way back
    kernel.run("w.end_turn()")  # Bob is about to roll in the live game
    live_seq = root.get_attribute("data-seq")
    tab.locator("[data-ugw=analysis-mistake-1]").click()
    banner = root.locator("[data-ugw=replay-banner]")
    banner.wait_for(state="visible")
    assert root.get_attribute("data-replay") == "1"
    assert root.locator("[data-ugw=actions] button").count() == 0  # nothing to play here
    view = in_view(root, "[data-ugw=replay-banner]", "[data-ugw=board]")
    assert all(b["inside"] for boxes in view.values() for b in boxes), view
    assert root.locator("[data-ugw-tile='19']").get_attribute("data-owner") in (None, "")
    assert root.locator("[data-ugw=whose-turn]").inner_text().strip().startswith("Ann")
    shot(page, f"analysis-{engine}-looking-back")
    root.locator("[data-ugw=replay-back]").click()
    banner.wait_for(state="hidden")
    assert root.get_attribute("data-seq") == live_seq
    assert root.locator("[data-ugw=actions] button[data-ugw-action=roll]").count() == 1

    # the 36-roll map of Bob, about to roll: Python's cells, on the board where the dice are
    root.locator("[data-ugw=roll-map-ask]").click()
    grid = root.locator("[data-ugw=center] [data-ugw=roll-map]")
    grid.wait_for(state="visible", timeout=120_000)
    rm = _py(kernel, "w.roll_map")
    assert isinstance(rm, dict) and rm["status"] == "done" and rm["player"] == 1
    assert grid.get_attribute("data-seq") == str(rm["seq"]) == root.get_attribute("data-seq")
    shown = grid.locator("[data-ugw=roll-cell]").evaluate_all(
        "(cells) => cells.map((c) => [c.dataset.dice, Number(c.dataset.pWin),"
        " Number(c.dataset.tile), c.dataset.double])")
    assert shown == [[f"{c['dice'][0]},{c['dice'][1]}", c["p_win"], c["tile"],
                      "true" if c["double"] else "false"] for c in rm["cells"]]
    assert len(shown) == 36 and sum(s[3] == "true" for s in shown) == 6
    settle(page)
    shot(page, f"analysis-{engine}-roll-map-1920")
    inject_axe(page)  # the live lines, the tab and the map: no serious violation
    assert axe_serious(root) == []
    _in_view(root, "1920x1080 with the roll map")

    # the laptop, file browser open: the live lines and the decision in view; Dutch, dark
    page.set_viewport_size({"width": 1280, "height": 800})
    _sidebar(page, True)
    settle(page)
    _in_view(root, "1280x800 +files")
    shot(page, f"analysis-{engine}-laptop")
    kernel.run("w.lang = 'nl'")
    page.wait_for_function(
        "(t) => document.querySelector('[data-ugw=analysis-verdict]').textContent.includes(t)",
        arg=verdict["text"]["nl"])
    set_theme(page, "dark")
    shot(page, f"analysis-{engine}-laptop-nl-dark")
    assert axe_serious(root) == []
    set_theme(page, "light")
    _sidebar(page, False)
    # Present mode (the projector): the map in large type beside the decision
    page.set_viewport_size({"width": 1920, "height": 1080})
    kernel.run("w.presentation = True")
    settle(page)
    shot(page, f"analysis-{engine}-present-nl")
    kernel.run("w.presentation = False")
    # the roll: the map of the state before it goes
    root.locator("[data-ugw=actions] button[data-ugw-action=roll]").click()
    grid.wait_for(state="detached")

    # off from the tab: the trait is cleared and the lines go
    root.locator("[data-ugw=analysis-toggle]").click()
    kernel.wait_for("w.analysis", "{}")
    page.wait_for_function("() => document.querySelector('[data-ugw=analysis-live]').hidden")


LIVE = "[data-ugw=analysis-live]"
LIVE_READY = "['done', 'error'].includes(b.dataset.status)"  # analysed to its end


def test_the_analysis_does_not_hold_up_the_board(
    open_notebook: OpenNotebook, kernel: Kernel, capsys: pytest.CaptureFixture[str]
) -> None:
    """Measured, not timed: the board's reply to a click with the analysis on and off, and
    the time to the new position analysed to its end (the verdict of the decision just made
    and the luck of the roll just rolled), at analyse()'s default budgets (figures printed
    for the closing note)."""
    page = open_notebook(cells("analysis"), "analysis_latency.ipynb")
    page.set_viewport_size({"width": 1920, "height": 1080})
    root = root_of(page)
    install_timers(page, LIVE, LIVE_READY)
    kernel.run("first = g.copy()\nw.analysis_rollouts = w.analysis_chance_rollouts = None")
    off: list[float] = []
    on: list[float] = []
    firsts: list[float] = []
    for _ in range(rounds()):
        for analysing in (False, True):
            kernel.run("w.game = first.copy()")
            if analysing:
                kernel.run("w.show_analysis(True)")
                page.wait_for_function(
                    "() => !document.querySelector('[data-ugw=analysis-live]').hidden")
            replies, first = click_times(page, root, 6, LIVE, LIVE_READY)
            (on if analysing else off).extend(replies)
            firsts += first
            if analysing:
                kernel.run("w.show_analysis(False)")
                page.wait_for_function(
                    "() => document.querySelector('[data-ugw=analysis-live]').hidden")
    assert len(firsts) == 6 * rounds() and all(f > 0 for f in firsts)
    gap, low, high = median_gap(off, on)
    with capsys.disabled():
        print(f"\n[analysis] click -> board reply: off median {statistics.median(off):.0f} ms"
              f" (max {max(off):.0f}), on median {statistics.median(on):.0f} ms"
              f" (max {max(on):.0f}); on - off {gap:+.1f} ms [{low:+.1f}, {high:+.1f}] (95 %,"
              f" {len(on)} clicks each); click -> the new position analysed median"
              f" {statistics.median(firsts):.0f} ms (max {max(firsts):.0f})")
        print("  each click, sorted (ms): off", sorted(round(x) for x in off),
              "on", sorted(round(x) for x in on))


def test_after_the_game_the_chart_and_the_mistakes_are_the_analysis(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    """A whole game played by bots, then analysed: the chart's lines over every turn end at
    the summaries, and the list of the biggest mistakes is Python's, beside the game-over
    screen, at the projector and the laptop."""
    page = open_notebook(cells("stand-in"), "analysis_after.ipynb")
    page.set_viewport_size({"width": 1920, "height": 1080})
    root = root_of(page)
    kernel.run("w.game = Game('classic', players=['Ann', 'Bob'], seed=11,"
               " options={'starting_money': 500})\n"
               "w.play_bots(everyone='random')\nw.show_analysis(True)")
    assert _py(kernel, "w.game.is_over") is True
    value = _wait_analysed(page, kernel)
    root.locator("[data-ugw=tab-analysis]").click()
    tab = root.locator("[data-ugw=analysis]")
    chart = tab.locator("[data-ugw=analysis-chart]")
    assert int(chart.get_attribute("data-points") or 0) == len(value["series"]) > 10
    for row in value["players"]:
        line = chart.locator(f"[data-ugw=analysis-luck-line-{row['player']}]")
        assert float(line.get_attribute("data-final") or "nan") == row["luck"]
        points = (line.get_attribute("points") or "").split()
        assert len(points) == len(value["series"])
    listed = [int(b.get_attribute("data-index") or -1)
              for b in tab.locator("[data-ugw=analysis-mistakes] button").all()]
    assert listed == [m["index"] for m in value["mistakes"]] and listed
    assert root.locator("[data-ugw=ranking]").is_visible()
    root.evaluate("(r) => r.scrollIntoView({ block: 'start' })")
    settle(page)
    shot(page, "analysis-after-game-1920")
    page.set_viewport_size({"width": 1280, "height": 800})
    _sidebar(page, True)
    root.evaluate("(r) => r.scrollIntoView({ block: 'start' })")
    settle(page)
    shot(page, "analysis-after-game-laptop")
    # the summary table fits the panel: no column scrolled away sideways (en, then nl)
    for lang in ("en", "nl"):
        kernel.run(f"w.lang = {lang!r}")
        page.wait_for_function(f"() => document.querySelector('[data-ugw=root]').lang === {lang!r}")
        settle(page)
        widths = tab.locator("[data-ugw=analysis-summary]").evaluate(
            "(t) => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
        assert widths[0] <= widths[1] + 1, f"{lang}: the summary scrolls sideways: {widths}"
    shot(page, "analysis-after-game-laptop-nl")
    _sidebar(page, False)
