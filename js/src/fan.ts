// Roll once: the fan of where the next roll can end, drawn over the board as arrows from the
// current token's tile, each with its probability (Python's next_roll_distribution, in the
// `fan` trait), then the tile it landed on ringed. An SVG layer over the grid, redrawn when
// the board changes size; it takes no clicks.
import { svgEl } from "./dom.js";
import { t } from "./i18n.js";
import { fmtShare } from "./board.js";
import type { BoardView } from "./board.js";
import type { Empty, Fan, Lang } from "./contract.js";

interface Anchor { x: number; y: number; dx: number; dy: number }

export class FanLayer {
  readonly board: BoardView;
  readonly svg: SVGSVGElement;
  fan: Fan | null;
  lang: Lang;

  constructor(boardView: BoardView) {
    this.board = boardView;
    this.svg = svgEl("svg", { class: "ugw-fan", "data-ugw": "fan", "aria-hidden": "true" });
    this.fan = null;
    this.lang = "en";
    boardView.el.appendChild(this.svg);
  }

  // The middle of the tile's inner edge (the side facing the board's centre; for a corner,
  // its inner corner), relative to the grid, and which way the centre lies from there.
  anchor(pos: number, box: DOMRect): Anchor | null {
    const tl = this.board.tiles[pos];
    if (!tl) return null;
    const r = tl.el.getBoundingClientRect();
    const L = r.left - box.left, T = r.top - box.top, R = L + r.width, B = T + r.height;
    const cl = tl.el.classList;
    const mx = box.width / 2, my = box.height / 2;
    let x = (L + R) / 2, y = (T + B) / 2, dx = 0, dy = 0;
    if (cl.contains("ugw-corner")) {
      x = Math.abs(L - mx) < Math.abs(R - mx) ? L : R;
      y = Math.abs(T - my) < Math.abs(B - my) ? T : B;
      dx = Math.sign(mx - x); dy = Math.sign(my - y);
    } else if (cl.contains("ugw-side-bottom")) { y = T; dy = -1; }
    else if (cl.contains("ugw-side-top")) { y = B; dy = 1; }
    else if (cl.contains("ugw-side-left")) { x = R; dx = 1; }
    else { x = L; dx = -1; }
    return { x, y, dx, dy };
  }

  // fan: {player, from, arrows: [[pos, p]], jail, landed, landed_jail} or {} (nothing shown)
  draw(fan: Fan | Empty | null, lang: Lang): void {
    this.fan = fan && Array.isArray(fan.arrows) ? fan as Fan : null;
    this.lang = lang || this.lang;
    this.redraw();
  }

