"""Issue 9, findings 3, 5 and 12 (announcements): a turn you can follow and clicks that are safe.

Narration: the dice settle, the token hops tile by tile, the landed tile lights up, money
changes float over the players' cash, a drawn card lies face up in the centre, and a turn that
ended by itself lingers (turn_pause) before the next player's buttons appear; dice, moves and
money are announced (aria-live) in the current language; reduced motion turns the animation off.
Safe clicks: a double click on Roll applies one action and shows no error; a button that just
appeared where another was ignores a click for ~300 ms."""

from __future__ import annotations

import json

from .board_checks import shot
from .conftest import Kernel, OpenNotebook
from .test_widget_browser import (
    IMPORTS,
    kernel_snapshot,
    page_seq,
    root_of,
    wait_armed,
    wait_seq_change,
)

# The moment a new state is drawn: what the narration shows (animations still running).
JS_NARRATION = """
async (p) => {
  await new Promise((r) => requestAnimationFrame(() => r()));  // animations start in this frame
  const root = document.querySelector('[data-ugw=root]');
  const tok = root.querySelector(`[data-ugw-token="${p}"]`);
  const anims = tok ? tok.getAnimations() : [];
  const frames = anims.length ? anims[0].effect.getKeyframes().length : 0;
  const cash = root.querySelector(`[data-ugw="strip-cash-${p}"]`);
  const float = root.querySelector(`[data-ugw="money-float-${p}"]`);
  const landed = root.querySelector('.ugw-landed');
  const card = root.querySelector('[data-ugw=drawn-card]');
  return {
    rolling: root.querySelector('[data-ugw=dice]').classList.contains('ugw-rolling'),
    anims: anims.length, frames,
    float: float ? float.textContent : null,
    delta: cash ? cash.parentElement.dataset.delta || null : null,
    landed: landed ? landed.dataset.ugwTile : null,
    card: card && !card.hidden ? card.textContent : null,
    summary: !!root.querySelector('[data-ugw=turn-summary]'),
    roll: !!root.querySelector('[data-ugw=actions] button[data-ugw-action=roll]'),
    announce: root.querySelector('[data-ugw=announce]').textContent,
  };
}
"""

JS_DICE = """
() => [...document.querySelectorAll('[data-ugw=root] [data-ugw=dice] .ugw-die')]
  .map((d) => d.dataset.value)
"""


def narration(page, player: int) -> dict:  # type: ignore[no-untyped-def]
    return dict(page.evaluate(JS_NARRATION, player))


