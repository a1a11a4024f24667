"""Issue 9, findings 2, 6, 7, 11 and 12 (keyboard, focus, dd): the lobby starts play in one
click and forgets the last game; errors in plain words, in place, the trade dialog keeping its
choices; Undo disabled when nothing can be undone; whole turns and a trade by keyboard alone with
visible focus; a click anywhere in the widget then `d d` deletes no cell; after a kernel restart
the widget says so instead of looking alive."""

from __future__ import annotations

from playwright.sync_api import Page

from .board_checks import shot
from .conftest import Kernel, OpenNotebook
from .test_widget_browser import (
    IMPORTS,
    assert_page_matches_kernel,
    kernel_snapshot,
    notebook_shape,
    page_seq,
    root_of,
    wait_armed,
    wait_seq_change,
)

JS_ACTIVE = (
    "() => { const a = document.activeElement;"
    " return a ? (a.dataset.ugwAction || a.dataset.ugw || a.tagName) : null; }"
)

# The focus ring of the focused element: style, width, colour and the colour behind it.
JS_FOCUS_RING = """
() => {
  const a = document.activeElement;
  const cs = getComputedStyle(a);
  return { style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), colour: cs.outlineColor,
           background: cs.backgroundColor, what: a.dataset.ugwAction || a.dataset.ugw };
}
"""


def tab_to(page: Page, target: str, limit: int = 30) -> int:
    """Press Tab until the focused element's hook (data-ugw-action or data-ugw) is `target`."""
    for n in range(limit):
        if page.evaluate(JS_ACTIVE) == target:
            return n
        page.keyboard.press("Tab")
    raise AssertionError(
        f"Tab did not reach {target!r} in {limit} presses (at {page.evaluate(JS_ACTIVE)})"
    )


