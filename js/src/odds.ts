// The probability lab's view: the heat legend (in the board's centre, or the side panel in
// presentation mode), and the Odds tab: heat mode switch, per roll / per turn, the jail
// strategy, Roll once, the dice histogram against the exact distribution, convergence on
// log-log axes beside its 1/sqrt(n) line, short against long jail stay, and Save picture.
// Python computes every number and every colour (traits `heat`, `stats`); this only draws.
import { h, replace, safeColour, svgEl } from "./dom.js";
import type { Child } from "./dom.js";
import { t, tf } from "./i18n.js";
import { fmtShare } from "./board.js";
import type { Convergence, DiceStats, Heat, HeatMode, JailComparison, JailStrategy, Lang, Per, Player, ProbabilityHeat, Stats } from "./contract.js";

export const MODES: ("off" | HeatMode)[] = ["off", "exact", "observed", "difference", "next"];
const FONT = 12; // chart text, in view-box units (charts scale with the panel)

// A heat layer read field by field (a custom layer has no mode, notes ...: undefined).
type AnyHeat = Partial<ProbabilityHeat> & { label?: string };

function gradient(palette: string[] | undefined): string {
  const stops = Array.isArray(palette) && palette.length ? palette.map((c) => safeColour(c)) : ["#440154", "#fde725"];
  return `linear-gradient(to right, ${stops.join(", ")})`;
}

// A chart's left margin: wide enough for its longest y label (nothing cut at the edge).
function leftPad(labels: string[]): number {
  return 8 + FONT * 0.62 * Math.max(1, ...labels.map((s) => String(s).length));
}

// The legend: what the colours mean, from the lowest to the highest value shown, with the
// unit, In Jail's figure when it lies above the scale, and why the hottest and coldest are.
export function renderLegend(el: HTMLElement, layer: Heat, lang: Lang, players: Player[] | undefined): void {
  const L = lang;
  const heat = layer as AnyHeat;
  if (!heat || !Array.isArray(heat.values)) { el.hidden = true; delete el.dataset.heatMode; return; }
  el.hidden = false;
  const mode = heat.mode || "custom";
  el.dataset.heatMode = mode;
  const bar = h("span", { class: "ugw-legend-bar", "data-ugw": "heat-bar", style: { background: gradient(heat.palette) } });
  if (mode === "custom") {
    const fmt = (x: number): string => (Math.abs(x) < 1 && x !== 0 ? x.toFixed(3) : String(Math.round(x * 100) / 100));
    replace(el, h("span", { class: "ugw-legend-title", "data-ugw": "heat-title", text: heat.label || t(L, "heat") }),
      h("span", { class: "ugw-legend-scale" },
        h("span", { class: "ugw-legend-range", "data-ugw": "heat-min", text: fmt(heat.min as number) }), bar,
        h("span", { class: "ugw-legend-range", "data-ugw": "heat-max", text: fmt(heat.max as number) })));
    return;
  }
  const mover = heat.player === null || heat.player === undefined ? undefined : players?.[heat.player];
  const who = mode === "next" && mover ? mover.name : "";
  const title = tf(L, mode === "exact" && heat.per === "turn" ? "heat_exact_turn" : `heat_${mode}`, { p: who });
  const top = heat.max as number;
  const low = heat.diverging ? `−${(100 * top).toFixed(2)}` : fmtShare(heat.min as number, false).replace("%", "");
  const high = heat.diverging ? `+${(100 * top).toFixed(2)}` : fmtShare(top, false).replace("%", "");
  const unit = t(L, heat.diverging ? "unit_pp" : heat.per === "turn" ? "unit_pct_turn" : "unit_pct");
  const parts = [
    h("span", { class: "ugw-legend-title", "data-ugw": "heat-title", text: title }),
    h("span", { class: "ugw-legend-scale" },
      h("span", { class: "ugw-legend-range", "data-ugw": "heat-min", text: low }), bar,
      h("span", { class: "ugw-legend-range", "data-ugw": "heat-max", text: high }),
      h("span", { class: "ugw-legend-unit", "data-ugw": "heat-unit", text: unit })),
  ];
  if (mode === "observed" || mode === "difference") {
    parts.push(h("span", { class: "ugw-legend-rolls", "data-ugw": "heat-rolls", text: tf(L, "rolls_n", { n: heat.rolls }) }));
  }
  if (!heat.diverging && typeof heat.jail === "number" && heat.jail > top) {
    parts.push(h("span", { class: "ugw-legend-rolls", "data-ugw": "heat-jail-note",
      text: `▦ ${t(L, "in_cell")} ${fmtShare(heat.jail, false)} (${t(L, "above_scale")})` }));
  }
  const notes = heat.notes || {};
  for (const key of ["hot", "cold"] as const) {
    const note = notes[key];
    if (!note || !note.text) continue;
    parts.push(h("span", { class: `ugw-legend-note ugw-note-${key}`, "data-ugw": `heat-note-${key}`, "data-pos": String(note.pos),
      text: `${key === "hot" ? "▲" : "▼"} ${note.text[L] || note.text.en}` }));
  }
  replace(el, ...parts);
}

