// A student's phone or laptop: join with the code, take a seat, play it with thumb-sized
// buttons (own cash and properties), a private trade dialog, the class experiment and vote.
import { h, money, safeColour } from "./dom";
import { t } from "./i18n";
import { actionLabel, experimentCard, rankingCard, seatList, seatName, stateLine, tileName, voteCard } from "./common";
import type { Send } from "./common";
import type { Action, Board, Lang, Mine, View } from "./types";

// what sits behind "More" (per-tile management); the rest are the decision's main buttons
const MANAGE = new Set(["build", "sell", "mortgage", "unmortgage", "lift", "sell_down"]);

interface Drafts { code: string; name: string; trade: TradeDraft | null; join?: HTMLElement | null; joinLang?: Lang }
interface TradeDraft { partner: number; give: Set<number>; get: Set<number>; giveCash: number; getCash: number }

export function playerPage(view: View, board: Board, lang: Lang, send: Send, drafts: Drafts, redraw: () => void): HTMLElement[] {
  const out: HTMLElement[] = [];
  const me = view.me;
  if (me.kicked) return [h("section", { class: "ugc-card" }, h("p", { text: t(lang, "kicked") }))];
  if (me.role !== "member" && me.role !== "teacher") {
    // the same form on every redraw (the class joining redraws often): what the student is
    // typing, the caret and the focus stay where they are
    if (!drafts.join || drafts.joinLang !== lang) {
      drafts.join = joinCard(view, lang, send, drafts);
      drafts.joinLang = lang;
    }
    return [drafts.join];
  }
  drafts.join = null;
  out.push(h("p", { class: "ugc-state", "data-ugc": "state", text: stateLine(view, lang) }));
  const mine = view.mine;
  if (mine) out.push(seatCard(view, mine, board, lang, send, drafts, redraw));
  else if (me.asked !== null) {
    out.push(h("section", { class: "ugc-card", "data-ugc": "asked" },
      h("p", { text: t(lang, "waiting_approval", { n: me.asked + 1 }) }),
      h("button", { class: "ugc-btn", "data-ugc": "leave", onclick: () => send({ type: "leave" }), text: t(lang, "cancel") })));
  } else out.push(h("p", { class: "ugc-muted", "data-ugc": "spectator", text: t(lang, "spectator") }));
  const vote = voteCard(view, board, lang, send);
  if (vote) out.push(vote);
  const experiment = experimentCard(view, lang, send, true, false);
  if (experiment) out.push(experiment);
  const ranking = rankingCard(view, lang);
  if (ranking) out.push(ranking);
  out.push(seatList(view, lang, (seat) => send({ type: "claim", seat })));
  if (mine) out.push(h("button", { class: "ugc-btn ugc-quiet", "data-ugc": "leave", onclick: () => send({ type: "leave" }), text: t(lang, "leave") }));
  return out;
}

function joinCard(view: View, lang: Lang, send: Send, drafts: Drafts): HTMLElement {
  const code = h("input", { class: "ugc-input", "data-ugc": "join-code", autocomplete: "off", autocapitalize: "characters",
    maxlength: "12", value: drafts.code || view.code_hint || "", "aria-label": t(lang, "code"),
    oninput: (ev: Event) => { drafts.code = (ev.target as HTMLInputElement).value; } }) as HTMLInputElement;
  const name = h("input", { class: "ugc-input", "data-ugc": "join-name", maxlength: "20", autocomplete: "nickname",
    value: drafts.name, "aria-label": t(lang, "name"),
    oninput: (ev: Event) => { drafts.name = (ev.target as HTMLInputElement).value; } }) as HTMLInputElement;
  const join = () => send({ type: "join", code: code.value, name: name.value });
  name.addEventListener("keydown", (ev) => { if ((ev as KeyboardEvent).key === "Enter") join(); });
  return h("section", { class: "ugc-card ugc-join" }, h("h2", { text: t(lang, "join_title") }),
    h("label", { class: "ugc-field" }, h("span", { text: t(lang, "code") }), code),
    h("label", { class: "ugc-field" }, h("span", { text: t(lang, "name") }), name),
    h("button", { class: "ugc-btn ugc-primary ugc-thumb", "data-ugc": "join", onclick: join, text: t(lang, "join") }));
}