def test_keyboard_turn_and_trade_plain_errors_undo(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(
        [
            IMPORTS,
            'w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1, turn_pause=0)\nw',
            "w.game.testing.script_dice((1, 2))\nw.refresh()",
        ],
        "keyboard_trade.ipynb",
    )
    root = root_of(page)
    shape = notebook_shape(page)
    snap = kernel_snapshot(kernel)
    me, other = snap["decision"][1], 1 - snap["decision"][1]
    undo = root.locator("[data-ugw=undo]")
    assert undo.is_disabled(), "Undo is enabled although nothing can be undone"

    # A click on plain text (the board's title), then d d: no cell is deleted.
    root.locator("[data-ugw=board-title]").click()
    page.keyboard.press("d")
    page.keyboard.press("d")
    root.locator("[data-ugw=status]").click(position={"x": 5, "y": 5})
    page.keyboard.press("d")
    page.keyboard.press("d")
    assert notebook_shape(page) == shape, "d d after a click in the widget changed the notebook"

    # Keyboard only from here: roll, buy.
    root.locator("[data-ugw=title]").click()
    tab_to(page, "roll")
    ring = page.evaluate(JS_FOCUS_RING)
    shot(root, "keyboard-focus-roll")
    assert (
        ring["style"] == "solid" and ring["width"] >= 2 and ring["colour"] != ring["background"]
    ), ring
    wait_armed(page, "button[data-ugw-action=roll]")
    old = page_seq(page)
    page.keyboard.press("Enter")
    wait_seq_change(page, old)
    assert kernel_snapshot(kernel)["decision"] == ["buy", me]
    assert page.evaluate(JS_ACTIVE) == "buy", "focus is not on the decision's first button"
    wait_armed(page, "button[data-ugw-action=buy]")
    old = page_seq(page)
    page.keyboard.press("Enter")
    wait_seq_change(page, old)
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["owner"][3] == me and snap["decision"] == ["post_roll", me]
    page.wait_for_function(
        "() => !document.querySelector('[data-ugw=root] [data-ugw=undo]').disabled"
    )

    # Trade by keyboard; the first offer asks too much: a plain error in the dialog, which
    # keeps its choices.
    tab_to(page, "trade")
    page.keyboard.press("Enter")
    dialog = root.locator("[data-ugw=trade-dialog]")
    dialog.wait_for(state="visible")
    assert dialog.get_attribute("aria-labelledby")
    assert page.evaluate(JS_ACTIVE) == "trade-partner"
    tab_to(page, "trade-give-prop-3")
    page.keyboard.press("Space")
    tab_to(page, "trade-get-cash")
    page.keyboard.press("Control+a")
    page.keyboard.type("99999")
    tab_to(page, "trade-send")
    page.keyboard.press("Enter")
    error = dialog.locator("[data-ugw=trade-error]")
    error.wait_for(state="visible")
    other_name = kernel_snapshot(kernel)["names"][other]
    assert error.inner_text().strip() == f"{other_name} has only 1500 in cash.", error.inner_text()
    assert "refused" not in error.inner_text() and "legal now" not in error.inner_text()
    assert dialog.is_visible()
    assert dialog.locator("[data-ugw=trade-give-prop-3]").is_checked()
    assert dialog.locator("[data-ugw=trade-get-cash]").input_value() == "99999"
    shot(root, "trade-error-in-place")
    # ... and in Dutch
    kernel.run("w.lang = 'nl'")
    page.wait_for_function("() => document.querySelector('[data-ugw=root]').lang === 'nl'")
    tab_to(page, "trade-send")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => (document.querySelector('[data-ugw=trade-error]') || {}).textContent"
        " && document.querySelector('[data-ugw=trade-error]').textContent.includes('heeft maar')"
    )
    kernel.run("w.lang = 'en'")
    # fix the amount and send
    root.locator("[data-ugw=trade-get-cash]").focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("100")
    tab_to(page, "trade-send")
    old = page_seq(page)
    page.keyboard.press("Enter")
    wait_seq_change(page, old)
    snap = kernel_snapshot(kernel)
    assert snap["decision"] == ["trade", other], snap
    dialog.wait_for(state="hidden")
    assert page.evaluate(JS_ACTIVE) == "accept", "focus did not return to the decision"
    wait_armed(page, "button[data-ugw-action=accept]")
    old = page_seq(page)
    page.keyboard.press("Enter")
    wait_seq_change(page, old)
    snap = assert_page_matches_kernel(page, kernel)
    assert snap["owner"][3] == other
    assert notebook_shape(page) == shape