// The histogram of dice totals rolled in this game (bars, share of rolls) against the exact
// distribution (a line through ways/faces), zero-based, with the number of rolls.
export function diceChart(dice: DiceStats, L: Lang): SVGSVGElement {
  const n = dice.totals.length;
  const shares = dice.counts.map((c) => (dice.rolls ? c / dice.rolls : 0));
  const top = Math.max(...dice.exact, ...shares) * 1.1 || 1;
  const step = top > 0.25 ? 0.1 : 0.05;
  const ticks: number[] = [];
  for (let v = 0; v <= top + 1e-9; v += step) ticks.push(v);
  const W = 300, H = 170, pad = { l: leftPad(ticks.map((v) => `${Math.round(100 * v)}%`)), r: 6, t: 8, b: 34 };
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", class: "ugw-chart", "data-ugw": "dice-hist",
    "data-rolls": dice.rolls });
  svg.appendChild(svgEl("title", {}, `${t(L, "dice_hist")}: ${tf(L, "rolls_n", { n: dice.rolls })}`));
  const x = (k: number): number => pad.l + ((k + 0.5) * (W - pad.l - pad.r)) / n;
  const y = (v: number): number => H - pad.b - (v / top) * (H - pad.t - pad.b);
  const bw = Math.max(2, ((W - pad.l - pad.r) / n) * 0.72);
  svg.appendChild(svgEl("path", { d: `M${pad.l} ${pad.t}V${H - pad.b}H${W - pad.r}`, fill: "none", stroke: "currentColor", opacity: 0.6 }));
  for (const v of ticks) {
    svg.appendChild(svgEl("text", { x: pad.l - 3, y: y(v) + 3, "font-size": FONT, fill: "currentColor", "text-anchor": "end" }, `${Math.round(100 * v)}%`));
  }
  dice.totals.forEach((total, k) => {
    const bar = svgEl("rect", { x: x(k) - bw / 2, y: y(shares[k]), width: bw, height: Math.max(0, H - pad.b - y(shares[k])),
      class: "ugw-dice-bar", "data-ugw-total": total, "data-count": dice.counts[k], "data-exact": dice.exact[k] });
    bar.appendChild(svgEl("title", {}, `${total}: ${dice.counts[k]} × (${(100 * shares[k]).toFixed(1)}%) · exact ${dice.ways[k]}/${dice.faces}`));
    svg.appendChild(bar);
    if (n <= 20 || k % 2 === 0) svg.appendChild(svgEl("text", { x: x(k), y: H - pad.b + 14, "font-size": FONT, fill: "currentColor", "text-anchor": "middle" }, total));
  });
  const line = dice.exact.map((p, k) => `${k ? "L" : "M"}${x(k).toFixed(1)} ${y(p).toFixed(1)}`).join("");
  svg.appendChild(svgEl("path", { d: line, class: "ugw-exact-line", "data-ugw": "dice-exact", fill: "none" }));
  svg.appendChild(svgEl("text", { x: (pad.l + W - pad.r) / 2, y: H - 5, "font-size": FONT, fill: "currentColor", "text-anchor": "middle" }, t(L, "total")));
  return svg;
}

