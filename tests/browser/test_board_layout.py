"""Issue 9, findings 1, 4 and 10: the board and the current decision's buttons are in view
together at 600, 900, 1280 (file browser open) and 1600 px wide in a 900 px tall window, light
and dark, en and nl; tile text fits its tile (measured boxes, breaks only at spaces or hyphens,
font floor); tokens cover neither name nor price; the centre shows the game's name, the decks
and the dice. Screenshots of every profile at every size go to test-artifacts/screens/."""

from __future__ import annotations

import pytest

from .board_checks import buttons_in_view, set_theme, settle, shot, tile_text
from .conftest import Kernel, OpenNotebook
from .test_widget_browser import IMPORTS, root_of

# (window width, JupyterLab's file browser open?)
SIZES = [(600, False), (900, False), (1280, True), (1600, False)]
HEIGHT = 900


def font_floor(board_width: float) -> float:
    """Tile text at least 10 px once the board is 560 px wide (a 1100 px window gives ~650)."""
    return 10.0 if board_width >= 560 else 8.0


def _sidebar(page, open_: bool) -> None:  # type: ignore[no-untyped-def]
    if open_:
        page.evaluate(
            "() => { const s = window.jupyterapp.shell;"
            " s.activateById('filebrowser'); s.expandLeft(); }"
        )
    else:
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")


@pytest.mark.parametrize("profile", ["ugentopoly", "classic", "cell22"])
def test_board_and_buttons_in_view_text_fits(
    open_notebook: OpenNotebook, kernel: Kernel, profile: str, capsys: pytest.CaptureFixture[str]
) -> None:
    page = open_notebook(
        [
            IMPORTS,
            f'w = UgentopolyWidget("{profile}", players=["Ann", "Bob", "Cleo"], seed=5,\n'
            "                      turn_pause=0)\n"
            'w.play_bots(12, everyone="heuristic")\nw',
        ],
        f"fit_{profile}.ipynb",
    )
    root = root_of(page)
    report: list[str] = []
    for theme in ("light", "dark"):
        set_theme(page, theme)
        for lang in ("en", "nl"):
            kernel.run(f"w.lang = '{lang}'")
            page.wait_for_function(
                "(l) => document.querySelector('[data-ugw=root]').lang === l", arg=lang
            )
            for width, browser in SIZES:
                page.set_viewport_size({"width": width, "height": HEIGHT})
                _sidebar(page, browser)
                settle(page)  # layout, then the name fitting frame
                where = f"{profile} {width}px{' +files' if browser else ''} {theme} {lang}"
                view = buttons_in_view(root)
                assert view["buttons"], f"{where}: no action buttons"
                outside = [b for b in view["buttons"] if not b["inside"]]
                assert not outside, f"{where}: buttons out of view {outside} (view {view['view']})"
                assert view["horizontalScroll"] <= 2, f"{where}: the widget scrolls sideways"
                text = tile_text(root)
                assert not text["problems"], (
                    f"{where}: {text['count']} problems: {text['problems']}"
                )
                floor = font_floor(text["boardWidth"])
                assert text["minFont"] >= floor - 0.01, (
                    f"{where}: tile text {text['minFont']} px < {floor}"
                )
                report.append(
                    f"{width}{'+f' if browser else ''}/{theme}/{lang}: widget "
                    f"{view['rootWidth']:.0f} board {view['board']['width']:.0f}x"
                    f"{view['board']['height']:.0f} font>={text['minFont']:.1f}"
                )
                shot(page, f"{profile}-{width}{'-files' if browser else ''}-{theme}-{lang}")
    set_theme(page, "light")
    # the centre: the game's own name (as in the title), the two decks, the dice
    kernel.run("w.lang = 'en'")
    page.wait_for_function("() => document.querySelector('[data-ugw=root]').lang === 'en'")
    title = kernel.eval("w.board_data['titles']['en']")
    assert root.locator("[data-ugw=board-title]").inner_text().strip().lower() == title.lower()
    assert root.locator("[data-ugw=decks] .ugw-deck").count() >= 1
    assert root.locator("[data-ugw=dice] .ugw-die").count() == 2
    with capsys.disabled():
        print(f"\n[layout] {profile}: " + "; ".join(report[:4]))