def test_turn_narration_pause_and_announcements(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(
        [
            IMPORTS,
            'w = UgentopolyWidget("ugentopoly", players=["Ann", "Bob"], seed=3, turn_pause=1.5)\nw',
            "w.game.testing.script_dice((3, 4), (1, 2))\n"
            'w.game.testing.stack_deck("CHANCE", ["card.chance.06"])\nw.refresh()',
        ],
        "narration.ipynb",
    )
    root = root_of(page)
    snap = kernel_snapshot(kernel)
    first = snap["decision"][1]
    second = 1 - first
    names = snap["names"]
    wait_armed(page, "button[data-ugw-action=roll]")
    old = page_seq(page)
    root.locator("button[data-ugw-action=roll]").click()
    wait_seq_change(page, old)
    now = narration(page, first)
    # Ugentopoly ended the turn by itself: the centre lingers on the first move.
    assert kernel_snapshot(kernel)["decision"] == ["turn", second]
    assert now["rolling"], now
    assert now["anims"] == 1 and now["frames"] == 8, now  # 0 -> 7: seven hops
    assert now["landed"] == "7", now
    assert now["float"] == "+20" and now["delta"] == "+20", now
    assert now["card"] and "course notes" in now["card"], now
    assert now["summary"] and not now["roll"], now
    assert f"{names[first]} rolled 3 + 4" in now["announce"], now
    assert "course notes" in now["announce"] and f"{names[first]} +20" in now["announce"], now
    shot(root, "narration-card-pause")
    page.wait_for_function(
        "() => !document.querySelector('[data-ugw=root] [data-ugw=dice]')"
        ".classList.contains('ugw-rolling')"
    )
    assert page.evaluate(JS_DICE) == ["3", "4"]
    # After the pause Bob's roll button appears (the card stays until the next action).
    root.locator("button[data-ugw-action=roll]").wait_for(state="visible")
    assert narration(page, first)["card"]

    # Dutch announcements; the drawn card goes away with the next action.
    kernel.run("w.lang = 'nl'")
    page.wait_for_function("() => document.querySelector('[data-ugw=root]').lang === 'nl'")
    # what is on screen follows the switch: the card lying face up and the narration line
    nl_card = json.loads(kernel.eval('json.dumps(w.game.board.text("card.chance.06", "nl"))'))
    assert "course notes" not in nl_card
    assert root.locator("[data-ugw=drawn-card] .ugw-drawn-text").text_content() == nl_card
    line = root.locator("[data-ugw=narration]").text_content() or ""
    assert f"{names[first]} gooide 3 + 4" in line and "rolled" not in line, line
    wait_armed(page, "button[data-ugw-action=roll]")
    old = page_seq(page)
    root.locator("button[data-ugw-action=roll]").click()
    wait_seq_change(page, old)
    now = narration(page, second)
    assert "gooide 1 + 2" in now["announce"] and "gaat naar" in now["announce"], now
    assert now["card"] is None, now
    assert now["landed"] == "3", now

    # Reduced motion: nothing hops or shakes, the state is the same.
    kernel.run(
        "w.lang = 'en'\nw.decline() if w.game.decision.kind == 'buy' else None\n"
        "w.game.testing.script_dice((1, 2))"
    )
    page.emulate_media(reduced_motion="reduce")
    wait_armed(page, "button[data-ugw-action=roll]")
    mover = kernel_snapshot(kernel)["decision"][1]
    old = page_seq(page)
    root.locator("button[data-ugw-action=roll]").click()
    wait_seq_change(page, old)
    now = narration(page, mover)
    assert now["anims"] == 0 and not now["rolling"], now
    assert now["landed"] is not None


def test_double_click_applies_one_action(open_notebook: OpenNotebook, kernel: Kernel) -> None:
    page = open_notebook(
        [
            IMPORTS,
            'w = UgentopolyWidget("ugentopoly", players=["Ann", "Bob"], seed=3, turn_pause=0)\nw',
            "w.game.testing.script_dice((1, 2), (2, 3), (2, 4))\nw.refresh()",
        ],
        "double_click.ipynb",
    )
    root = root_of(page)
    roller = kernel_snapshot(kernel)["decision"][1]
    actions = int(kernel.eval("len(w.game.actions)"))
    wait_armed(page, "button[data-ugw-action=roll]")
    old = page_seq(page)
    root.locator("button[data-ugw-action=roll]").dblclick()
    wait_seq_change(page, old)
    page.wait_for_timeout(700)  # a second request would have arrived by now
    assert int(kernel.eval("len(w.game.actions)")) == actions + 1
    snap = kernel_snapshot(kernel)
    assert snap["decision"] == ["buy", roller] and snap["owner"][3] is None, snap
    assert root.locator("[data-ugw=error]").is_hidden(), "a double click showed an error"
    assert kernel.eval("len(w.errors)") == "0", kernel.eval("w.errors")

    # Once armed, the buy button works as usual.
    wait_armed(page, "button[data-ugw-action=buy]")
    old = page_seq(page)
    root.locator("button[data-ugw-action=buy]").click()
    wait_seq_change(page, old)
    assert kernel_snapshot(kernel)["owner"][3] == roller


def test_new_button_in_old_place_ignores_a_quick_click(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    page = open_notebook(
        [
            IMPORTS,
            'w = UgentopolyWidget("ugentopoly", players=["Ann", "Bob"], seed=3, turn_pause=0)\nw',
            "w.game.testing.script_dice((1, 2))\nw.refresh()",
        ],
        "quick_click.ipynb",
    )
    root_of(page)
    wait_armed(page, "button[data-ugw-action=roll]")
    # Click Roll, then click whatever button comes to the same spot while it still arms (a
    # quick second click, as a double click's: ARM_MS is 300 ms). Clicked the moment its arming
    # starts, not after a pause: on a busy machine a pause may outlast the arming.
    result = page.evaluate("""
    () => new Promise((resolve) => {
      const root = document.querySelector('[data-ugw=root]');
      const roll = root.querySelector('[data-ugw=actions] button[data-ugw-action=roll]');
      const r = roll.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const seq0 = root.dataset.seq;
      const obs = new MutationObserver(() => {
        if (root.dataset.seq === seq0) return;
        // the button under the pointer, or else the new main button (Buy)
        const there = document.elementFromPoint(x, y);
        const button = (there && there.closest('[data-ugw=actions] button'))
          || root.querySelector('[data-ugw=actions] button[data-ugw-action=buy]');
        if (!button || !button.hasAttribute('data-arming')) return;  // not arming yet
        obs.disconnect();
        const what = button.dataset.ugwAction;
        button.click();
        resolve({ what, arming: true });
      });
      obs.observe(root, { attributes: true, subtree: true,
                          attributeFilter: ['data-seq', 'data-arming'] });
      roll.click();
    })
    """)
    assert result["what"] in ("buy", "decline") and result["arming"], result
    page.wait_for_timeout(600)
    snap = kernel_snapshot(kernel)
    assert snap["decision"][0] == "buy" and snap["owner"][3] is None, (result, snap)