def test_lobby_starts_play_in_one_click_and_forgets_the_last_game(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(
        [
            IMPORTS,
            'w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1,\n'
            '                     seats=["person", "heuristic"], turn_pause=0)\nw',
        ],
        "lobby_again.ipynb",
    )
    root = root_of(page)
    root.locator("[data-ugw=new-game]").click()
    lobby = root.locator("[data-ugw=lobby]")
    lobby.wait_for(state="visible")
    # The old game's controls are gone from the header; one hook per thing.
    assert root.locator("[data-ugw=undo]").is_hidden()
    assert root.locator("[data-ugw=bot-controls]").is_hidden()
    assert root.locator("[data-ugw=title]").inner_text().strip() == "Ugentopoly"
    assert lobby.locator("[data-ugw=board]").count() == 0
    assert lobby.locator("[data-ugw=board-file]").count() == 1
    legends = [x.strip() for x in lobby.locator("legend").all_inner_texts()]
    labels = [x.strip() for x in lobby.locator(".ugw-field > span").all_inner_texts()]
    assert not set(legends) & set(labels), (legends, labels)
    assert lobby.locator("[data-ugw=seed]").input_value() == ""
    lobby.locator("[data-ugw=seed]").fill("7")
    for k in range(2):
        lobby.locator(f"[data-ugw=player-seat-{k}]").select_option("person")
    lobby.locator("[data-ugw=start]").click()  # once
    # (waits for what a person sees, not looks at a moment: under load the board, the lobby
    # going and the decision's buttons may be drawn in separate frames)
    root.locator("div[data-ugw=board]").wait_for(state="visible")
    lobby.wait_for(state="hidden")
    root.locator("[data-ugw=actions] button[data-ugw-action=roll]").wait_for(state="visible")
    assert kernel.eval("w.game.seed") == "7"
    assert kernel.eval("len(w.game.actions)") == "0"
    # The next lobby starts fresh: no seed carried over.
    root.locator("[data-ugw=new-game]").click()
    lobby.wait_for(state="visible")
    assert lobby.locator("[data-ugw=seed]").input_value() == ""
    root.locator("[data-ugw=back]").click()
    lobby.wait_for(state="hidden")


def test_lobby_start_wins_over_the_old_games_bots_moving_meanwhile(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    """The old game goes on while the lobby is open (its bots move, or code plays it): the
    lobby stays up, and its Start, made for a state the game has left, starts the new game
    (a fresh-clone run under load once showed the old game instead, its setup refused)."""
    page = open_notebook(
        [
            IMPORTS,
            'w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1, turn_pause=0)\nw',
        ],
        "lobby_race.ipynb",
    )
    root = root_of(page)
    root.locator("[data-ugw=actions] button[data-ugw-action=roll]").wait_for(state="visible")
    root.locator("[data-ugw=new-game]").click()
    lobby = root.locator("[data-ugw=lobby]")
    lobby.wait_for(state="visible")
    seq = int(kernel.eval("w.state['seq']"))
    lobby.locator("[data-ugw=seed]").fill("7")
    # the old game moves on (what its bot does) while the form is filled in
    kernel.run("w.roll()")
    root.locator(f"[data-ugw=root][data-seq='{seq}']").wait_for(state="detached")
    assert lobby.is_visible(), "a state of the old game took the lobby down"
    assert lobby.locator("[data-ugw=seed]").input_value() == "7"
    for k in range(2):
        lobby.locator(f"[data-ugw=player-seat-{k}]").select_option("person")
    # ... and again between Start's click and its answer: the old game's state reaches the
    # view first; it must not take the lobby down (the view would show the old game)
    kernel.run(
        "_setup = w._request_setup\n"
        "def _late(content):\n"
        "    w.game.apply(w.game.legal_actions()[0])\n"
        "    _setup(content)\n"
        "w._request_setup = _late"
    )
    page.evaluate(
        """() => {
      const root = document.querySelector('[data-ugw=root]');
      const lobby = root.querySelector('[data-ugw=lobby]');
      window.__ugwLobbyLeftAt = [];
      const left = () => { if (lobby.hidden) window.__ugwLobbyLeftAt.push(root.dataset.seq); };
      new MutationObserver(left).observe(lobby, { attributes: true, attributeFilter: ['hidden'] });
    }"""
    )
    lobby.locator("[data-ugw=start]").click()
    lobby.wait_for(state="hidden")
    root.locator("[data-ugw=actions] button[data-ugw-action=roll]").wait_for(state="visible")
    assert kernel.eval("w.game.seed") == "7"
    assert kernel.eval("len(w.game.actions)") == "0"
    assert kernel.eval("w.error") == "{}"
    start = int(kernel.eval("w.state['game_start']"))
    left_at = page.evaluate("() => window.__ugwLobbyLeftAt")
    assert left_at and all(int(s) >= start for s in left_at), (left_at, start)


def test_kernel_restart_shows_run_the_cell_again(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(
        [
            IMPORTS,
            'w = UgentopolyWidget("ugentopoly", players=["Ann", "Bob"], seed=1, turn_pause=0)\nw',
            'lobby = UgentopolyWidget.open_lobby("classic")\nlobby',
        ],
        "restart.ipynb",
    )
    roots = page.locator("[data-ugw=root]")
    roots.nth(1).wait_for(state="visible")
    overlay = page.locator("[data-ugw=disconnected]")
    assert overlay.count() == 2 and not overlay.first.is_visible()
    page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart()"
    )
    for k in range(2):
        overlay.nth(k).wait_for(state="visible")
        assert "run the cell again" in overlay.nth(k).inner_text().lower()
    shot(roots.first, "kernel-restart")
