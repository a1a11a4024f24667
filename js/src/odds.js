// The probability lab's view: the heat legend in the board's centre, and the Odds tab (heat
// mode switch, dice histogram against the exact distribution, convergence chart on a log axis).
// Python computes every number (traits `heat` and `stats`); this file only draws them.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { heatColour, divergingColour, fmtShare } from "./board.js";

const NS = "http://www.w3.org/2000/svg";
export const MODES = ["off", "exact", "observed", "difference", "next"];

function svgEl(tag, attrs, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = String(text);
  return el;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ""));
}

// The legend in the board's centre: what the colours mean, on a zero-based scale with its unit.
export function renderLegend(el, heat, lang, players) {
  const L = lang;
  if (!heat || !Array.isArray(heat.values)) { el.hidden = true; delete el.dataset.heatMode; return; }
  el.hidden = false;
  const mode = heat.mode || "custom";
  el.dataset.heatMode = mode;
  if (mode === "custom") {
    const fmt = (x) => (Math.abs(x) < 1 && x !== 0 ? x.toFixed(3) : String(Math.round(x * 100) / 100));
    replace(el, h("span", { text: heat.label || t(L, "heat") }),
      h("span", { class: "ugw-legend-bar", style: { background: `linear-gradient(to right, ${heatColour(heat.min, heat.min, heat.max)}, ${heatColour((heat.min + heat.max) / 2, heat.min, heat.max)}, ${heatColour(heat.max, heat.min, heat.max)})` } }),
      h("span", { class: "ugw-legend-range", text: `${fmt(heat.min)} – ${fmt(heat.max)}` }));
    return;
  }
  const who = mode === "next" && players && players[heat.player] ? players[heat.player].name : "";
  const title = fill(t(L, `heat_${mode}`), { p: who });
  const bar = heat.diverging
    ? `linear-gradient(to right, ${divergingColour(-1, 1)}, ${divergingColour(0, 1)}, ${divergingColour(1, 1)})`
    : `linear-gradient(to right, ${heatColour(0, 0, 1)}, ${heatColour(0.5, 0, 1)}, ${heatColour(1, 0, 1)})`;
  const low = heat.diverging ? `−${(100 * heat.max).toFixed(2)}` : "0";
  const high = heat.diverging ? `+${(100 * heat.max).toFixed(2)}` : fmtShare(heat.max, false).replace("%", "");
  const unit = t(L, heat.diverging ? "unit_pp" : "unit_pct");
  const parts = [
    h("span", { class: "ugw-legend-title", "data-ugw": "heat-title", text: title }),
    h("span", { class: "ugw-legend-scale" },
      h("span", { class: "ugw-legend-range", "data-ugw": "heat-min", text: low }),
      h("span", { class: "ugw-legend-bar", style: { background: bar } }),
      h("span", { class: "ugw-legend-range", "data-ugw": "heat-max", text: high }),
      h("span", { class: "ugw-legend-unit", "data-ugw": "heat-unit", text: unit })),
  ];
  if (mode === "observed" || mode === "difference") {
    parts.push(h("span", { class: "ugw-legend-rolls", "data-ugw": "heat-rolls", text: fill(t(L, "rolls_n"), { n: heat.rolls }) }));
  }
  replace(el, ...parts);
}

