"""JavaScript probes shared by the board UX browser tests: layout in the window, tile text
fit (measured rendered boxes, line breaks per character), font floors, token placement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import ARTIFACTS, REPO_ROOT

SCREENS = ARTIFACTS / "screens"
AXE_JS = REPO_ROOT / "js" / "node_modules" / "axe-core" / "axe.min.js"
PROBES = Path(__file__).resolve().parent / "probes"  # the JS run in the page

THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}

JS_SET_THEME = """
async (theme) => {
  await window.jupyterapp.commands.execute('apputils:change-theme', { theme });
}
"""


def set_theme(page: Page, theme: str) -> None:
    page.evaluate(JS_SET_THEME, THEMES[theme])
    page.wait_for_function(
        "(light) => document.body.dataset.jpThemeLight === light",
        arg="true" if theme == "light" else "false",
    )
    settle(page)


# The widgets' pages at rest: no button arming, no animation running, and the same layout and
# markup (the name fitting writes font sizes) over a few frames in a row. A condition, not a
# pause: a busy machine only takes longer to get there (a fixed wait_for_timeout assumed speed).
JS_SETTLED = """() => {
  const roots = [...document.querySelectorAll('[data-ugw=root]')];
  const ends = (a) => !a.effect || a.effect.getTiming().iterations !== Infinity;
  const busy = roots.some((r) => r.querySelector('[data-arming]')
      || r.getAnimations({ subtree: true }).some((a) => a.playState === 'running' && ends(a)));
  let sig = String(window.innerWidth) + 'x' + window.innerHeight;
  for (const r of roots) {
    const b = r.getBoundingClientRect();
    let h = 0;
    const html = r.innerHTML;
    for (let i = 0; i < html.length; i++) h = (h * 31 + html.charCodeAt(i)) | 0;
    sig += `|${b.x},${b.y},${b.width},${b.height},${html.length},${h}`;
  }
  const s = window.__ugwSettle;
  if (busy || !s || s.sig !== sig) { window.__ugwSettle = { sig, frames: 0 }; return false; }
  s.frames += 1;
  return s.frames >= 3;
}"""


def settle(page: Page, timeout: float = 60_000) -> None:
    """Wait until the widgets are at rest (see JS_SETTLED): after a resize, a theme, a
    language, a new state or a dialog, before measuring or clicking."""
    page.evaluate("() => { window.__ugwSettle = null; }")
    page.wait_for_function(JS_SETTLED, polling="raf", timeout=timeout)


def shot(target: Page | Locator, name: str) -> Path:
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    target.screenshot(path=str(path))
    return path


# Scroll the widget's top to the top of the notebook's view (as a person does once), then
# report where the current decision's buttons are relative to the window and the scroll area.
JS_BUTTONS_IN_VIEW = (PROBES / "buttons_in_view.js").read_text(encoding="utf-8")

# Every tile: its name and price boxes inside the tile, no overflow, line breaks only at spaces
# or (soft) hyphens, computed font sizes, and tokens that cover neither name nor price.
JS_TILE_TEXT = (PROBES / "tile_text.js").read_text(encoding="utf-8")


def buttons_in_view(root: Locator) -> dict[str, Any]:
    return dict(root.evaluate(JS_BUTTONS_IN_VIEW))


def tile_text(root: Locator) -> dict[str, Any]:
    return dict(root.evaluate(JS_TILE_TEXT))


def inject_axe(page: Page) -> None:
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE_JS))


JS_AXE = (PROBES / "axe_run.js").read_text(encoding="utf-8")


def axe_serious(root: Locator) -> list[dict[str, Any]]:
    # a guarded button is drawn at 0.72 opacity for 300 ms after it appears (requests.ts
    # ARM_MS) and fades back in over 0.3 s (styles.css: transition: opacity): axe reads that
    # fade as low contrast, so wait until no button is armed or still fading (bounded: bots may
    # re-arm; a button faded for good is then reported)
    try:
        root.page.wait_for_function(
            """(r) => !r.querySelector('[data-arming]') && [...r.querySelectorAll('button')]
                 .every((b) => getComputedStyle(b).opacity === '1')""",
            arg=root.element_handle(), timeout=5000)
    except PlaywrightTimeout:
        pass
    return list(root.evaluate(JS_AXE))
