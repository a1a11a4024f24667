// The board: a ring of tiles on a CSS grid, for any number of tiles (40 -> 11x11, 22 -> 7x6).
// Names run horizontally on the top and bottom rows and are turned on the side columns, each
// side facing its edge of the table; colour bands face the centre. The centre is a slot the
// view fills (title, decks, dice, the current decision).
import { h, replace, safeColour } from "./dom.js";
import { hyphenate } from "./hyphen.js";
import { tokenSvg } from "./tokens.js";
import { t, tokenName } from "./i18n.js";

export const CORNER = 2; // a corner tile is this many ordinary tiles wide

// Grid cell (row, col, side) of each position, starting at the bottom-right corner and going
// clockwise (left along the bottom, up the left side, right along the top, down the right).
export function ringLayout(n) {
  const half = Math.max(4, Math.ceil((n + 4) / 2));
  const cols = Math.ceil(half / 2);
  const rows = half - cols;
  const cells = [];
  for (let c = cols - 1; c >= 0; c--) cells.push({ row: rows - 1, col: c, side: "bottom" });
  for (let r = rows - 2; r >= 0; r--) cells.push({ row: r, col: 0, side: "left" });
  for (let c = 1; c < cols; c++) cells.push({ row: 0, col: c, side: "top" });
  for (let r = 1; r < rows - 1; r++) cells.push({ row: r, col: cols - 1, side: "right" });
  for (const cell of cells) {
    cell.corner = (cell.row === 0 || cell.row === rows - 1) && (cell.col === 0 || cell.col === cols - 1);
  }
  return { cols, rows, cells: cells.slice(0, n) };
}

const KIND_ICON = {
  START: "➜", CHANCE: "?", CHEST: "✉", TAX: "€", JAIL: "▦", GO_TO_JAIL: "⚑",
  FREE_PARKING: "P", RAILWAY: "⇌", UTILITY: "⚡",
};

export function heatColour(value, min, max) {
  const span = max - min;
  const x = span > 0 ? (value - min) / span : 0.5;
  // light yellow -> orange -> deep red
  const hue = 55 - 55 * x;
  const light = 80 - 38 * x;
  return `hsla(${hue.toFixed(0)}, 95%, ${light.toFixed(0)}%, ${(0.3 + 0.55 * x).toFixed(2)})`;
}

