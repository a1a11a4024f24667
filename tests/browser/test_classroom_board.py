"""Issue 20 in a real browser, the board: type that grows with the board and presentation mode
(1); a heat map whose street range shows, bands kept, owners muted (2); money badges clear of
the title and chips, a batch in one line, and a student laptop (1280x800, file browser open)
with the decision, everyone's cash and the side panel in view (3, 4). At 600, 900, 1280 (file
browser open) and 1920 px, light and dark, en and nl. Screenshots of every profile at
1920x1080 go to test-artifacts/screens/ (docs/ takes them from there)."""

from __future__ import annotations

import json

import pytest

from .board_checks import PROBES, set_theme, settle, shot, tile_text
from .classroom_checks import JS_FLOATS, floats, heat_tiles, in_view, luminance, type_sizes
from .conftest import Kernel, OpenNotebook
from .test_board_layout import _sidebar
from .test_widget_browser import IMPORTS, root_of, wait_armed

# (width, height, file browser open)
SIZES = [(600, 900, False), (900, 900, False), (1280, 800, True), (1920, 1080, False)]
GROW = 0.75  # type grows at least 3/4 as fast as the board (proportional: 1)


# Wait for the money badges, hold their animations where they are fully up, then measure them
# with PROBE (classroom_checks.JS_FLOATS) in the same task: the badge is removed by a timer.
JS_FLOATS_UP = """(root) => new Promise((resolve) => {
  const probe = PROBE;
  const look = () => {
    const badges = [...root.querySelectorAll('[data-ugw^=money-float-]')];
    if (!badges.length) { requestAnimationFrame(look); return; }
    for (const b of badges) for (const a of b.getAnimations()) {
      const t = a.effect.getTiming();
      a.pause();
      a.currentTime = (t.delay || 0) + 0.5 * t.duration;  // 12 % to 85 %: fully up
    }
    resolve(probe(root));
  };
  look();
})"""


def _lang(page, kernel: Kernel, lang: str) -> None:  # type: ignore[no-untyped-def]
    kernel.run(f"w.lang = '{lang}'")
    page.wait_for_function("(l) => document.querySelector('[data-ugw=root]').lang === l", arg=lang)


def _size(page, width: int, height: int, files: bool) -> None:  # type: ignore[no-untyped-def]
    page.set_viewport_size({"width": width, "height": height})
    _sidebar(page, files)
    settle(page)  # layout, then the name fitting frame
    page.evaluate("() => document.querySelector('[data-ugw=root]')"
                  ".scrollIntoView({ block: 'start' })")