// The histogram of dice totals rolled in this game (bars, share of rolls) against the exact
// distribution (a line through ways/faces), zero-based, with the number of rolls.
export function diceChart(dice, L) {
  const W = 280, H = 150, pad = { l: 30, r: 6, t: 8, b: 30 };
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", class: "ugw-chart", "data-ugw": "dice-hist",
    "data-rolls": dice.rolls });
  svg.appendChild(svgEl("title", {}, `${t(L, "dice_hist")}: ${fill(t(L, "rolls_n"), { n: dice.rolls })}`));
  const n = dice.totals.length;
  const shares = dice.counts.map((c) => (dice.rolls ? c / dice.rolls : 0));
  const top = Math.max(...dice.exact, ...shares) * 1.1 || 1;
  const x = (k) => pad.l + ((k + 0.5) * (W - pad.l - pad.r)) / n;
  const y = (v) => H - pad.b - (v / top) * (H - pad.t - pad.b);
  const bw = Math.max(2, ((W - pad.l - pad.r) / n) * 0.72);
  svg.appendChild(svgEl("path", { d: `M${pad.l} ${pad.t}V${H - pad.b}H${W - pad.r}`, fill: "none", stroke: "currentColor", opacity: 0.6 }));
  const step = top > 0.25 ? 0.1 : 0.05;
  for (let v = 0; v <= top + 1e-9; v += step) {
    svg.appendChild(svgEl("text", { x: pad.l - 3, y: y(v) + 3, "font-size": 9, fill: "currentColor", "text-anchor": "end" }, `${Math.round(100 * v)}%`));
  }
  dice.totals.forEach((total, k) => {
    const bar = svgEl("rect", { x: x(k) - bw / 2, y: y(shares[k]), width: bw, height: Math.max(0, H - pad.b - y(shares[k])),
      class: "ugw-dice-bar", "data-ugw-total": total, "data-count": dice.counts[k], "data-exact": dice.exact[k] });
    bar.appendChild(svgEl("title", {}, `${total}: ${dice.counts[k]} × (${(100 * shares[k]).toFixed(1)}%) · exact ${dice.ways[k]}/${dice.faces}`));
    svg.appendChild(bar);
    if (n <= 20 || k % 2 === 0) svg.appendChild(svgEl("text", { x: x(k), y: H - pad.b + 11, "font-size": 9, fill: "currentColor", "text-anchor": "middle" }, total));
  });
  const line = dice.exact.map((p, k) => `${k ? "L" : "M"}${x(k).toFixed(1)} ${y(p).toFixed(1)}`).join("");
  svg.appendChild(svgEl("path", { d: line, class: "ugw-exact-line", "data-ugw": "dice-exact", fill: "none" }));
  svg.appendChild(svgEl("text", { x: (pad.l + W - pad.r) / 2, y: H - 4, "font-size": 9, fill: "currentColor", "text-anchor": "middle" }, t(L, "total")));
  return svg;
}