function seatCard(view: View, mine: Mine, board: Board, lang: Lang, send: Send, drafts: Drafts, redraw: () => void): HTMLElement {
  const seat = view.seats[mine.seat];
  const act = (a: Action) => send({ type: "act", action: a, seq: view.seq });
  const props = mine.properties.length
    ? h("ul", { class: "ugc-props" }, mine.properties.map((p) => {
      const tile = board.tiles[p.pos];
      return h("li", { class: `ugc-prop${p.mortgaged ? " ugc-mortgaged" : ""}`, "data-ugc": `prop-${p.pos}` },
        h("span", { class: "ugc-dot", style: { background: safeColour(tile && tile.colour, "#bbb") } }),
        tileName(board, p.pos, lang), p.level ? ` · ${"⌂".repeat(Math.min(p.level, 4))}${p.level >= board.hotel_level ? "H" : ""}` : "",
        p.mortgaged ? ` · ${t(lang, "mortgage")}` : "");
    }))
    : h("p", { class: "ugc-muted", text: t(lang, "none") });
  const decision = view.decision;
  let body: HTMLElement;
  if (view.room.started && view.seats[mine.seat].bot) body = h("p", { class: "ugc-muted", text: t(lang, "bot_yours") });
  else if (mine.my_turn) body = decisionButtons(view, mine, board, lang, act, drafts, redraw);
  else if (view.room.started && !view.room.ended && decision.player !== null)
    body = h("p", { class: "ugc-muted", "data-ugc": "waiting", text: t(lang, "waiting_for", { p: seatName(view, decision.player) }) });
  else body = h("p", { class: "ugc-muted", text: stateLine(view, lang) });
  return h("section", { class: `ugc-card ugc-myseat${mine.my_turn ? " ugc-myturn" : ""}`, "data-ugc": "my-seat", "data-seat": String(mine.seat) },
    h("div", { class: "ugc-row ugc-me" },
      h("span", { class: "ugc-dot ugc-big-dot", style: { background: safeColour(seat && seat.colour) } }),
      h("b", { class: "ugc-myname", text: seat ? seat.name : "" }),
      h("span", { class: "ugc-cash-big", "data-ugc": "my-cash", "data-cash": String(mine.cash), text: money(mine.cash) })),
    h("p", { class: "ugc-muted" }, tileName(board, mine.position, lang), mine.in_jail ? ` · ${t(lang, "in_jail")}` : "",
      mine.jail_cards ? ` · ${mine.jail_cards} ${t(lang, "jail_cards")}` : ""),
    h("div", { class: "ugc-decision", "data-ugc": "decision", "data-kind": decision.kind }, body),
    h("h3", { text: t(lang, "properties") }), props);
}

function decisionButtons(view: View, mine: Mine, board: Board, lang: Lang, act: (a: Action) => void,
  drafts: Drafts, redraw: () => void): HTMLElement {
  const decision = view.decision;
  const main: HTMLElement[] = [];
  const manage: HTMLElement[] = [];
  for (const a of mine.legal) {
    if (a.type === "bid" || a.type === "propose_trade") continue;
    const button = h("button", { class: `ugc-btn ugc-thumb${["roll", "buy", "accept", "end_turn"].includes(a.type) ? " ugc-primary" : ""}${a.type === "bankrupt" ? " ugc-danger" : ""}`,
      "data-ugc-action": a.type === "tax" ? `tax-${a.choice}` : a.type, "data-ugc-pos": a.position !== undefined ? String(a.position) : null,
      onclick: () => act(a), text: actionLabel(a, board, lang) });
    (MANAGE.has(a.type) && a.position !== decision.position ? manage : main).push(button);
  }
  const parts: HTMLElement[] = [h("p", { class: "ugc-your-turn", text: t(lang, "your_turn") })];
  if (decision.kind === "trade" && decision.offer) parts.push(offerText(view, decision.offer as Record<string, unknown>, board, lang));
  parts.push(h("div", { class: "ugc-buttons" }, main));
  if (mine.bid) {
    const input = h("input", { type: "number", class: "ugc-input ugc-bid", "data-ugc": "bid-amount", min: String(mine.bid.min),
      max: String(mine.bid.max), value: String(mine.bid.min), "aria-label": t(lang, "bid") }) as HTMLInputElement;
    parts.push(h("div", { class: "ugc-row" }, input, h("button", { class: "ugc-btn ugc-primary ugc-thumb", "data-ugc-action": "bid",
      onclick: () => act({ type: "bid", player: mine.seat, amount: Math.floor(Number(input.value)) }), text: t(lang, "bid") })));
  }
  if (manage.length) parts.push(h("details", { class: "ugc-manage" }, h("summary", { text: "…" }), h("div", { class: "ugc-buttons" }, manage)));
  if (mine.trade && mine.legal.some((a) => a.type === "propose_trade") || (mine.trade && board.trading)) {
    parts.push(h("button", { class: "ugc-btn ugc-thumb", "data-ugc": "trade-open",
      onclick: () => { drafts.trade = drafts.trade || { partner: mine.trade![0].player, give: new Set(), get: new Set(), giveCash: 0, getCash: 0 }; redraw(); },
      text: t(lang, "propose_trade") }));
    if (drafts.trade) parts.push(tradeDialog(mine, board, lang, act, drafts, redraw));
  }
  return h("div", {}, parts);
}