def test_type_grows_with_the_board_and_presentation_mode(
    open_notebook: OpenNotebook, kernel: Kernel, capsys: pytest.CaptureFixture[str]
) -> None:
    page = open_notebook(
        [IMPORTS,
         'w = UgentopolyWidget("classic", board="bundled:classic-standard-decks",\n'
         '                     players=["Ann", "Bob", "Cleo"], seed=5, turn_pause=0)\n'
         'w.play_bots(12, everyone="heuristic")\n'
         'w.show_probability("exact")\nw'],
        "type_scale.ipynb",
    )
    root = root_of(page)
    report = []
    for theme in ("light", "dark"):
        set_theme(page, theme)
        for lang in ("en", "nl"):
            _lang(page, kernel, lang)
            rows = []
            for width, height, files in SIZES:
                _size(page, width, height, files)
                m = type_sizes(root)
                rows.append(m)
                where = f"{width}px {theme} {lang}"
                # names about 1.5 % of the board's side (never under the floor of 8-10 px)
                assert m["names"] >= max(8.0, 0.013 * m["side"]), f"{where}: {m}"
                title = root.locator("[data-ugw=board-title]")
                lines = title.evaluate("(e) => e.getBoundingClientRect().height"
                                       " / parseFloat(getComputedStyle(e).lineHeight)")
                assert lines <= 2.2, f"{where}: the long title takes {lines:.1f} lines"
            small, big = rows[0], rows[-1]
            board = big["side"] / small["side"]
            assert board > 1.3, (small["side"], big["side"])
            # free to grow from the smallest board: in proportion (3/4 of it at least)
            for key in ("names",):
                grow = big[key] / small[key]
                assert grow >= 1 + GROW * (board - 1), (
                    f"{theme} {lang}: {key} grew {grow:.2f}x while the board grew {board:.2f}x "
                    f"({small[key]} -> {big[key]} px)")
            # held at today's floor on small boards: they grow past it, to their share
            for key, share in (("labels", 0.0135), ("legend", 0.016), ("side_panel", 0.017),
                               ("decision", 0.017), ("tokens", 0.02)):
                assert big[key] >= 1.15 * small[key] and big[key] >= share * big["side"], (
                    f"{theme} {lang}: {key} {small[key]} -> {big[key]} px on boards "
                    f"{small['side']:.0f} -> {big['side']:.0f}")
            report.append(f"{theme}/{lang}: " + ", ".join(
                f"{r['side']:.0f}px board: names {r['names']:.1f} labels {r['labels']:.1f} "
                f"legend {r['legend']:.1f}" for r in rows))
    # presentation mode at 1920x1080: a larger board, the decision and legend in the side
    # panel in large type, everything in view; the view's button switches it
    set_theme(page, "light")
    _lang(page, kernel, "en")
    _size(page, 1920, 1080, False)
    normal = type_sizes(root)
    root.locator("[data-ugw=present]").click()
    assert kernel.wait_for("w.presentation", "True") == "True"
    page.wait_for_function("() => document.querySelector('[data-ugw=root]')"
                           ".classList.contains('ugw-present')")
    settle(page)
    big = type_sizes(root)
    assert big["side"] > normal["side"] * 1.04, (normal["side"], big["side"])
    assert big["decision"] >= 1.3 * normal["decision"], (normal["decision"], big["decision"])
    dock = root.locator("[data-ugw=dock]")
    assert dock.locator("[data-ugw=actions] button").count() >= 1
    assert dock.locator("[data-ugw=heat-legend]").is_visible()
    view = in_view(root, "[data-ugw=dock] [data-ugw=actions] button", "div[data-ugw=board]",
                   "[data-ugw^=strip-cash-]")
    for sel, boxes in view.items():
        assert boxes and all(b["inside"] for b in boxes), f"presentation: {sel} {boxes}"
    shot(page, "classroom-presentation-1920")
    root.locator("[data-ugw=present]").click()
    assert kernel.wait_for("w.presentation", "False") == "False"
    with capsys.disabled():
        print("\n[type] " + "\n[type] ".join(report[:2]))