// Total variation distance against the number of rolls on log-log axes (decades both ways),
// as the notebook draws it: the distance falls like 1/sqrt(n), a straight line of slope -1/2
// (dashed: what a game of that many rolls typically shows, from the chain's own variance).
export function convergenceChart(conv: Convergence, L: Lang): SVGSVGElement {
  const rolls = conv.rolls;
  const last = rolls.length ? rolls[rolls.length - 1] : 1;
  const decades = Math.max(1, Math.ceil(Math.log10(Math.max(10, last))));
  const seen = [...conv.tv, ...conv.expected].filter((v) => v > 0);
  const bottom = Math.min(-1, Math.floor(Math.log10(Math.min(1, ...seen) || 0.1)));
  const yTicks: number[] = [];
  for (let e = 0; e >= bottom; e--) yTicks.push(e);
  const label = (e: number): string => (e >= 0 ? "1" : (10 ** e).toFixed(-e));
  const W = 300, H = 180, pad = { l: leftPad(yTicks.map(label)), r: 18, t: 8, b: 34 };
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", class: "ugw-chart", "data-ugw": "convergence",
    "data-points": rolls.length, "data-last-rolls": rolls.length ? last : 0, "data-y-scale": "log",
    "data-last-tv": rolls.length ? conv.tv[rolls.length - 1] : "" });
  svg.appendChild(svgEl("title", {}, t(L, "convergence")));
  const x = (n: number): number => pad.l + (Math.log10(n) / decades) * (W - pad.l - pad.r);
  const y = (v: number): number => pad.t + (Math.min(0, Math.log10(Math.max(v, 10 ** bottom))) / bottom) * (H - pad.t - pad.b);
  svg.appendChild(svgEl("path", { d: `M${pad.l} ${pad.t}V${H - pad.b}H${W - pad.r}`, fill: "none", stroke: "currentColor", opacity: 0.6 }));
  for (let d = 0; d <= decades; d++) {
    const n = 10 ** d;
    svg.appendChild(svgEl("path", { d: `M${x(n)} ${H - pad.b}v3`, stroke: "currentColor", opacity: 0.6 }));
    svg.appendChild(svgEl("text", { x: x(n), y: H - pad.b + 14, "font-size": FONT, fill: "currentColor", "text-anchor": "middle", "data-ugw": "conv-tick" },
      n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n)));
  }
  for (const e of yTicks) {
    svg.appendChild(svgEl("path", { d: `M${pad.l - 3} ${y(10 ** e)}h3`, stroke: "currentColor", opacity: 0.6 }));
    svg.appendChild(svgEl("text", { x: pad.l - 5, y: y(10 ** e) + 3, "font-size": FONT, fill: "currentColor", "text-anchor": "end", "data-ugw": "conv-ytick" }, label(e)));
  }
  svg.appendChild(svgEl("text", { x: (pad.l + W - pad.r) / 2, y: H - 5, "font-size": FONT, fill: "currentColor", "text-anchor": "middle" }, t(L, "rolls_log")));
  if (!rolls.length) return svg;
  const path = (vals: number[]): string => rolls.map((n, k) => `${k ? "L" : "M"}${x(n).toFixed(1)} ${y(vals[k]).toFixed(1)}`).join("");
  svg.appendChild(svgEl("path", { d: path(conv.expected), class: "ugw-expected-line", "data-ugw": "conv-expected", fill: "none" }));
  const k = Math.max(0, rolls.findIndex((n) => n >= Math.sqrt(last))); // half-way on the log axis
  svg.appendChild(svgEl("text", { x: x(rolls[k]) + 4, y: y(conv.expected[k]) + FONT + 2, "font-size": FONT, fill: "currentColor",
    "text-anchor": "start", "data-ugw": "conv-line-label" }, t(L, "conv_line")));
  svg.appendChild(svgEl("path", { d: path(conv.tv), class: "ugw-tv-line", fill: "none" }));
  rolls.forEach((n, i) => {
    const dot = svgEl("circle", { cx: x(n).toFixed(1), cy: y(conv.tv[i]).toFixed(1), r: 1.8, class: "ugw-tv-dot",
      "data-rolls": n, "data-tv": conv.tv[i] });
    dot.appendChild(svgEl("title", {}, `${tf(L, "rolls_n", { n })}: ${conv.tv[i].toFixed(3)}`));
    svg.appendChild(dot);
  });
  return svg;
}