function offerText(view: View, offer: Record<string, unknown>, board: Board, lang: Lang): HTMLElement {
  const side = (x: unknown) => {
    const o = (x || {}) as { properties?: number[]; cash?: number; cards?: unknown[] };
    const items = (o.properties || []).map((p) => tileName(board, p, lang));
    if (o.cash) items.push(money(o.cash));
    if (o.cards && o.cards.length) items.push(`${o.cards.length} ${t(lang, "jail_cards")}`);
    return items.join(", ") || "–";
  };
  return h("p", { "data-ugc": "offer" }, h("b", { text: t(lang, "offer_from", { p: seatName(view, offer.player as number) }) }), ": ",
    `${t(lang, "gives")} ${side(offer.give)}; ${t(lang, "asks")} ${side(offer.get)}`);
}

function tradeDialog(mine: Mine, board: Board, lang: Lang, act: (a: Action) => void, drafts: Drafts, redraw: () => void): HTMLElement {
  const d = drafts.trade!;
  const partner = mine.trade!.find((p) => p.player === d.partner) || mine.trade![0];
  const box = (set: Set<number>, pos: number, key: string) => h("label", { class: "ugc-check" },
    h("input", { type: "checkbox", checked: set.has(pos), "data-ugc": `${key}-${pos}`,
      onchange: (ev: Event) => { if ((ev.target as HTMLInputElement).checked) set.add(pos); else set.delete(pos); } }),
    tileName(board, pos, lang));
  const cash = (value: number, max: number, key: string, store: (v: number) => void) => h("input", { type: "number", class: "ugc-input",
    min: "0", max: String(max), value: String(value), "data-ugc": key,
    oninput: (ev: Event) => store(Math.max(0, Math.floor(Number((ev.target as HTMLInputElement).value) || 0))) });
  return h("div", { class: "ugc-dialog", role: "dialog", "aria-label": t(lang, "trade"), "data-ugc": "trade" },
    h("h3", { text: t(lang, "trade") }),
    h("label", { class: "ugc-field" }, h("span", { text: t(lang, "partner") }),
      h("select", { class: "ugc-input", "data-ugc": "trade-partner",
        onchange: (ev: Event) => { d.partner = Number((ev.target as HTMLSelectElement).value); d.get.clear(); redraw(); } },
      mine.trade!.map((p) => h("option", { value: String(p.player), selected: p.player === partner.player, text: p.name })))),
    h("div", { class: "ugc-trade-sides" },
      h("fieldset", {}, h("legend", { text: t(lang, "you_give") }), (mine.give || []).map((pos) => box(d.give, pos, "give")),
        cash(d.giveCash, mine.cash, "give-cash", (v) => { d.giveCash = v; })),
      h("fieldset", {}, h("legend", { text: t(lang, "you_get") }), partner.properties.map((pos) => box(d.get, pos, "get")),
        cash(d.getCash, partner.cash, "get-cash", (v) => { d.getCash = v; }))),
    h("div", { class: "ugc-row" },
      h("button", { class: "ugc-btn ugc-primary ugc-thumb", "data-ugc": "trade-send", text: t(lang, "send_offer"),
        onclick: () => {
          act({ type: "propose_trade", player: mine.seat, partner: partner.player,
            give: { properties: [...d.give], cash: d.giveCash, cards: [] },
            get: { properties: [...d.get], cash: d.getCash, cards: [] } });
          drafts.trade = null; redraw();
        } }),
      h("button", { class: "ugc-btn ugc-thumb", "data-ugc": "trade-close", text: t(lang, "close"), onclick: () => { drafts.trade = null; redraw(); } })));
}

export type { Drafts };
