"""Issue 7, item 5: a state carries only the log lines added since the previous state.

Two views of one widget, the second opened after the game has made lines it never received:
both must show exactly the tail of ``game.log()`` (the late one asks Python for it), and both
follow single actions, a long ``play_bots`` batch (more lines than the tail keeps), undo and a
change of language."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import Page

from ugentopoly_widget.widget.data import LOG_JUMP, LOG_PAGE

from .board_checks import shot
from .conftest import Kernel, OpenNotebook
from .test_widget_browser import IMPORTS

HANG = 60  # seconds: the views catch up long before (a bound on a hang, not a speed)

JS_LOGS = """
() => [...document.querySelectorAll('[data-ugw=root]')].map((root) =>
  [...root.querySelectorAll('[data-ugw-log]')].map(
    (li) => [Number(li.dataset.ugwLog), li.textContent]))
"""

STEP = """\
for _ in range({n}):
    w.game.apply(bot.choose(w.game))"""


def view_logs(page: Page) -> list[list[list[Any]]]:
    return list(page.evaluate(JS_LOGS))


def expected_tail(kernel: Kernel, lang: str = "en") -> list[list[Any]]:
    """What a view must show at least: the last LOG_JUMP lines (a view whose lines start again
    gets only those; it keeps what it had before), numbered as in the game's log."""
    log = json.loads(kernel.eval(f"json.dumps(w.game.log({lang!r}))"))
    start = max(0, len(log) - LOG_JUMP)
    return [[i, log[i]] for i in range(start, len(log))]


def game_log(kernel: Kernel) -> list[str]:
    return list(json.loads(kernel.eval("json.dumps(w.game.log())")))


def assert_views_show(page: Page, kernel: Kernel, lang: str = "en",
                      at_least: int | None = None) -> None:
    """Every view ends with the game's tail (a view may keep older lines above it)."""
    want = expected_tail(kernel, lang)
    deadline = time.monotonic() + HANG
    while True:
        views = view_logs(page)
        ok = len(views) == 2 and all(v[-len(want):] == want for v in views)
        if at_least is not None:
            ok = ok and all(v[0][0] == at_least for v in views if v)
        if ok or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(views) == 2, f"{len(views)} views"
    for k, view in enumerate(views):
        assert view[-len(want):] == want, (
            f"view {k}: {len(view)} lines from {view[0][0] if view else None}; "
            f"the game's tail: {len(want)} lines from {want[0][0]}; last shown "
            f"{view[-1] if view else None} vs {want[-1]}")
        numbers = [n for n, _ in view]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), "a gap in the list"
        if at_least is not None:
            assert view[0][0] == at_least, f"view {k} starts at line {view[0][0]}"


def test_views_follow_the_log_in_pieces(open_notebook: OpenNotebook, kernel: Kernel) -> None:
    page = open_notebook([
        IMPORTS + "\nfrom ugentopoly_widget.engine.bots import HeuristicBot"
        "\nbot = HeuristicBot(seed=4)",
        'w = UgentopolyWidget("classic", players=["Ann", "Bob", "Cas"], seed=8, turn_pause=0)\nw',
        STEP.format(n=30),
        "w",  # a second view, opened after 30 actions it never saw
    ], "logfeed.ipynb")
    page.locator("[data-ugw=root]").nth(1).wait_for()
    assert_views_show(page, kernel)
    pieces = json.loads(kernel.eval("json.dumps(w.state['log'])"))
    assert pieces["base"] is not None and pieces["start"] >= pieces["base"], pieces
    assert len(pieces["lines"]) < 20, "a state brings the new lines only"

    kernel.run(STEP.format(n=5))
    assert_views_show(page, kernel)

    # a long batch: more lines than the tail keeps; the views start again with the last few
    kernel.run('w.seats = ["heuristic"] * 3\nw.play_bots(turns=60)\nw.seats = ["person"] * 3')
    total = int(kernel.eval("len(w.game.events)"))
    assert total > 400
    assert_views_show(page, kernel, at_least=total - LOG_JUMP)

    # the reader of the second view pages back: "Earlier lines" twice, as a person clicks
    root = page.locator("[data-ugw=root]").nth(1)
    root.locator("[data-ugw=tab-log]").click()
    more = root.locator("[data-ugw=log-more]")
    log = game_log(kernel)
    for pages in (1, 2):
        more.click()
        first = total - LOG_JUMP - pages * LOG_PAGE
        deadline = time.monotonic() + HANG
        while view_logs(page)[1][0][0] != first and time.monotonic() < deadline:
            time.sleep(0.1)
        shown = view_logs(page)[1]
        assert shown == [[i, log[i]] for i in range(first, total)], (shown[0], first)
    # back to the first line: then the button goes away
    for _ in range(20):
        if not more.is_visible():
            break
        count = len(view_logs(page)[1])
        more.click()
        deadline = time.monotonic() + HANG
        while len(view_logs(page)[1]) == count and time.monotonic() < deadline:
            time.sleep(0.1)
    assert not more.is_visible()
    assert view_logs(page)[1] == [[i, log[i]] for i in range(total)]
    # the pages reach every view of the widget: the other one shows them too, in order
    other = view_logs(page)[0]
    assert other == [[i, log[i]] for i in range(other[0][0], total)]
    shot(root, "log_earlier_lines")

    shrank = kernel.run(
        "for _ in range(30):\n"
        "    if w.game.can_undo():\n"
        "        break\n"
        "    w.game.apply(bot.choose(w.game))\n"
        "before = len(w.game.events)\n"
        "w.undo()\n"
        "print(len(w.game.events) < before)")
    assert shrank.strip() == "True"
    assert_views_show(page, kernel)

    kernel.run('w.lang = "nl"')
    assert_views_show(page, kernel, lang="nl")
    assert expected_tail(kernel, "nl") != expected_tail(kernel, "en")
    kernel.run(STEP.format(n=3))
    assert_views_show(page, kernel, lang="nl")
