"""Issue 22 in a real browser: the live win-chance bar above the board and the trade dialog's
advice. The figures drawn are Python's: every segment's and every side's data- attributes
equal ``w.win_chances`` / ``w.trade_advice``; the bar follows the game (a new position, a new
estimate), is switched on and off from the Odds tab, stays in view with the decision at a
1920x1080 projector and a 1280x800 laptop with the file browser open."""

from __future__ import annotations

import json

from .board_checks import settle, shot
from .classroom_checks import in_view
from .conftest import Kernel, OpenNotebook
from .latency import click_times, install_timers
from .test_board_layout import _sidebar
from .test_widget_browser import IMPORTS, root_of

CELLS = [
    IMPORTS + "\nfrom ugentopoly_widget import Game",
    'g = Game.scenario("classic", players=["Ann", "Bob", "Cleo"], seed=4, current="Ann",\n'
    '                  owners={16: "Ann", 18: "Ann", 19: "Bob", 1: "Cleo", 3: "Cleo"})\n'
    "w = UgentopolyWidget.from_game(g, seats=['person', 'person', 'person'])\n"
    "w.turn_pause = 0\nw",
]


def _py(kernel: Kernel, expr: str) -> object:
    return json.loads(kernel.eval(f"__import__('json').dumps({expr})"))


def _bar(root) -> dict:  # type: ignore[no-untyped-def]
    return root.evaluate("""(r) => {
      const bar = r.querySelector('[data-ugw=win-bar]');
      return { hidden: bar.hidden, seq: bar.dataset.seq, status: bar.dataset.status,
        rollouts: Number(bar.dataset.rollouts),
        segs: [...bar.querySelectorAll('[data-ugw=win-seg]')].map((s) => ({
          player: Number(s.dataset.player), p: Number(s.dataset.pWin), se: Number(s.dataset.se),
          width: s.getBoundingClientRect().width, text: s.textContent })),
        open: (() => { const o = bar.querySelector('[data-ugw=win-seg-open]');
          return o ? Number(o.dataset.pWin) : 0; })(),
        track: (() => { const t = bar.querySelector('[data-ugw=win-track]');
          return t ? t.getBoundingClientRect().width : 0; })() };
    }""")


def _all_in_view(root, where: str) -> None:  # type: ignore[no-untyped-def]
    """The bar, every segment and the decision's buttons inside the window, together."""
    view = in_view(root, "[data-ugw=win-track]", "[data-ugw=win-seg]",
                   "[data-ugw=actions] button")
    for sel, boxes in view.items():
        assert boxes, f"{where}: no {sel}"
        out = [b for b in boxes if not b["inside"]]
        assert not out, f"{where}: {sel} out of view {out}"


def _wait_done(page, kernel: Kernel) -> dict:  # type: ignore[no-untyped-def]
    """The estimate of this position, complete in Python and drawn with its seq."""
    figures = _py(kernel, "w.wait_win_chances(timeout=120)")
    assert isinstance(figures, dict) and figures["status"] == "done", figures
    page.wait_for_function(
        "(s) => { const b = document.querySelector('[data-ugw=win-bar]');"
        " return b && b.dataset.status === 'done' && b.dataset.seq === String(s); }",
        arg=figures["seq"], timeout=30_000)
    return figures


