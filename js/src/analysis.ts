// Luck or skill: the live lines under the win bar (the last decision's verdict, the last
// roll's luck), and the Analysis tab: each player's luck and what their decisions cost over the
// game (native SVG), the summary table, the biggest mistakes (each opens the position before
// it, read-only), the analysis in words, the 36-roll map of the player about to roll, and Save
// picture. Python computes every figure and colour (traits `analysis`, `roll_map`); every
// figure drawn carries Python's value in a data- attribute.
import { h, replace, safeColour, svgEl } from "./dom.js";
import { t, tf } from "./i18n.js";
import { hyphenate } from "./hyphen.js";
import type { Analysis, AnalysisReport, GameState, Lang, RollMapPanel, RollMapTrait } from "./contract.js";

const FONT = 12;
const pct = (p: number): string => `${Math.round(100 * p)}%`;
export const signed = (x: number): string => {
  const v = Math.round(x);
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0";
};

/** The analysis' report, when there is one (running or done). */
export function report(a: Analysis | null | undefined): AnalysisReport | null {
  return a && "status" in a && (a.status === "running" || a.status === "done") ? a : null;
}

// ------------------------------------------------------------------ live, under the win bar

export function renderLive(el: HTMLElement, a: Analysis | null, state: GameState | null, L: Lang): void {
  if (!a || !("on" in a) || !a.on || !state) { replace(el); el.hidden = true; return; }
  el.hidden = false;
  const r = report(a);
  const lines: HTMLElement[] = [];
  if (a.status === "error") lines.push(h("span", { class: "ugw-muted", "data-ugw": "analysis-error", text: a.text[L] || a.text.en }));
  else if (!r || (!r.verdict && !r.luck)) lines.push(h("span", { class: "ugw-muted", text: `${t(L, "analysis_live")}: ${t(L, "analysis_waiting")}` }));
  if (r && r.verdict) {
    const v = r.verdict;
    lines.push(h("span", {
      class: `ugw-an-verdict ugw-verdict-${v.verdict}`, "data-ugw": "analysis-verdict", "data-verdict": v.verdict,
      "data-loss": String(v.loss), "data-loss-se": String(v.loss_se), "data-index": String(v.index), "data-player": String(v.player),
    }, h("span", { class: "ugw-an-badge", text: t(L, `verdict_${v.verdict}`) }), " ", v.text[L] || v.text.en));
  }
  if (r && r.luck) {
    const k = r.luck;
    lines.push(h("span", {
      class: `ugw-an-luck ${k.luck >= 0.5 ? "ugw-lucky" : k.luck <= -0.5 ? "ugw-unlucky" : ""}`, "data-ugw": "analysis-luck",
      "data-luck": String(k.luck), "data-luck-se": String(k.luck_se), "data-index": String(k.index), "data-player": String(k.player),
      text: k.text[L] || k.text.en,
    }));
  }
  if (r && r.upto < r.actions) lines.push(h("span", { class: "ugw-muted", "data-ugw": "analysis-behind", text: t(L, "analysis_behind") }));
  replace(el, ...lines);
  el.dataset.seq = String(a.seq);
  el.dataset.status = a.status;
  el.dataset.upto = r ? String(r.upto) : "";
}

// ------------------------------------------------------------------ the chart