// Short against long jail stay: the long-run share of each group, two bars side by side.
export function jailChart(cmp: JailComparison, L: Lang): SVGSVGElement {
  const groups = cmp.groups || [];
  const n = groups.length;
  const top = Math.max(0.01, ...cmp.short, ...cmp.long) * 1.1;
  const step = top > 0.25 ? 0.1 : top > 0.1 ? 0.05 : 0.02;
  const ticks: number[] = [];
  for (let v = 0; v <= top + 1e-9; v += step) ticks.push(v);
  const W = 300, H = 170, pad = { l: leftPad(ticks.map((v) => `${Math.round(100 * v)}%`)), r: 6, t: 8, b: 34 };
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", class: "ugw-chart", "data-ugw": "jail-chart" });
  svg.appendChild(svgEl("title", {}, t(L, "jail_cmp")));
  const slot = (W - pad.l - pad.r) / Math.max(n, 1);
  const y = (v: number): number => H - pad.b - (v / top) * (H - pad.t - pad.b);
  svg.appendChild(svgEl("path", { d: `M${pad.l} ${pad.t}V${H - pad.b}H${W - pad.r}`, fill: "none", stroke: "currentColor", opacity: 0.6 }));
  for (const v of ticks) {
    svg.appendChild(svgEl("text", { x: pad.l - 3, y: y(v) + 3, "font-size": FONT, fill: "currentColor", "text-anchor": "end" }, `${Math.round(100 * v)}%`));
  }
  const bw = Math.max(1.5, slot * 0.36);
  groups.forEach((g, k) => {
    const cx = pad.l + (k + 0.5) * slot;
    ([["short", cmp.short[k], -1], ["long", cmp.long[k], 1]] as [JailStrategy, number, number][]).forEach(([key, v, side]) => {
      const bar = svgEl("rect", { x: cx + (side < 0 ? -bw : 0), y: y(v), width: bw, height: Math.max(0, H - pad.b - y(v)),
        class: `ugw-jail-bar ugw-jail-${key}`, "data-ugw": `jail-${key}-${g.key}`, "data-share": v });
      bar.appendChild(svgEl("title", {}, `${g.label[L] || g.label.en}: ${t(L, `jail_${key}`)} ${fmtShare(v, false)}`));
      svg.appendChild(bar);
    });
    if (g.colour) svg.appendChild(svgEl("rect", { x: cx - bw, y: H - pad.b + 4, width: 2 * bw, height: 7, fill: safeColour(g.colour), stroke: "currentColor", "stroke-width": 0.5 }));
    else svg.appendChild(svgEl("text", { x: cx, y: H - pad.b + 14, "font-size": FONT * (n > 14 ? 0.75 : 1), fill: "currentColor", "text-anchor": "middle" },
      String(g.label[L] || g.label.en).replace(/ .*/, "")));
  });
  svg.appendChild(svgEl("text", { x: (pad.l + W - pad.r) / 2, y: H - 5, "font-size": FONT, fill: "currentColor", "text-anchor": "middle" },
    `${t(L, "jail_short")} · ${t(L, "jail_long")}`));
  return svg;
}

function switchRow<V extends string>(label: string, items: [V, string, string][], current: string, onPick: (value: V) => void, disabled: boolean): HTMLDivElement {
  return h("div", { class: "ugw-mode-switch", role: "group", "aria-label": label },
    h("span", { class: "ugw-switch-label", "aria-hidden": "true", text: label }),
    items.map(([value, text, ugw]) => h("button", {
      type: "button", class: "ugw-btn ugw-small-btn ugw-mode-btn", "data-ugw": ugw, disabled: !!disabled,
      "aria-pressed": current === value ? "true" : "false", text, onclick: () => onPick(value),
    })));
}

function figure(key: string, head: Child, chart: Node, note: string): HTMLElement {
  return h("figure", { class: "ugw-odds-fig", "data-ugw": `fig-${key}` },
    h("figcaption", { class: "ugw-odds-head" }, head), chart,
    note ? h("figcaption", { class: "ugw-muted ugw-fig-note", text: note }) : null);
}

