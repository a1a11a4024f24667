"""A self-contained SVG picture of a game board: ``board_svg(game)``.

The picture is a square ring of ``board.size`` tiles (N >= 8), position 0 in the bottom-right
corner and play running clockwise (left along the bottom, up the left side, ...), as on a
classic board. Every tile is a ``<g class="tile" data-pos="k">``; the centre shows the board
name, whose turn it is, the pot, the last dice roll and the players.

The SVG uses no external resources, no scripts and no ``id`` attributes (so several pictures
can sit in one notebook page without clashing). Only the standard library is used: the engine
stays headless.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from ..boards.board import Board, Tile, TileKind

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["board_svg"]

SIZE = 1000.0  # the viewBox is SIZE x SIZE; `width` only scales it
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_CHAR = 0.6  # average glyph width / font size (DejaVu Sans is wide), for wrapping
_ATTR = {'"': "&quot;"}
_COLOUR_RE = re.compile(
    r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|(?:rgb|rgba|hsl|hsla)\([0-9.,%\s]{1,40}\)"
)
_KIND_FILL = {
    TileKind.CHANCE: "#fff1dc",
    TileKind.CHEST: "#e3f0fb",
    TileKind.TAX: "#eeeeee",
    TileKind.START: "#e6f5e1",
    TileKind.JAIL: "#f7efe0",
    TileKind.GO_TO_JAIL: "#fbe3e0",
    TileKind.FREE_PARKING: "#eef6e8",
}
_KIND_GLYPH = {
    TileKind.CHANCE: ("?", "#f0a63a"),
    TileKind.CHEST: ("\u2617", "#6a9bd1"),
    TileKind.RAILWAY: ("\u25a3", "#555555"),
    TileKind.UTILITY: ("\u2736", "#d0a000"),
}
# YlOrRd-like colour scale for the heat overlay.
_HEAT_STOPS = ((255, 255, 178), (254, 204, 92), (253, 141, 60), (240, 59, 32), (189, 0, 38))
_HEAT_STOPS_HEX = tuple(f"#{r:02x}{g:02x}{b:02x}" for r, g, b in _HEAT_STOPS)
_LABELS = {
    "en": {"turn": "Turn", "pot": "Pot", "dice": "Last roll", "over": "Game over",
           "winner": "Winner", "winners": "Winners", "jail": "jail", "out": "out",
           "heat": "Heat"},
    "nl": {"turn": "Aan de beurt", "pot": "Pot", "dice": "Laatste worp", "over": "Spel voorbij",
           "winner": "Winnaar", "winners": "Winnaars", "jail": "blokkot", "out": "failliet",
           "heat": "Warmte"},
}
# Pip positions on a die face (unit square), for 1..6.
_PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}

Rect = tuple[float, float, float, float]  # x, y, w, h


def _n(value: float) -> str:
    """A compact number for an attribute."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _text(value: str) -> str:
    return escape(value)


def _attr(value: str) -> str:
    return escape(value, _ATTR)


def _colour(value: str | None, fallback: str = "#999999") -> str:
    """A colour safe to put in an attribute (no url(...) references, no quotes)."""
    if value is not None:
        value = value.strip()
        if _COLOUR_RE.fullmatch(value):
            return value
    return fallback


def _rgb(colour: str) -> tuple[int, int, int] | None:
    if not colour.startswith("#"):
        return None
    digits = colour[1:]
    if len(digits) in (3, 4):
        digits = "".join(c * 2 for c in digits[:3])
    elif len(digits) in (6, 8):
        digits = digits[:6]
    else:
        return None
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def _ink_on(colour: str) -> str:
    """Black or white, whichever reads better on `colour`."""
    rgb = _rgb(colour)
    if rgb is None:
        return "#ffffff"
    r, g, b = rgb
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


# --------------------------------------------------------------------------- layout