// Each player's luck (solid) and the cost of their decisions (dashed, below 0: what they
// lost), summed turn by turn, in points; the zero line and the turns on the x axis.
export function luckChart(r: AnalysisReport, state: GameState, L: Lang, width = 480): SVGSVGElement {
  const pts = r.series;
  const n = r.players.length;
  // drawn at the panel's width: its text stays readable in a narrow panel too
  const W = Math.round(Math.max(280, Math.min(560, width))), H = Math.round(W * 0.48);
  let lo = -1, hi = 1;
  for (const p of pts) for (let i = 0; i < n; i++) { hi = Math.max(hi, p.luck[i], -p.skill[i]); lo = Math.min(lo, p.luck[i], -p.skill[i]); }
  const span = hi - lo;
  lo -= span * 0.05; hi += span * 0.05;
  const step = [1, 2, 5, 10, 20, 25, 50, 100].find((s) => (hi - lo) / s <= 6) || 200;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) ticks.push(v);
  const pad = { l: 12 + FONT * 0.62 * Math.max(...ticks.map((v) => signed(v).length)), r: 10, t: 10, b: 34 };
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", class: "ugw-chart", "data-ugw": "analysis-chart", "data-points": pts.length });
  svg.appendChild(svgEl("title", {}, `${t(L, "analysis_chart")}: ${r.players.map((p) => `${p.name} ${t(L, "luck")} ${signed(p.luck)}, ${t(L, "skill_loss")} ${signed(p.skill_loss)}`).join("; ")}`));
  const turns = pts.map((p) => p.turn);
  const t0 = turns.length ? Math.min(...turns) : 0;
  const t1 = Math.max(t0 + 1, ...turns);
  const x = (turn: number): number => pad.l + ((turn - t0) / (t1 - t0)) * (W - pad.l - pad.r);
  const y = (v: number): number => pad.t + ((hi - v) / (hi - lo)) * (H - pad.t - pad.b);
  svg.appendChild(svgEl("path", { d: `M${pad.l} ${pad.t}V${H - pad.b}H${W - pad.r}`, fill: "none", stroke: "currentColor", opacity: 0.6 }));
  for (const v of ticks) {
    svg.appendChild(svgEl("text", { x: pad.l - 4, y: y(v) + 4, "font-size": FONT, fill: "currentColor", "text-anchor": "end" }, signed(v)));
    if (v === 0) svg.appendChild(svgEl("path", { d: `M${pad.l} ${y(0)}H${W - pad.r}`, stroke: "currentColor", opacity: 0.45, "stroke-dasharray": "2 3", "data-ugw": "analysis-zero" }));
  }
  svg.appendChild(svgEl("text", { x: pad.l, y: H - 18, "font-size": FONT, fill: "currentColor" }, `${t(L, "turn")} ${t0}`));
  svg.appendChild(svgEl("text", { x: W - pad.r, y: H - 18, "font-size": FONT, fill: "currentColor", "text-anchor": "end" }, String(t1)));
  svg.appendChild(svgEl("text", { x: (pad.l + W - pad.r) / 2, y: H - 4, "font-size": FONT, fill: "currentColor", "text-anchor": "middle" }, t(L, "analysis_axis")));
  for (let i = 0; i < n; i++) {
    const colour = safeColour(state.players[i] && state.players[i].colour);
    const line = (key: "luck" | "skill", sign: number): void => {
      const coords = pts.map((p) => `${x(p.turn).toFixed(1)},${y(sign * p[key][i]).toFixed(1)}`);
      if (coords.length === 1) coords.push(`${(W - pad.r).toFixed(1)},${coords[0].split(",")[1]}`);
      const last = pts.length ? pts[pts.length - 1][key][i] : 0;
      svg.appendChild(svgEl("polyline", {
        points: coords.join(" "), fill: "none", stroke: colour, "stroke-width": key === "luck" ? 2.6 : 2.2,
        "stroke-dasharray": key === "luck" ? "none" : "6 4", "stroke-linejoin": "round",
        "data-ugw": `analysis-${key}-line-${i}`, "data-final": String(last),
      }));
    };
    line("luck", 1);
    line("skill", -1);
  }
  return svg;
}

function summaryTable(r: AnalysisReport, state: GameState, L: Lang): HTMLTableElement {
  const head = ["player", "luck", "skill_loss", "mistakes_col", "adjusted"].map((k) => t(L, k));
  // (roles: a narrow panel shows each player as a small card of labelled figures, which
  // drops a table's own semantics in some browsers)
  const cell = (j: number, text: string, more: Record<string, string> = {}): HTMLElement =>
    h("td", { role: "cell", class: "ugw-num", "data-label": head[j], ...more }, h("span", { class: "ugw-an-fig", text }));
  return h("table", { class: "ugw-an-table", role: "table", "data-ugw": "analysis-summary" },
    h("caption", { class: "ugw-sr", text: t(L, "analysis_summary") }),
    h("thead", { role: "rowgroup" }, h("tr", { role: "row" }, head.map((text, j) => h("th", { role: "columnheader", scope: "col", class: j ? "ugw-num" : "", text })))),
    h("tbody", { role: "rowgroup" }, r.players.map((p) => h("tr", {
      role: "row", "data-ugw": `analysis-player-${p.player}`, "data-luck": String(p.luck), "data-skill-loss": String(p.skill_loss),
      "data-adjusted": String(p.adjusted), "data-adjusted-low": String(p.adjusted_low), "data-adjusted-high": String(p.adjusted_high),
      "data-mistakes": String(p.mistakes), "data-blunders": String(p.blunders), "data-inaccuracies": String(p.inaccuracies),
    },
    h("td", { role: "rowheader" }, h("span", { class: "ugw-an-dot", style: { background: safeColour(state.players[p.player] && state.players[p.player].colour) } }), p.name),
    cell(1, `${signed(p.luck)} ± ${Math.round(p.luck_se)}`),
    cell(2, `${Math.round(p.skill_loss)} ± ${Math.round(p.skill_loss_se)}`),
    cell(3, `${p.inaccuracies} / ${p.mistakes} / ${p.blunders}`, { title: t(L, "mistakes_title") }),
    cell(4, `${Math.round(p.adjusted)} [${Math.round(p.adjusted_low)}, ${Math.round(p.adjusted_high)}]`)))));
}

