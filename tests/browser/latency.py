"""A click's reply timed in the page (the win bar's and the analysis' latency tests): from the
click's event to the new state drawn (the root's new ``data-seq``), and to a live panel's
first figures of that state (its ``data-seq`` equal and its own condition met)."""

from __future__ import annotations

import os
import random
import statistics

from playwright.sync_api import Locator, Page

from .board_checks import settle
from .test_widget_browser import wait_armed

# Installed once per page: the click's time, the new state's, the panel's first figures'.
JS_TIMERS = """([panel, ready]) => {
  const root = document.querySelector('[data-ugw=root]');
  const box = document.querySelector(panel);
  const isReady = new Function('b', `return ${ready};`);
  document.addEventListener('click', () => {
    window.__ugwClickAt = performance.now(); window.__ugwFirstAt = 0; }, true);
  new MutationObserver(() => { window.__ugwSeqAt = performance.now(); })
    .observe(root, { attributes: true, attributeFilter: ['data-seq'] });
  new MutationObserver(() => {
    if (!window.__ugwFirstAt && box.dataset.seq === root.dataset.seq && isReady(box))
      window.__ugwFirstAt = performance.now();
  }).observe(box, { attributes: true });
}"""


def install_timers(page: Page, panel: str, ready: str) -> None:
    """`panel`: the live panel's selector; `ready`: a JS expression of its element ``b`` that
    says its figures of the state are there (``b.dataset.status === 'done'``)."""
    page.evaluate(JS_TIMERS, [panel, ready])


def click_times(page: Page, root: Locator, clicks: int, panel: str, ready: str
                ) -> tuple[list[float], list[float]]:
    """Click the decision's main button `clicks` times: the board's reply and, while the
    panel is shown, the time to its figures of the new state, in ms as the page timed them."""
    replies: list[float] = []
    firsts: list[float] = []
    for _ in range(clicks):
        seq = root.get_attribute("data-seq")
        # the decision's main button (roll, buy, end turn), once it takes clicks
        # (the trade and build buttons beside it never: they open a dialog, no new state)
        primary = "[data-ugw=actions] button.ugw-primary"
        choice = primary if root.locator(primary).count() else "[data-ugw=actions] button"
        wait_armed(page, choice)
        root.locator(choice).first.click()
        page.wait_for_function(
            "(s) => document.querySelector('[data-ugw=root]').dataset.seq !== s", arg=seq)
        replies.append(page.evaluate("() => window.__ugwSeqAt - window.__ugwClickAt"))
        if not root.locator(panel).is_hidden():
            page.wait_for_function(
                "([panel, ready]) => { const r = document.querySelector('[data-ugw=root]');"
                " const b = document.querySelector(panel);"
                " return b.dataset.seq === r.dataset.seq"
                " && new Function('b', `return ${ready};`)(b); }",
                arg=[panel, ready], timeout=60_000)
            page.wait_for_function("() => window.__ugwFirstAt > 0")
            firsts.append(page.evaluate("() => window.__ugwFirstAt - window.__ugwClickAt"))
        settle(page)  # the new buttons arm
    return replies, firsts


def rounds() -> int:
    """Rounds of clicks with the panel off and on (interleaved): 2 in the suite; more for the
    closing note's figure, e.g. ``UGW_LATENCY_ROUNDS=10`` (a median gap within a few ms needs
    tens of clicks: one click's reply varies by more than the budget)."""
    return max(1, int(os.environ.get("UGW_LATENCY_ROUNDS", "2")))


def median_gap(off: list[float], on: list[float], draws: int = 2000) -> tuple[float, float, float]:
    """The median reply with the panel on minus off, and its 95 % bootstrap interval (seeded:
    the same clicks give the same interval)."""
    rng = random.Random(0)
    gaps = sorted(statistics.median(rng.choices(on, k=len(on)))
                  - statistics.median(rng.choices(off, k=len(off))) for _ in range(draws))
    return (statistics.median(on) - statistics.median(off), gaps[int(0.025 * draws)],
            gaps[int(0.975 * draws) - 1])
