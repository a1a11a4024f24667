"""The widget in real JupyterLab + chromium: set up and play games by clicking and typing.

Each test writes its own notebook, runs it, drives the widget through its ``data-ugw*`` hooks
(js/README.md) and checks the page against the Python game in the kernel. Dice are scripted from
the kernel (``w.game.testing.script_dice``) wherever a test needs a known outcome.

Screenshots of every profile at 600 and 1400 px in the light and dark themes are always written
to ``test-artifacts/screens/`` (look at them); failures also get the harness's artifacts.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from .board_checks import settle
from .conftest import ARTIFACTS, Kernel, OpenNotebook

SCREENS = ARTIFACTS / "screens"
ROOT = "[data-ugw=root]"

IMPORTS = """\
import json
from ugentopoly_widget import UgentopolyWidget


def ugw_snapshot(w):
    g = w.game
    return json.dumps({
        "seq": w.state["seq"],
        "cash": [p.cash for p in g.players],
        "pos": [p.position for p in g.players],
        "owner": [g.owner(i) for i in range(g.board.size)],
        "names": [p.name for p in g.players],
        "tokens": [p.token for p in g.players],
        "decision": [g.decision.kind, g.decision.player],
    })"""

# Everything the page shows that a test compares with the kernel.
_JS_PAGE_STATE = """
() => {
  const root = document.querySelector('[data-ugw=root]');
  const cash = [];
  for (const el of root.querySelectorAll('[data-ugw^="cash-"]')) {
    const i = Number(el.dataset.ugw.slice(5));
    cash[i] = Number(el.textContent.replace(/[^0-9-]/g, ''));
  }
  const owner = [...root.querySelectorAll('[data-ugw-tile]')].map(
    (t) => (t.dataset.owner ? Number(t.dataset.owner) : null));
  const pos = [];
  for (const tok of root.querySelectorAll('[data-ugw-token]')) {
    pos[Number(tok.dataset.ugwToken)] = Number(tok.closest('[data-ugw-tile]').dataset.ugwTile);
  }
  const names = [...root.querySelectorAll('[data-ugw^="status-player-"] .ugw-chip-name')].map(
    (c) => c.textContent.trim());  // chip: token picture + name
  const tokenTitles = [...root.querySelectorAll('[data-ugw-token]')].map((t) => t.title);
  const decision = root.querySelector('[data-ugw=decision]');
  return { seq: Number(root.dataset.seq), phase: root.dataset.phase, cash, owner, pos, names,
           tokenTitles, kind: decision ? decision.dataset.kind : null };
}
"""

# Timing of one click: from the click event to the new data-seq on the root (the board and
# panels are redrawn synchronously before data-seq is set), and to the first task after the
# next animation frame (the redrawn board painted).
_JS_ARM_TIMER = """
() => {
  const root = document.querySelector('[data-ugw=root]');
  const rec = { click: null, seq: null, frame: null, seq0: root.dataset.seq };
  const onClick = (ev) => { if (rec.click === null) rec.click = ev.timeStamp; };
  root.addEventListener('click', onClick, true);
  const obs = new MutationObserver(() => {
    if (rec.seq !== null || root.dataset.seq === rec.seq0) return;
    rec.seq = performance.now();
    requestAnimationFrame(() => setTimeout(() => { rec.frame = performance.now(); }, 0));
    obs.disconnect();
    root.removeEventListener('click', onClick, true);
  });
  obs.observe(root, { attributes: true, attributeFilter: ['data-seq'] });
  window.__ugwTimer = rec;
}
"""

_JS_NOTEBOOK_SHAPE = """
() => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  return { n: nb.widgets.length, types: nb.widgets.map((c) => c.model.type),
           counts: nb.widgets.map((c) => c.model.executionCount ?? null) };
}
"""


# --------------------------------------------------------------------------- helpers
def shot(target: Page | Locator, name: str) -> Path:
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    target.screenshot(path=str(path))
    return path


def root_of(page: Page) -> Locator:
    loc = page.locator(ROOT).first
    loc.wait_for(state="visible", timeout=30_000)
    return loc


def page_seq(page: Page) -> int:
    return int(page.locator(ROOT).first.get_attribute("data-seq") or "0")


def kernel_snapshot(kernel: Kernel, widget: str = "w") -> dict[str, Any]:
    return dict(json.loads(kernel.eval(f"ugw_snapshot({widget})")))


def page_state(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(_JS_PAGE_STATE))


def wait_seq_change(page: Page, old: int, timeout: float = 30_000) -> int:
    page.wait_for_function(
        "(old) => Number(document.querySelector('[data-ugw=root]').dataset.seq) !== old",
        arg=old, timeout=timeout,
    )
    return page_seq(page)


JS_ARMED = """(sel) => {
  const b = document.querySelector(sel);
  const seen = window.__ugwArmed;
  if (!b || b.hasAttribute('data-arming')) { window.__ugwArmed = null; return false; }
  if (seen && seen.el === b) return ++seen.frames >= 2;
  window.__ugwArmed = { el: b, frames: 0 };
  return false;
}"""


def wait_armed(page: Page, selector: str) -> None:
    """A button that just appeared ignores clicks for ~300 ms (safe clicks): wait it out. The
    arming starts in the frame after the button is drawn, so the button must be seen unarmed
    in three frames in a row (a condition on frames, not a pause: speed does not matter)."""
    page.evaluate("() => { window.__ugwArmed = null; }")
    page.wait_for_function(JS_ARMED, arg=f"{ROOT} {selector}", polling="raf")


def click_and_wait(page: Page, selector: str) -> int:
    """Click a control of the widget and wait until a new state is drawn."""
    old = page_seq(page)
    wait_armed(page, selector)
    page.locator(f"{ROOT} {selector}").first.click()
    return wait_seq_change(page, old)


def timed_click(page: Page, selector: str) -> tuple[float, float]:
    """Click; return (ms to the new data-seq, ms to the painted frame after it)."""
    button = page.locator(f"{ROOT} {selector}").first
    button.wait_for(state="visible")
    wait_armed(page, selector)
    page.evaluate(_JS_ARM_TIMER)
    button.click()
    page.wait_for_function("() => window.__ugwTimer.frame !== null")
    rec = page.evaluate("() => window.__ugwTimer")
    assert rec["click"] is not None, "the click never reached the widget"
    return rec["seq"] - rec["click"], rec["frame"] - rec["click"]


def assert_page_matches_kernel(page: Page, kernel: Kernel) -> dict[str, Any]:
    """The page and the kernel show the same state (same seq, cash, owners, positions)."""
    want = kernel_snapshot(kernel)
    page.wait_for_function(
        "(s) => Number(document.querySelector('[data-ugw=root]').dataset.seq) === s",
        arg=want["seq"],
    )
    got = page_state(page)
    assert got["cash"] == want["cash"], (got, want)
    assert got["owner"] == want["owner"], (got, want)
    assert got["pos"] == want["pos"], (got, want)
    assert got["kind"] == want["decision"][0], (got, want)
    return want


def notebook_shape(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(_JS_NOTEBOOK_SHAPE))


def legal_buttons(page: Page) -> list[str]:
    return list(page.evaluate(
        "() => [...document.querySelectorAll('[data-ugw=actions] button[data-ugw-action]')]"
        ".map((b) => b.dataset.ugwAction)"
    ))


# --------------------------------------------------------------------------- 1. lobby
def test_lobby_by_clicking(open_notebook: OpenNotebook, kernel: Kernel) -> None:
    page = open_notebook([IMPORTS, 'w = UgentopolyWidget.open_lobby("classic")\nw'],
                         "lobby.ipynb")
    root = root_of(page)
    lobby = root.locator("[data-ugw=lobby]")
    lobby.wait_for(state="visible")
    before = notebook_shape(page)

    lobby.locator("[data-ugw=profile]").select_option("ugentopoly")
    lobby.locator("[data-ugw=player-count]").select_option("3")
    names = ["Adam", "Bram", "Dido"]  # typed key by key: a, b, m, d must stay in the widget
    for i, name in enumerate(names):
        field = lobby.locator(f"[data-ugw=player-name-{i}]")
        field.fill("")
        field.press_sequentially(name)
    lobby.locator("[data-ugw=player-token-0]").select_option("ship")
    lobby.locator("[data-ugw=player-token-1]").select_option("ship")  # taken by Adam
    lobby.locator("[data-ugw=player-token-2]").select_option("cat")
    lobby.locator("[data-ugw=player-seat-0]").select_option("person")
    lobby.locator("[data-ugw=player-seat-1]").select_option("person")
    lobby.locator("[data-ugw=player-seat-2]").select_option("heuristic")
    assert notebook_shape(page) == before, "typing names changed the notebook"

    lobby.locator("[data-ugw=start]").click()
    refusal = lobby.locator("[data-ugw=error]")
    refusal.wait_for(state="visible")
    assert "ship" in refusal.inner_text() and "taken" in refusal.inner_text()
    assert kernel.eval("w.has_game") == "False"
    # The form kept what was typed; fix the token and start again.
    assert lobby.locator("[data-ugw=player-name-2]").input_value() == "Dido"
    lobby.locator("[data-ugw=player-token-1]").select_option("dog")
    lobby.locator("[data-ugw=start]").click()
    root.locator("div[data-ugw=board]").wait_for(state="visible")
    assert lobby.is_hidden()

    snap = kernel_snapshot(kernel)
    assert snap["names"] == names
    assert snap["tokens"] == ["ship", "dog", "cat"]
    assert kernel.eval("w.game.rules.name") == "ugentopoly"
    assert kernel.eval("list(w.seats)") == "['person', 'person', 'heuristic']"
    got = page_state(page)
    assert got["names"] == names
    titles = [f"{n} ({tok})" for n, tok in zip(names, snap["tokens"], strict=True)]
    assert got["tokenTitles"] == titles
    assert root.locator("[data-ugw=whose-turn]").inner_text().strip()
    assert root.locator("div[data-ugw=board]").get_attribute("data-size") == "40"
    shot(root, "lobby-ugentopoly-started")


# --------------------------------------------------------------------------- 2. turns + latency
UGENTOPOLY_ROLLS = [(1, 2), (2, 4), (2, 4), (1, 4), (3, 5), (2, 3), (4, 5), (3, 4)]


def test_ugentopoly_turns_by_clicking(
    open_notebook: OpenNotebook, kernel: Kernel, capsys: pytest.CaptureFixture[str]
) -> None:
    page = open_notebook([
        IMPORTS,
        'w = UgentopolyWidget("ugentopoly", players=["Ann", "Bob"], seed=3, turn_pause=0)\nw',
        f"w.game.testing.script_dice(*{UGENTOPOLY_ROLLS!r})\nw.refresh()",
    ], "turns.ipynb")
    root_of(page)
    assert_page_matches_kernel(page, kernel)

    seq_ms: list[float] = []
    frame_ms: list[float] = []
    kinds: list[str] = []
    for _ in range(12):
        buttons = legal_buttons(page)
        assert "end_turn" not in buttons, "Ugentopoly passes the turn by itself"
        action = "buy" if "buy" in buttons else "roll"
        assert action in buttons, buttons
        before = kernel_snapshot(kernel)
        t_seq, t_frame = timed_click(page, f"button[data-ugw-action={action}]")
        seq_ms.append(t_seq)
        frame_ms.append(t_frame)
        kinds.append(action)
        after = assert_page_matches_kernel(page, kernel)
        mover = before["decision"][1]
        if action == "roll":
            assert after["pos"][mover] != before["pos"][mover]
            tile = page.locator(f"{ROOT} [data-ugw-tile='{after['pos'][mover]}']")
            assert tile.locator(f"[data-ugw-token='{mover}']").count() == 1
        else:
            bought = before["pos"][mover]
            assert after["owner"][bought] == mover
            assert after["cash"][mover] < before["cash"][mover]
            tile = page.locator(f"{ROOT} [data-ugw-tile='{bought}']")
            assert tile.get_attribute("data-owner") == str(mover)
            assert "ugw-owned" in (tile.get_attribute("class") or "")
    assert kinds.count("buy") >= 4 and kinds.count("roll") >= 6, kinds
    snap = kernel_snapshot(kernel)
    assert sum(o is not None for o in snap["owner"]) >= 4

    with capsys.disabled():
        print(
            f"\n[latency] {len(seq_ms)} clicks ({kinds.count('roll')} roll, {kinds.count('buy')} "
            f"buy): click->new data-seq median {statistics.median(seq_ms):.1f} ms, "
            f"max {max(seq_ms):.1f} ms; click->painted frame median "
            f"{statistics.median(frame_ms):.1f} ms, max {max(frame_ms):.1f} ms"
        )
    # each click drew its new state, in that order (the speed is reported above, not asserted:
    # a busy machine is slow, not wrong)
    assert all(0 <= s <= f for s, f in zip(seq_ms, frame_ms, strict=True)), (seq_ms, frame_ms)


# --------------------------------------------------------------------------- 3. auction + trade
def test_classic_auction_and_trade_by_clicking(open_notebook: OpenNotebook, kernel: Kernel) -> None:
    page = open_notebook([
        IMPORTS,
        'w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)\nw',
        "w.game.testing.script_dice((1, 2))\nw.refresh()",
    ], "auction_trade.ipynb")
    root = root_of(page)
    roller = kernel_snapshot(kernel)["decision"][1]

    click_and_wait(page, "button[data-ugw-action=roll]")
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["pos"][roller] == 3 and snap["decision"] == ["buy", roller]
    click_and_wait(page, "button[data-ugw-action=decline]")
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["decision"][0] == "auction"
    bidder = snap["decision"][1]
    other = 1 - bidder
    bid = root.locator("[data-ugw=bid-amount]")
    bid.fill("45")
    shot(root, "classic-auction")
    click_and_wait(page, "button[data-ugw-action=bid]")
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["decision"] == ["auction", other]
    click_and_wait(page, "button[data-ugw-action=pass]")
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["owner"][3] == bidder
    assert snap["cash"][bidder] == 1500 - 45
    assert root.locator("[data-ugw-tile='3']").get_attribute("data-owner") == str(bidder)

    # Classic has an explicit end of turn.
    assert snap["decision"] == ["post_roll", roller]
    click_and_wait(page, "button[data-ugw-action=end_turn]")
    snap = assert_page_matches_kernel(page, kernel)
    proposer, partner = snap["decision"][1], 1 - snap["decision"][1]
    assert proposer == bidder  # two players: the auction winner moves next here
    cash0 = snap["cash"]

    # Trade: the auction winner gives the property and asks 100 in cash.
    root.locator("[data-ugw=trade]").click()
    dialog = root.locator("[data-ugw=trade-dialog]")
    dialog.wait_for(state="visible")
    dialog.locator("[data-ugw=trade-partner]").select_option(str(partner))
    dialog.locator("[data-ugw=trade-give-prop-3]").check()
    dialog.locator("[data-ugw=trade-get-cash]").fill("100")
    shot(root, "classic-trade-dialog")
    click_and_wait(page, "[data-ugw=trade-send]")
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["decision"] == ["trade", partner]
    assert dialog.is_hidden()
    shot(root, "classic-trade-offer")
    click_and_wait(page, "button[data-ugw-action=accept]")
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["owner"][3] == partner
    assert snap["cash"][proposer] == cash0[proposer] + 100
    assert snap["cash"][partner] == cash0[partner] - 100
    assert root.locator("[data-ugw-tile='3']").get_attribute("data-owner") == str(partner)


# --------------------------------------------------------------------------- 4. 22 cells
def test_cell22_renders_22_tiles_and_cards(open_notebook: OpenNotebook, kernel: Kernel) -> None:
    page = open_notebook([IMPORTS, 'w = UgentopolyWidget("cell22", players=3, seed=2)\nw'],
                         "cell22.ipynb")
    root = root_of(page)
    board = root.locator("div[data-ugw=board]")
    assert board.get_attribute("data-size") == "22"
    assert root.locator("[data-ugw-tile]").count() == 22
    assert kernel.eval("w.game.board.size") == "22"
    assert_page_matches_kernel(page, kernel)
    # Every tile is inside the board and none overlaps another.
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('[data-ugw-tile]')].map((t) => {"
        " const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"
    )
    for i, a in enumerate(boxes):
        assert a[2] - a[0] > 10 and a[3] - a[1] > 10, (i, a)
        for j, b in enumerate(boxes[:i]):
            overlap = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
            assert overlap[0] <= 1 or overlap[1] <= 1, f"tiles {j} and {i} overlap"

    card = root.locator("[data-ugw=tile-card]")
    root.locator("[data-ugw-tile='5']").click()
    card.wait_for(state="visible")
    assert card.get_attribute("data-pos") == "5"
    name5 = kernel.eval("w.game.board.tile_name(5, 'en')")
    assert name5 in card.inner_text()
    card.locator("[data-ugw=card-close]").click()
    card.wait_for(state="hidden")

    # The board is one tab stop; the arrow keys walk the ring (21 -> 0 wraps around).
    assert root.locator("[data-ugw-tile][tabindex='0']").count() == 1
    root.locator("[data-ugw-tile='15']").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    card.wait_for(state="visible")
    assert card.get_attribute("data-pos") == "16"
    page.keyboard.press("Escape")
    card.wait_for(state="hidden")
    root.locator("[data-ugw-tile='21']").focus()
    page.keyboard.press("ArrowDown")
    assert page.evaluate("() => document.activeElement.dataset.ugwTile") == "0"
    assert root.locator("[data-ugw-tile][tabindex='0']").get_attribute("data-ugw-tile") == "0"
    root.locator("[data-ugw-tile='16']").click()
    card.wait_for(state="visible")
    shot(root, "cell22-tile-card")
    page.keyboard.press("Escape")
    card.wait_for(state="hidden")


# --------------------------------------------------------------------------- 5. keyboard
NOTEBOOK_KEYS = ["a", "b", "m", "y", "d", "d", "x", "c", "v", "z", "Shift+M", "Shift+Enter"]


def test_keyboard_plays_and_keys_stay_in_widget(
    open_notebook: OpenNotebook, kernel: Kernel, capsys: pytest.CaptureFixture[str]
) -> None:
    page = open_notebook([
        IMPORTS,
        'w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)\nw',
        "w.game.testing.script_dice((1, 2))\nw.refresh()",
    ], "keyboard.ipynb")
    root = root_of(page)
    shape = notebook_shape(page)
    roller = kernel_snapshot(kernel)["decision"][1]

    # Tab from the widget's title to the roll button, then Enter.
    root.locator("[data-ugw=title]").click()
    tabs = 0
    is_roll = "() => document.activeElement && document.activeElement.dataset.ugwAction === 'roll'"
    while not page.evaluate(is_roll):
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs < 15, "Tab did not reach the roll button within 15 presses"
    wait_armed(page, "button[data-ugw-action=roll]")
    old = page_seq(page)
    page.keyboard.press("Enter")
    wait_seq_change(page, old)
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["decision"] == ["buy", roller]
    # Focus stays in the action panel (no Tab trip through the board again).
    assert page.evaluate(
        "() => !!document.activeElement.closest('[data-ugw=actions]')"
    ), "focus left the action panel after the roll"

    # Keys that are notebook commands in command mode, typed on the board.
    root.locator("[data-ugw-tile='1']").focus()
    for key in NOTEBOOK_KEYS:
        page.keyboard.press(key)
    assert notebook_shape(page) == shape, "a key typed on the board reached the notebook"
    assert kernel_snapshot(kernel)["decision"] == ["buy", roller]
    page.keyboard.press("Escape")

    # Decline by keyboard; the bid input gets the focus; letters typed there stay there.
    wait_armed(page, "button[data-ugw-action=decline]")
    root.locator("button[data-ugw-action=decline]").focus()
    old = page_seq(page)
    page.keyboard.press("Enter")
    wait_seq_change(page, old)
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["decision"][0] == "auction"
    bidder = snap["decision"][1]
    bid = root.locator("[data-ugw=bid-amount]")
    bid.focus()
    for key in NOTEBOOK_KEYS[:-1]:
        page.keyboard.press(key)
    assert notebook_shape(page) == shape, "a key typed in the bid input reached the notebook"
    bid.fill("")
    bid.press_sequentially("30")
    old = page_seq(page)
    page.keyboard.press("Enter")  # Enter in the bid input submits the bid
    wait_seq_change(page, old)
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["decision"] == ["auction", 1 - bidder]
    wait_armed(page, "button[data-ugw-action=pass]")
    root.locator("button[data-ugw-action=pass]").focus()
    old = page_seq(page)
    page.keyboard.press("Space")
    wait_seq_change(page, old)
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["owner"][3] == bidder and snap["cash"][bidder] == 1470
    assert notebook_shape(page) == shape

    # Control: the same key outside the widget (notebook in command mode) does add a cell,
    # so the checks above could fail.
    page.locator(".jp-Cell .jp-InputPrompt").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.wait_for_function("(n) => window.jupyterapp.shell.currentWidget.content.widgets.length"
                           " === n + 1", arg=shape["n"])
    with capsys.disabled():
        print(f"\n[keyboard] {tabs} Tab presses from the widget title to the roll button")


# --------------------------------------------------------------------------- 6. width + theme
_JS_SET_THEME = """
async (theme) => {
  await window.jupyterapp.commands.execute('apputils:change-theme', { theme });
}
"""

_JS_LAYOUT = """
(root) => {
  const r = root.getBoundingClientRect();
  const out = [];
  for (const el of root.querySelectorAll('*')) {
    if (!el.getClientRects().length) continue;           // hidden
    if (el.closest('.ugw-board')) continue;               // tiles clip their own text
    const b = el.getBoundingClientRect();
    if (b.right > r.right + 2 || b.left < r.left - 2) {
      out.push((el.dataset.ugw || el.className || el.tagName) + ' ' + Math.round(b.left) + '..'
               + Math.round(b.right));
    }
  }
  const vis = (sel) => {
    const el = root.querySelector(sel);
    if (!el) return false;
    const b = el.getBoundingClientRect();
    return b.width > 50 && b.height > 30 && b.left >= r.left - 2 && b.right <= r.right + 2;
  };
  return { width: r.width, scrollWidth: root.scrollWidth, clientWidth: root.clientWidth,
           outside: out.slice(0, 10), board: vis('div[data-ugw=board]'),
           actions: vis('[data-ugw=actions]'), lobby: vis('[data-ugw=lobby]'),
           outputScroll: (() => { const o = root.closest('.jp-OutputArea-output');
             return o ? o.scrollWidth - o.clientWidth : 0; })() };
}
"""

THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}


@pytest.mark.parametrize("profile", ["ugentopoly", "classic", "cell22"])
def test_widths_and_themes_screenshots(
    open_notebook: OpenNotebook, kernel: Kernel, profile: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = open_notebook([
        IMPORTS,
        f'w = UgentopolyWidget("{profile}", players=["Ann", "Bob", "Cleo"], seed=5)\n'
        'w.play_bots(12, everyone="heuristic")\nw',
        f'lobby = UgentopolyWidget.open_lobby("{profile}")\nlobby',
    ], f"screens_{profile}.ipynb")
    roots = page.locator(ROOT)
    roots.nth(1).wait_for(state="visible")
    game, lobby = roots.nth(0), roots.nth(1)
    assert kernel.eval("w.game.decision.kind") != "game_over"
    widths: list[str] = []
    for theme, theme_name in THEMES.items():
        page.evaluate(_JS_SET_THEME, theme_name)
        page.wait_for_function(
            "(light) => document.body.dataset.jpThemeLight === light",
            arg="true" if theme == "light" else "false",
        )
        settle(page)  # theme CSS applied
        for width in (600, 1400):
            # Tall enough that the whole widget is on screen (the notebook scrolls inside).
            page.set_viewport_size({"width": width, "height": 2200})
            settle(page)
            for name, root in (("game", game), ("lobby", lobby)):
                root.scroll_into_view_if_needed()
                layout = root.evaluate(_JS_LAYOUT)
                shot(root, f"{profile}-{name}-{width}-{theme}")
                widths.append(f"{name}@{width}:{layout['width']:.0f}px")
                if width == 600:
                    assert layout["scrollWidth"] <= layout["clientWidth"] + 2, layout
                    assert layout["outputScroll"] <= 2, layout
                    assert not layout["outside"], layout
                    if name == "game":
                        assert layout["board"] and layout["actions"], layout
                    else:
                        assert layout["lobby"], layout
    # The colours follow the theme: the dark screenshots are dark.
    page.evaluate(_JS_SET_THEME, THEMES["light"])
    with capsys.disabled():
        print(f"\n[screens] {profile}: widget widths {sorted(set(widths))}")