  redraw(): void {
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const fan = this.fan;
    this.board.grid.classList.toggle("ugw-fan-on", !!fan);
    if (!fan || !this.board.tiles.length) { svg.removeAttribute("data-landed"); return; }
    const box = this.board.grid.getBoundingClientRect();
    svg.setAttribute("viewBox", `0 0 ${box.width.toFixed(1)} ${box.height.toFixed(1)}`);
    svg.setAttribute("width", box.width.toFixed(1));
    svg.setAttribute("height", box.height.toFixed(1));
    const from = this.anchor(fan.from, box);
    if (!from) return;
    const unit = Math.max(8, Math.min(box.width, box.height) / 60);
    const fs = Math.max(10, unit * 1.05);
    const defs = svgEl("defs");
    const head = svgEl("marker", { id: `ugw-fan-head-${fan.player}`, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
    head.appendChild(svgEl("path", { d: "M0 0L10 5L0 10z", class: "ugw-fan-head" }));
    defs.appendChild(head);
    svg.appendChild(defs);
    const targets: { pos: number; p: number; key: string; jail?: boolean }[] = fan.arrows.map(([pos, p]) => ({ pos, p, key: String(pos) }));
    const jail = typeof fan.jail === "number" && fan.jail > 0 ? this.board.tiles.findIndex((tl) => tl.tile.kind === "JAIL") : -1;
    if (jail >= 0) targets.push({ pos: jail, p: fan.jail, key: "jail", jail: true });
    const top = Math.max(...targets.map((a) => a.p), 1e-9);
    const landedKey = fan.landed === null || fan.landed === undefined ? null : fan.landed_jail ? "jail" : String(fan.landed);
    const start = { x: from.x + from.dx * unit * 0.9, y: from.y + from.dy * unit * 0.9 };
    for (const a of targets) {
      const to = this.anchor(a.pos, box);
      if (!to) continue;
      const text = `${a.jail ? "▦ " : ""}${fmtShare(a.p, false)}`;
      const w = fs * 0.6 * text.length + fs * 0.6, hgt = fs * 1.3;
      // the label just inside the ring, in front of its tile; the arrow ends at the label
      // (In Jail's label further along the corner's diagonal: clear of its neighbours' labels)
      const lx = to.x + to.dx * (w / 2 + 3) + (a.jail ? to.dx * w * 1.2 : 0);
      const ly = to.y + to.dy * (hgt / 2 + 3) + (a.jail ? to.dy * hgt * 1.6 : 0);
      const tip = { x: lx + to.dx * (w / 2 + 1), y: ly + to.dy * (hgt / 2 + 1) };
      // a curve bowed towards the board's centre
      // a curve bowed a little towards the board's centre (the title and legend stay readable)
      const cx = (start.x + tip.x) / 2 + (box.width / 2 - (start.x + tip.x) / 2) * 0.28;
      const cy = (start.y + tip.y) / 2 + (box.height / 2 - (start.y + tip.y) / 2) * 0.28;
      const landed = landedKey === a.key;
      const g = svgEl("g", { class: `ugw-fan-arrow${landed ? " ugw-fan-landed" : ""}`, "data-ugw": "fan-arrow",
        "data-pos": a.key, "data-p": a.p });
      g.appendChild(svgEl("path", { d: `M${start.x.toFixed(1)} ${start.y.toFixed(1)}Q${cx.toFixed(1)} ${cy.toFixed(1)} ${tip.x.toFixed(1)} ${tip.y.toFixed(1)}`,
        class: "ugw-fan-line", "stroke-width": (1 + (unit / 3) * (a.p / top)).toFixed(2), "marker-end": `url(#ugw-fan-head-${fan.player})` }));
      g.appendChild(svgEl("rect", { x: (lx - w / 2).toFixed(1), y: (ly - hgt / 2).toFixed(1), width: w.toFixed(1), height: hgt.toFixed(1),
        rx: (fs * 0.3).toFixed(1), class: "ugw-fan-pill" }));
      g.appendChild(svgEl("text", { x: lx.toFixed(1), y: (ly + fs * 0.36).toFixed(1), "font-size": fs.toFixed(1), "text-anchor": "middle",
        class: "ugw-fan-text", "data-ugw": "fan-label" }, text));
      svg.appendChild(g);
      if (landed) {
        const tl = this.board.tiles[a.pos].el.getBoundingClientRect();
        svg.appendChild(svgEl("rect", { x: (tl.left - box.left + 2).toFixed(1), y: (tl.top - box.top + 2).toFixed(1),
          width: (tl.width - 4).toFixed(1), height: (tl.height - 4).toFixed(1), class: "ugw-fan-ring", "data-ugw": "fan-landed", "data-pos": a.key }));
      }
    }
    svg.appendChild(svgEl("circle", { cx: start.x.toFixed(1), cy: start.y.toFixed(1), r: (unit * 0.55).toFixed(1), class: "ugw-fan-start", "data-ugw": "fan-start" }));
    // "start" on the tile itself, between the circle and the tile's outer edge
    svg.appendChild(svgEl("text", { x: (from.x - from.dx * unit * 2.2).toFixed(1),
      y: (from.y - from.dy * unit * 2.2 + fs * 0.35).toFixed(1), "font-size": fs.toFixed(1), "text-anchor": "middle",
      class: "ugw-fan-text ugw-fan-start-label" }, t(this.lang, "fan_from")));
    if (landedKey !== null) svg.dataset.landed = landedKey; else svg.removeAttribute("data-landed");
  }
}
