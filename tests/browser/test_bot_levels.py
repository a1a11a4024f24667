"""The bot levels in real JupyterLab + chromium: the lobby's seat menu offers every level with
its name and its sentence for a class (a tooltip, from Python's LEVELS), a game started with a
strong seat by clicking, and the strong seat's reason in the page's log, in English and Dutch,
at 1920x1080 and at 1280x800 with the file browser open. Screenshots in
test-artifacts/screens/ (look at them)."""

from __future__ import annotations

from playwright.sync_api import Page

from .board_checks import shot
from .conftest import Kernel, OpenNotebook
from .test_classroom_board import _lang, _size
from .test_widget_browser import IMPORTS, root_of

LABELS = {"en": ["person", "random bot", "easy bot", "strong bot", "thinking bot"],
          "nl": ["persoon", "willekeurige bot", "makkelijke bot", "sterke bot", "denkende bot"]}


def _seat_options(page: Page, k: int) -> list[dict[str, str]]:
    return list(page.evaluate(
        "(k) => [...document.querySelectorAll(`[data-ugw=player-seat-${k}] option`)]"
        ".map((o) => ({value: o.value, label: o.textContent, title: o.title}))", k))


def test_the_lobby_offers_the_levels_and_a_strong_seat_says_why(
        open_notebook: OpenNotebook, kernel: Kernel) -> None:
    page = open_notebook([IMPORTS, 'w = UgentopolyWidget.open_lobby("classic")\nw'],
                         "levels.ipynb")
    root = root_of(page)
    lobby = root.locator("[data-ugw=lobby]")
    lobby.wait_for(state="visible")
    for width, height, files in ((1920, 1080, False), (1280, 800, True)):
        _size(page, width, height, files)
        options = _seat_options(page, 1)
        assert [o["value"] for o in options] == ["person", "random", "heuristic", "strong",
                                                   "rollout"]
        assert [o["label"] for o in options] == LABELS["en"]
        assert options[3]["title"].startswith("Strong bot: values each lot")
        assert options[2]["title"].startswith("Easy bot:")
        # a new seat is played by the strong bot unless changed
        assert lobby.locator("[data-ugw=player-seat-1]").input_value() == "strong"
        assert lobby.locator("[data-ugw=player-seat-1]").is_visible()
        shot(page, f"levels-lobby-{width}")
    _lang(page, kernel, "nl")
    options = _seat_options(page, 1)
    assert [o["label"] for o in options] == LABELS["nl"]
    assert options[3]["title"].startswith("Sterke bot:")
    _lang(page, kernel, "en")

    lobby.locator("[data-ugw=player-seat-1]").select_option("strong")
    lobby.locator("[data-ugw=start]").click()
    root.locator("div[data-ugw=board]").wait_for(state="visible", timeout=10_000)
    assert kernel.eval("list(w.seats)") == "['person', 'strong']"

    # The README's position in this widget: Ann (a person) offers 300 for New York Avenue.
    kernel.run(
        "from ugentopoly_widget import Game\n"
        "from ugentopoly_widget.engine.actions import ProposeTrade, TradeSide\n"
        "w.game = Game.scenario('classic', players=['Ann', 'Bob'], seed=2, current='Ann',\n"
        "                       owners={16: 'Ann', 18: 'Ann', 19: 'Bob'}, cash=[1500, 1500])\n"
        "w.game.apply(ProposeTrade(0, 1, give=TradeSide(cash=300),\n"
        "                          get=TradeSide(properties=(19,))))\n"
        "w.play_bots()")
    assert kernel.eval("w.game.owner(19)") == "1"
    log = root.locator("[data-ugw=log]")
    line = log.locator("li", has_text="Why:").last
    line.wait_for(state="attached", timeout=10_000)
    text = line.inner_text()
    assert "Bob rejected" in text
    assert "Why: New York Avenue completes Ann's orange group" in text
    if root.locator("[data-ugw=tab-log]").count():
        root.locator("[data-ugw=tab-log]").click()  # the log in view for the pictures
    for width, height, files in ((1920, 1080, False), (1280, 800, True)):
        _size(page, width, height, files)
        shot(page, f"levels-log-{width}")
    _lang(page, kernel, "nl")
    dutch = log.locator("li", has_text="Waarom:").last
    dutch.wait_for(state="attached", timeout=10_000)
    assert "vervolledigt de groep oranje van Ann" in dutch.inner_text()
    shot(page, "levels-log-nl")