def _side_counts(n: int) -> tuple[int, int, int, int]:
    """Tiles between the corners on each side (bottom, left, top, right)."""
    rest = n - 4
    counts = [rest // 4] * 4
    for side in (0, 2, 1, 3)[: rest % 4]:
        counts[side] += 1
    return counts[0], counts[1], counts[2], counts[3]


def _layout(n: int) -> tuple[list[Rect], list[int], float]:
    """Rectangles of every tile, the side of each (0 bottom, 1 left, 2 top, 3 right; corners
    -1..-4 for bottom-right, bottom-left, top-left, top-right) and the corner size."""
    counts = _side_counts(n)
    most = max(counts)
    corner = min(SIZE * 0.16, SIZE * 1.6 / (most + 3.2))
    inner = SIZE - 2 * corner
    rects: list[Rect] = []
    sides: list[int] = []
    far = SIZE - corner
    corners: tuple[tuple[float, float], ...] = ((far, far), (0, far), (0, 0), (far, 0))
    for side in range(4):
        cx, cy = corners[side]
        rects.append((cx, cy, corner, corner))
        sides.append(-1 - side)
        count = counts[side]
        step = inner / count if count else 0.0
        for k in range(count):
            if side == 0:  # bottom, right to left
                rects.append((far - (k + 1) * step, far, step, corner))
            elif side == 1:  # left, bottom to top
                rects.append((0, far - (k + 1) * step, corner, step))
            elif side == 2:  # top, left to right
                rects.append((corner + k * step, 0, step, corner))
            else:  # right, top to bottom
                rects.append((far, corner + k * step, corner, step))
            sides.append(side)
    return rects, sides, corner


def _split(rect: Rect, side: int, band: float, strip: float) -> tuple[Rect, Rect, Rect]:
    """(colour band on the inner edge, owner strip on the outer edge, the rest)."""
    x, y, w, h = rect
    if side == 0:
        return (x, y, w, band), (x, y + h - strip, w, strip), (x, y + band, w, h - band - strip)
    if side == 2:
        return (x, y + h - band, w, band), (x, y, w, strip), (x, y + strip, w, h - band - strip)
    if side == 1:
        return (x + w - band, y, band, h), (x, y, strip, h), (x + strip, y, w - band - strip, h)
    return (x, y, band, h), (x + w - strip, y, strip, h), (x + band, y, w - band - strip, h)


# --------------------------------------------------------------------------- text


def _wrap(text: str, chars: int) -> list[str] | None:
    """Greedy word wrap to at most `chars` per line; None if a word does not fit."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            if len(word) > chars:
                return None
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= chars:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def _shorten(text: str, chars: int, max_lines: int) -> list[str]:
    """Wrap, breaking long words, and end with an ellipsis when it does not all fit."""
    chars = max(chars, 1)
    pieces: list[str] = []
    for paragraph in text.split("\n"):
        words: list[str] = []
        for word in paragraph.split():
            while len(word) > chars:
                cut = max(chars - 1, 1)
                words.append(word[:cut] + "-")
                word = word[cut:]
            words.append(word)
        pieces.append(" ".join(words))
    lines = _wrap("\n".join(pieces), chars) or []
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        lines[-1] = (last[: chars - 1] if len(last) >= chars else last).rstrip("- ") + "\u2026"
    return lines


def _fit(text: str, width: float, height: float, size: float) -> tuple[list[str], float]:
    """Lines and font size for `text` in a width x height box, starting at font `size`:
    whole words at up to 20 % smaller, then long words broken, then shortened with an ellipsis."""
    text = text.replace("\r", "").strip()
    if not text or width <= 0 or height <= 0:
        return [], size
    font = size
    for scale in (1.0, 0.9, 0.8):
        font = size * scale
        chars = int(width / (font * _CHAR))
        max_lines = int(height / (font * 1.15))
        if chars >= 1 and max_lines >= 1:
            lines = _wrap(text, chars)
            if lines is not None and len(lines) <= max_lines:
                return lines, font
    chars = int(width / (font * _CHAR))
    max_lines = int(height / (font * 1.15))
    if max_lines < 1:
        font = height / 1.15
        chars = int(width / (font * _CHAR))
        max_lines = 1
    if chars < 1:
        return [], font
    return _shorten(text, chars, max_lines), font


def _text_block(
    out: list[str], lines: Sequence[str], font: float, cx: float, top: float, *,
    weight: str = "normal", fill: str = "#222222", cls: str = "name",
) -> float:
    """Centred lines starting at `top`; returns the y below the block."""
    if not lines:
        return top
    step = font * 1.15
    first = top + font * 0.9
    out.append(
        f'<text class="{cls}" x="{_n(cx)}" y="{_n(first)}" font-size="{_n(font)}" '
        f'font-weight="{weight}" fill="{fill}" text-anchor="middle">'
    )
    for k, line in enumerate(lines):
        dy = "0" if k == 0 else _n(step)
        out.append(f'<tspan x="{_n(cx)}" dy="{dy}">{_text(line)}</tspan>')
    out.append("</text>")
    return top + step * len(lines)


# --------------------------------------------------------------------------- pieces


def _hatch(rect: Rect, step: float) -> str:
    """Diagonal lines filling an axis-aligned rectangle (no <pattern>, so no ids)."""
    x0, y0, w, h = rect
    x1, y1 = x0 + w, y0 + h
    parts: list[str] = []
    c = x0 + y0 + step
    while c < x1 + y1:
        xa, xb = max(x0, c - y1), min(x1, c - y0)
        parts.append(f"M{_n(xa)} {_n(c - xa)}L{_n(xb)} {_n(c - xb)}")
        c += step
    return "".join(parts)


def _buildings(out: list[str], band: Rect, level: int, hotel: bool) -> None:
    if level <= 0:
        return
    x, y, w, h = band
    short = min(w, h)
    cx, cy = x + w / 2, y + h / 2
    horizontal = w >= h
    if hotel:
        length, thick = short * 1.9, short * 0.64
        hw, hh = (length, thick) if horizontal else (thick, length)
        out.append(
            f'<rect class="hotel" x="{_n(cx - hw / 2)}" y="{_n(cy - hh / 2)}" '
            f'width="{_n(hw)}" height="{_n(hh)}" rx="2" fill="#d62728" '
            f'stroke="#5a0000" stroke-width="1.2"/>'
        )
        return
    shown = min(level, 4)
    side = short * 0.62
    gap = side * 0.35
    span = shown * side + (shown - 1) * gap
    extra = level > 4
    if extra:
        span += gap + side * 1.6
    start = (cx if horizontal else cy) - span / 2
    for k in range(shown):
        offset = start + k * (side + gap)
        hx, hy = (offset, cy - side / 2) if horizontal else (cx - side / 2, offset)
        out.append(
            f'<rect class="house" x="{_n(hx)}" y="{_n(hy)}" width="{_n(side)}" '
            f'height="{_n(side)}" fill="#2ca02c" stroke="#0b3d0b" stroke-width="1.2"/>'
        )
    if extra:
        offset = start + shown * (side + gap) + side * 0.8
        tx, ty = (offset, cy) if horizontal else (cx, offset)
        out.append(
            f'<text class="house-count" x="{_n(tx)}" y="{_n(ty + side * 0.35)}" '
            f'font-size="{_n(side)}" font-weight="bold" text-anchor="middle" '
            f'fill="#0b3d0b">\u00d7{level}</text>'
        )


def _spread(n: int, box: Rect, max_r: float) -> tuple[list[tuple[float, float]], float]:
    """Centres and radius for `n` tokens spread over `box`."""
    x, y, w, h = box
    cols = max(1, min(n, math.ceil(math.sqrt(n * w / max(h, 1e-6)))))
    rows = math.ceil(n / cols)
    r = max(2.0, min(max_r, w / (2 * cols) * 0.92, h / (2 * rows) * 0.92))
    centres: list[tuple[float, float]] = []
    for k in range(n):
        row, col = divmod(k, cols)
        in_row = min(cols, n - row * cols)
        cx = x + w / 2 + (col - (in_row - 1) / 2) * 2.1 * r
        cy = y + h / 2 + (row - (rows - 1) / 2) * 2.1 * r
        centres.append((cx, cy))
    return centres, r


def _token(out: list[str], index: int, name: str, token: str, colour: str,
           cx: float, cy: float, r: float) -> None:
    letter = (token.strip()[:1] or "?").upper()
    out.append(
        f'<g class="token" data-player="{index}"><title>{_text(name)} ({_text(token)})</title>'
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{_attr(colour)}" '
        f'stroke="#ffffff" stroke-width="{_n(max(r * 0.16, 1))}"/>'
        f'<text x="{_n(cx)}" y="{_n(cy + r * 0.36)}" font-size="{_n(r)}" font-weight="bold" '
        f'text-anchor="middle" fill="{_ink_on(colour)}">{_text(letter)}</text></g>'
    )


def _heat_colour(t: float, stops: Sequence[str] | None = None) -> str:
    rgb = _HEAT_STOPS if stops is None else [
        (int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)) for c in stops]
    t = min(max(t, 0.0), 1.0) * (len(rgb) - 1)
    k = min(int(t), len(rgb) - 2)
    f = t - k
    a, b = rgb[k], rgb[k + 1]
    r, g, bl = (round(a[i] + (b[i] - a[i]) * f) for i in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"


def _heat_scale(heat: Sequence[float], n: int) -> tuple[list[float], float, float]:
    values: list[float] = []
    for value in heat:
        v = float(value)
        values.append(v if math.isfinite(v) else 0.0)
    if len(values) != n:
        raise ValueError(f"heat has {len(values)} values; the board has {n} tiles")
    low, high = min(values), max(values)
    span = high - low
    return [(v - low) / span if span > 0 else 0.0 for v in values], low, high


def _fmt(value: float) -> str:
    if value == int(value) and abs(value) < 1e12:
        return str(int(value))
    return f"{value:.3g}"


def _has_text(board: Board, key: str) -> bool:
    return any(key in table for table in board.names.values())


def _die(out: list[str], x: float, y: float, s: float, value: int) -> None:
    out.append(
        f'<rect class="die" x="{_n(x)}" y="{_n(y)}" width="{_n(s)}" height="{_n(s)}" '
        f'rx="{_n(s * 0.16)}" fill="#ffffff" stroke="#333333" stroke-width="2"/>'
    )
    pips = _PIPS.get(value)
    if pips is None:
        out.append(
            f'<text x="{_n(x + s / 2)}" y="{_n(y + s * 0.68)}" font-size="{_n(s * 0.5)}" '
            f'font-weight="bold" text-anchor="middle" fill="#222222">{value}</text>'
        )
        return
    for px, py in pips:
        out.append(
            f'<circle cx="{_n(x + px * s)}" cy="{_n(y + py * s)}" r="{_n(s * 0.09)}" '
            f'fill="#222222"/>'
        )


# --------------------------------------------------------------------------- board


def _tile(
    out: list[str], game: Game, tile: Tile, rect: Rect, side: int, corner: float,
    lang: str, currency: str, tokens: list[int], heat: float | None, heat_value: float | None,
    heat_fill: str | None = None, heat_label: str | None = None,
) -> None:
    board = game.board
    pos = tile.position
    x, y, w, h = rect
    name = board.tile_name(pos, lang)
    owner = game.owner(pos) if tile.is_property else None
    players = game.players
    mortgaged = tile.is_property and game.is_mortgaged(pos)
    title = name.replace("\n", " ")
    if owner is not None:
        title += f" \u2014 {players[owner].name}"
    if heat_value is not None:
        title += f" \u2014 {_fmt(heat_value)}"
    out.append(
        f'<g class="tile" data-pos="{pos}" data-kind="{tile.kind.value}">'
        f"<title>{_text(title)}</title>"
    )
    out.append(
        f'<rect class="bg" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
        f'fill="{_KIND_FILL.get(tile.kind, "#fbfbf6")}" stroke="#333333" stroke-width="1.5"/>'
    )
    if heat_fill is not None:  # a colour chosen by the caller (the widget's palette)
        out.append(
            f'<rect class="heat" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
            f'fill="{_attr(_colour(heat_fill))}" fill-opacity="0.6" pointer-events="none"/>'
        )
    elif heat is not None and heat_label is None:  # under the names, so they stay readable
        out.append(
            f'<rect class="heat" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
            f'fill="{_heat_colour(heat)}" fill-opacity="{_n(0.25 + 0.5 * heat)}" '
            f'pointer-events="none"/>'
        )
    name_font = corner * 0.105
    token_box: Rect
    if side < 0 and tile.is_property:  # a property on a corner (small or odd rings)
        side = -1 - side
    if side < 0:  # a corner
        pad = corner * 0.06
        lines, font = _fit(name, w - 2 * pad, h * 0.5 - pad, name_font * 1.25)
        below = _text_block(out, lines, font, x + w / 2, y + pad, weight="bold")
        if heat_label is not None:
            out.append(
                f'<text class="heat-label" x="{_n(x + w / 2)}" y="{_n(below + name_font)}" '
                f'font-size="{_n(name_font)}" font-weight="bold" text-anchor="middle" '
                f'fill="#111111">{_text(heat_label)}</text>'
            )
        token_box = (x + pad, y + h * 0.5, w - 2 * pad, h * 0.5 - pad)
        if tile.kind is TileKind.JAIL:
            cell = (x + w * 0.5, y + h * 0.46, w * 0.46, h * 0.5)
            if side in (-1, -4):  # right-hand corners: the cell on the inner (left) side
                cell = (x + w * 0.04, cell[1], cell[2], cell[3])
            cx, cy, cw, ch = cell
            bars = "".join(
                f"M{_n(cx + cw * k / 5)} {_n(cy)}V{_n(cy + ch)}" for k in range(1, 5)
            )
            out.append(
                f'<rect class="cell" x="{_n(cx)}" y="{_n(cy)}" width="{_n(cw)}" '
                f'height="{_n(ch)}" fill="#ffd9a8" stroke="#333333" stroke-width="1.5"/>'
                f'<path d="{bars}" stroke="#555555" stroke-width="1.5" opacity="0.5"/>'
            )
            jailed = [k for k in tokens if players[k].in_jail]
            visiting = [k for k in tokens if not players[k].in_jail]
            other = (x + w * 0.04, cy, w * 0.42, ch) if cx > x + w * 0.3 else \
                (x + w * 0.54, cy, w * 0.42, ch)
            _tokens(out, game, jailed, cell, corner * 0.13)
            _tokens(out, game, visiting, other, corner * 0.13)
            tokens = []
        elif tile.kind is TileKind.START:
            arrow = {-1: "\u2190", -2: "\u2191", -3: "\u2192", -4: "\u2193"}[side]
            out.append(
                f'<text x="{_n(x + w / 2)}" y="{_n(y + h * 0.8)}" font-size="{_n(corner * 0.3)}" '
                f'text-anchor="middle" fill="#2e7d32" opacity="0.55">{arrow}</text>'
            )
    else:
        band_depth = corner * 0.2
        strip = corner * 0.075
        band, strip_rect, body = _split(rect, side, band_depth, strip)
        if tile.kind is TileKind.STREET:
            area = board.areas.get(tile.area) if tile.area else None
            fill = _colour(area.color) if area is not None else "#e2e2dc"
            bx, by, bw, bh = band
            out.append(
                f'<rect class="band" x="{_n(bx)}" y="{_n(by)}" width="{_n(bw)}" '
                f'height="{_n(bh)}" fill="{_attr(fill)}" stroke="#333333" stroke-width="1.5"/>'
            )
            level = game.buildings(pos)
            hotel = game.rules.buildings == "classic" and level == game.hotel_level
            _buildings(out, band, level, hotel)
        else:
            body = (x, y, w, h)  # no band: the whole tile is free
            if tile.is_property:
                body = _split(rect, side, 0.0, strip)[2]
        bx, by, bw, bh = body
        pad = min(bw, bh) * 0.06
        glyph = _KIND_GLYPH.get(tile.kind)
        if glyph is not None:
            gs = min(bw, bh) * 0.42
            out.append(
                f'<text class="glyph" x="{_n(bx + bw / 2)}" y="{_n(by + bh * 0.5 + gs * 0.45)}" '
                f'font-size="{_n(gs)}" text-anchor="middle" fill="{glyph[1]}" '
                f'opacity="0.35">{_text(glyph[0])}</text>'
            )
        price = ""
        if heat_label is not None:  # the heat layer's figure takes the price's place
            price = heat_label
        elif tile.is_property and owner is None:
            price = f"{currency}{tile.cost}"
        elif tile.kind is TileKind.TAX and tile.amount:
            price = f"{currency}{tile.amount}"
            if tile.percent is not None:
                price += f" / {tile.percent}%"
        price_font = min(name_font * 0.95, bh * 0.2)
        foot = price_font * 1.3 if price or owner is not None else 0.0
        name_h = bh - 2 * pad - foot
        lines, font = _fit(name, bw - 2 * pad, name_h, min(name_font, bh * 0.22))
        below = _text_block(out, lines, font, bx + bw / 2, by + pad)
        if price:
            px_chars = int((bw - 2 * pad) / (price_font * _CHAR))
            if len(price) > px_chars:
                price_font *= max(px_chars, 1) / len(price)
            price_y = by + bh - pad - price_font * 0.2
            price_ink = 'font-weight="bold" fill="#111111"' if heat_label else 'fill="#444444"'
            out.append(
                f'<text class="price" x="{_n(bx + bw / 2)}" y="{_n(price_y)}" '
                f'font-size="{_n(price_font)}" text-anchor="middle" {price_ink}>'
                f"{_text(price)}</text>"
            )
        if owner is not None:
            sx, sy, sw, sh = strip_rect
            colour = _colour(players[owner].colour)
            ink = _ink_on(colour)
            label = players[owner].name
            room = bw - 2 * pad
            chars = max(int((room - price_font * 0.6) / (price_font * 0.9 * _CHAR)), 1)
            if len(label) > chars:
                label = label[: max(chars - 1, 1)] + "\u2026"
            pill_w = min(room, (len(label) * _CHAR * 0.9 + 1.2) * price_font)
            pill_h = price_font * 1.2
            py = by + bh - pad - pill_h
            out.append(
                f'<g class="owner" data-owner="{owner}">'
                f'<rect x="{_n(sx)}" y="{_n(sy)}" width="{_n(sw)}" height="{_n(sh)}" '
                f'fill="{_attr(colour)}" stroke="#333333" stroke-width="1"/>'
                f'<rect x="{_n(bx + bw / 2 - pill_w / 2)}" y="{_n(py)}" width="{_n(pill_w)}" '
                f'height="{_n(pill_h)}" rx="{_n(pill_h / 2)}" fill="{_attr(colour)}"/>'
                f'<text x="{_n(bx + bw / 2)}" y="{_n(py + pill_h * 0.76)}" '
                f'font-size="{_n(price_font * 0.9)}" text-anchor="middle" fill="{ink}">'
                f"{_text(label)}</text></g>"
            )
        if mortgaged:
            out.append(
                f'<g class="mortgaged"><rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" '
                f'height="{_n(h)}" fill="#ffffff" fill-opacity="0.45"/>'
                f'<path d="{_hatch(rect, corner * 0.09)}" stroke="#8b0000" stroke-width="1.6" '
                f'stroke-opacity="0.55"/></g>'
            )
        free = (bx + pad, below, bw - 2 * pad, by + bh - pad - foot - below)
        if free[3] >= corner * 0.16:
            token_box = free
        else:
            token_box = (bx + pad, by + pad, bw - 2 * pad, bh - 2 * pad)
    _tokens(out, game, tokens, token_box, corner * 0.13)
    out.append("</g>")


def _tokens(out: list[str], game: Game, indexes: list[int], box: Rect, max_r: float) -> None:
    if not indexes:
        return
    centres, r = _spread(len(indexes), box, max_r)
    for k, (cx, cy) in zip(indexes, centres, strict=True):
        p = game.players[k]
        _token(out, k, p.name, p.token, _colour(p.colour), cx, cy, r)


def _last_dice(game: Game) -> list[int] | None:
    # the events held now (a loaded game's deferred history is not replayed for a picture)
    _, log = game.known_events()
    kinds = log.kinds()
    for k in range(len(kinds) - 1, -1, -1):
        if kinds[k] == "rolled":
            dice = log[k].get("dice")
            if isinstance(dice, (list, tuple)):
                return [int(d) for d in dice]
    return None


def _centre(out: list[str], game: Game, corner: float, lang: str, currency: str,
            heat_range: tuple[float, float] | None,
            style: Mapping[str, Any] | None = None) -> None:
    board = game.board
    labels = _LABELS.get(lang, _LABELS["en"])
    inner = SIZE - 2 * corner
    cx = SIZE / 2
    left = corner + inner * 0.08
    width = inner * 0.84
    out.append(
        f'<rect class="centre" x="{_n(corner)}" y="{_n(corner)}" width="{_n(inner)}" '
        f'height="{_n(inner)}" fill="#d8ecd6"/>'
    )
    title = board.text("board.name", lang) if _has_text(board, "board.name") else board.name
    lines, font = _fit(title, width, inner * 0.2, min(inner * 0.1, 64))
    y = _text_block(out, lines, font, cx, corner + inner * 0.07, weight="bold",
                    fill="#1b5e20", cls="board-name")
    y += inner * 0.03
    status_font = min(inner * 0.042, 26)
    if game.is_over:
        winners = [game.players[w].name for w in game.winners]
        label = labels["winner"] if len(winners) == 1 else labels["winners"]
        status = f"{labels['over']} \u2014 {label}: {', '.join(winners)}"
    else:
        current = game.players[game.current_player]
        status = f"{labels['turn']}: {current.name}"
        decider = game.decision.player
        if decider is not None and decider != game.current_player:
            status += f" ({game.decision.kind}: {game.players[decider].name})"
    lines, sfont = _fit(status, width, status_font * 2.4, status_font)
    y = _text_block(out, lines, sfont, cx, y, weight="bold", cls="status")
    y = _text_block(out, [f"{labels['pot']}: {currency}{game.pot}"], status_font, cx,
                    y + status_font * 0.3, cls="pot")
    dice = _last_dice(game)
    if dice:
        s = min(inner * 0.075, 48)
        label_w = len(labels["dice"]) * status_font * _CHAR + status_font * 0.6
        total = label_w + len(dice) * s * 1.2
        x0 = cx - total / 2
        top = y + status_font * 0.5
        out.append(
            f'<g class="dice"><text x="{_n(x0)}" y="{_n(top + s / 2 + status_font * 0.35)}" '
            f'font-size="{_n(status_font)}" fill="#222222">{_text(labels["dice"])}:</text>'
        )
        for k, value in enumerate(dice):
            _die(out, x0 + label_w + k * s * 1.2, top, s, value)
        out.append("</g>")
        y = top + s
    # The players: colour, token letter, name, cash.
    players = game.players
    row = min(inner * 0.05, 30)
    y += row * 0.6
    room = corner + inner - y - (row * 1.6 if heat_range else row * 0.4)
    per_col = max(1, int(room / row))
    cols = math.ceil(len(players) / per_col)
    col_w = width / max(cols, 1)
    pfont = min(row * 0.62, col_w / 22 / _CHAR)
    out.append('<g class="players">')
    for k, p in enumerate(players):
        col, line = divmod(k, per_col)
        px = left + col * col_w
        py = y + line * row
        colour = _colour(p.colour)
        _token(out, k, p.name, p.token, colour, px + row * 0.4, py + row * 0.45, row * 0.38)
        note = f" ({labels['jail']})" if p.in_jail else ""
        if p.bankrupt:
            note = f" ({labels['out']})"
        text = f"{p.name}: {currency}{p.cash}{note}"
        limit = int((col_w - row) / (pfont * _CHAR))
        if len(text) > limit > 1:
            text = text[: limit - 1] + "\u2026"
        weight = "bold" if k == game.current_player and not game.is_over else "normal"
        decoration = ' text-decoration="line-through"' if p.bankrupt else ""
        out.append(
            f'<text class="player" x="{_n(px + row)}" y="{_n(py + row * 0.45 + pfont * 0.35)}" '
            f'font-size="{_n(pfont)}" font-weight="{weight}" fill="#222222"{decoration}>'
            f"{_text(text)}</text>"
        )
    out.append("</g>")
    if heat_range is not None:
        low, high = heat_range
        steps = 20
        bar_w = width * 0.6
        bx = cx - bar_w / 2
        by = corner + inner - row * 1.3
        bh = row * 0.5
        style = style or {}
        palette = tuple(_colour(c) for c in style.get("palette") or ()) or _HEAT_STOPS_HEX
        low_text = str(style.get("low", _fmt(low)))
        high_text = str(style.get("high", _fmt(high)))
        title = str(style.get("title", labels["heat"]))
        out.append('<g class="heat-legend">')
        for k in range(steps):
            out.append(
                f'<rect class="heat-scale" x="{_n(bx + k * bar_w / steps)}" y="{_n(by)}" '
                f'width="{_n(bar_w / steps + 0.5)}" height="{_n(bh)}" '
                f'fill="{_heat_colour(k / (steps - 1), palette)}"/>'
            )
        lf = row * 0.5
        out.append(
            f'<rect x="{_n(bx)}" y="{_n(by)}" width="{_n(bar_w)}" height="{_n(bh)}" '
            f'fill="none" stroke="#333333" stroke-width="1"/>'
            f'<text x="{_n(bx - lf * 0.4)}" y="{_n(by + bh * 0.8)}" font-size="{_n(lf)}" '
            f'text-anchor="end" fill="#222222">{_text(low_text)}</text>'
            f'<text x="{_n(bx + bar_w + lf * 0.4)}" y="{_n(by + bh * 0.8)}" '
            f'font-size="{_n(lf)}" fill="#222222">{_text(high_text)}</text>'
            f'<text x="{_n(cx)}" y="{_n(by - lf * 0.4)}" font-size="{_n(lf)}" '
            f'text-anchor="middle" fill="#222222">{_text(title)}</text></g>'
        )


def board_svg(
    game: Game,
    *,
    lang: str | None = None,
    heat: Sequence[float] | None = None,
    width: int = 640,
    heat_style: Mapping[str, Any] | None = None,
) -> str:
    """The board of `game` as an SVG document (a string).

    ``lang`` picks the names (default: the game's language). ``heat`` (one number per tile)
    adds a translucent overlay per tile, scaled from the smallest value (light yellow) to the
    largest (dark red), with a legend in the centre. ``width`` is the picture's size in pixels.
    ``heat_style`` draws the heat as a caller chose it (the widget's picture of its heat map):
    ``fills`` (a colour or None per tile), ``labels`` (a text per tile, in the price's place),
    ``palette`` (the legend's colours, low to high), ``low``/``high`` (the legend's end texts)
    and ``title``.
    """
    board = game.board
    n = board.size
    language = lang or game.lang
    if n < 4:
        raise ValueError(f"a board needs at least 4 tiles to draw, not {n}")
    if not isinstance(width, int) or isinstance(width, bool) or width <= 0:
        raise ValueError("width is a positive number of pixels")
    scaled: list[float] | None = None
    heat_range: tuple[float, float] | None = None
    values: list[float] | None = None
    if heat is not None:
        scaled, low, high = _heat_scale(heat, n)
        heat_range = (low, high)
        values = [float(v) for v in heat]
    currency = board.text("board.currency", language) if _has_text(board, "board.currency") \
        else ""
    rects, sides, corner = _layout(n)
    on_tile: dict[int, list[int]] = {}
    for k, p in enumerate(game.players):
        if not p.bankrupt and 0 <= p.position < n:
            on_tile.setdefault(p.position, []).append(k)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ugentopoly-board" width="{width}" '
        f'height="{width}" viewBox="0 0 {_n(SIZE)} {_n(SIZE)}" font-family="{_FONT}">',
        f'<rect x="0" y="0" width="{_n(SIZE)}" height="{_n(SIZE)}" fill="#cfe3cc"/>',
    ]
    style = dict(heat_style or {})
    style_fills = list(style.get("fills") or [None] * n)
    style_labels = style.get("labels")
    if len(style_fills) != n or (style_labels is not None and len(style_labels) != n):
        raise ValueError(f"heat_style needs one fill and one label per tile ({n})")
    _centre(out, game, corner, language, currency, heat_range, style)
    for tile in board.tiles:
        pos = tile.position
        _tile(
            out, game, tile, rects[pos], sides[pos], corner, language, currency,
            on_tile.get(pos, []), None if scaled is None else scaled[pos],
            None if values is None else values[pos], style_fills[pos],
            None if style_labels is None else str(style_labels[pos]),
        )
    out.append(
        f'<rect x="0.75" y="0.75" width="{_n(SIZE - 1.5)}" height="{_n(SIZE - 1.5)}" '
        f'fill="none" stroke="#333333" stroke-width="1.5"/></svg>'
    )
    return "".join(out)
