"""JavaScript probes shared by the board UX browser tests: layout in the window, tile text
fit (measured rendered boxes, line breaks per character), font floors, token placement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page

from .conftest import ARTIFACTS, REPO_ROOT

SCREENS = ARTIFACTS / "screens"
AXE_JS = REPO_ROOT / "js" / "node_modules" / "axe-core" / "axe.min.js"

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
        arg="true" if theme == "light" else "false", timeout=15_000,
    )
    page.wait_for_timeout(250)


def shot(target: Page | Locator, name: str) -> Path:
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    target.screenshot(path=str(path))
    return path


# Scroll the widget's top to the top of the notebook's view (as a person does once), then
# report where the current decision's buttons are relative to the window and the scroll area.
JS_BUTTONS_IN_VIEW = """
(root) => {
  root.scrollIntoView({ block: 'start' });
  const scroller = root.closest('.jp-WindowedPanel-outer, .jp-Notebook, .jp-NotebookPanel-notebook')
    || document.scrollingElement;
  const area = scroller.getBoundingClientRect();
  const top = Math.max(0, area.top), bottom = Math.min(window.innerHeight, area.bottom);
  const left = Math.max(0, area.left), right = Math.min(window.innerWidth, area.right);
  const out = [];
  const buttons = [...root.querySelectorAll('[data-ugw=actions] button, [data-ugw=actions] input')];
  for (const b of buttons) {
    const r = b.getBoundingClientRect();
    if (!r.width) continue;
    out.push({ what: b.dataset.ugwAction || b.dataset.ugw || b.tagName, top: r.top, bottom: r.bottom,
               left: r.left, right: r.right,
               inside: r.top >= top - 1 && r.bottom <= bottom + 1 && r.left >= left - 1 && r.right <= right + 1 });
  }
  const board = root.querySelector('div[data-ugw=board]').getBoundingClientRect();
  return { buttons: out, view: { top, bottom, left, right }, rootWidth: root.getBoundingClientRect().width,
           board: { top: board.top, bottom: board.bottom, width: board.width, height: board.height },
           horizontalScroll: root.scrollWidth - root.clientWidth };
}
"""

# Every tile: its name and price boxes inside the tile, no overflow, line breaks only at spaces
# or (soft) hyphens, computed font sizes, and tokens that cover neither name nor price.
JS_TILE_TEXT = """
(root) => {
  const problems = [];
  const sizes = [];
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  for (const tile of root.querySelectorAll('[data-ugw-tile]')) {
    const pos = tile.dataset.ugwTile;
    const tb = tile.getBoundingClientRect();
    const name = tile.querySelector('.ugw-tile-name');
    const price = tile.querySelector('.ugw-tile-price');
    const vertical = getComputedStyle(name).writingMode !== 'horizontal-tb';
    sizes.push(parseFloat(getComputedStyle(name).fontSize));
    if (name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1) {
      problems.push(`tile ${pos}: name overflows (${name.scrollWidth}x${name.scrollHeight} in ${name.clientWidth}x${name.clientHeight})`);
    }
    // line breaks: walk the characters; a new line may only start after a space or a hyphen
    const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
    let prevChar = null, prevLine = null;
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i); range.setEnd(node, i + 1);
        const rects = range.getClientRects();
        if (!rects.length) { prevChar = text[i]; continue; }
        const r = rects[rects.length - 1];
        if (r.width < 0.1 && r.height < 0.1) { prevChar = text[i]; continue; }
        if (!inside(r, tb)) problems.push(`tile ${pos}: character '${text[i]}' outside its tile`);
        const line = vertical ? Math.round(r.left + r.width / 2) : Math.round(r.top + r.height / 2);
        const fs = parseFloat(getComputedStyle(name).fontSize);
        if (prevLine !== null && Math.abs(line - prevLine) > fs * 0.6) {
          if (!(prevChar === ' ' || prevChar === '\\n' || prevChar === '\\u00ad' || prevChar === '-' || text[i] === ' ' || text[i] === '\\n')) {
            problems.push(`tile ${pos}: '${name.textContent.replace(/\\u00ad/g, '')}' breaks inside a word before '${text.slice(i, i + 4)}'`);
          }
        }
        if (text[i] !== '\\u00ad') { prevLine = line; }
        prevChar = text[i];
      }
    }
    if (price && price.textContent && !inside(price.getBoundingClientRect(), tb)) problems.push(`tile ${pos}: price outside its tile`);
    for (const tok of tile.querySelectorAll('[data-ugw-token]')) {
      const r = tok.getBoundingClientRect();
      if (price && price.textContent && overlap(r, price.getBoundingClientRect())) problems.push(`tile ${pos}: a token covers the price`);
      if (name.textContent && overlap(r, name.getBoundingClientRect())) problems.push(`tile ${pos}: a token covers the name`);
    }
  }
  return { problems: problems.slice(0, 20), count: problems.length, minFont: Math.min(...sizes),
           boardWidth: root.querySelector('div[data-ugw=board]').getBoundingClientRect().width };
}
"""


def buttons_in_view(root: Locator) -> dict[str, Any]:
    return dict(root.evaluate(JS_BUTTONS_IN_VIEW))


def tile_text(root: Locator) -> dict[str, Any]:
    return dict(root.evaluate(JS_TILE_TEXT))


def inject_axe(page: Page) -> None:
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE_JS))


JS_AXE = """
async (root) => {
  const res = await window.axe.run(root, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    resultTypes: ['violations'],
  });
  return res.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 200)),
  }));
}
"""


def axe_serious(root: Locator) -> list[dict[str, Any]]:
    return list(root.evaluate(JS_AXE))
