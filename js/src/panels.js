// Side panels: the action panel, the status panel, the log, the tile card, the trade dialog.
import { h, replace, money, safeColour, contrast } from "./dom.js";
import { t } from "./i18n.js";

export function tileName(board, pos, lang) {
  const tile = board && board.tiles ? board.tiles[pos] : null;
  if (!tile) return `#${pos}`;
  return tile.name[lang] || tile.name.en || tile.id;
}

function playerChip(p, index) {
  if (!p) return h("span", { text: "–" });
  const colour = safeColour(p.colour);
  return h("span", { class: "ugw-chip", "data-ugw-player": String(index) },
    h("span", { class: "ugw-dot", style: { background: colour, color: contrast(colour) },
      text: (p.token || "?").slice(0, 1).toUpperCase() }),
    h("span", { text: p.name }));
}

function sideText(side, board, lang) {
  const parts = [];
  for (const pos of side.properties || []) parts.push(tileName(board, pos, lang));
  if (side.cash) parts.push(money(side.cash));
  if (side.cards && side.cards.length) parts.push(`${side.cards.length} × ${t(lang, "cards")}`);
  return parts.length ? parts.join(", ") : t(lang, "none");
}

export function decisionText(state, board, lang) {
  const d = state.decision || {};
  const data = d.data || {};
  const p = d.player !== null && d.player !== undefined ? state.players[d.player] : null;
  const who = p ? p.name : "";
  const tile = data.position !== undefined ? tileName(board, data.position, lang) : "";
  switch (d.kind) {
    case "turn": return data.in_jail ? `${t(lang, "in_jail")} — ${t(lang, "roll")}` : t(lang, "roll");
    case "post_roll": return t(lang, "end_turn");
    case "buy": return `${t(lang, "buy")} ${tile} (${money(data.price)})?`;
    case "auction": {
      const item = data.item === "house" ? t(lang, "house") : tile;
      const leader = data.leader !== null && data.leader !== undefined ? state.players[data.leader] : null;
      return `${item}: ${t(lang, "high_bid")} ${money(data.high_bid || 0)}${leader ? ` (${leader.name})` : ""}, ${t(lang, "minimum")} ${money(data.min_bid)}`;
    }
    case "tax": return `${t(lang, "tax")} ${money(data.amount)} / ${data.percent}%`;
    case "jail_fine": return `${t(lang, "pay_fine")} (${money(data.fine)}) / ${t(lang, "use_card")}`;
    case "trade": {
      const offer = data.offer || {};
      const from = state.players[data.proposer];
      return `${t(lang, "offer")} ${from ? from.name : "?"} → ${who}: ${from ? from.name : ""} ${t(lang, "gives")} ${sideText(offer.give || {}, board, lang)}; ${t(lang, "get")} ${sideText(offer.get || {}, board, lang)}`;
    }
    case "mortgaged": return `${tile} (${t(lang, "mortgaged")} ${money(data.value)} + ${money(data.interest)})`;
    case "debt": return `${t(lang, "owes")} ${money(data.amount)}`;
    case "house_offer": return `${t(lang, "offer_house")} ${tile} (${money(data.price)})`;
    case "place_house": return t(lang, "place");
    case "game_over": return t(lang, "game_over");
    default: return d.kind || "";
  }
}

const SIMPLE = ["roll", "buy", "decline", "pay_fine", "use_card", "accept", "reject", "end_turn", "pass", "bankrupt"];
const BY_TILE = ["build", "sell", "mortgage", "unmortgage", "lift", "keep", "place"];

export function actionLabel(action, board, lang) {
  if (action.type === "tax") return t(lang, action.choice === "percent" ? "tax_percent" : "tax_flat");
  if (action.type === "sell_down") {
    const area = board.areas && board.areas[action.area];
    return `${t(lang, "sell_down")} ${action.area} ${t(lang, "to_level")} ${action.level}`;
  }
  if (action.position !== undefined) return `${t(lang, action.type)}: ${tileName(board, action.position, lang)}`;
  return t(lang, action.type);
}

