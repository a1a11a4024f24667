"""Issue 9, findings 8, 9, 10 and 12 (axe): axe-core (js/node_modules, an npm dev dependency)
finds no critical or serious violation in the lobby, play, auction, trade, tile card and
game-over states, light and dark; the 22-cell house offer's "Build" is a main button; the
Ugentopoly tile card lists no houses; the timer's icon is drawn (no glyph Debian's chromium
lacks); the eight tokens are distinct pictures; the game-over screen ranks with net worth and a
chart of net worth over the game."""

from __future__ import annotations

import pytest

from .board_checks import axe_serious, inject_axe, set_theme, settle, shot
from .conftest import Kernel, OpenNotebook
from .test_widget_browser import IMPORTS, kernel_snapshot

STATES = ["lobby", "play", "auction", "trade", "tile card", "game over"]

CELLS = [
    IMPORTS,
    'w_lobby = UgentopolyWidget.open_lobby("classic")\nw_lobby',
    'w_play = UgentopolyWidget("ugentopoly", players=["Ann", "Bob"], seed=3, turn_pause=0)\n'
    'w_play.play_bots(6, everyone="heuristic")\nw_play',
    'w_auc = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1, turn_pause=0)\n'
    "w_auc.game.testing.script_dice((1, 2))\nw_auc.roll()\nw_auc.decline()\nw_auc",
    'w_trade = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=2, turn_pause=0)\n'
    "w_trade.game.testing.give_property(0, 1)\nw_trade.refresh()\nw_trade",
    'w_over = UgentopolyWidget("cell22", players=["Ann", "Bob", "Cy"], seed=4, turn_pause=0)\n'
    'w_over.play_bots(None, everyone="heuristic")\nw_over',
]


def test_axe_no_serious_violations_light_and_dark(
    open_notebook: OpenNotebook, kernel: Kernel, capsys: pytest.CaptureFixture[str]
) -> None:
    page = open_notebook(CELLS, "axe.ipynb")
    roots = page.locator("[data-ugw=root]")
    roots.nth(4).wait_for(state="visible")
    assert kernel.eval("w_auc.game.decision.kind") == "auction"
    assert kernel.eval("w_over.game.is_over") == "True"
    lobby, play, auction, trade, over = (roots.nth(k) for k in range(5))
    lobby.locator("[data-ugw=lobby]").wait_for(state="visible")
    found: dict[str, list[object]] = {}
    for theme in ("light", "dark"):
        set_theme(page, theme)
        inject_axe(page)
        # open the trade dialog and a tile card
        trade.locator("[data-ugw=trade]").click()
        trade.locator("[data-ugw=trade-dialog]").wait_for(state="visible")
        settle(page)  # buttons armed (a fading button is not a contrast bug)
        targets = {
            "lobby": lobby,
            "play": play,
            "auction": auction,
            "trade": trade,
            "game over": over,
        }
        for state, root in targets.items():
            root.scroll_into_view_if_needed()
            found[f"{state}/{theme}"] = axe_serious(root)
            shot(root, f"a11y-{state.replace(' ', '-')}-{theme}")
        trade.locator("[data-ugw=trade-cancel]").click()
        play.locator("[data-ugw-tile='1']").click()
        play.locator("[data-ugw=tile-card]").wait_for(state="visible")
        found[f"tile card/{theme}"] = axe_serious(play)
        shot(play, f"a11y-tile-card-{theme}")
        play.locator("[data-ugw=card-close]").click()
    set_theme(page, "light")
    bad = {k: v for k, v in found.items() if v}
    assert not bad, bad
    # the game-over screen: ranking, net worth and a chart line per player
    ranking = over.locator("[data-ugw=ranking]")
    assert ranking.is_visible()
    assert ranking.locator("tr[data-ugw^=rank-]").count() == 3
    assert ranking.locator("[data-ugw=worth-chart] polyline").count() == 3
    assert int(kernel.eval("len(w_over.state['history'])")) > 10  # sampled once per turn
    assert sorted(found) == sorted(f"{s}/{t}" for s in STATES for t in ("light", "dark"))
    with capsys.disabled():
        print(f"\n[axe] {len(found)} state/theme runs, no critical or serious violations")