// The Odds tab. `o`: {heat, stats, lang, choose(mode), toggleStats(show), setPer(per),
// setJail(strategy), rollOnce(), canRoll, player (name of whoever rolls next), savePicture(),
// pictures (element holding the last export's links)}.
export interface OddsCtx {
  heat: Heat;
  stats: Stats | Record<string, never>;
  lang: Lang;
  canRoll: boolean;
  player: string;
  winOn: boolean;
  toggleWin: ((show: boolean) => boolean) | null;
  choose: (mode: HeatMode | null) => boolean;
  toggleStats: (show: boolean) => boolean;
  setPer: (per: Per) => boolean;
  setJail: (jail: JailStrategy) => boolean;
  rollOnce: () => boolean;
  savePicture: () => boolean;
  pictures: HTMLElement;
}

export function renderOdds(el: HTMLElement, o: OddsCtx): void {
  const { lang: L } = o;
  const heat = o.heat as AnyHeat;
  const stats = o.stats as Partial<Stats>;
  const current = heat && Array.isArray(heat.values) ? heat.mode || "custom" : "off";
  const prob = current !== "off" && current !== "custom";
  const per = (heat && heat.per) || "roll";
  const strategy = (heat && heat.strategy) || (stats && stats.strategy) || "short";
  const buttons = MODES.map((mode) => h("button", {
    type: "button", class: "ugw-btn ugw-small-btn ugw-mode-btn", "data-ugw": `heat-mode-${mode}`,
    "aria-pressed": current === mode ? "true" : "false", text: t(L, `mode_${mode}`),
    onclick: () => o.choose(mode === "off" ? null : mode),
  }));
  const shown = !!(stats && stats.dice);
  const parts = [
    h("div", { class: "ugw-odds-head", text: t(L, "heat_modes") }),
    h("div", { class: "ugw-mode-switch", role: "group", "aria-label": t(L, "heat_modes"), "data-ugw": "heat-modes",
      "data-heat-mode": current }, buttons),
    h("p", { class: "ugw-muted ugw-odds-help", "data-ugw": "odds-help", text: t(L, `help_${prob ? current : "off"}`) }),
    switchRow<Per>(t(L, "per_label"), [["roll", t(L, "per_roll"), "per-roll"], ["turn", t(L, "per_turn"), "per-turn"]],
      per, (value) => o.setPer(value), !prob || current === "next"),
    switchRow<JailStrategy>(t(L, "jail_label"), [["short", t(L, "jail_short"), "jail-short"], ["long", t(L, "jail_long"), "jail-long"]],
      strategy, (value) => o.setJail(value), false),
    h("div", { class: "ugw-odds-row" },
      h("button", { type: "button", class: "ugw-btn ugw-primary ugw-small-btn", "data-ugw": "roll-once", disabled: !o.canRoll,
        title: tf(L, "roll_once_help", { p: o.player || "" }), text: t(L, "roll_once"), onclick: () => o.rollOnce() }),
      h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "stats-toggle", "aria-pressed": shown ? "true" : "false",
        text: t(L, shown ? "stats_hide" : "stats_show"), onclick: () => o.toggleStats(!shown) }),
      h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "save-picture", text: t(L, "save_picture"),
        onclick: () => o.savePicture() }),
      o.toggleWin ? h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "win-toggle",
        "aria-pressed": o.winOn ? "true" : "false", text: t(L, o.winOn ? "win_hide" : "win_show"),
        onclick: () => o.toggleWin && o.toggleWin(!o.winOn) }) : null),
    o.pictures,
  ];
  if (shown && stats.dice && stats.convergence) {
    const dice = stats.dice;
    const figs = [
      figure("dice", [`${t(L, "dice_hist")} · `, h("span", { "data-ugw": "dice-rolls", text: tf(L, "rolls_n", { n: dice.rolls }) })],
        diceChart(dice, L), tf(L, "dice_hist_note", { f: dice.faces })),
      figure("convergence", t(L, "convergence"), convergenceChart(stats.convergence, L), t(L, "conv_note")),
    ];
    const cmp = stats.jail_strategies;
    if (cmp) figs.push(figure("jail", t(L, "jail_cmp"), jailChart(cmp, L), cmp.same ? t(L, "jail_cmp_same") : t(L, "jail_cmp_note")));
    parts.push(h("div", { class: "ugw-odds-figs" }, figs));
  }
  replace(el, ...parts);
}