// ------------------------------------------------------------------ the 36-roll map

// A grid of dice_sides × dice_sides: rows the first die, columns the second; each cell the
// landing tile and the chance to win after that roll, coloured by its gain (Python's colours),
// doubles outlined; the legend says what the colours mean.
export function rollMapGrid(m: RollMapPanel, L: Lang, close?: () => void): HTMLElement {
  const sides = m.sides;
  const grid = h("div", {
    class: "ugw-rollmap-grid", role: "table", "aria-label": tf(L, "roll_map_for", { p: m.name }),
    style: { gridTemplateColumns: `auto repeat(${sides}, minmax(0, 1fr))` },
  });
  // rows as ARIA rows laid out by the grid itself (display: contents)
  const head = h("div", { class: "ugw-rollmap-row", role: "row" },
    h("span", { class: "ugw-rollmap-corner", role: "columnheader", "aria-label": t(L, "roll_map_axes") }));
  for (let b = 1; b <= sides; b++) head.appendChild(h("span", { class: "ugw-rollmap-head", role: "columnheader", text: String(b) }));
  grid.appendChild(head);
  for (let a = 1; a <= sides; a++) {
    const row = h("div", { class: "ugw-rollmap-row", role: "row" },
      h("span", { class: "ugw-rollmap-head", role: "rowheader", text: String(a) }));
    for (let b = 1; b <= sides; b++) {
      const cell = m.cells.find((c) => c.dice[0] === a && c.dice[1] === b);
      if (!cell) { row.appendChild(h("span", { role: "cell" })); continue; }
      const name = cell.name[L] || cell.name.en;
      const end = cell.end !== cell.tile ? ` → ${cell.end_name[L] || cell.end_name.en}` : "";
      row.appendChild(h("span", {
        class: `ugw-rollmap-cell${cell.double ? " ugw-double" : ""}`, role: "cell", "data-ugw": "roll-cell",
        "data-dice": cell.dice.join(","), "data-tile": String(cell.tile), "data-end": String(cell.end),
        "data-p-win": String(cell.p_win), "data-gain": String(cell.gain), "data-double": cell.double ? "true" : "false",
        title: `${cell.dice.join("+")}${cell.double ? ` (${t(L, "double")})` : ""}: ${name}${end} · ${pct(cell.p_win)} (${signed(cell.gain)} ${t(L, "points")})`,
        style: { background: safeColour(cell.fill), color: safeColour(cell.ink, "#000") },
      },
      h("span", { class: "ugw-rollmap-name", text: hyphenate(name) }),
      h("span", { class: "ugw-rollmap-p", text: pct(cell.p_win) })));
    }
    grid.appendChild(row);
  }
  const stops = m.palette.map((c) => safeColour(c)).join(", ");
  const legend = h("div", { class: "ugw-rollmap-legend", "data-ugw": "roll-legend", "data-scale": String(m.scale) },
    h("span", { text: `−${Math.round(m.scale)}` }),
    h("span", { class: "ugw-legend-bar", style: { background: `linear-gradient(to right, ${stops})` } }),
    h("span", { text: `+${Math.round(m.scale)} ${t(L, "points")}` }),
    h("span", { class: "ugw-muted", text: `${t(L, "roll_map_legend")}; ${t(L, "roll_map_axes")}` }));
  return h("div", { class: "ugw-rollmap", "data-ugw": "roll-map", "data-seq": String(m.seq), "data-player": String(m.player), "data-p-mean": String(m.p_mean) },
    h("div", { class: "ugw-rollmap-top" },
      h("span", { class: "ugw-odds-head", title: tf(L, "roll_map_note", { n: m.rollouts }), text: tf(L, "roll_map_head", { p: m.name, pct: pct(m.p_mean) }) }),
      close ? h("button", { type: "button", class: "ugw-close", "data-ugw": "roll-map-close", "aria-label": t(L, "close"), text: "×", onclick: close }) : null),
    grid, legend,
    m.browser ? h("div", { class: "ugw-muted", "data-ugw": "roll-map-budget", "data-rollouts": String(m.rollouts), text: tf(L, "roll_map_browser", { n: m.rollouts }) }) : null);
}

// ------------------------------------------------------------------ the tab