export function renderActions(el, ctx) {
  const { state, board, lang, act, openTrade, seats } = ctx;
  const d = state.decision || {};
  const legal = state.legal || [];
  const p = d.player !== null && d.player !== undefined ? state.players[d.player] : null;
  const botSeat = p && p.seat && p.seat !== "person";
  const head = h("div", { class: "ugw-decision", "data-ugw": "decision", "data-kind": d.kind || "" },
    p ? playerChip(p, d.player) : null,
    h("span", { class: "ugw-decision-text", text: decisionText(state, board, lang) }));
  const focus = focusKey(el);
  if (botSeat) {
    replace(el, head, h("div", { class: "ugw-muted", "data-ugw": "bot-thinking", text: `${p.name} (${t(lang, p.seat)}) ${t(lang, "waiting_bot")}` }));
    restoreFocus(el, focus);
    return;
  }
  const buttons = [];
  const groups = new Map();
  for (const action of legal) {
    if (action.type === "bid") continue;
    if (SIMPLE.includes(action.type) || action.type === "tax") {
      const primary = ["roll", "buy", "accept", "end_turn", "bid"].includes(action.type);
      const danger = action.type === "bankrupt";
      buttons.push(h("button", {
        type: "button",
        class: `ugw-btn${primary ? " ugw-primary" : ""}${danger ? " ugw-danger" : ""}`,
        "data-ugw-action": action.type === "tax" ? `tax-${action.choice}` : action.type,
        onclick: () => act(action),
        text: actionLabel(action, board, lang),
      }));
    } else {
      const key = action.type;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(action);
    }
  }
  let bidRow = null;
  if (d.kind === "auction" && state.bid) {
    const canBid = legal.some((a) => a.type === "bid");
    const input = h("input", {
      type: "number", class: "ugw-bid-input", "data-ugw": "bid-amount",
      min: String(state.bid.min), max: String(state.bid.max), step: "1",
      value: String(state.bid.min), disabled: !canBid, "aria-label": t(lang, "bid"),
    });
    const submit = () => {
      const amount = Math.floor(Number(input.value));
      act({ type: "bid", player: d.player, amount });
    };
    input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") submit(); });
    bidRow = h("div", { class: "ugw-bid-row" }, input,
      h("button", { type: "button", class: "ugw-btn ugw-primary", "data-ugw-action": "bid", disabled: !canBid,
        text: `${t(lang, "bid")} (${money(state.bid.min)}–${money(state.bid.max)})`, onclick: submit }));
  }
  const manage = [];
  for (const [type, actions] of groups) {
    manage.push(h("div", { class: "ugw-manage-group", "data-ugw-group": type },
      h("span", { class: "ugw-manage-label", text: t(lang, type) }),
      actions.map((action) => h("button", {
        type: "button", class: "ugw-btn ugw-small-btn",
        "data-ugw-action": action.type,
        "data-ugw-pos": action.position !== undefined ? String(action.position) : null,
        "data-ugw-area": action.area,
        onclick: () => act(action),
        text: action.position !== undefined ? tileName(board, action.position, lang)
          : action.type === "sell_down" ? `${action.area} → ${action.level}` : actionLabel(action, board, lang),
      }))));
  }
  const trade = state.can_trade ? h("button", {
    type: "button", class: "ugw-btn", "data-ugw": "trade", text: t(lang, "trade"), onclick: openTrade,
  }) : null;
  replace(el, head, bidRow, h("div", { class: "ugw-buttons" }, buttons, trade),
    manage.length ? h("details", { class: "ugw-manage", open: manage.length < 3 || d.kind === "debt" },
      h("summary", { text: `${t(lang, "build")} / ${t(lang, "mortgage")} …` }), manage) : null);
  restoreFocus(el, focus);
}

// Keyboard users: the panel is redrawn after every action, which would drop the focus to the
// page (and send Tab through the whole board again). Keep it on the same control when it is
// still there, else on the first control of the panel.
function focusKey(el) {
  const active = el.ownerDocument.activeElement;
  if (!active || !el.contains(active)) return null;
  return { action: active.dataset.ugwAction, pos: active.dataset.ugwPos, ugw: active.dataset.ugw };
}

function restoreFocus(el, key) {
  if (!key) return;
  const same = [...el.querySelectorAll("button, input, select, summary")].find((c) =>
    (key.action && c.dataset.ugwAction === key.action && c.dataset.ugwPos === key.pos)
    || (key.ugw && c.dataset.ugw === key.ugw));
  const target = same && !same.disabled ? same
    : el.querySelector("input:not([disabled]), button:not([disabled])");
  if (target) target.focus({ preventScroll: true });
  else { el.tabIndex = -1; el.focus({ preventScroll: true }); }
}

