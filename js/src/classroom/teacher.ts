// The teacher's page: start, pause, undo, end; who may sit (approve, deny, kick, give a seat,
// hand it to a bot); experiments and votes; the refused requests.
import { h } from "./dom";
import { t } from "./i18n";
import { experimentCard, voteCard, stateLine } from "./common";
import type { Send } from "./common";
import type { Board, Lang, View } from "./types";

const BOTS = ["random", "heuristic", "rollout"];
let refusalsOpen = false; // the refusals' list, opened by the teacher (kept across redraws)

export function teacherPage(view: View, board: Board, lang: Lang, send: Send): HTMLElement[] {
  const op = (name: string, extra: Record<string, unknown> = {}) => send({ type: "teacher", op: name, ...extra });
  if (view.me.role !== "teacher" || !view.teacher) {
    const key = h("input", { class: "ugc-input", type: "password", "data-ugc": "teacher-key", "aria-label": t(lang, "key") }) as HTMLInputElement;
    return [h("section", { class: "ugc-card" }, h("h2", { text: t(lang, "teacher") }),
      h("label", { class: "ugc-field" }, h("span", { text: t(lang, "key") }), key),
      h("button", { class: "ugc-btn ugc-primary", "data-ugc": "teacher-enter", text: t(lang, "enter"),
        onclick: () => send({ type: "teacher_key", key: key.value }) }))];
  }
  const T = view.teacher;
  const room = view.room;
  const out: HTMLElement[] = [];
  out.push(h("section", { class: "ugc-card", "data-ugc": "controls" },
    h("p", { class: "ugc-state", "data-ugc": "state", text: `${stateLine(view, lang)} · ${t(lang, "class_code")} ${room.code}` }),
    h("div", { class: "ugc-buttons" },
      !room.started ? h("button", { class: "ugc-btn ugc-primary", "data-ugc": "start", onclick: () => op("start"), text: t(lang, "start") }) : null,
      room.started && !room.ended ? h("button", { class: "ugc-btn", "data-ugc": room.paused ? "resume" : "pause",
        onclick: () => op(room.paused ? "resume" : "pause"), text: t(lang, room.paused ? "resume" : "pause") }) : null,
      room.started ? h("button", { class: "ugc-btn", "data-ugc": "undo", disabled: !T.can_undo, onclick: () => op("undo"), text: t(lang, "undo") }) : null,
      room.started && !room.ended ? h("button", { class: "ugc-btn ugc-danger", "data-ugc": "end", onclick: () => op("end"), text: t(lang, "end") }) : null),
    h("div", { class: "ugc-row" },
      h("label", { class: "ugc-field" }, h("span", { text: t(lang, "admit") }),
        h("select", { class: "ugc-input", "data-ugc": "admit", onchange: (ev: Event) => op("admit", { admit: (ev.target as HTMLSelectElement).value }) },
          h("option", { value: "teacher", selected: room.admit === "teacher", text: t(lang, "admit_teacher") }),
          h("option", { value: "code", selected: room.admit === "code", text: t(lang, "admit_code") }))),
      h("label", { class: "ugc-field" }, h("span", { text: t(lang, "pace") }),
        h("input", { class: "ugc-input", type: "number", min: "0", max: "10", step: "0.1", value: String(T.bot_delay), "data-ugc": "pace",
          onchange: (ev: Event) => op("bot_delay", { seconds: Number((ev.target as HTMLInputElement).value) }) })))));
  const waiting = T.devices.filter((d) => d.asked !== null);
  if (waiting.length) {
    out.push(h("section", { class: "ugc-card", "data-ugc": "waiting-list" }, h("h2", { text: t(lang, "waiting_list") }),
      h("ul", {}, waiting.map((d) => h("li", { "data-ugc": `waiting-${d.number}` },
        `${d.name} → ${t(lang, "seat_n", { n: (d.asked as number) + 1 })} `,
        h("button", { class: "ugc-btn ugc-primary", "data-ugc": `approve-${d.number}`, onclick: () => op("approve", { device: d.number }), text: t(lang, "approve") }),
        h("button", { class: "ugc-btn", "data-ugc": `deny-${d.number}`, onclick: () => op("deny", { device: d.number }), text: t(lang, "deny") }))))));
  }
  const members = T.devices.filter((d) => d.role === "member");
  const botSelect = (seat: number, bot: string | null) => h("select", { class: "ugc-input", "data-ugc": `bot-${seat}`,
    onchange: (ev: Event) => { const v = (ev.target as HTMLSelectElement).value; op("bot", { seat, level: v === "" ? null : v }); } },
  h("option", { value: "", selected: !bot, text: t(lang, "person") }),
  BOTS.map((b) => h("option", { value: b, selected: bot === b, text: t(lang, b) })));
  const giveSelect = (seat: number) => h("select", { class: "ugc-input", "data-ugc": `reassign-${seat}`,
    onchange: (ev: Event) => { const v = (ev.target as HTMLSelectElement).value; if (v) op("reassign", { seat, device: Number(v) }); } },
  h("option", { value: "", text: "…" }),
  members.filter((d) => d.seat !== seat).map((d) => h("option", { value: String(d.number), text: d.name || `#${d.number}` })));
  const seatRows = view.seats.map((s) => h("tr", { "data-ugc": `admin-seat-${s.index}` },
    h("td", { text: `${s.index + 1}. ${s.name}` }),
    h("td", { text: s.holder ? `${s.holder}${s.connected ? "" : ` (${t(lang, "away")})`}` : "–" }),
    h("td", {}, botSelect(s.index, s.bot)),
    h("td", {}, giveSelect(s.index))));
  out.push(h("section", { class: "ugc-card", "data-ugc": "seats-admin" }, h("h2", { text: t(lang, "seats") }),
    h("table", { class: "ugc-table" },
      h("tr", {}, h("th", { text: t(lang, "seat") }), h("th", { text: "" }), h("th", { text: t(lang, "bot") }), h("th", { text: t(lang, "reassign") })),
      seatRows)));
  out.push(h("section", { class: "ugc-card", "data-ugc": "devices" }, h("h2", { text: `${t(lang, "devices")} (${members.length})` }),
    h("ul", {}, members.map((d) => h("li", { "data-ugc": `device-${d.number}` },
      `${d.name || `#${d.number}`} · ${d.seat !== null ? t(lang, "seat_n", { n: d.seat + 1 }) : t(lang, "no_seat_here")} · ${d.away ? t(lang, "gone") : t(lang, "state")}${d.refused ? ` · ${d.refused}✗` : ""} `,
      h("button", { class: "ugc-btn", "data-ugc": `kick-${d.number}`, onclick: () => op("kick", { device: d.number }), text: t(lang, "kick") }))))));
  const kind = h("select", { class: "ugc-input", "data-ugc": "experiment-kind", "data-keep": "1" },
    ["dice", "jail", "turns"].map((k) => h("option", { value: k, text: t(lang, `kind_${k}`) }))) as HTMLSelectElement;
  const count = h("input", { class: "ugc-input", type: "number", min: "1", max: "200", value: "", placeholder: "20", "data-ugc": "experiment-count",
    "aria-label": t(lang, "count") }) as HTMLInputElement;
  const key = new URLSearchParams(window.location.search).get("key") || "";
  const e = view.experiment;
  out.push(h("section", { class: "ugc-card" }, h("h2", { text: t(lang, "experiment") }),
    h("div", { class: "ugc-row" }, kind, count,
      h("button", { class: "ugc-btn ugc-primary", "data-ugc": "experiment-open", text: t(lang, "open_experiment"),
        onclick: () => op("experiment", count.value ? { kind: kind.value, count: Math.floor(Number(count.value)) } : { kind: kind.value }) }),
      e && e.open ? h("button", { class: "ugc-btn", "data-ugc": "experiment-close", onclick: () => op("close_experiment"), text: t(lang, "close_experiment") }) : null,
      key && e ? h("a", { class: "ugc-btn", "data-ugc": "export", href: `/classroom/export.csv?key=${encodeURIComponent(key)}`, download: "class-experiments.csv", text: t(lang, "export") }) : null)));
  const v = view.vote;
  out.push(h("section", { class: "ugc-card" }, h("h2", { text: t(lang, "vote") }),
    h("div", { class: "ugc-row" },
      h("button", { class: "ugc-btn ugc-primary", "data-ugc": "vote-open", disabled: !room.started || !!(v && v.open), onclick: () => op("vote"), text: t(lang, "open_vote") }),
      v && v.open ? h("button", { class: "ugc-btn", "data-ugc": "vote-close", onclick: () => op("close_vote"), text: t(lang, "close_vote") }) : null)));
  const vote = voteCard(view, board, lang, send);
  if (vote) out.push(vote);
  const chart = experimentCard(view, lang, send, true, false);
  if (chart) out.push(chart);
  // the panel is drawn again at every update: the list stays open once the teacher opens it
  const keepOpen = (ev: Event) => { refusalsOpen = (ev.currentTarget as HTMLDetailsElement).open; };
  out.push(h("section", { class: "ugc-card", "data-ugc": "refusals" }, h("details", { open: refusalsOpen, ontoggle: keepOpen },
    h("summary", { text: t(lang, "refusals", { n: T.refused }) }),
    h("ul", { class: "ugc-log" }, T.refusals.map((r) => h("li", { text: `${r.device} · ${r.kind}: ${r.message}` }))))));
  return out;
}
