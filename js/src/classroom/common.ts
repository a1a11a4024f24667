// Parts every classroom page shares: action labels, the seats, the experiment and the vote.
import { h, money, safeColour, pct } from "./dom";
import { t } from "./i18n";
import { experimentChart } from "./chart";
import type { Action, Board, Lang, View } from "./types";

export type Send = (content: Record<string, unknown>) => void;

export function tileName(board: Board, pos: number | undefined, lang: Lang): string {
  if (pos === undefined || pos === null) return "";
  const tile = board.tiles && board.tiles[pos];
  return tile ? tile.name[lang] || tile.name.en : `#${pos}`;
}

export function actionLabel(a: Action, board: Board, lang: Lang): string {
  if (a.type === "tax") return t(lang, a.choice === "percent" ? "tax_percent" : "tax_flat");
  if (a.type === "sell_down") return `${t(lang, "sell_down")} ${a.area} → ${a.level}`;
  if (a.type === "bid") return `${t(lang, "bid")} ${money(a.amount)}`;
  if (a.position !== undefined) return `${t(lang, a.type)}: ${tileName(board, a.position, lang)}`;
  return t(lang, a.type);
}

export function seatName(view: View, player: number | null | undefined): string {
  if (player === null || player === undefined) return "";
  const seat = view.seats[player];
  return seat ? seat.name : `#${player + 1}`;
}

export function seatList(view: View, lang: Lang, claim: ((seat: number) => void) | null): HTMLElement {
  const rows = view.seats.map((seat) => {
    const mine = view.me.seat === seat.index;
    const free = seat.holder === null && (!view.room.started || seat.bot !== null);
    const holder = seat.holder !== null && seat.holder !== seat.name ? seat.holder : "";
    const who = seat.holder !== null
      ? `${holder}${mine ? ` (${t(lang, "you")})` : ""}${seat.bot ? ` · ${t(lang, seat.bot)}` : ""}${!seat.connected ? ` · ${t(lang, "away")}` : ""}`
      : seat.bot ? t(lang, seat.bot) : t(lang, "free");
    return h("li", { class: `ugc-seat${mine ? " ugc-mine" : ""}`, "data-ugc": `seat-${seat.index}`, "data-holder": seat.holder || "",
        "data-controller": seat.controller },
      h("span", { class: "ugc-dot", style: { background: safeColour(seat.colour) } }),
      h("span", { class: "ugc-seat-name", text: seat.name }),
      h("span", { class: "ugc-muted", text: who }),
      view.room.started ? h("span", { class: "ugc-cash", text: money(seat.cash) }) : null,
      claim && free && view.me.seat === null && view.me.asked === null
        ? h("button", { class: "ugc-btn", "data-ugc": `claim-${seat.index}`, onclick: () => claim(seat.index), text: t(lang, "take_seat") })
        : null);
  });
  return h("section", { class: "ugc-card" }, h("h2", { "data-ugc": "seats-title", text: t(lang, "seats") }), h("ul", { class: "ugc-seats" }, rows));
}

export function experimentCard(view: View, lang: Lang, send: Send, roll: boolean, big: boolean): HTMLElement | null {
  const e = view.experiment;
  if (!e) return null;
  const member = view.me.role === "member" || view.me.role === "teacher";
  const left = e.count - e.mine.trials;
  const controls = roll && member && e.open ? h("div", { class: "ugc-row" },
    h("button", { class: "ugc-btn ugc-primary ugc-thumb", "data-ugc": "experiment-roll", disabled: left <= 0,
      onclick: () => send({ type: "roll", experiment: e.id }), text: t(lang, "roll_one") }),
    h("button", { class: "ugc-btn ugc-thumb", "data-ugc": "experiment-rest", disabled: left <= 0,
      onclick: () => send({ type: "roll", experiment: e.id, count: left }), text: t(lang, "roll_rest") }),
    h("span", { "data-ugc": "experiment-done", "data-trials": String(e.mine.trials), text: t(lang, "done_k", { k: e.mine.trials, n: e.count }) })) : null;
  const mine = roll && e.mine.outcomes.length ? h("p", { class: "ugc-muted", "data-ugc": "my-outcomes" },
    `${t(lang, "your_outcomes")}: ${e.mine.outcomes.slice(-20).map((o) => e.labels[o]).join(", ")}`) : null;
  return h("section", { class: "ugc-card ugc-experiment", "data-ugc": "experiment", "data-open": String(e.open) },
    h("h2", { text: `${t(lang, "experiment")} ${e.number}` }), controls, mine, experimentChart(e, lang, big));
}

export function voteCard(view: View, board: Board, lang: Lang, send: Send | null): HTMLElement | null {
  const v = view.vote;
  if (!v) return null;
  const who = seatName(view, v.player);
  const total = Math.max(1, v.votes);
  const choices = v.choices.map((a, i) => {
    const share = v.split[i] / total;
    const swing = v.swing && v.swing[i];
    return h("li", { class: `ugc-choice${v.mine === i ? " ugc-mine" : ""}`, "data-ugc": `vote-choice-${i}`, "data-votes": String(v.split[i]) },
      send && v.open
        ? h("button", { class: "ugc-btn ugc-thumb", "data-ugc": `vote-${i}`, "aria-pressed": String(v.mine === i),
          onclick: () => send({ type: "vote", vote: v.id, choice: i }), text: actionLabel(a, board, lang) })
        : h("b", { text: actionLabel(a, board, lang) }),
      h("span", { class: "ugc-split" }, h("span", { class: "ugc-split-bar", style: { width: `${Math.round(100 * share)}%` } })),
      h("span", { class: "ugc-num", text: `${v.split[i]} (${Math.round(100 * share)} %)` }),
      swing && swing.p_win !== null
        ? h("span", { class: "ugc-swing", "data-ugc": `swing-${i}`, "data-p": String(swing.p_win),
          text: `${pct(swing.p_win, 0)}${swing.points ? ` (${swing.points.toFixed(0)})` : ""}` })
        : null);
  });
  return h("section", { class: "ugc-card ugc-vote", "data-ugc": "vote", "data-open": String(v.open), "data-split": v.split.join(",") },
    h("h2", { text: `${t(lang, "vote")} ${v.number}: ${t(lang, "vote_q", { p: who })}` }),
    h("p", { class: "ugc-muted", text: `${t(lang, "votes_n", { n: v.votes })}${v.open ? "" : ` · ${t(lang, "vote_closed")}`}` }),
    h("ul", { class: "ugc-choices" }, choices),
    !v.open ? h("p", { class: "ugc-muted", "data-ugc": "swing-status", "data-status": v.swing_status },
      v.swing_status === "done" ? t(lang, "swing", { p: who }) : v.swing_status === "working" ? t(lang, "working") : v.swing_status) : null);
}

export function rankingCard(view: View, lang: Lang): HTMLElement | null {
  if (!view.ranking || !(view.room.ended || view.room.over)) return null;
  return h("section", { class: "ugc-card", "data-ugc": "ranking" }, h("h2", { text: t(lang, "ranking") }),
    h("ol", {}, view.ranking.map((r) => h("li", { text: `${r.name}: ${money(r.net_worth)} (${t(lang, "net_worth")})` }))));
}

export function stateLine(view: View, lang: Lang): string {
  if (view.me.kicked) return t(lang, "kicked");
  if (view.room.ended) return t(lang, "ended");
  if (!view.room.started) return t(lang, "not_started");
  if (view.room.paused) return t(lang, "paused");
  return t(lang, "turn", { n: view.room.turn });
}