def test_profiles_at_1920_screenshots_and_cell22_houses(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(
        [IMPORTS,
         'w = UgentopolyWidget("ugentopoly", players=["Ann", "Bob", "Cleo"], seed=5,\n'
         '                     turn_pause=0)\n'
         'w.play_bots(20, everyone="heuristic")\nw'],
        "profiles_1920.ipynb",
    )
    root = root_of(page)
    _size(page, 1920, 1080, False)
    for profile in ("ugentopoly", "classic", "cell22"):
        if profile != "ugentopoly":
            kernel.run("from ugentopoly_widget import Game\n"
                       f'w.game = Game("{profile}", players=["Ann", "Bob", "Cleo"], seed=5)\n'
                       'w.play_bots(20, everyone="heuristic")')
            page.wait_for_function("(n) => document.querySelectorAll('[data-ugw-tile]').length"
                                   " === n", arg=22 if profile == "cell22" else 40)
            settle(page)
        root.evaluate("(r) => r.scrollIntoView({ block: 'start' })")
        shot(page, f"classroom-{profile}-1920")
        m = type_sizes(root)
        assert m["names"] >= 0.013 * m["side"], (profile, m)
        text = tile_text(root)  # the larger type still fits every tile, breaks only at hyphens
        assert not text["problems"], (profile, text["problems"])
    # a third (and fourth) house on a 22-cell side tile (the left column) stays inside it:
    # Ann lands on her own street four times and builds (the others play as bots between)
    side = 8
    kernel.run("from ugentopoly_widget.engine.bots import HeuristicBot\n"
               "g = w.game\nbot = HeuristicBot(seed=1)\n"
               f"g.testing.give_property(0, {side})\n"
               "for _ in range(4):\n"
               "    while not (g.decision.player == 0 and g.decision.kind == 'turn'):\n"
               "        g.apply(bot.choose(g))\n"
               f"    g.testing.place(0, {side - 3})\n"
               "    g.testing.script_dice((1, 2))\n"
               "    g.apply('0:roll')\n"
               f"    g.apply('0:build {side}')")
    tile = root.locator(f"[data-ugw-tile='{side}']")
    page.wait_for_function("(p) => document.querySelector(`[data-ugw-tile='${p}']`)"
                           ".dataset.level === '4'", arg=side)
    cut = tile.evaluate((PROBES / "houses_outside.js").read_text(encoding="utf-8"))
    assert tile.locator(".ugw-house").count() == 4 and cut == 0
    assert "ugw-side-left" in (tile.get_attribute("class") or "")


def test_heat_map_range_bands_and_owners_light_and_dark(
    open_notebook: OpenNotebook, kernel: Kernel, capsys: pytest.CaptureFixture[str]
) -> None:
    page = open_notebook(
        [IMPORTS,
         'w = UgentopolyWidget("classic", players=["Ann", "Bob", "Cleo"], seed=3, turn_pause=0)\n'
         'w.play_bots(40, everyone="heuristic")\n'
         'w.show_probability("exact")\nw'],
        "heat_lesson.ipynb",
    )
    root = root_of(page)
    spans = []
    heat = json.loads(kernel.eval("json.dumps(w.heat)"))
    for theme in ("light", "dark"):
        set_theme(page, theme)
        for lang in ("en", "nl"):
            _lang(page, kernel, lang)
            for width, height, files in (SIZES[1], SIZES[3]):
                _size(page, width, height, files)
                tiles = heat_tiles(root)
                where = f"{width}px {theme} {lang}"
                lum = [luminance(t["fill"]) for t in tiles]
                spans.append(max(lum) - min(lum))
                assert max(lum) - min(lum) >= 0.3, f"{where}: street fills span {spans[-1]:.2f}"
                lost = [t["pos"] for t in tiles if not t["bandOnTop"] or t["overlap"] > 1
                        or t["bandArea"] < 20]
                assert not lost, f"{where}: colour bands covered or swallowed: " + str(
                    [t for t in tiles if t["pos"] in lost][:3])
                owned = [t for t in tiles if t["ownerOpacity"] < 1]
                assert owned and all(t["ownerOpacity"] <= 0.5 for t in owned), where
                # names in the ink Python chose for each fill
                for t in tiles:
                    ink = heat["inks"][t["pos"]]
                    assert t["ink"] == ("rgb(0, 0, 0)" if ink == "#000000" else
                                        "rgb(255, 255, 255)"), (where, t)
                legend = root.locator("[data-ugw=heat-legend]")
                low = f"{100 * heat['min']:.1f}"
                assert legend.locator("[data-ugw=heat-min]").inner_text() == low
                assert legend.locator("[data-ugw=heat-max]").inner_text() == \
                    f"{100 * heat['max']:.1f}"
                unit = legend.locator("[data-ugw=heat-unit]").inner_text()
                assert unit == ("% of rolls" if lang == "en" else "% van de worpen")
                hot = legend.locator("[data-ugw=heat-note-hot]").inner_text()
                assert hot.startswith("▲ Illinois Avenue 3.2%") and (
                    "Chance card" in hot if lang == "en" else "Kans-kaart" in hot), hot
                assert "Go To Jail" in legend.locator("[data-ugw=heat-note-cold]").inner_text() \
                    or lang == "nl"
                jail = root.locator("[data-ugw-tile='10'] [data-ugw=heat-cell]")
                words = jail.inner_text()
                assert ("visit" in words and "in jail" in words) if lang == "en" else \
                    ("bezoek" in words and "in de cel" in words), words
            if lang == "en":
                shot(page, f"classroom-heat-{theme}")
    # per turn, from the view: the figures and the legend's unit follow
    set_theme(page, "light")
    _lang(page, kernel, "en")
    root.locator("[data-ugw=tab-odds]").click()
    root.locator("[data-ugw=per-turn]").click()
    assert kernel.wait_for("w.heat['per']", "turn") == "turn"
    page.wait_for_function("() => document.querySelector('[data-ugw=heat-unit]').textContent"
                           " === '% of turns'")
    assert root.locator("[data-ugw=heat-title]").inner_text().endswith("per turn")
    root.locator("[data-ugw=heat-mode-difference]").click()
    root.locator("[data-ugw=board][data-heat-mode=difference]").wait_for(state="attached")
    assert "percentage points" in root.locator("[data-ugw=odds-help]").inner_text()
    # the next roll: its start marked (the current player's tile)
    root.locator("[data-ugw=heat-mode-next]").click()
    root.locator("[data-ugw=board][data-heat-mode=next]").wait_for(state="attached")
    here = kernel.eval("w.game.players[w.game.current_player].position")
    root.locator(f"[data-ugw-tile='{here}'].ugw-heat-start").wait_for(state="attached")
    assert root.locator(".ugw-heat-start").count() == 1
    with capsys.disabled():
        print(f"\n[heat] street luminance span {min(spans):.2f}..{max(spans):.2f}")


def test_laptop_money_badges_and_a_batch_in_one_line(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(
        [IMPORTS,
         'w = UgentopolyWidget("classic", players=["Ann", "Bob", "Cleo", "Dirk"], seed=7,\n'
         '                     turn_pause=0)\n'
         'g = w.game\n'
         'p = g.decision.player\nq = (p + 1) % 4\n'
         'for pos in (1, 3): g.testing.give_property(q, pos)\n'
         'g.testing.script_dice((1, 2))  # p -> Baltic: rent to q (the whole brown group)\n'
         'w.refresh()\nw'],
        "laptop.ipynb",
    )
    root = root_of(page)
    for theme in ("light", "dark"):
        set_theme(page, theme)
        for lang in ("en", "nl"):
            _lang(page, kernel, lang)
            _size(page, 1280, 800, True)
            view = in_view(root, "[data-ugw=actions] button", "[data-ugw^=strip-cash-]",
                           "[data-ugw=side-tabs]")
            where = f"1280x800 +files {theme} {lang}"
            assert view["[data-ugw=actions] button"], where
            for sel in ("[data-ugw=actions] button", "[data-ugw^=strip-cash-]"):
                out = [b for b in view[sel] if not b["inside"]]
                assert not out, f"{where}: {sel} out of view {out}"
            assert len(view["[data-ugw^=strip-cash-]"]) == 4
            # the side panel (players' cash, log, odds) beside the board, in view
            tabs = view["[data-ugw=side-tabs]"][0]
            assert tabs["inside"] or tabs["visible"] >= 250, (where, tabs)
            panel = root.locator("[data-ugw=side-tabs]").bounding_box()
            board = root.locator("div[data-ugw=board]").bounding_box()
            assert panel and board and panel["x"] >= board["x"] + board["width"], \
                f"{where}: the side panel is not beside the board"
    shot(page, "classroom-laptop-1280")
    # a person's rent: one badge per player, beside their cash, clear of the title and chips
    set_theme(page, "light")
    _lang(page, kernel, "en")
    payer, owner = int(kernel.eval("p")), int(kernel.eval("q"))
    wait_armed(page, "button[data-ugw-action=roll]")
    root.locator("button[data-ugw-action=roll]").click()
    # the badges as they stand once up (their animation held there: however slow the machine)
    seen = root.evaluate(JS_FLOATS_UP.replace("PROBE", JS_FLOATS))
    assert {f["who"] for f in seen} == {f"money-float-{payer}", f"money-float-{owner}"}, seen
    assert all(not f["title"] and not f["chips"] for f in seen), seen
    # a long batch: no badges, one summary line
    kernel.run('w.play_bots(150, everyone="heuristic")')
    assert kernel.eval("w.game.is_over") == "False"
    page.wait_for_function("() => document.querySelector('[data-ugw=narration]')"
                           ".textContent.startsWith('Bots played')")
    assert floats(root) == []
    line = root.locator("[data-ugw=narration]")
    batch = json.loads(kernel.eval("json.dumps(w.state['last']['batch'])"))
    text = line.text_content() or ""
    assert text.startswith(f"Bots played {batch['to'] - batch['from']} turns"), text
    height = line.evaluate("(e) => e.getBoundingClientRect().height"
                           " / parseFloat(getComputedStyle(e).lineHeight)")
    assert height <= 1.3, f"the batch narration takes {height:.1f} lines: {text}"
    assert root.locator("[data-ugw=drawn-card]").is_hidden()
    # fast bots: no badges (none appears while they play: watched, not sampled after a pause)
    root.evaluate("(r) => { window.__ugwFloats = 0; new MutationObserver((ms) => {"
                  " for (const m of ms) for (const n of m.addedNodes)"
                  " if (n.nodeType === 1 && n.matches('[data-ugw^=money-float-]'))"
                  " window.__ugwFloats += 1; }).observe(r, { childList: true, subtree: true });"
                  " }")
    turn = int(kernel.eval("w.game.turn_number"))
    kernel.run("w.seats = ['heuristic'] * 4\nw.bot_delay = 0.2\nw.play_bots(3, animate=True)")
    assert kernel.wait_for(f"w.game.turn_number >= {turn + 3}", "True", timeout=120) == "True"
    settle(page)
    assert floats(root) == [] and page.evaluate("() => window.__ugwFloats") == 0
    kernel.run("w.paused = True")
