// The class experiment's chart: the pooled share of each outcome (bars) beside its exact
// probability (a dark tick) and the band where n rolls of the exact distribution land about
// 95 % of the time (±2·√(p(1−p)/n), shaded): the band narrows as 1/√n while the class rolls.
import { h, s, pct } from "./dom";
import { t } from "./i18n";
import type { Experiment, Lang } from "./types";

export function experimentChart(e: Experiment, lang: Lang, big: boolean): HTMLElement {
  const n = e.n;
  const k = e.labels.length;
  // outcomes that cannot happen and did not happen are left out (most tiles, from jail)
  const shown = [...Array(k).keys()].filter((i) => e.exact[i] > 0 || e.counts[i] > 0);
  const font = big ? 16 : 12;
  const labelRoom = e.kind === "dice" ? font + 10 : Math.min(170, 8 + font * 0.6 * Math.max(...shown.map((i) => e.labels[i].length)));
  const slot = big ? (e.kind === "dice" ? 48 : 34) : (e.kind === "dice" ? 30 : 22);
  const W = Math.max(320, shown.length * slot + 60);
  const H = (big ? 300 : 200) + labelRoom;
  const top = 24, plotH = H - labelRoom - top - 6, left = 50;
  let max = 0.01;
  shown.forEach((i) => {
    max = Math.max(max, e.exact[i], n ? e.counts[i] / n : 0, e.band[i] ? e.band[i][1] : 0);
  });
  max *= 1.1;
  const y = (p: number) => top + plotH - (p / max) * plotH;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img",
    "aria-label": `${e.title}: ${t(lang, "pooled", { n, d: e.devices })}`, class: "ugc-chart-svg" });
  const steps = 4;
  for (let j = 0; j <= steps; j++) {
    const p = (max / steps) * j;
    svg.appendChild(s("line", { x1: left, x2: W - 4, y1: y(p), y2: y(p), class: "ugc-grid" }));
    svg.appendChild(s("text", { x: left - 4, y: y(p) + font / 3, "text-anchor": "end", "font-size": font, class: "ugc-axis" }, pct(p, 0)));
  }
  shown.forEach((i, j) => {
    const x = left + j * slot;
    const share = n ? e.counts[i] / n : 0;
    const [low, high] = e.band[i] || [e.exact[i], e.exact[i]];
    if (n) svg.appendChild(s("rect", { x: x + 2, width: slot - 4, y: y(high), height: Math.max(1, y(low) - y(high)), class: "ugc-band" }));
    svg.appendChild(s("rect", { x: x + slot * 0.2, width: slot * 0.6, y: y(share), height: top + plotH - y(share), class: "ugc-bar",
      "data-outcome": String(i), "data-count": String(e.counts[i]) }));
    svg.appendChild(s("line", { x1: x + 2, x2: x + slot - 2, y1: y(e.exact[i]), y2: y(e.exact[i]), class: "ugc-exact" }));
    const lx = x + slot / 2, ly = top + plotH + font + 2;
    const label = e.labels[i];
    svg.appendChild(e.kind === "dice"
      ? s("text", { x: lx, y: ly, "text-anchor": "middle", "font-size": font, class: "ugc-axis" }, label)
      : s("text", { x: lx, y: ly - font / 2, "text-anchor": "end", "font-size": font, class: "ugc-axis",
        transform: `rotate(-60 ${lx} ${ly - font / 2})` }, label.length > 22 ? `${label.slice(0, 21)}…` : label));
  });
  const legend = h("div", { class: "ugc-legend" },
    h("span", { class: "ugc-key ugc-key-bar" }), ` ${t(lang, "share")} `,
    h("span", { class: "ugc-key ugc-key-exact" }), ` ${t(lang, "exact")} `,
    h("span", { class: "ugc-key ugc-key-band" }), ` ${t(lang, "band")}`);
  return h("figure", { class: "ugc-chart", "data-ugc": "chart", "data-n": String(n),
      "data-counts": e.counts.join(","), "data-experiment": String(e.id) },
    h("figcaption", { class: "ugc-chart-title" }, h("b", { text: e.title }), " — ",
      h("span", { "data-ugc": "pooled-n", text: t(lang, "pooled", { n, d: e.devices }) })),
    svg, legend);
}