export function renderStatus(el, ctx) {
  const { state, board, lang, onTile } = ctx;
  const owned = state.players.map(() => []);
  (state.owner || []).forEach((o, pos) => { if (o !== null && o !== undefined && owned[o]) owned[o].push(pos); });
  const mortgaged = new Set(state.mortgaged || []);
  const current = state.decision ? state.decision.player : null;
  const rows = state.players.map((p, i) => {
    const flags = [];
    if (p.in_jail) flags.push(t(lang, "in_jail"));
    if (p.in_park) flags.push(t(lang, "parked"));
    if (p.bankrupt) flags.push(t(lang, "bankrupt_flag"));
    if (p.seat && p.seat !== "person") flags.push(t(lang, p.seat));
    return h("div", {
      class: `ugw-player${i === current ? " ugw-player-current" : ""}${p.bankrupt ? " ugw-player-out" : ""}`,
      "data-ugw": `status-player-${i}`,
    },
      h("div", { class: "ugw-player-line" }, playerChip(p, i),
        h("span", { class: "ugw-cash", "data-ugw": `cash-${i}`, text: money(p.cash) })),
      flags.length ? h("div", { class: "ugw-flags", text: flags.join(" · ") }) : null,
      h("div", { class: "ugw-props" }, owned[i].map((pos) => {
        const tile = board.tiles[pos];
        return h("button", {
          type: "button",
          class: `ugw-prop${mortgaged.has(pos) ? " ugw-prop-mortgaged" : ""}`,
          style: { borderColor: safeColour(tile.colour, "var(--ugw-border)") },
          title: tileName(board, pos, lang), text: tileName(board, pos, lang),
          onclick: () => onTile(pos),
        });
      })),
      p.jail_cards && p.jail_cards.length
        ? h("div", { class: "ugw-flags", text: `${p.jail_cards.length} × ${t(lang, "cards")}` }) : null);
  });
  const unowned = board.tiles.filter((tile, pos) => ["STREET", "RAILWAY", "UTILITY"].includes(tile.kind)
    && (state.owner[pos] === null || state.owner[pos] === undefined)).length;
  const bank = [];
  if (state.houses_left !== null && state.houses_left !== undefined) bank.push(`${state.houses_left} ${t(lang, "houses")}`);
  if (state.hotels_left !== null && state.hotels_left !== undefined) bank.push(`${state.hotels_left} ${t(lang, "hotels")}`);
  bank.push(`${unowned} ${t(lang, "unowned")}`);
  replace(el, rows,
    h("div", { class: "ugw-bank", "data-ugw": "bank" },
      h("strong", { text: `${t(lang, "bank")}: ` }), bank.join(" · ")),
    h("div", { class: "ugw-bank", "data-ugw": "pot" },
      h("strong", { text: `${t(lang, "pot")}: ` }), money(state.pot)));
}

export function renderTileCard(el, ctx, pos, close) {
  const { state, board, lang, act } = ctx;
  const tile = board.tiles[pos];
  if (!tile) { close(); return; }
  const owner = state.owner ? state.owner[pos] : null;
  const ownerP = owner !== null && owner !== undefined ? state.players[owner] : null;
  const level = state.level ? state.level[pos] : 0;
  const rows = [];
  const row = (label, value) => rows.push(h("tr", {}, h("th", { text: label }), h("td", { text: value })));
  if (tile.cost) row(t(lang, "price"), money(tile.cost));
  if (tile.kind === "TAX") row(t(lang, "tax"), `${money(tile.amount)}${tile.percent ? ` / ${tile.percent}%` : ""}`);
  if (tile.rents && tile.rents.length) {
    if (tile.kind === "STREET") {
      tile.rents.forEach((r, k) => row(k === 0 ? t(lang, "rent") : k === board.hotel_level && k === tile.rents.length - 1 ? `+ ${t(lang, "hotel")}` : `+ ${k} ${t(lang, k === 1 ? "house" : "houses")}`, money(r)));
    } else {
      tile.rents.forEach((r, k) => row(`${t(lang, "rent")} (${k + 1})`, money(r)));
    }
  }
  if (tile.house_price) row(t(lang, "house_price"), money(tile.house_price));
  if (tile.mortgage) row(t(lang, "mortgage_value"), money(tile.mortgage));
  const here = (state.legal || []).filter((a) => a.position === pos);
  const colour = tile.colour ? safeColour(tile.colour) : null;
  replace(el,
    h("div", { class: "ugw-card-head", style: colour ? { background: colour, color: contrast(colour) } : null },
      h("span", { text: tileName(board, pos, lang) }),
      h("button", { type: "button", class: "ugw-close", "data-ugw": "card-close", "aria-label": t(lang, "close"), text: "×", onclick: close })),
    h("div", { class: "ugw-card-body" },
      h("div", { class: "ugw-muted", text: `#${pos} · ${t(lang, "kind_" + tile.kind)}` }),
      rows.length ? h("table", { class: "ugw-card-table" }, rows) : null,
      ["STREET", "RAILWAY", "UTILITY"].includes(tile.kind)
        ? h("div", { class: "ugw-card-owner" }, h("strong", { text: `${t(lang, "owner")}: ` }),
          ownerP ? playerChip(ownerP, owner) : t(lang, "bank")) : null,
      level ? h("div", { text: `${t(lang, "buildings")}: ${level >= board.hotel_level ? t(lang, "hotel") : `${level} ${t(lang, "houses")}`}` }) : null,
      (state.mortgaged || []).includes(pos) ? h("div", { class: "ugw-warn", text: t(lang, "mortgaged") }) : null,
      here.length ? h("div", { class: "ugw-buttons" }, here.map((action) => h("button", {
        type: "button", class: "ugw-btn ugw-small-btn", "data-ugw-action": action.type, "data-ugw-pos": String(pos),
        text: t(lang, action.type), onclick: () => act(action),
      }))) : null));
}

