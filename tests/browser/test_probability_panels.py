"""Issue 10, item 6 in a real browser: the Odds tab switches the heat overlay modes (values in
data- attributes equal Python's figures), the overlay lies under the names and colour bands,
the dice histogram and the convergence chart follow the game as bots play, Python's
show_probability/show_dice_stats drive the same view, and every label has its Dutch."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Locator

from .board_checks import axe_serious, inject_axe, set_theme, shot
from .conftest import Kernel, OpenNotebook
from .test_widget_browser import IMPORTS

CELLS = [
    "from ugentopoly_widget.probability import next_roll_distribution\n" + IMPORTS,
    'w = UgentopolyWidget("classic", players=["Ann", "Bob", "Cleo"], seed=3, turn_pause=0)\n'
    'w.play_bots(40, everyone="heuristic")\nw',
]

# Every tile: is the centre of its name (and of its colour band) the name (band) itself, or
# does something lie on top? And the heat label's box: inside the tile, clear of the name?
JS_LAYERS = """
(root) => [...root.querySelectorAll('[data-ugw-tile]')].map((tile) => {
  const top = (el, sel) => {
    if (!el) return true;
    const r = el.getBoundingClientRect();
    const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!(e && e.closest(sel));
  };
  const name = tile.querySelector('.ugw-tile-name');
  const band = tile.querySelector('.ugw-band:not(.ugw-band-empty)');
  const label = tile.querySelector('[data-ugw=heat-label]');
  const n = name.getBoundingClientRect(), t = tile.getBoundingClientRect();
  const l = label ? label.getBoundingClientRect() : null;
  const text = [...name.childNodes].length ? (() => { const rg = document.createRange();
    rg.selectNodeContents(name); return rg.getBoundingClientRect(); })() : n;
  return {
    pos: Number(tile.dataset.ugwTile), nameOnTop: top(name, '.ugw-tile-name'),
    bandOnTop: top(band, '.ugw-band'),
    label: label ? label.textContent : null,
    labelInside: !l || (l.left >= t.left - 1 && l.right <= t.right + 1
      && l.top >= t.top - 1 && l.bottom <= t.bottom + 1),
    labelClear: !l || l.right <= text.left || l.left >= text.right
      || l.bottom <= text.top || l.top >= text.bottom,
  };
})
"""


def _heat_values(root: Locator) -> list[float]:
    values = root.evaluate("""(r) => [...r.querySelectorAll('[data-ugw=heat-cell]')]
        .map((c) => c.dataset.value)""")
    return [float(v) for v in values]


def _py(kernel: Kernel, expr: str) -> Any:
    return json.loads(kernel.eval(f"json.dumps({expr})"))


def _wait_mode(root: Locator, mode: str) -> None:
    root.locator(f"[data-ugw=board][data-heat-mode={mode}]").wait_for(state="attached")
    root.locator(f"[data-ugw=heat-legend][data-heat-mode={mode}]").wait_for(state="visible")


def test_odds_tab_heat_modes_dice_and_convergence(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(CELLS, "probability_panels.ipynb")
    root = page.locator("[data-ugw=root]").first
    root.wait_for(state="visible")
    root.scroll_into_view_if_needed()
    root.locator("[data-ugw=tab-odds]").click()
    odds = root.locator("[data-ugw=odds]")
    odds.wait_for(state="visible")
    assert root.locator("[data-ugw=board]").get_attribute("data-heat-mode") is None

    # 1. exact: clicked in the view, computed in Python, drawn under the names
    odds.locator("[data-ugw=heat-mode-exact]").click()
    _wait_mode(root, "exact")
    assert kernel.eval("w.probability_mode") == "exact"
    exact = _py(kernel, "[*w.heat['values'], w.heat['jail']]")
    assert _heat_values(root) == exact[:40]
    jail = root.locator("[data-ugw-tile='10'] [data-ugw=heat-cell]")
    assert float(jail.get_attribute("data-in-jail") or "nan") == exact[40]
    assert jail.locator("[data-ugw=heat-jail]").inner_text() == f"▦ in jail {100 * exact[40]:.1f}%"
    layers = root.evaluate(JS_LAYERS)
    assert all(t["nameOnTop"] and t["bandOnTop"] for t in layers), [
        t for t in layers if not (t["nameOnTop"] and t["bandOnTop"])]
    assert all(t["labelInside"] for t in layers), [t for t in layers if not t["labelInside"]]
    assert all(t["labelClear"] for t in layers), [t for t in layers if not t["labelClear"]]
    assert layers[24]["label"] == f"▲ {100 * exact[24]:.1f}%"  # Illinois Avenue, the hottest
    legend = root.locator("[data-ugw=heat-legend]")
    # the scale spans the tiles shown, lowest to highest share above 0 (issue 20)
    low = min(v for v in exact[:40] if v > 0)
    assert legend.locator("[data-ugw=heat-min]").inner_text() == f"{100 * low:.1f}"
    assert legend.locator("[data-ugw=heat-max]").inner_text() == f"{100 * max(exact[:40]):.1f}"
    assert legend.locator("[data-ugw=heat-unit]").inner_text() == "% of rolls"
    assert odds.locator("[data-ugw=heat-mode-exact]").get_attribute("aria-pressed") == "true"
    shot(root, "probability-exact")

    # 2. observed: this game's counted landings, with the number of rolls
    odds.locator("[data-ugw=heat-mode-observed]").click()
    _wait_mode(root, "observed")
    observed = _py(kernel, "[*w.heat['values'], w.heat['jail']]")
    assert observed == _py(kernel, "list(w.game.landings().frequencies())")
    assert _heat_values(root) == observed[:40]
    rolls = _py(kernel, "w.game.landings().rolls")
    assert legend.locator("[data-ugw=heat-rolls]").inner_text() == f"{rolls} rolls"

    # 3. difference: observed - exact, on a scale symmetric about 0
    odds.locator("[data-ugw=heat-mode-difference]").click()
    _wait_mode(root, "difference")
    diff = _heat_values(root)
    assert all(abs(d - (o - e)) < 1e-15 for d, o, e in zip(diff, observed, exact, strict=False))
    top = max(abs(o - e) for o, e in zip(observed[:40], exact[:40], strict=True))
    assert legend.locator("[data-ugw=heat-min]").inner_text() == f"−{100 * top:.2f}"
    assert legend.locator("[data-ugw=heat-unit]").inner_text() == "percentage points"
    shot(root, "probability-difference")

    # 4. next: the current player's next roll, from where they stand
    odds.locator("[data-ugw=heat-mode-next]").click()
    _wait_mode(root, "next")
    nxt = _py(kernel, "next_roll_distribution(w.game).probability.tolist()")
    assert _heat_values(root) == nxt[:40]
    labels = root.locator("[data-ugw=heat-label]")  # blank where the roll cannot end
    assert labels.count() == sum(1 for v in nxt[:40] if v > 0) < 40
    in_jail = root.locator("[data-ugw-tile='10'] [data-ugw=heat-jail]")
    assert in_jail.count() == (1 if nxt[40] > 0 else 0)
    who = _py(kernel, "w.game.players[w.game.current_player].name")
    assert who in legend.locator("[data-ugw=heat-title]").inner_text()

    # 5. the dice histogram and the convergence chart, growing as bots play
    odds.locator("[data-ugw=stats-toggle]").click()
    hist = odds.locator("[data-ugw=dice-hist]")
    hist.wait_for(state="visible")
    dice = _py(kernel, "w.stats['dice']")
    bars = hist.locator("[data-ugw-total]")
    assert bars.count() == 11
    assert [int(b) for b in bars.evaluate_all("(bs) => bs.map((b) => b.dataset.count)")] \
        == dice["counts"]
    assert [float(b) for b in bars.evaluate_all("(bs) => bs.map((b) => b.dataset.exact)")] \
        == dice["exact"]
    assert odds.locator("[data-ugw=dice-rolls]").inner_text() == f"{dice['rolls']} rolls"
    conv = odds.locator("[data-ugw=convergence]")
    points = int(conv.get_attribute("data-points") or "0")
    assert points == len(_py(kernel, "w.stats['convergence']['rolls']")) > 5
    assert conv.locator("circle[data-rolls]").count() == points
    before = int(conv.get_attribute("data-last-rolls") or "0")
    odds.scroll_into_view_if_needed()
    shot(root, "probability-next-and-stats")
    kernel.run('w.play_bots(60, everyone="heuristic")')
    page.wait_for_function(
        "(n) => Number(document.querySelector('[data-ugw=convergence]').dataset.lastRolls) > n",
        arg=before)
    dice = _py(kernel, "w.stats['dice']")
    page.wait_for_function(
        "(n) => document.querySelector('[data-ugw=dice-rolls]').textContent === n",
        arg=f"{dice['rolls']} rolls")
    assert [int(b) for b in bars.evaluate_all("(bs) => bs.map((b) => b.dataset.count)")] \
        == dice["counts"]
    ticks = conv.locator("[data-ugw=conv-tick]").evaluate_all(
        "(ts) => ts.map((t) => t.textContent)")
    assert ticks[:3] == ["1", "10", "100"]  # a log axis, in decades

    # 6. the same view driven from Python; off hides the overlay and its labels
    kernel.run('w.show_probability(None)')
    page.wait_for_function("() => !document.querySelector('[data-ugw=board]').dataset.heatMode")
    assert root.locator("[data-ugw=heat-label]").count() == 0
    assert root.locator("[data-ugw=heat-legend]").is_hidden()
    assert odds.locator("[data-ugw=heat-mode-off]").get_attribute("aria-pressed") == "true"
    kernel.run('w.show_probability("exact")')
    _wait_mode(root, "exact")
    kernel.run("w.show_dice_stats(False)")
    hist.wait_for(state="detached")
    kernel.run("w.show_dice_stats(True)")
    hist.wait_for(state="visible")
    assert kernel.eval("w.errors") == "[]"
    shot(root, "probability-exact-and-stats")  # docs/screen-probability.png
    inject_axe(page)
    found = axe_serious(odds)
    assert found == [], found

    # 7. Dutch: the tab, the switch, the legend and the charts' words
    root.locator("[data-ugw=lang]").click()
    page.wait_for_function(
        "() => document.querySelector('[data-ugw=tab-odds]').textContent === 'Kansen'")
    assert odds.locator("[data-ugw=heat-mode-exact]").inner_text() == "Lange termijn"
    assert odds.locator("[data-ugw=heat-mode-next]").inner_text() == "Volgende worp"
    assert legend.locator("[data-ugw=heat-title]").inner_text() \
        == "Landingskansen op lange termijn, per worp"
    assert legend.locator("[data-ugw=heat-unit]").inner_text() == "% van de worpen"
    assert odds.locator("[data-ugw=dice-rolls]").inner_text().endswith(" worpen")
    assert "worpen (logaritmische schaal)" in (conv.text_content() or "")
    assert odds.locator("[data-ugw=stats-toggle]").inner_text() \
        == "Dobbelstenen & convergentie verbergen"
    shot(root, "probability-exact-nl")
    set_theme(page, "dark")
    shot(root, "probability-exact-dark")
    set_theme(page, "light")
