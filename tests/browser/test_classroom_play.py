"""Issue 20 in a real browser, the play: prompts that show the rule's figures (jail try and
fine, the worked-out tax, doubles, rent at buy, build price and count with the even-build
rule, the auctioned tile with its list price and bidders), the landing ring outside the tile
in no owner's colour, "1 jail card", Dutch default names and the language button's name (6,
5, 8); the Odds tab's teacher controls: Roll once (its arrows are next_roll_distribution and it
lands on one), log-log convergence with its 1/sqrt(n) line, short and long jail side by side,
Save picture (valid SVG and PNG), nothing clipped (7); axe with a harness that sees the
widget's visible text (8). Light and dark, en and nl."""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from .board_checks import PROBES, set_theme, settle, shot
from .classroom_checks import axe_on_copy, chart_text_cut, in_view
from .conftest import Kernel, OpenNotebook
from .test_board_layout import _sidebar
from .test_widget_browser import IMPORTS, wait_armed

SETUP = IMPORTS + """
from ugentopoly_widget import Game
from ugentopoly_widget.probability import next_roll_distribution


def fresh(seed=3, players=("Ann", "Bob", "Cy"), **kw):
    w = UgentopolyWidget("classic", players=list(players), seed=seed, turn_pause=0, **kw)
    return w, w.game


def first(g):
    return g.decision.player
"""

# Each widget sets up one decision with chosen dice; the roll is clicked in the view.
CELLS = [
    SETUP,
    # 0 jail: the player to move drew a jail card on Chance, and is in jail at their next turn
    "wj, gj = fresh()\nj = first(gj)\n"
    "card = [c.id for c in gj.board.decks['CHANCE'].cards if c.kind.value == 'JAIL'][0]\n"
    "gj.testing.stack_deck('CHANCE', [card])\ngj.testing.script_dice((3, 4))\nwj.roll()\n"
    "wj.end_turn()\nfrom ugentopoly_widget.engine.bots import HeuristicBot\n"
    "bot = HeuristicBot(seed=1)\n"
    "while not (gj.decision.player == j and gj.decision.kind == 'turn'):\n"
    "    gj.apply(bot.choose(gj))\n"
    "gj.testing.send_to_jail(j)\nwj.refresh()\nwj",
    # 1 tax: roll 1+3 onto Income Tax
    "wt, gt = fresh()\ngt.testing.script_dice((1, 3))\nwt",
    # 2 doubles then buy: 3+3 to Oriental Avenue
    "wd, gd = fresh()\ngd.testing.script_dice((3, 3), (1, 1))\nwd",
    # 3 build: the player to move owns the light blue group (a house is built in the view)
    "wb, gb = fresh()\nb = first(gb)\nfor pos in (6, 8, 9): gb.testing.give_property(b, pos)\n"
    "wb.refresh()\nwb",
    # 4 auction: 1+2 to Baltic, declined
    "wa, ga = fresh()\nga.testing.script_dice((1, 2))\nwa.roll()\nwa.decline()\nwa",
    # 5 Dutch default names
    'wn = UgentopolyWidget("classic", players=2, seed=1, lang="nl", turn_pause=0)\nwn',
]


def _root(page: Page, k: int) -> Locator:
    root = page.locator("[data-ugw=root]").nth(k)
    root.wait_for(state="visible")
    root.scroll_into_view_if_needed()
    return root


def _text(root: Locator) -> str:
    root.scroll_into_view_if_needed()
    return " ".join((root.locator("[data-ugw=decision]").text_content() or "").split())


def _click(page: Page, root: Locator, selector: str) -> None:
    seq = root.get_attribute("data-seq")
    root.locator(selector).first.scroll_into_view_if_needed()
    page.wait_for_function(
        "(el) => !el.hasAttribute('data-arming')",
        arg=root.locator(selector).first.element_handle())
    root.locator(selector).first.click()
    page.wait_for_function("([el, s]) => el.dataset.seq !== s", arg=[root.element_handle(), seq])