export class TradeDialog {
  constructor(send) {
    this.send = send;
    this.el = h("div", { class: "ugw-dialog", role: "dialog", "data-ugw": "trade-dialog", hidden: true });
    this.open = false;
    this.partner = null;
    this.sel = null;
  }

  show(state) {
    const me = state.decision.player;
    const others = state.players.map((p, i) => i).filter((i) => i !== me && !state.players[i].bankrupt);
    this.partner = others[0];
    this.sel = { give: { properties: new Set(), cash: 0, cards: new Set() }, get: { properties: new Set(), cash: 0, cards: new Set() } };
    this.open = true;
  }

  hide() { this.open = false; this.el.hidden = true; }

  render(ctx) {
    if (!this.open) { this.el.hidden = true; return; }
    const { state, board, lang } = ctx;
    if (!state.can_trade) { this.hide(); return; }
    this.el.hidden = false;
    const me = state.decision.player;
    const rerender = () => this.render(ctx);
    const partnerSelect = h("select", {
      "data-ugw": "trade-partner",
      onchange: (ev) => { this.partner = Number(ev.target.value); this.sel.get = { properties: new Set(), cash: 0, cards: new Set() }; rerender(); },
    }, state.players.map((p, i) => (i === me || p.bankrupt ? null
      : h("option", { value: String(i), selected: i === this.partner, text: p.name }))));
    const column = (who, side, label) => {
      const p = state.players[who];
      const props = [];
      (state.owner || []).forEach((o, pos) => { if (o === who) props.push(pos); });
      return h("div", { class: "ugw-trade-col", "data-ugw": `trade-${side}` },
        h("strong", { text: `${label} (${p.name})` }),
        props.map((pos) => h("label", { class: "ugw-check" }, h("input", {
          type: "checkbox", checked: this.sel[side].properties.has(pos), "data-ugw": `trade-${side}-prop-${pos}`,
          onchange: (ev) => { if (ev.target.checked) this.sel[side].properties.add(pos); else this.sel[side].properties.delete(pos); },
        }), tileName(board, pos, lang))),
        (p.jail_cards || []).map((card) => h("label", { class: "ugw-check" }, h("input", {
          type: "checkbox", checked: this.sel[side].cards.has(card), "data-ugw": `trade-${side}-card-${card}`,
          onchange: (ev) => { if (ev.target.checked) this.sel[side].cards.add(card); else this.sel[side].cards.delete(card); },
        }), (board.cards[card] && (board.cards[card][lang] || board.cards[card].en) || card).slice(0, 60))),
        h("label", { class: "ugw-field" }, h("span", { text: `${t(lang, "cash")} (≤ ${money(p.cash)})` }),
          h("input", { type: "number", min: "0", max: String(p.cash), value: String(this.sel[side].cash),
            "data-ugw": `trade-${side}-cash`, oninput: (ev) => { this.sel[side].cash = Math.max(0, Math.floor(Number(ev.target.value) || 0)); } })));
    };
    const pack = (side) => ({ properties: [...side.properties], cash: side.cash, cards: [...side.cards] });
    replace(this.el,
      h("div", { class: "ugw-dialog-head" }, h("strong", { text: t(lang, "trade") }),
        h("button", { type: "button", class: "ugw-close", "aria-label": t(lang, "close"), text: "×", onclick: () => { this.hide(); } })),
      h("label", { class: "ugw-field" }, h("span", { text: t(lang, "partner") }), partnerSelect),
      this.partner === undefined ? null : h("div", { class: "ugw-trade-cols" },
        column(me, "give", t(lang, "you_give")), column(this.partner, "get", t(lang, "you_get"))),
      h("div", { class: "ugw-buttons" },
        h("button", { type: "button", class: "ugw-btn ugw-primary", "data-ugw": "trade-send", text: t(lang, "send_offer"),
          onclick: () => {
            this.send({ type: "propose_trade", player: me, partner: this.partner, give: pack(this.sel.give), get: pack(this.sel.get) });
            this.hide();
          } }),
        h("button", { type: "button", class: "ugw-btn", "data-ugw": "trade-cancel", text: t(lang, "cancel"), onclick: () => this.hide() })));
  }
}