// Total variation distance against the number of rolls, log x axis (decades), zero-based y;
// dashed: what a game of that many rolls typically shows (the chain's own variance).
export function convergenceChart(conv, L) {
  const W = 280, H = 160, pad = { l: 34, r: 8, t: 8, b: 30 };
  const rolls = conv.rolls;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", class: "ugw-chart", "data-ugw": "convergence",
    "data-points": rolls.length, "data-last-rolls": rolls.length ? rolls[rolls.length - 1] : 0,
    "data-last-tv": rolls.length ? conv.tv[rolls.length - 1] : "" });
  svg.appendChild(svgEl("title", {}, t(L, "convergence")));
  const last = rolls.length ? rolls[rolls.length - 1] : 1;
  const decades = Math.max(1, Math.ceil(Math.log10(Math.max(10, last))));
  // a distance is at most 1; the normal approximation of the dashed line is clipped there
  const top = Math.min(1, Math.max(0.05, ...conv.tv, ...conv.expected) * 1.05);
  const x = (n) => pad.l + (Math.log10(n) / decades) * (W - pad.l - pad.r);
  const y = (v) => H - pad.b - (Math.min(v, top) / top) * (H - pad.t - pad.b);
  svg.appendChild(svgEl("path", { d: `M${pad.l} ${pad.t}V${H - pad.b}H${W - pad.r}`, fill: "none", stroke: "currentColor", opacity: 0.6 }));
  for (let d = 0; d <= decades; d++) {
    const n = 10 ** d;
    svg.appendChild(svgEl("path", { d: `M${x(n)} ${H - pad.b}v3`, stroke: "currentColor", opacity: 0.6 }));
    svg.appendChild(svgEl("text", { x: x(n), y: H - pad.b + 12, "font-size": 9, fill: "currentColor", "text-anchor": "middle", "data-ugw": "conv-tick" },
      n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n)));
  }
  const ystep = top > 0.5 ? 0.2 : top > 0.2 ? 0.1 : 0.05;
  for (let v = 0; v <= top + 1e-9; v += ystep) {
    svg.appendChild(svgEl("text", { x: pad.l - 3, y: y(v) + 3, "font-size": 9, fill: "currentColor", "text-anchor": "end" }, v.toFixed(2)));
  }
  svg.appendChild(svgEl("text", { x: (pad.l + W - pad.r) / 2, y: H - 4, "font-size": 9, fill: "currentColor", "text-anchor": "middle" }, t(L, "rolls_log")));
  if (!rolls.length) return svg;
  const path = (vals) => rolls.map((n, k) => `${k ? "L" : "M"}${x(n).toFixed(1)} ${y(vals[k]).toFixed(1)}`).join("");
  svg.appendChild(svgEl("path", { d: path(conv.expected), class: "ugw-expected-line", fill: "none" }));
  svg.appendChild(svgEl("path", { d: path(conv.tv), class: "ugw-tv-line", fill: "none" }));
  rolls.forEach((n, k) => {
    const dot = svgEl("circle", { cx: x(n).toFixed(1), cy: y(conv.tv[k]).toFixed(1), r: 1.8, class: "ugw-tv-dot",
      "data-rolls": n, "data-tv": conv.tv[k] });
    dot.appendChild(svgEl("title", {}, `${fill(t(L, "rolls_n"), { n })}: ${conv.tv[k].toFixed(3)}`));
    svg.appendChild(dot);
  });
  return svg;
}

// The Odds tab: a switch for the heat modes, a toggle for the dice and convergence panels.
export function renderOdds(el, { heat, stats, lang, choose, toggleStats }) {
  const L = lang;
  const current = heat && Array.isArray(heat.values) ? heat.mode || "custom" : "off";
  const buttons = MODES.map((mode) => h("button", {
    type: "button", class: "ugw-btn ugw-small-btn ugw-mode-btn", "data-ugw": `heat-mode-${mode}`,
    "aria-pressed": current === mode ? "true" : "false", text: t(L, `mode_${mode}`),
    onclick: () => choose(mode === "off" ? null : mode),
  }));
  const shown = !!(stats && stats.dice);
  const parts = [
    h("div", { class: "ugw-odds-head", text: t(L, "heat_modes") }),
    h("div", { class: "ugw-mode-switch", role: "group", "aria-label": t(L, "heat_modes"), "data-ugw": "heat-modes",
      "data-heat-mode": current }, buttons),
    h("p", { class: "ugw-muted ugw-odds-help", text: t(L, "odds_help") }),
    h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "stats-toggle", "aria-pressed": shown ? "true" : "false",
      text: t(L, shown ? "stats_hide" : "stats_show"), onclick: () => toggleStats(!shown) }),
  ];
  if (shown) {
    const dice = stats.dice;
    parts.push(h("figure", { class: "ugw-odds-fig" },
      h("figcaption", { class: "ugw-odds-head" }, `${t(L, "dice_hist")} · `,
        h("span", { "data-ugw": "dice-rolls", text: fill(t(L, "rolls_n"), { n: dice.rolls }) })),
      diceChart(dice, L),
      h("figcaption", { class: "ugw-muted", text: fill(t(L, "dice_hist_note"), { f: dice.faces }) })));
    parts.push(h("figure", { class: "ugw-odds-fig" },
      h("figcaption", { class: "ugw-odds-head", text: t(L, "convergence") }),
      convergenceChart(stats.convergence, L),
      h("figcaption", { class: "ugw-muted", text: t(L, "conv_note") })));
  }
  replace(el, ...parts);
}