function reducedMotion() {
  return typeof window !== "undefined" && window.matchMedia
    && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export class BoardView {
  constructor(onTile) {
    this.onTile = onTile;
    this.el = h("div", { class: "ugw-board-wrap" });
    this.grid = h("div", { class: "ugw-board", "data-ugw": "board" });
    this.center = h("div", { class: "ugw-center", "data-ugw": "center" });
    this.el.appendChild(this.grid);
    this.tiles = [];
    this.keys = [];
    this.data = null;
    this.lang = "en";
    this.fitFrame = null;
    this.resizeObserver = null;
    this.landed = null;
    this.animations = [];
    this.moveFrame = null;
  }

  build(data, lang) {
    this.data = data;
    const n = data.tiles.length;
    const { cols, rows, cells } = ringLayout(n);
    this.layout = { cols, rows, cells };
    const grid = this.grid;
    replace(grid);
    grid.style.gridTemplateColumns = `${CORNER}fr repeat(${cols - 2}, 1fr) ${CORNER}fr`;
    grid.style.gridTemplateRows = `${CORNER}fr repeat(${rows - 2}, 1fr) ${CORNER}fr`;
    const wide = cols - 2 + 2 * CORNER;
    const high = rows - 2 + 2 * CORNER;
    // The wrap sizes the board from these (see styles.css: it fits the window's height too).
    this.el.style.setProperty("--ugw-units", String(wide));
    this.el.style.setProperty("--ugw-ar", String(wide / high));
    grid.dataset.size = String(n);
    this.tiles = [];
    this.keys = [];
    data.tiles.forEach((tile, pos) => {
      const cell = cells[pos];
      const street = tile.kind === "STREET";
      const band = tile.colour || street
        ? h("div", { class: `ugw-band${tile.colour ? "" : " ugw-band-empty"}`,
          style: { background: tile.colour ? safeColour(tile.colour) : "transparent" } })
        : null;
      const build = h("div", { class: "ugw-buildings", "aria-hidden": "true" });
      if (band) band.appendChild(build);
      const name = h("div", { class: "ugw-tile-name" });
      const price = h("div", { class: "ugw-tile-price" });
      // a tile with a price shows its kind's sign beside the price (the name keeps the depth)
      const glyph = KIND_ICON[tile.kind] && !tile.colour ? KIND_ICON[tile.kind] : null;
      const priced = !!(tile.cost || (tile.kind === "TAX" && tile.amount));
      const icon = glyph && (!priced || cell.corner)
        ? h("div", { class: "ugw-tile-icon", "aria-hidden": "true", text: glyph }) : null;
      if (glyph && priced && !cell.corner) price.dataset.glyph = glyph;
      const tokens = h("div", { class: "ugw-tokens", "aria-hidden": "true" });
      const heat = h("div", { class: "ugw-heat", "data-ugw": "heat-cell", "aria-hidden": "true" });
      const sr = h("span", { class: "ugw-sr" });
      const face = h("div", { class: "ugw-face" }, band, tokens, icon, name, price);
      const el = h("div", {
        class: `ugw-tile ugw-side-${cell.side}${cell.corner ? " ugw-corner" : ""} ugw-kind-${tile.kind.toLowerCase()}`,
        role: "button",
        // One tab stop for the whole board (roving tabindex): Tab goes on to the centre's
        // buttons, the arrow keys walk around the ring, Home/End jump to the first/last tile.
        tabindex: pos === 0 ? "0" : "-1",
        "data-ugw-tile": String(pos),
        style: { gridRow: String(cell.row + 1), gridColumn: String(cell.col + 1) },
        onclick: () => this.onTile(pos),
        onfocus: () => this.rove(pos, false),
        onkeydown: (ev) => {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); this.onTile(pos); return; }
          const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
          const target = step ? (pos + step + n) % n : ev.key === "Home" ? 0 : ev.key === "End" ? n - 1 : null;
          if (target !== null) { ev.preventDefault(); this.rove(target, true); }
        },
      }, heat, face, h("span", { class: "ugw-flag", "aria-hidden": "true" }),
      h("span", { class: "ugw-ring", "aria-hidden": "true" }), sr);
      this.tiles.push({ el, name, price, build, tokens, heat, sr, tile });
      grid.appendChild(el);
    });
    this.center.style.gridRow = `2 / ${rows}`;
    this.center.style.gridColumn = `2 / ${cols}`;
    grid.appendChild(this.center);
    this.setLang(lang);
  }

  // Fit every name to its tile: start from the size the tile allows and shrink (never below
  // the floor) until no line is longer than the tile and the lines fit its depth. Words break
  // only at the soft hyphens of hyphenate(). Measured after layout and again on resize.
  fitNames() {
    this.fitFrame = null;
    if (!this.tiles.length) return;
    const cell = this.grid.getBoundingClientRect().width / Number(this.el.style.getPropertyValue("--ugw-units") || 12);
    if (!(cell > 0)) return;
    const floor = cell >= 46 ? 10 : cell >= 40 ? 9 : 8;
    const start = Math.max(floor, Math.min(13, cell * 0.24));
    this.grid.classList.toggle("ugw-small-tiles", cell < 44);
    for (const tl of this.tiles) {
      const el = tl.name;
      let size = tl.el.classList.contains("ugw-corner") ? Math.min(14, start * 1.1) : start;
      el.style.fontSize = `${size}px`;
      while (size > floor && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) {
        size = Math.max(floor, size - 0.5);
        el.style.fontSize = `${size}px`;
      }
      el.classList.toggle("ugw-name-tight", el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    }
  }

  scheduleFit() {
    if (this.fitFrame) return;
    this.fitFrame = requestAnimationFrame(() => this.fitNames());
    if (!this.resizeObserver && typeof ResizeObserver !== "undefined") {
      let width = 0;
      this.resizeObserver = new ResizeObserver((entries) => {
        const w = Math.round(entries[0].contentRect.width);
        if (w !== width) { width = w; this.scheduleFit(); }
      });
      this.resizeObserver.observe(this.grid);
    }
  }

  destroy() {
    if (this.fitFrame) cancelAnimationFrame(this.fitFrame);
    if (this.moveFrame) cancelAnimationFrame(this.moveFrame);
    if (this.resizeObserver) this.resizeObserver.disconnect();
    for (const a of this.animations) a.cancel();
    this.fitFrame = null;
    this.resizeObserver = null;
  }

  setLang(lang) {
    this.lang = lang;
    for (const tl of this.tiles) {
      const text = tl.tile.name[lang] || tl.tile.name.en || tl.tile.id;
      tl.name.textContent = hyphenate(text);
      tl.el.title = text;
      tl.price.textContent = tl.tile.cost ? String(tl.tile.cost)
        : tl.tile.kind === "TAX" && tl.tile.amount ? `−${tl.tile.amount}` : "";
    }
    this.keys = [];
    this.scheduleFit();
  }

  update(state, hotelLevel) {
    if (!this.data || !state.players) return;
    this.drawTiles(state, hotelLevel);
  }

  tileCentre(pos) {
    const tl = this.tiles[pos];
    if (!tl) return null;
    const r = tl.tokens.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  // Narration: each moved token hops tile by tile along its path (after `delay` ms, while the
  // dice settle); a jump to jail glides straight. The DOM is final at once, only the picture
  // moves, so the state shown and the state tested never differ. Returns the duration at once;
  // the animation itself starts in the next frame (no forced layout inside the click's task).
  animateMoves(last, previous, delay) {
    for (const a of this.animations) a.cancel();
    this.animations = [];
    if (this.moveFrame) cancelAnimationFrame(this.moveFrame);
    this.moveFrame = null;
    if (!last || reducedMotion() || typeof Element === "undefined" || !Element.prototype.animate) return 0;
    const n = this.tiles.length;
    const paths = new Map();
    for (const [player, start, end, steps] of last.moves || []) {
      if (typeof start !== "number" || typeof end !== "number") continue;
      const path = paths.get(player) || [start];
      const k = typeof steps === "number" && steps !== 0 && Math.abs(steps) <= n ? steps : null;
      if (k === null) path.push(end);
      else for (let s = 1; s <= Math.abs(k); s++) path.push((start + Math.sign(k) * s + n * 4) % n);
      paths.set(player, path);
    }
    for (const player of last.jail || []) {
      const path = paths.get(player) || (previous && typeof previous[player] === "number" ? [previous[player]] : null);
      const el = this.grid.querySelector(`[data-ugw-token="${player}"]`);
      if (path && el) { path.push(Number(el.closest("[data-ugw-tile]").dataset.ugwTile)); paths.set(player, path); }
    }
    let longest = 0;
    const plans = [];
    for (const [player, path] of paths) {
      if (path.length < 2) continue;
      const hop = Math.max(70, Math.min(140, 1500 / path.length));
      const duration = hop * (path.length - 1);
      longest = Math.max(longest, duration);
      plans.push({ player, path, duration });
    }
    if (!plans.length) return 0;
    this.moveFrame = requestAnimationFrame(() => {
      this.moveFrame = null;
      for (const { player, path, duration } of plans) {
        const el = this.grid.querySelector(`[data-ugw-token="${player}"]`);
        if (!el) continue;
        const now = el.getBoundingClientRect();
        const here = { x: now.left + now.width / 2, y: now.top + now.height / 2 };
        const frames = path.map((pos) => {
          const c = this.tileCentre(pos) || here;
          return { transform: `translate(${(c.x - here.x).toFixed(1)}px, ${(c.y - here.y).toFixed(1)}px)` };
        });
        frames[frames.length - 1] = { transform: "translate(0, 0)" };
        this.animations.push(el.animate(frames, { duration, delay, easing: "linear", fill: "backwards" }));
      }
    });
    return longest;
  }

  // Light up the tile a token landed on, `delay` ms from now (when its hops are done).
  highlight(pos, delay = 0) {
    if (this.landed !== null && this.tiles[this.landed]) this.tiles[this.landed].el.classList.remove("ugw-landed");
    this.landed = typeof pos === "number" && this.tiles[pos] ? pos : null;
    if (this.landed === null) return;
    const el = this.tiles[this.landed].el;
    el.style.setProperty("--ugw-settle", `${Math.round(delay)}ms`);
    el.classList.add("ugw-landed");
  }

  drawTiles(state, hotelLevel) {
    const L = this.lang;
    const mortgaged = new Set(state.mortgaged || []);
    const byTile = new Map();
    state.players.forEach((p, i) => {
      if (p.bankrupt) return;
      if (!byTile.has(p.position)) byTile.set(p.position, []);
      byTile.get(p.position).push(i);
    });
    const current = state.decision ? state.decision.player : null;
    const people = state.players.map((p) => `${p.name}/${p.token}/${p.colour}/${p.in_jail}`).join();
    this.tiles.forEach((tl, pos) => {
      const owner = state.owner ? state.owner[pos] : null;
      const level = state.level ? state.level[pos] : 0;
      const here = byTile.get(pos) || [];
      const key = `${owner}|${level}|${mortgaged.has(pos)}|${here.join(",")}|${current}|${people}|${L}`;
      if (this.keys[pos] === key) return;
      this.keys[pos] = key;
      const ownerP = owner !== null && owner !== undefined ? state.players[owner] : null;
      tl.el.classList.toggle("ugw-owned", !!ownerP);
      tl.el.classList.toggle("ugw-mortgaged", mortgaged.has(pos));
      tl.el.dataset.owner = ownerP ? String(owner) : "";
      tl.el.dataset.level = String(level || 0);
      tl.el.style.setProperty("--ugw-owner", ownerP ? safeColour(ownerP.colour) : "transparent");
      const marks = [];
      if (level && hotelLevel && level >= hotelLevel) {
        marks.push(h("span", { class: "ugw-hotel" }));
      } else if (level > 4) {
        marks.push(h("span", { class: "ugw-house" }), h("span", { class: "ugw-count", text: `×${level}` }));
      } else {
        for (let k = 0; k < (level || 0); k++) marks.push(h("span", { class: "ugw-house" }));
      }
      if (mortgaged.has(pos)) marks.push(h("span", { class: "ugw-mortgage-mark", text: "M" }));
      replace(tl.build, marks);
      replace(tl.tokens, here.map((i) => {
        const p = state.players[i];
        return h("span", {
          class: `ugw-token${i === current ? " ugw-token-current" : ""}${p.in_jail ? " ugw-token-jail" : ""}`,
          "data-ugw-token": String(i),
          title: `${p.name} (${p.token})`,
        }, tokenSvg(p.token, p.colour, 16));
      }));
      // What a screen reader hears besides the name and price: owner, buildings, who is here.
      const said = [];
      if (ownerP) said.push(`${t(L, "owner")}: ${ownerP.name}`);
      if (mortgaged.has(pos)) said.push(t(L, "mortgaged"));
      if (level) said.push(level >= hotelLevel ? t(L, "hotel") : `${level} ${t(L, level === 1 ? "house" : "houses")}`);
      if (here.length) said.push(`${t(L, "here")}: ${here.map((i) => `${state.players[i].name} (${tokenName(L, state.players[i].token)})`).join(", ")}`);
      tl.sr.textContent = said.length ? `, ${said.join("; ")}` : "";
    });
  }

  rove(pos, focus) {
    this.tiles.forEach((tl, k) => { tl.el.tabIndex = k === pos ? 0 : -1; });
    if (focus && this.tiles[pos]) this.tiles[pos].el.focus();
  }

  select(pos) {
    this.tiles.forEach((tl, k) => tl.el.classList.toggle("ugw-selected", k === pos));
  }

  // The heat layer lies under each tile's face (names, colour band, price): colour plus, for a
  // probability mode, the share as a % label at the tile's outer edge (the price makes room).
  // In Jail has its own label on the jail tile, beside Just Visiting.
  setHeat(heat) {
    const values = heat && Array.isArray(heat.values) ? heat.values : null;
    const mode = values ? heat.mode || "custom" : null;
    const prob = mode && mode !== "custom";
    this.grid.classList.toggle("ugw-heat-on", !!values);
    this.grid.classList.toggle("ugw-heat-prob", !!prob);
    if (mode) this.grid.dataset.heatMode = mode; else delete this.grid.dataset.heatMode;
    // a probability scale starts at 0; with nothing counted yet every tile stays at its light end
    const colour = (v) => (heat.diverging ? divergingColour(v, heat.max)
      : prob ? heatColour(v, 0, heat.max > 0 ? heat.max : 1) : heatColour(v, heat.min, heat.max));
    this.tiles.forEach((tl, pos) => {
      const jail = prob && pos === heat.jail_position && typeof heat.jail === "number";
      if (values && pos < values.length) {
        tl.heat.style.background = jail
          ? `linear-gradient(135deg, ${colour(values[pos])} 50%, ${colour(heat.jail)} 50%)` : colour(values[pos]);
        tl.heat.dataset.value = String(values[pos]);
      } else {
        tl.heat.style.background = "";
        delete tl.heat.dataset.value;
      }
      if (jail) tl.heat.dataset.inJail = String(heat.jail); else delete tl.heat.dataset.inJail;
      const labels = [];
      // next roll: only where the roll can end (0 elsewhere: blank, not a wall of "0.0%")
      const blank = (v) => mode === "next" && v === 0;
      if (prob && values && pos < values.length && !blank(values[pos])) {
        labels.push(h("span", { class: "ugw-heat-label", "data-ugw": "heat-label", text: fmtShare(values[pos], heat.diverging) }));
      }
      if (jail && !blank(heat.jail)) {
        labels.push(h("span", { class: "ugw-heat-label ugw-heat-jail", "data-ugw": "heat-jail",
          title: t(this.lang, "in_jail_short"), text: `▦ ${fmtShare(heat.jail, heat.diverging)}` }));
      }
      replace(tl.heat, labels);
    });
  }
}

// A share of rolls as a tile label: "3.2%"; a difference in percentage points: "+0.4".
export function fmtShare(value, signed) {
  const x = 100 * value;
  if (signed) return `${x > 0.005 ? "+" : x < -0.005 ? "−" : ""}${Math.abs(x).toFixed(2)}`;
  return `${x.toFixed(1)}%`;
}

// Observed − exact: blue below, red above, white at 0; the scale is symmetric (−top..+top).
export function divergingColour(value, top) {
  const x = top > 0 ? Math.max(-1, Math.min(1, value / top)) : 0;
  const hue = x < 0 ? 215 : 5;
  const a = Math.abs(x);
  return `hsla(${hue}, 85%, ${(92 - 40 * a).toFixed(0)}%, ${(0.25 + 0.6 * a).toFixed(2)})`;
}
