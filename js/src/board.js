// The board: a ring of tiles on a CSS grid, for any number of tiles (40 -> 11x11, 22 -> 7x6).
import { h, replace, contrast, safeColour } from "./dom.js";

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
  return `hsla(${hue.toFixed(0)}, 95%, ${light.toFixed(0)}%, ${(0.25 + 0.5 * x).toFixed(2)})`;
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
    this.fitFrame = null;
    this.resizeObserver = null;
  }

  build(data, lang) {
    this.data = data;
    const n = data.tiles.length;
    const { cols, rows, cells } = ringLayout(n);
    this.layout = { cols, rows };
    const grid = this.grid;
    replace(grid);
    grid.style.gridTemplateColumns = `1.6fr repeat(${cols - 2}, 1fr) 1.6fr`;
    grid.style.gridTemplateRows = `1.6fr repeat(${rows - 2}, 1fr) 1.6fr`;
    grid.style.setProperty("--ugw-units", String(cols + 1.2));
    grid.style.aspectRatio = `${cols + 1.2} / ${rows + 1.2}`;
    grid.dataset.size = String(n);
    this.tiles = [];
    this.keys = [];
    data.tiles.forEach((tile, pos) => {
      const cell = cells[pos];
      // Streets always get a band (transparent without an area colour): houses sit on it.
      const band = tile.colour || tile.kind === "STREET"
        ? h("div", { class: `ugw-band${tile.colour ? "" : " ugw-band-empty"}`,
          style: { background: tile.colour ? safeColour(tile.colour) : "transparent" } })
        : null;
      const name = h("div", { class: "ugw-tile-name" });
      const price = h("div", { class: "ugw-tile-price" });
      const icon = KIND_ICON[tile.kind] && !tile.colour
        ? h("div", { class: "ugw-tile-icon", "aria-hidden": "true", text: KIND_ICON[tile.kind] })
        : null;
      const owner = h("div", { class: "ugw-owner" });
      const build = h("div", { class: "ugw-buildings" });
      const tokens = h("div", { class: "ugw-tokens" });
      const heat = h("div", { class: "ugw-heat", "data-ugw": "heat-cell" });
      const el = h("div", {
        class: `ugw-tile ugw-side-${cell.side}${cell.corner ? " ugw-corner" : ""} ugw-kind-${tile.kind.toLowerCase()}`,
        role: "button",
        // One tab stop for the whole board (roving tabindex): Tab goes on to the action panel,
        // the arrow keys walk around the ring, Home/End jump to the first/last tile.
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
      }, heat, band, build, icon, name, price, owner, tokens);
      this.tiles.push({ el, name, price, owner, build, tokens, heat, tile });
      grid.appendChild(el);
    });
    this.center.style.gridRow = `2 / ${rows}`;
    this.center.style.gridColumn = `2 / ${cols}`;
    grid.appendChild(this.center);
    this.setLang(lang);
  }

  // Shrink a name whose longest word is wider than its tile ("Mediterranean" in a narrow
  // tile would otherwise break mid-word). Measured after layout, again when the board resizes.
  fitNames() {
    this.fitFrame = null;
    for (const t of this.tiles) {
      const el = t.name;
      // measure with words kept whole: does the longest word fit the tile's width?
      el.classList.remove("ugw-name-long", "ugw-name-xlong");
      el.classList.add("ugw-measure");
      if (el.scrollWidth > el.clientWidth + 1) el.classList.add("ugw-name-long");
      if (el.scrollWidth > el.clientWidth + 1) {
        el.classList.remove("ugw-name-long");
        el.classList.add("ugw-name-xlong");
      }
      el.classList.remove("ugw-measure");
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
    if (this.resizeObserver) this.resizeObserver.disconnect();
    this.fitFrame = null;
    this.resizeObserver = null;
  }

  setLang(lang) {
    for (const t of this.tiles) {
      const text = t.tile.name[lang] || t.tile.name.en || t.tile.id;
      t.name.textContent = text;
      t.el.title = text;
      t.el.setAttribute("aria-label", text);
      t.price.textContent = t.tile.cost ? String(t.tile.cost)
        : t.tile.kind === "TAX" && t.tile.amount ? `-${t.tile.amount}` : "";
    }
    this.scheduleFit();
  }

  update(state, hotelLevel) {
    if (!this.data || !state.players) return;
    const before = this.tokenRects();
    this.drawTiles(state, hotelLevel);
    this.glideTokens(before);
  }

  tokenRects() {
    const rects = new Map();
    for (const el of this.grid.querySelectorAll("[data-ugw-token]")) {
      rects.set(el.dataset.ugwToken, el.getBoundingClientRect());
    }
    return rects;
  }

  // A moved token glides from where it was (FLIP): the DOM is final at once, only the picture
  // moves, so the state shown and the state tested never differ.
  glideTokens(before) {
    if (!before.size || typeof window === "undefined") return;
    if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    for (const el of this.grid.querySelectorAll("[data-ugw-token]")) {
      const old = before.get(el.dataset.ugwToken);
      if (!old || typeof el.animate !== "function") continue;
      const now = el.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
      el.animate(
        [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
        { duration: 420, easing: "cubic-bezier(0.3, 0.7, 0.4, 1)" },
      );
    }
  }

  drawTiles(state, hotelLevel) {
    const mortgaged = new Set(state.mortgaged || []);
    const byTile = new Map();
    state.players.forEach((p, i) => {
      if (p.bankrupt) return;
      if (!byTile.has(p.position)) byTile.set(p.position, []);
      byTile.get(p.position).push(i);
    });
    const current = state.decision ? state.decision.player : null;
    this.tiles.forEach((t, pos) => {
      const owner = state.owner ? state.owner[pos] : null;
      const level = state.level ? state.level[pos] : 0;
      const here = byTile.get(pos) || [];
      const key = `${owner}|${level}|${mortgaged.has(pos)}|${here.join(",")}|${current}|${state.players.map((p) => p.token).join()}`;
      if (this.keys[pos] === key) return;
      this.keys[pos] = key;
      const ownerP = owner !== null && owner !== undefined ? state.players[owner] : null;
      t.el.classList.toggle("ugw-owned", !!ownerP);
      t.el.classList.toggle("ugw-mortgaged", mortgaged.has(pos));
      t.el.dataset.owner = ownerP ? String(owner) : "";
      t.el.dataset.level = String(level || 0);
      if (ownerP) {
        t.owner.style.background = safeColour(ownerP.colour);
        t.owner.title = ownerP.name;
      } else {
        t.owner.style.background = "";
        t.owner.title = "";
      }
      const marks = [];
      if (level && hotelLevel && level >= hotelLevel) {
        marks.push(h("span", { class: "ugw-hotel", title: "hotel" }));
      } else if (level > 4) {
        marks.push(h("span", { class: "ugw-house", title: `${level}` }), h("span", { class: "ugw-count", text: `×${level}` }));
      } else {
        for (let k = 0; k < (level || 0); k++) marks.push(h("span", { class: "ugw-house" }));
      }
      if (mortgaged.has(pos)) marks.push(h("span", { class: "ugw-mortgage-mark", text: "M" }));
      replace(t.build, marks);
      replace(t.tokens, here.map((i) => {
        const p = state.players[i];
        const colour = safeColour(p.colour);
        return h("span", {
          class: `ugw-token${i === current ? " ugw-token-current" : ""}${p.in_jail ? " ugw-token-jail" : ""}`,
          "data-ugw-token": String(i),
          title: `${p.name} (${p.token})`,
          style: { background: colour, color: contrast(colour) },
          text: (p.token || p.name || "?").slice(0, 1).toUpperCase(),
        });
      }));
    });
  }

  rove(pos, focus) {
    this.tiles.forEach((t, k) => { t.el.tabIndex = k === pos ? 0 : -1; });
    if (focus && this.tiles[pos]) this.tiles[pos].el.focus();
  }

  select(pos) {
    this.tiles.forEach((t, k) => t.el.classList.toggle("ugw-selected", k === pos));
  }

  setHeat(heat) {
    const values = heat && Array.isArray(heat.values) ? heat.values : null;
    this.grid.classList.toggle("ugw-heat-on", !!values);
    this.tiles.forEach((t, pos) => {
      if (values && pos < values.length) {
        t.heat.style.background = heatColour(values[pos], heat.min, heat.max);
        t.heat.dataset.value = String(values[pos]);
      } else {
        t.heat.style.background = "";
        delete t.heat.dataset.value;
      }
    });
  }
}
