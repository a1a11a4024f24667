"""Probes of the classroom browser tests (issue 20): type sizes against the board's side, the
heat layer's rendered colours and bands, money badges against the title and chips, things
inside the viewport, chart text inside its picture, and an axe run on a copy of the widget's
DOM in a plain page (inside JupyterLab axe finds every widget element "not visible on screen":
its text-based and colour rules then test nothing)."""

from __future__ import annotations

import json
from html import escape as html_escape
from typing import Any

from playwright.sync_api import Locator, Page

from .board_checks import AXE_JS, PROBES
from .conftest import REPO_ROOT

WIDGET_CSS = REPO_ROOT / "ugentopoly_widget" / "static" / "widget.css"

# Median computed font size of each kind of text, and the board's side.
JS_TYPE = (PROBES / "type_sizes.js").read_text(encoding="utf-8")

# Per street tile: the heat fill as rendered (an rgb() colour), whether its colour band is on
# top at its centre and lies clear of the fill, and the band's own colour.
JS_HEAT = (PROBES / "heat_tiles.js").read_text(encoding="utf-8")

# Every money badge's box against the title's and every chip's (token + name) box.
JS_FLOATS = (PROBES / "floats.js").read_text(encoding="utf-8")

# Whether each element is inside the window and not cut by the notebook's scroll area.
JS_IN_VIEW = (PROBES / "in_view.js").read_text(encoding="utf-8")

# Every <text> of the charts: its box inside its <svg>'s box (nothing cut at the edges).
JS_CHART_TEXT = (PROBES / "chart_text.js").read_text(encoding="utf-8")


def luminance(rgb: str) -> float:
    """WCAG relative luminance of a computed ``rgb(r, g, b)`` colour."""
    parts = [float(v) for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]

    def lin(c: float) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in parts)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def type_sizes(root: Locator) -> dict[str, Any]:
    return dict(root.evaluate(JS_TYPE))


def heat_tiles(root: Locator) -> list[dict[str, Any]]:
    return list(root.evaluate(JS_HEAT))


def floats(root: Locator) -> list[dict[str, Any]]:
    return list(root.evaluate(JS_FLOATS))


def in_view(root: Locator, *selectors: str) -> dict[str, list[dict[str, Any]]]:
    root.evaluate("(r) => r.scrollIntoView({ block: 'start' })")
    return dict(root.evaluate(JS_IN_VIEW, list(selectors)))


def chart_text_cut(root: Locator) -> list[str]:
    return list(root.evaluate(JS_CHART_TEXT))


# --------------------------------------------------------------------------- axe on a copy

JS_SNAPSHOT = (PROBES / "widget_snapshot.js").read_text(encoding="utf-8")

JS_AXE_COPY = (PROBES / "axe_copy.js").read_text(encoding="utf-8")


def axe_on_copy(page: Page, root: Locator) -> dict[str, Any]:
    """axe on a copy of the widget's DOM in a plain page of the same browser: the widget's CSS,
    the theme's variables and the same width, so visible text and colours are what JupyterLab
    shows. ``seen``: axe's visible text of the language button (a harness that sees text says
    "NL"); ``checked``: how many elements passed the colour-contrast rule."""
    snap = root.evaluate(JS_SNAPSHOT)
    style = html_escape(";".join(f"{k}:{v}" for k, v in snap["vars"].items()), quote=True)
    css = WIDGET_CSS.read_text(encoding="utf-8")
    page_html = (
        "<!doctype html><html><head><meta charset='utf-8'><title>widget copy</title>"
        f"<style>{css}</style></head>"
        f"<body data-jp-theme-light='{snap['light']}' style='margin:8px;background:{snap['bg']};"
        f"font-family:{json.dumps(snap['font'])[1:-1]}'>"
        f"<main style=\"{style};width:{snap['width']:.0f}px\">{snap['html']}</main></body></html>"
    )
    copy = page.context.new_page()
    try:
        copy.set_viewport_size(page.viewport_size or {"width": 1280, "height": 900})
        copy.set_content(page_html)
        copy.add_script_tag(path=str(AXE_JS))
        return dict(copy.evaluate(JS_AXE_COPY))
    finally:
        copy.close()
