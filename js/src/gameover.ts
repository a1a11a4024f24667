// The game-over screen: winner, ranking with cash and net worth, and a small chart of every
// player's net worth over the game (state.history: [turn, worth0, worth1, ...] per turn).
import { h, money, safeColour, svgEl } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./tokens.js";
import { playerChip } from "./panels.js";
import type { GameState, Lang } from "./contract.js";

export function worthChart(state: GameState, lang: Lang): SVGSVGElement {
  const rows = Array.isArray(state.history) ? state.history : [];
  const n = state.players.length;
  const W = 320;
  const H = 118;
  let top = 1;
  for (const r of rows) for (let i = 1; i <= n; i++) top = Math.max(top, r[i]);
  // room on the left for the largest figure ("106 920" lost its first digit in 40 units)
  const pad = { l: 10 + 6.2 * money(top).length, r: 8, t: 8, b: 20 };
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", class: "ugw-chart", "data-ugw": "worth-chart" });
  const title = svgEl("title", {});
  const last = rows.length ? rows[rows.length - 1] : null;
  title.textContent = `${t(lang, "worth_chart")}: ${state.players.map((p, i) => `${p.name} ${last ? money(last[i + 1]) : "–"}`).join(", ")}`;
  svg.appendChild(title);
  if (rows.length < 1) return svg;
  const turns = rows.map((r) => r[0]);
  const t0 = Math.min(...turns);
  const t1 = Math.max(t0 + 1, ...turns);
  let hi = 1;
  for (const r of rows) for (let i = 1; i <= n; i++) hi = Math.max(hi, r[i]);
  const x = (turn: number): number => pad.l + ((turn - t0) / (t1 - t0)) * (W - pad.l - pad.r);
  const y = (v: number): number => H - pad.b - (Math.max(0, v) / hi) * (H - pad.t - pad.b);
  const axis = svgEl("path", { d: `M${pad.l} ${pad.t}V${H - pad.b}H${W - pad.r}`, fill: "none", stroke: "currentColor", "stroke-width": 1, opacity: 0.6 });
  svg.appendChild(axis);
  const label = (tx: number, ty: number, text: string, anchor: string): void => {
    const el = svgEl("text", { x: tx, y: ty, "font-size": 10, fill: "currentColor", "text-anchor": anchor });
    el.textContent = text;
    svg.appendChild(el);
  };
  label(pad.l - 4, pad.t + 8, money(hi), "end");
  label(pad.l - 4, H - pad.b, "0", "end");
  label(pad.l, H - 6, `${t(lang, "turn")} ${t0}`, "start");
  label(W - pad.r, H - 6, String(t1), "end");
  for (let i = 0; i < n; i++) {
    const p = state.players[i];
    const pts = rows.map((r) => `${x(r[0]).toFixed(1)},${y(r[i + 1]).toFixed(1)}`);
    if (pts.length === 1) pts.push(pts[0].replace(/^[^,]+/, (W - pad.r).toFixed(1)));
    svg.appendChild(svgEl("polyline", {
      points: pts.join(" "), fill: "none", stroke: safeColour(p.colour), "stroke-width": 2.2,
      "stroke-linejoin": "round", "data-ugw": `worth-line-${i}`,
    }));
  }
  return svg;
}

export function gameOver(state: GameState, lang: Lang, onNewGame: () => void): HTMLDivElement {
  const ranking = state.ranking || [];
  const winners = ranking.filter((r) => r.winner);
  const rows = ranking.map((r, k) => {
    const p = state.players[r.player];
    return h("tr", { "data-ugw": `rank-${r.player}`, class: r.winner ? "ugw-winner" : "" },
      h("td", { text: String(k + 1) }),
      h("td", {}, playerChip(p, r.player, lang), r.winner ? h("span", { class: "ugw-star", text: ` ★ ${t(lang, "winner")}` }) : null),
      h("td", { class: "ugw-num", text: money(r.cash) }),
      h("td", { class: "ugw-num", text: money(r.net_worth) }));
  });
  return h("div", { class: "ugw-gameover" },
    h("div", { class: "ugw-gameover-head" }, icon("trophy", 26),
      h("h3", { text: t(lang, "game_over") }),
      winners.length ? h("div", { class: "ugw-gameover-winner", text: winners.map((r) => r.name).join(" & ") }) : null,
      h("button", { type: "button", class: "ugw-btn ugw-primary ugw-small-btn", "data-ugw": "play-again", text: t(lang, "play_again"), onclick: onNewGame })),
    h("table", { class: "ugw-rank-table" },
      h("caption", { class: "ugw-sr", text: t(lang, "ranking") }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: t(lang, "rank") }), h("th", { scope: "col", text: t(lang, "player") }),
        h("th", { scope: "col", class: "ugw-num", text: t(lang, "cash") }), h("th", { scope: "col", class: "ugw-num", text: t(lang, "worth") }))),
      h("tbody", {}, rows)),
    h("figure", { class: "ugw-figure" }, worthChart(state, lang),
      h("figcaption", { class: "ugw-muted", text: t(lang, "worth_chart") })));
}