def test_prompts_show_the_rules_figures_and_the_landing_ring(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(CELLS, "prompts.ipynb")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator("[data-ugw=root]").nth(5).wait_for(state="visible")
    jail, tax, dbl, build, auction, dutch = (_root(page, k) for k in range(6))
    words = {
        "en": {"jail": "In jail (try 1 of 3): roll doubles, or pay 50, or use your jail card",
               "tax": "Pay 200 or 10 % = 150", "dbl": "Doubles: roll again",
               "rent": "Rent 6, 12 with the group", "house": "+1 house (50) · now 0 of 5",
               "even": "Even building: Oriental Avenue wait", "list": "list price 60",
               "bidders": "still bidding: ", "card": "1 × jail card"},
        "nl": {"jail": "In de gevangenis (poging 1 van 3): gooi dubbel, of betaal 50, of gebruik "
                       "je gevangeniskaart",
               "tax": "Betaal 200 of 10 % = 150", "dbl": "Dubbel: gooi opnieuw",
               "rent": "Huur 6, 12 met de hele groep", "house": "+1 huis (50) · nu 0 van 5",
               "even": "Gelijk bouwen: Oriental Avenue wachten", "list": "catalogusprijs 60",
               "bidders": "biedt nog: ", "card": "1 × gevangeniskaart"},
    }
    # the roll clicks: tax, doubles (then buy -> "roll again"), build (house on Oriental)
    _click(page, tax, "button[data-ugw-action=roll]")
    _click(page, dbl, "button[data-ugw-action=roll]")
    rent_text = {lang: None for lang in words}
    rent_text["en"] = _text(dbl)
    _click(page, dbl, "button[data-ugw-action=buy]")
    build.locator("[data-ugw=manage]").click()
    _click(page, build, "button[data-ugw-action=build][data-ugw-pos='6']")
    if build.locator("[data-ugw=manage-panel]").count() == 0:
        build.locator("[data-ugw=manage]").click()
    for lang in ("en", "nl"):
        kernel.run(f"for x in (wj, wt, wd, wb, wa): x.lang = '{lang}'")
        page.wait_for_function("(l) => [...document.querySelectorAll('[data-ugw=root]')]"
                               ".slice(0, 5).every((r) => r.lang === l)", arg=lang)
        w = words[lang]
        assert _text(jail).endswith(w["jail"]), _text(jail)
        assert w["tax"] in _text(tax), _text(tax)
        assert w["dbl"] in _text(dbl), _text(dbl)
        flags = jail.locator("[data-ugw=status] .ugw-flags").evaluate_all(
            "(fs) => fs.map((f) => f.textContent)")
        assert w["card"] in flags, flags
        panel = build.locator("[data-ugw=manage-panel]")
        assert w["house"] in (panel.locator("button[data-ugw-action=build][data-ugw-pos='8']")
                              .text_content() or "")
        assert (panel.locator("[data-ugw=even-hint]").text_content() or "").startswith(w["even"])
        text = _text(auction)
        assert w["list"] in text and w["bidders"] in text, text
        bidders = text.split(w["bidders"])[1]
        assert sorted(n.strip() for n in bidders.split(",")) == ["Ann", "Bob", "Cy"], text
    assert "Rent 6, 12 with the group" in (rent_text["en"] or ""), rent_text
    # the auctioned tile stands out (a dashed ring outside it)
    tile = auction.locator("[data-ugw-tile='3']")
    assert "ugw-auction" in (tile.get_attribute("class") or "")
    assert tile.evaluate("(t) => getComputedStyle(t).outlineStyle") == "dashed"
    # the landed tile (the tax decision's Income Tax): a ring outside it, its price in view,
    # in colours no player owns
    ring = tax.locator("[data-ugw-tile='4']")
    settle(page)  # the pulse is over
    ring.scroll_into_view_if_needed()
    info = ring.evaluate((PROBES / "landed_ring.js").read_text(encoding="utf-8"))
    assert info["landed"] and info["width"] >= 2 and info["offset"] >= 0, info
    assert info["price"] and info["inner"] == "none", info
    colours = json.loads(kernel.eval("json.dumps([p.colour for p in gt.players])"))
    rgb = tuple(int(v) for v in info["colour"][4:-1].split(","))
    for c in colours:
        other = tuple(int(c[k:k + 2], 16) for k in (1, 3, 5))
        assert sum(abs(a - b) for a, b in zip(rgb, other, strict=True)) > 120, (rgb, c)
    # soft hyphens where the words break (the exception list): "Board-walk", not "Boar-dwalk"
    names = jail.evaluate("(r) => [39, 11, 1].map((p) =>"
                          " r.querySelector(`[data-ugw-tile='${p}'] .ugw-tile-name`).textContent)")
    assert names[0] == "Board\u00adwalk" and "Charles" in names[1], names
    assert names[2] == "Me\u00addi\u00adter\u00adra\u00adnean Avenue", names
    # Dutch default names; the language button's name starts with what it shows
    dutch.scroll_into_view_if_needed()
    names = dutch.locator("[data-ugw=players] .ugw-chip-name").evaluate_all(
        "(ns) => ns.map((n) => n.textContent.trim())")
    assert names == ["Speler 1", "Speler 2"], names
    for root in (dutch, jail):
        btn = root.locator("[data-ugw=lang]")
        shown = (btn.text_content() or "").strip()
        assert shown and (btn.get_attribute("aria-label") or "").startswith(shown)
    shot(auction, "classroom-auction")


def _py(kernel: Kernel, expr: str) -> Any:
    return json.loads(kernel.eval(f"json.dumps({expr})"))


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_odds_teacher_controls_roll_once_charts_and_pictures(
    open_notebook: OpenNotebook, kernel: Kernel, capsys: pytest.CaptureFixture[str]
) -> None:
    page = open_notebook(
        [SETUP,
         'w = UgentopolyWidget("classic", players=["Ann", "Bob", "Cleo"], seed=3, turn_pause=0)\n'
         'w.play_bots(40, everyone="heuristic")\n'
         'w.fan_seconds = 4.0\nw.show_probability("exact")\nw.show_dice_stats(True)\nw',
         'over = UgentopolyWidget("cell22", players=["Ann", "Bob"], seed=4, turn_pause=0)\n'
         'over.game.testing.set_cash(0, 106_920)\n'
         'over.play_bots(None, everyone="heuristic")\nover'],
        "odds_teacher.ipynb",
    )
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    root = _root(page, 0)
    root.locator("[data-ugw=tab-odds]").click()
    odds = root.locator("[data-ugw=odds]")
    odds.wait_for(state="visible")
    for theme in ("light", "dark"):  # the tab as a class sees it (docs/screen-odds-*.png)
        set_theme(page, theme)
        root.scroll_into_view_if_needed()
        shot(page, f"classroom-odds-{theme}")
    set_theme(page, "light")
    # Roll once: first the fan (arrows = next_roll_distribution from the token), then the dice
    player = int(kernel.eval("w.game.decision.player"))
    expected = _py(kernel, "next_roll_distribution(w.game).probability.tolist()")
    start = int(kernel.eval(f"w.game.players[{player}].position"))
    wait_armed(page, "[data-ugw=roll-once]")
    odds.locator("[data-ugw=roll-once]").click()
    page.wait_for_selector("[data-ugw=fan-arrow]")
    arrows = root.evaluate("(r) => [...r.querySelectorAll('[data-ugw=fan-arrow]')].map((a) =>"
                           " [a.dataset.pos, Number(a.dataset.p),"
                           " a.querySelector('[data-ugw=fan-label]').textContent])")
    drawn = {pos: p for pos, p, _ in arrows}
    want = {str(k): p for k, p in enumerate(expected[:-1]) if p > 0}
    if expected[-1] > 0:
        want["jail"] = expected[-1]
    assert drawn == want, (drawn, want)
    for pos, p, label in arrows:
        assert label.endswith(f"{100 * p:.1f}%"), (pos, p, label)
    assert _py(kernel, "w.fan['from']") == start
    shot(root, "classroom-roll-once-fan")
    page.wait_for_selector("[data-ugw=fan-landed]")
    landed = root.locator("[data-ugw=fan]").get_attribute("data-landed")
    assert landed is not None and drawn[landed] > 0
    where = _py(kernel, f"[w.game.players[{player}].position, w.game.players[{player}].in_jail]")
    assert landed == ("jail" if where[1] else str(where[0])), (landed, where)
    shot(root, "classroom-roll-once-landed")
    # the charts: log-log convergence with its 1/sqrt(n) line, jail stays side by side
    conv = odds.locator("[data-ugw=convergence]")
    assert conv.get_attribute("data-y-scale") == "log"
    yticks = conv.locator("[data-ugw=conv-ytick]").evaluate_all(
        "(ts) => ts.map((t) => t.textContent)")
    assert yticks[:2] == ["1", "0.1"], yticks
    assert conv.locator("[data-ugw=conv-expected]").count() == 1
    assert "1/√n" in (conv.text_content() or "")
    jail = odds.locator("[data-ugw=jail-chart]")
    short = jail.locator("[data-ugw=jail-short-in_jail]").get_attribute("data-share")
    long = jail.locator("[data-ugw=jail-long-in_jail]").get_attribute("data-share")
    cmp = _py(kernel, "w.stats['jail_strategies']")
    assert float(short or "nan") == cmp["short"][-1] and float(long or "nan") == cmp["long"][-1]
    # nothing clipped: at 1920x1080 the whole Odds panel fits; at 1280x800 (file browser
    # open) every figure scrolls fully into view; no chart text is cut at its edge
    for width, height, files in ((1920, 1080, False), (1280, 800, True)):
        page.set_viewport_size({"width": width, "height": height})
        _sidebar(page, files)
        settle(page)
        panel = root.locator("[data-ugw=panel-odds]")
        if width == 1920:
            fits = panel.evaluate("(p) => p.scrollHeight <= p.clientHeight + 1")
            assert fits, "the Odds panel scrolls at 1920x1080"
            view = in_view(root, "[data-ugw=odds] figure")
            assert all(b["inside"] for b in view["[data-ugw=odds] figure"]), view
        for k in range(odds.locator("figure").count()):
            fig = odds.locator("figure").nth(k)
            fig.evaluate("(f) => f.scrollIntoView({ block: 'nearest' })")
            box, pbox = fig.bounding_box(), panel.bounding_box()
            assert box and pbox and box["y"] >= pbox["y"] - 1 and \
                box["y"] + box["height"] <= pbox["y"] + pbox["height"] + 1, (width, k, box, pbox)
            assert box["y"] + box["height"] <= height, (width, k, box)
        assert chart_text_cut(root) == [], chart_text_cut(root)
    over = _root(page, 1)
    over.locator("[data-ugw=worth-chart]").wait_for(state="visible")
    assert chart_text_cut(over) == []
    # Save picture: the board (with its heat layer) and each chart, as SVG and PNG
    page.set_viewport_size({"width": 1920, "height": 1080})
    _sidebar(page, False)
    root.scroll_into_view_if_needed()
    odds.locator("[data-ugw=save-picture]").click()
    page.wait_for_selector("[data-ugw=picture-convergence-png]")
    names = root.evaluate("(r) => [...r.querySelectorAll('[data-ugw=pictures] a')]"
                          ".map((a) => a.getAttribute('download'))")
    assert names == ["board.svg", "board.png", "dice.svg", "dice.png", "convergence.svg",
                     "convergence.png", "jail.svg", "jail.png"], names
    for key in ("board", "dice", "convergence", "jail"):
        href = root.locator(f"[data-ugw=picture-{key}-svg]").get_attribute("href") or ""
        parsed = page.evaluate((PROBES / "parse_svg_link.js").read_text(encoding="utf-8"), href)
        assert parsed["root"] == "svg" and not parsed["error"], (key, parsed)
        if key == "board":
            assert parsed["heat"] >= 39 and "3.2%" in parsed["text"], parsed
        png = root.locator(f"[data-ugw=picture-{key}-png]").get_attribute("href") or ""
        assert png.startswith("data:image/png;base64,")
        w_px, h_px = _png_size(base64.b64decode(png.split(",", 1)[1]))
        assert w_px >= 400 and h_px >= 200, (key, w_px, h_px)
    with page.expect_download() as download:
        root.locator("[data-ugw=picture-board-png]").click()
    path = download.value.path()
    assert download.value.suggested_filename == "board.png"
    assert _png_size(Path(path).read_bytes())[0] >= 1000
    with capsys.disabled():
        print(f"\n[roll once] {len(arrows)} arrows, landed on {landed}")


AXE_CELLS = [
    SETUP,
    'w_play = UgentopolyWidget("ugentopoly", players=["Ann", "Bob"], seed=3, turn_pause=0)\n'
    'w_play.play_bots(6, everyone="heuristic")\nw_play.show_probability("exact")\nw_play',
    "w_auc, g_auc = fresh(seed=1, players=('Ann', 'Bob'))\n"
    "g_auc.testing.script_dice((1, 2))\nw_auc.roll()\nw_auc.decline()\nw_auc",
    'w_odds = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=2, turn_pause=0)\n'
    'w_odds.play_bots(30, everyone="heuristic")\nw_odds.show_probability("next")\n'
    "w_odds.show_dice_stats(True)\nw_odds.presentation = True\nw_odds",
]


def test_axe_sees_visible_text_in_a_plain_copy_light_and_dark(
    open_notebook: OpenNotebook, kernel: Kernel, capsys: pytest.CaptureFixture[str]
) -> None:
    page = open_notebook(AXE_CELLS, "axe_copy.ipynb")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    roots = [_root(page, k) for k in range(3)]
    roots[2].locator("[data-ugw=tab-odds]").click()
    settle(page)
    found: dict[str, Any] = {}
    checked = []
    for theme in ("light", "dark"):
        set_theme(page, theme)
        for lang in ("en", "nl"):
            kernel.run(f"for x in (w_play, w_auc, w_odds): x.lang = '{lang}'")
            page.wait_for_function("(l) => [...document.querySelectorAll('[data-ugw=root]')]"
                                   ".every((r) => r.lang === l)", arg=lang)
            settle(page)  # buttons armed
            for name, root in zip(("play", "auction", "odds+presentation"), roots, strict=True):
                root.scroll_into_view_if_needed()
                res = axe_on_copy(page, root)
                # the harness sees the language button's visible text (inside JupyterLab axe
                # sees none, and its text and contrast rules check nothing)
                assert res["seen"] == ("NL" if lang == "en" else "EN"), res["seen"]
                assert res["checked"] >= 20, (
                    f"{name} {theme} {lang}: contrast checked on {res['checked']}, "
                    f"{res['unsure']} unsure: {res['why'][:3]}")
                checked.append(res["checked"])
                found[f"{name}/{theme}/{lang}"] = res["violations"]
    set_theme(page, "light")
    bad = {k: v for k, v in found.items() if v}
    assert not bad, bad
    with capsys.disabled():
        print(f"\n[axe copy] {len(found)} runs, contrast checked on {min(checked)}.."
              f"{max(checked)} elements each, no critical or serious violation")