def test_win_bar_shows_python_figures_and_follows_the_game(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(CELLS, "win_chances.ipynb")
    page.set_viewport_size({"width": 1920, "height": 1080})
    root = root_of(page)
    assert _bar(root)["hidden"], "off by default: bots at speed do not pay for rollouts"

    # switched on from the Odds tab: a request to Python, the figures come back
    root.locator("[data-ugw=tab-odds]").click()
    toggle = root.locator("[data-ugw=win-toggle]")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    kernel.wait_for("bool(w.win_chances.get('on'))", "True")
    kernel.run("w.show_win_chances(True, budget=180)")  # a smaller budget for a shared machine
    figures = _wait_done(page, kernel)
    bar = _bar(root)
    assert not bar["hidden"] and bar["rollouts"] == figures["rollouts"] == 180
    by_player = {row["player"]: row for row in figures["players"]}
    assert [s["player"] for s in bar["segs"]] == sorted(by_player)
    for seg in bar["segs"]:
        row = by_player[seg["player"]]
        assert seg["p"] == row["p_win"] and seg["se"] == row["se"]
        # widths in proportion to the chances (the track shared with the undecided share)
        total = sum(r["p_win"] for r in figures["players"]) + bar["open"]
        assert abs(seg["width"] - bar["track"] * row["p_win"] / total) <= 4 + 0.02 * bar["track"]
        share = f"{round(100 * row['p_win'])}%"
        assert seg["text"] in (f"{row['name']} {share}", share, "")
        assert seg["text"] or row["p_win"] < 0.06
    # every player's figure in words beside the bar, also those too small for their segment
    words = root.locator("[data-ugw=win-figures]").inner_text()
    for row in figures["players"]:
        assert f"{row['name']} {round(100 * row['p_win'])}%" in words
    assert root.locator("[data-ugw=win-toggle]").get_attribute("aria-pressed") == "true"
    _all_in_view(root, "1920x1080")
    shot(page, "win-bar-1920")

    # a decision with a choice: a new position, a new estimate with the new seq, and a swing
    before = figures["seq"]
    root.locator("[data-ugw=actions] button", has_text="Roll dice").click()
    kernel.wait_for(f"w.state['seq'] != {before}", "True")
    figures = _wait_done(page, kernel)
    assert figures["seq"] != before
    assert _bar(root)["seq"] == str(_py(kernel, "w.state['seq']"))

    # the laptop: file browser open, the bar and the decision still in view
    page.set_viewport_size({"width": 1280, "height": 800})
    _sidebar(page, True)
    settle(page)
    _all_in_view(root, "1280x800 +files")
    shot(page, "win-bar-laptop")
    _sidebar(page, False)

    # off from the Odds tab: the trait is cleared and the bar goes
    root.locator("[data-ugw=win-toggle]").click()
    kernel.wait_for("w.win_chances", "{}")
    page.wait_for_function("() => document.querySelector('[data-ugw=win-bar]').hidden")


def test_trade_advice_in_the_dialog_equals_rate_trade(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(CELLS, "trade_advice.ipynb")
    page.set_viewport_size({"width": 1920, "height": 1080})
    root = root_of(page)
    kernel.run("w.advice_rollouts = 72")  # a smaller budget for a shared machine
    seq = _py(kernel, "w.state['seq']")
    root.locator("[data-ugw=actions] button", has_text="Propose trade").click()
    dialog = root.locator("[data-ugw=trade-dialog]")
    dialog.wait_for(state="visible")
    dialog.locator("[data-ugw=trade-partner]").select_option("1")  # Bob
    dialog.locator("[data-ugw=trade-get-prop-19]").check()  # New York Avenue: Ann's orange
    dialog.locator("[data-ugw=trade-give-cash]").fill("300")
    dialog.locator("[data-ugw=trade-advice-ask]").click()
    advice = dialog.locator("[data-ugw=trade-advice]")
    advice.wait_for(state="visible")
    page.wait_for_function(
        "() => ['quick', 'done'].includes(document.querySelector('[data-ugw=trade-advice]')"
        "?.dataset.status)", timeout=120_000)
    figures = _py(kernel, "w.trade_advice")
    assert isinstance(figures, dict)
    assert figures["offer"]["get"]["properties"] == [19]
    assert figures["offer"]["give"]["cash"] == 300
    page.wait_for_function(
        "(s) => document.querySelector('[data-ugw=trade-advice]').dataset.status === s",
        arg=figures["status"])
    for i, side in enumerate(figures["sides"]):
        cell = advice.locator(f"[data-ugw=advice-side-{i}]")
        assert float(cell.get_attribute("data-p-with") or "nan") == side["p_with"]
        assert float(cell.get_attribute("data-p-without") or "nan") == side["p_without"]
    assert figures["text"]["en"] in advice.inner_text()
    assert "orange" in advice.inner_text()
    # the whole advice: the fair price comes after the quick figures, in the same box
    page.wait_for_function(
        "() => document.querySelector('[data-ugw=trade-advice]').dataset.status === 'done'",
        timeout=180_000)
    figures = _py(kernel, "w.trade_advice")
    assert advice.get_attribute("data-fair-cash") == (
        "" if figures["fair_cash"] is None else str(figures["fair_cash"]))
    shot(root, "trade-advice")
    # asked again for another offer: a new rating of that offer; no offer was made meanwhile
    dialog.locator("[data-ugw=trade-give-cash]").fill("250")
    dialog.locator("[data-ugw=trade-advice-ask]").click()
    kernel.wait_for("w.trade_advice['offer']['give']['cash']", "250")
    assert _py(kernel, "len(w.game.actions)") == 0
    assert _py(kernel, "w.state['seq']") == seq


WIN_READY = "Number(b.dataset.rollouts) > 0 || b.dataset.status === 'over'"


def test_the_bar_does_not_hold_up_the_board(
    open_notebook: OpenNotebook, kernel: Kernel, capsys
) -> None:  # type: ignore[no-untyped-def]
    """Measured, not timed: the board's reply to a click with the bar on and off, and the bar's
    first estimate after each decision (figures printed for the closing note)."""
    import statistics

    page = open_notebook(CELLS, "win_latency.ipynb")
    page.set_viewport_size({"width": 1920, "height": 1080})
    root = root_of(page)
    # timed in the page, from a click's event: the new state drawn (the root's data-seq) and
    # the bar's first figures of that state (its data-seq equal, rollouts > 0)
    install_timers(page, "[data-ugw=win-bar]", WIN_READY)
    kernel.run("first = g.copy()")
    off: list[float] = []
    on: list[float] = []
    firsts: list[float] = []
    # the same clicks from the same position with the bar off and on, twice, alternating
    for _ in range(2):
        for bar in (False, True):
            kernel.run("w.game = first.copy()")
            if bar:
                kernel.run("w.show_win_chances(True, budget=360)")
                # warm: the estimator's process has its first figures (not a click's wait)
                page.wait_for_function(
                    "() => { const b = document.querySelector('[data-ugw=win-bar]');"
                    " return !b.hidden && Number(b.dataset.rollouts) > 0; }", timeout=60_000)
            replies, first = click_times(page, root, 10, "[data-ugw=win-bar]", WIN_READY)
            (on if bar else off).extend(replies)
            firsts += first
            if bar:
                kernel.run("w.show_win_chances(False)")
                page.wait_for_function(
                    "() => document.querySelector('[data-ugw=win-bar]').hidden")
    assert len(firsts) == 20 and all(f > 0 for f in firsts)
    with capsys.disabled():
        print(f"\n[win bar] click -> board reply: bar off median {statistics.median(off):.0f} ms"
              f" (max {max(off):.0f}), bar on median {statistics.median(on):.0f} ms"
              f" (max {max(on):.0f}); click -> first estimate median"
              f" {statistics.median(firsts):.0f} ms (max {max(firsts):.0f})")
        print("  each click, sorted (ms): off", sorted(round(x) for x in off),
              "on", sorted(round(x) for x in on))