export interface AnalysisCtx {
  analysis: Analysis;
  rollMap: RollMapTrait;
  state: GameState | null;
  lang: Lang;
  /** null: no rollouts here (the browser site) */
  toggle: ((on: boolean) => void) | null;
  /** null: nobody is about to roll (a person) */
  askRollMap: (() => void) | null;
  open: (index: number) => void;
  savePicture: () => void;
  pictures: HTMLElement;
  /** the panel's width in px (0: not laid out yet) */
  width: number;
}

export function renderAnalysis(el: HTMLElement, o: AnalysisCtx): void {
  const L = o.lang;
  const a = o.analysis || {};
  const on = "on" in a && !!a.on;
  const r = report(a);
  const parts: (HTMLElement | SVGElement | null)[] = [];
  parts.push(h("div", { class: "ugw-odds-row" },
    o.toggle ? h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "analysis-toggle", "aria-pressed": on ? "true" : "false",
      text: t(L, on ? "analysis_hide" : "analysis_show"), onclick: () => o.toggle && o.toggle(!on) }) : h("span", { class: "ugw-muted", text: t(L, "analysis_unavailable") }),
    h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "roll-map-ask", disabled: !o.askRollMap || !o.toggle,
      text: t(L, "roll_map_ask"), onclick: () => o.askRollMap && o.askRollMap() })));
  // the browser site plays fewer rollouts (Pyodide, slices of one thread): its budget is said
  if (on && "browser" in a && a.browser) {
    parts.push(h("p", { class: "ugw-muted ugw-an-budget", "data-ugw": "analysis-budget", "data-rollouts": String(a.rollouts || 0),
      "data-chance-rollouts": String(a.chance_rollouts || 0), text: tf(L, "analysis_browser", { n: a.rollouts || 0, c: a.chance_rollouts || 0 }) }));
  }
  parts.push(h("details", { class: "ugw-an-help" }, h("summary", { text: t(L, "analysis_what") }), h("p", { class: "ugw-muted", text: t(L, "analysis_help") })));
  const rm = o.rollMap || {};
  if ("status" in rm && rm.status === "done" && o.state && rm.seq === o.state.seq) {
    parts.push(h("p", { class: "ugw-muted", "data-ugw": "roll-map-status", "data-status": "done", text: tf(L, "roll_map_shown", { p: rm.name }) }));
  } else if ("status" in rm && rm.status !== "done" && o.state && rm.seq === o.state.seq) {
    parts.push(h("p", { class: "ugw-muted", "data-ugw": "roll-map-status", "data-status": rm.status, text: rm.text[L] || rm.text.en }));
  }
  if (on && !r) parts.push(h("p", { class: "ugw-muted", "data-ugw": "analysis-status", text: a.status === "error" ? (a.text[L] || a.text.en) : t(L, "analysis_waiting") }));
  if (r && o.state) {
    parts.push(h("p", { class: "ugw-an-explain", "data-ugw": "analysis-explain", text: r.explain[L] || r.explain.en }));
    parts.push(h("figure", { class: "ugw-figure" }, luckChart(r, o.state, L, o.width),
      h("figcaption", { class: "ugw-muted", text: t(L, "analysis_chart_caption") })));
    // a table wider than a narrow panel scrolls sideways (focusable: keys scroll it too)
    parts.push(h("div", { class: "ugw-an-scroll", tabindex: "0", role: "region", "aria-label": t(L, "analysis_summary") }, summaryTable(r, o.state, L)));
    parts.push(h("div", { class: "ugw-odds-head", text: t(L, "biggest_mistakes") }));
    parts.push(r.mistakes.length ? h("ol", { class: "ugw-an-mistakes", "data-ugw": "analysis-mistakes" }, r.mistakes.map((m) => h("li", {},
      h("button", { type: "button", class: "ugw-an-mistake", "data-ugw": `analysis-mistake-${m.index}`, "data-index": String(m.index),
        "data-loss": String(m.loss), "data-verdict": m.verdict, onclick: () => o.open(m.index) },
      h("span", { class: `ugw-an-badge ugw-verdict-${m.verdict}`, text: t(L, `verdict_${m.verdict}`) }),
      ` ${t(L, "turn")} ${m.turn}: ${m.text[L] || m.text.en}`))))
      : h("p", { class: "ugw-muted", "data-ugw": "analysis-no-mistakes", text: t(L, "no_mistakes") }));
    parts.push(h("p", { class: "ugw-muted", "data-ugw": "analysis-note", text: tf(L, "analysis_note", {
      d: r.decisions, c: r.chances, n: r.rollouts, i: r.thresholds.inaccuracy, m: r.thresholds.mistake, b: r.thresholds.blunder }) }));
    parts.push(h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "analysis-save", text: t(L, "save_picture"), onclick: o.savePicture }));
  }
  parts.push(o.pictures);
  replace(el, ...parts);
  el.dataset.status = on ? a.status : "off";
}
