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

// Type grows with the board: tile names start at NAME_SHARE of the board's side (then shrink
// to fit their tile, never below the floor), so a board twice as large has names twice as large.
export const NAME_SHARE = 0.019;

function reducedMotion() {
  return typeof window !== "undefined" && window.matchMedia
    && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export class BoardView {
  constructor(onTile, onResize) {
    this.onTile = onTile;
    this.onResize = onResize || (() => {});
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
        class: `ugw-tile ugw-side-${cell.side}${cell.corner ? " ugw-corner" : ""} ugw-kind-${tile.kind.toLowerCase()}${band && tile.colour ? " ugw-has-band" : ""}`,
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
    const side = this.grid.getBoundingClientRect().width;
    const cell = side / Number(this.el.style.getPropertyValue("--ugw-units") || 12);
    if (!(cell > 0)) return;
    this.onResize(side);
    // a page may raise the floor (the classroom's projector: --ugw-name-floor: 16px)
    const raised = parseFloat(getComputedStyle(this.el).getPropertyValue("--ugw-name-floor"));
    const floor = raised > 0 ? raised : cell >= 46 ? 10 : cell >= 40 ? 9 : 8;
    const start = Math.max(floor, Math.min(cell * 0.24, side * NAME_SHARE));
    this.grid.classList.toggle("ugw-small-tiles", cell < 44);
    for (const tl of this.tiles) {
      const el = tl.name;
      let size = tl.el.classList.contains("ugw-corner") ? start * 1.1 : start;
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
      tl.name.textContent = hyphenate(text, tl.tile.breaks && tl.tile.breaks[lang]);
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

  // The auctioned tile stands out while its auction runs.
  auction(pos) {
    this.tiles.forEach((tl, k) => tl.el.classList.toggle("ugw-auction", k === pos));
  }

  // Where a next roll starts (the "next" heat mode): the current player's tile.
  markStart(pos) {
    this.tiles.forEach((tl, k) => tl.el.classList.toggle("ugw-heat-start", k === pos));
  }

  // Light up the tile a token landed on, `delay` ms from now (when its hops are done): a ring
  // outside the tile (nothing of the tile is covered) in ink and paper, no owner's colour.
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

  // The heat layer lies under each tile's face (names, price): an opaque fill per tile in the
  // colour Python chose (heat.fills; none where no roll ends), the names and price in the ink
  // that reads on it, and for a probability mode the share as a % label at the tile's outer
  // edge. The colour band keeps the tile's own colour around it, so it never drowns; owner
  // frames and houses fade while a heat mode is on. The jail tile shows both its figures,
  // labelled: visiting and in jail. The hottest and coldest tiles carry a mark.
  setHeat(heat) {
    const values = heat && Array.isArray(heat.values) ? heat.values : null;
    const mode = values ? heat.mode || "custom" : null;
    const prob = mode && mode !== "custom";
    const L = this.lang;
    this.grid.classList.toggle("ugw-heat-on", !!values);
    this.grid.classList.toggle("ugw-heat-prob", !!prob);
    if (mode) this.grid.dataset.heatMode = mode; else delete this.grid.dataset.heatMode;
    const fills = values && Array.isArray(heat.fills) ? heat.fills : [];
    const inks = values && Array.isArray(heat.inks) ? heat.inks : [];
    const notes = (values && heat.notes) || {};
    let refit = false;
    this.tiles.forEach((tl, pos) => {
      const jail = prob && pos === heat.jail_position && typeof heat.jail === "number";
      const fill = values && pos < values.length ? safeColour(fills[pos], "") : "";
      if (values && pos < values.length) {
        const cell = fill || "transparent";
        tl.heat.style.background = jail && heat.jail_fill
          ? `linear-gradient(135deg, ${cell} 50%, ${safeColour(heat.jail_fill)} 50%)` : cell;
        tl.heat.dataset.value = String(values[pos]);
      } else {
        tl.heat.style.background = "";
        delete tl.heat.dataset.value;
      }
      tl.el.classList.toggle("ugw-heat-filled", !!fill);
      if (fill && inks[pos]) tl.el.style.setProperty("--ugw-ink", safeColour(inks[pos])); else tl.el.style.removeProperty("--ugw-ink");
      if (jail) tl.heat.dataset.inJail = String(heat.jail); else delete tl.heat.dataset.inJail;
      const note = notes.hot && notes.hot.pos === pos ? "hot" : notes.cold && notes.cold.pos === pos ? "cold" : "";
      if (note && prob) tl.el.dataset.heatNote = note; else delete tl.el.dataset.heatNote;
      const labels = [];
      // next roll: only where the roll can end (0 elsewhere: blank, not a wall of "0.0%")
      const blank = (v) => mode === "next" && v === 0;
      const mark = note === "hot" ? "▲ " : note === "cold" ? "▼ " : "";
      if (prob && values && pos < values.length && !blank(values[pos])) {
        labels.push(h("span", { class: "ugw-heat-label", "data-ugw": "heat-label",
          text: `${jail ? `${t(L, "visiting")} ` : mark}${fmtShare(values[pos], heat.diverging)}` }));
      }
      if (jail && !blank(heat.jail)) {
        labels.push(h("span", { class: "ugw-heat-label ugw-heat-jail", "data-ugw": "heat-jail",
          title: t(L, "in_jail_short"), text: `▦ ${t(L, "in_cell")} ${fmtShare(heat.jail, heat.diverging)}` }));
      }
      replace(tl.heat, labels);
      // a corner's name and icon stand above its labels (the jail corner has two)
      if (tl.el.classList.contains("ugw-corner")) {
        const lines = String(prob ? labels.length : 0);
        if (tl.el.dataset.heatLines !== lines) { tl.el.dataset.heatLines = lines; refit = true; }
      }
    });
    if (refit) this.scheduleFit();
  }
}

// A share of rolls as a tile label: "3.2%"; a difference in percentage points: "+0.4".
export function fmtShare(value, signed) {
  const x = 100 * value;
  if (signed) return `${x > 0.005 ? "+" : x < -0.005 ? "−" : ""}${Math.abs(x).toFixed(2)}`;
  return `${x.toFixed(1)}%`;
}