def test_house_offer_tile_card_timer_and_tokens(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(
        [
            IMPORTS,
            'w = UgentopolyWidget("cell22", players=["Ann", "Bob"], seed=2, turn_pause=0)\n'
            "p = w.game.decision.player\n"
            "w.game.testing.give_property(p, 5)\nw.game.testing.place(p, 2)\n"
            "w.game.testing.script_dice((1, 2))\nw.roll()\nw",
            'u = UgentopolyWidget("ugentopoly", players=["Ann", "Bob"], seed=1)\nu',
            'c = UgentopolyWidget("classic", players=8, seed=1,\n'
            '                     options={"turn_timer_seconds": 60})\nc',
        ],
        "details.ipynb",
    )
    roots = page.locator("[data-ugw=root]")
    roots.nth(2).wait_for(state="visible")
    cell22, ugent, classic = roots.nth(0), roots.nth(1), roots.nth(2)
    # 8. the house offer's Build is a main button, beside "Don't buy", not behind a toggle
    assert kernel.eval("w.game.decision.kind") == "house_offer"
    build = cell22.locator(
        "[data-ugw=actions] > .ugw-buttons button[data-ugw-action=build][data-ugw-pos='5']"
    )
    assert build.is_visible() and "ugw-primary" in (build.get_attribute("class") or "")
    assert cell22.locator(
        "[data-ugw=actions] > .ugw-buttons button[data-ugw-action=decline]"
    ).is_visible()
    shot(cell22, "cell22-house-offer")
    # 9. the Ugentopoly tile card: rent and whole-group rent, no houses, hotels or house price
    ugent.locator("[data-ugw-tile='1']").click()
    card = ugent.locator("[data-ugw=tile-card]")
    card.wait_for(state="visible")
    rows = [r.lower() for r in card.locator("th").all_inner_texts()]
    assert "rent" in rows and "rent, whole colour group" in rows, rows
    assert not any("house" in r or "hotel" in r for r in rows), rows
    rent = kernel.eval("u.game.board.tiles[1].rents[0]")
    assert card.locator("td").all_inner_texts()[1:3] == [rent, str(2 * int(rent))]
    shot(ugent, "ugentopoly-tile-card")
    # 10. the turn timer draws its stopwatch; no character chromium lacks (U+23F1)
    timer = classic.locator("[data-ugw=timer]")
    timer.wait_for(state="visible")
    assert timer.locator("svg.ugw-icon").count() == 1
    assert "\u23f1" not in page.evaluate("() => document.querySelector('.jp-Notebook').innerText")
    # 10. eight distinct picture tokens (SVG shapes, not letters)
    shapes = classic.evaluate("""(root) => [...root.querySelectorAll('[data-ugw-token]')].map((t) =>
        [...t.querySelectorAll('path')].map((p) => p.getAttribute('d')).join('|'))""")
    assert len(shapes) == 8 and all(shapes) and len(set(shapes)) == 8, shapes
    size = classic.locator("[data-ugw-token='0'] svg").bounding_box()
    assert size is not None and 14 <= size["width"] <= 18
    # the heat overlay still works and lies under the names and colour bands
    kernel.run("w.show_heat([float(k) for k in range(22)], label='landings')")
    cell22.locator("[data-ugw=heat-legend]").wait_for(state="visible")
    heat = cell22.locator("[data-ugw-tile='21'] [data-ugw=heat-cell]")
    assert (
        heat.get_attribute("data-value") == "21"
        and heat.evaluate("(e) => e.style.background") != ""
    )
    cell22.locator("[data-ugw-tile='21']").scroll_into_view_if_needed()
    on_top = cell22.locator("[data-ugw-tile='21'] .ugw-tile-name").evaluate(
        "(n) => { const r = n.getBoundingClientRect();"
        " const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        " return e && e.closest('.ugw-tile-name') ? true"
        " : (e ? e.className + '/' + e.tagName : null); }"
    )
    assert on_top is True, f"the heat layer covers the tile name: {on_top}"
    # a screen reader hears the name, the price, the owner and who stands on a tile
    said = cell22.locator("[data-ugw-tile='5']").evaluate("(t) => t.textContent")
    owner_name = kernel.eval("w.game.players[w.game.owner(5)].name")
    assert "800" in said or kernel.eval("w.game.board.tiles[5].cost") in said
    assert f"Owner: {owner_name}" in said, said
    # owner border in the owner's colour
    kernel.run("w.build(5)" if kernel.eval("w.game.decision.kind") == "house_offer" else "pass")
    owner = kernel_snapshot(kernel)["owner"][5]
    colour = kernel.eval(f"w.game.players[{owner}].colour")
    border = cell22.locator("[data-ugw-tile='5']").evaluate(
        "(t) => { const cs = getComputedStyle(t, '::before');"
        " return [cs.borderTopWidth, cs.borderTopColor]; }"
    )
    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    assert float(border[0].replace("px", "")) >= 2 and border[1] == f"rgb({r}, {g}, {b})", border
