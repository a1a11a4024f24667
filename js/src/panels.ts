// Panels: the current decision (in the board's centre), the players and the tile card (the
// trade dialog: trade.ts). Every button that sends a request is a guarded button (see
// requests.ts: it ignores clicks for a moment after it appears in a new place, and while a
// request is on its way).
import { h, replace, money, safeColour } from "./dom.js";
import type { Attrs } from "./dom.js";
import { t, tokenName } from "./i18n.js";
import { tokenSvg } from "./tokens.js";
import { cardsText, decisionText, evenHint, manageLabel, tileName } from "./prompts.js";
import type { Action, BoardData, GameState, Lang, Player, PositionAction, Tile } from "./contract.js";

export { decisionText, tileName };

/** What the panels draw from and call back: the state, the board and the view's requests. */
export interface PanelCtx {
  state: GameState;
  board: BoardData;
  lang: Lang;
  uid: string;
  act: (action: Action) => boolean;
  guarded: (attrs: Attrs) => HTMLButtonElement;
  openTrade: () => void;
  onTile: (pos: number) => void;
  manageOpen: boolean;
  toggleManage: () => void;
}

export function playerChip(p: Player | undefined, index: number, lang: Lang): HTMLSpanElement {
  if (!p) return h("span", { text: "–" });
  return h("span", { class: "ugw-chip", "data-ugw-player": String(index), title: `${p.name} (${tokenName(lang, p.token)})` },
    h("span", { class: "ugw-chip-token", style: { borderColor: safeColour(p.colour) } }, tokenSvg(p.token, p.colour, 18)),
    h("span", { class: "ugw-chip-name", text: p.name }));
}

const SIMPLE: string[] = ["roll", "buy", "decline", "pay_fine", "use_card", "accept", "reject", "end_turn", "pass", "bankrupt"];
const PRIMARY: string[] = ["roll", "buy", "accept", "end_turn", "bid"];

// The position an action is about (build, mortgage ...), or undefined.
function positionOf(action: Action): number | undefined {
  return "position" in action ? action.position : undefined;
}

export function actionLabel(action: Action, board: BoardData, lang: Lang): string {
  if (action.type === "tax") return t(lang, action.choice === "percent" ? "tax_percent" : "tax_flat");
  if (action.type === "sell_down") return `${t(lang, "sell_down")} ${action.area} ${t(lang, "to_level")} ${action.level}`;
  if ("position" in action) return `${t(lang, action.type)}: ${tileName(board, action.position, lang)}`;
  return t(lang, action.type);
}

// The current decision: whose it is, what about, and its buttons. Per-tile actions (build,
// mortgage, ...) sit behind the "Build / Mortgage" toggle, except those about the tile the
// decision is about (the 22-cell house offer's "Build" is a main button).
export function renderActions(el: HTMLElement, ctx: PanelCtx): void {
  const { state, board, lang, act, openTrade, guarded } = ctx;
  const d = state.decision;
  const legal = state.legal || [];
  const p = d.player !== null && d.player !== undefined ? state.players[d.player] : null;
  const botSeat = p && p.seat && p.seat !== "person";
  const head = h("div", { class: "ugw-decision", "data-ugw": "decision", "data-kind": d.kind || "" },
    p ? h("span", { class: "ugw-whose", "data-ugw": "whose-turn" }, playerChip(p, d.player as number, lang)) : null,
    h("span", { class: "ugw-decision-text", text: decisionText(state, board, lang) }));
  const focus = focusKey(el);
  if (botSeat) {
    replace(el, head, h("div", { class: "ugw-muted", "data-ugw": "bot-thinking", text: `${p.name} (${t(lang, p.seat)}) ${t(lang, "waiting_bot")}` }));
    restoreFocus(el, focus);
    return;
  }
  const about = d.data && "position" in d.data && d.data.position !== undefined ? d.data.position : null;
  const buttons: HTMLButtonElement[] = [];
  const manage = new Map<string, Action[]>();
  for (const action of legal) {
    if (action.type === "bid") continue;
    const pos = positionOf(action);
    const mine = pos !== undefined && pos === about && d.kind !== "debt";
    if (SIMPLE.includes(action.type) || action.type === "tax" || mine) {
      buttons.push(guarded({
        class: `ugw-btn${PRIMARY.includes(action.type) || mine ? " ugw-primary" : ""}${action.type === "bankrupt" ? " ugw-danger" : ""}`,
        "data-ugw-action": action.type === "tax" ? `tax-${action.choice}` : action.type,
        "data-ugw-pos": pos !== undefined ? String(pos) : null,
        onclick: () => act(action),
        text: actionLabel(action, board, lang),
      }));
    } else {
      if (!manage.has(action.type)) manage.set(action.type, []);
      manage.get(action.type)!.push(action);
    }
  }
  let bidRow: HTMLDivElement | null = null;
  if (d.kind === "auction" && state.bid) {
    const bidder = d.player;
    const canBid = legal.some((a) => a.type === "bid");
    const input = h("input", {
      type: "number", class: "ugw-bid-input", "data-ugw": "bid-amount", id: `ugw-bid-${ctx.uid}`,
      min: String(state.bid.min), max: String(state.bid.max), step: "1",
      value: String(state.bid.min), disabled: !canBid,
    });
    const submit = (): boolean => act({ type: "bid", player: bidder, amount: Math.floor(Number(input.value)) });
    input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") submit(); });
    bidRow = h("div", { class: "ugw-bid-row" },
      h("label", { class: "ugw-sr", for: `ugw-bid-${ctx.uid}`, text: t(lang, "bid") }), input,
      guarded({ class: "ugw-btn ugw-primary", "data-ugw-action": "bid", disabled: !canBid,
        text: `${t(lang, "bid")} (${money(state.bid.min)}–${money(state.bid.max)})`, onclick: submit }));
  }
  const groups: HTMLDivElement[] = [];
  for (const [type, actions] of manage) {
    groups.push(h("div", { class: "ugw-manage-group", "data-ugw-group": type },
      h("span", { class: "ugw-manage-label", text: t(lang, type) }),
      actions.map((action) => guarded({
        class: "ugw-btn ugw-small-btn",
        "data-ugw-action": action.type,
        "data-ugw-pos": "position" in action ? String(action.position) : null,
        "data-ugw-area": "area" in action ? action.area : undefined,
        onclick: () => act(action),
        text: "position" in action ? manageLabel(action, state, board, lang)
          : action.type === "sell_down" ? `${action.area} → ${action.level}` : actionLabel(action, board, lang),
      }))));
  }
  const hint = groups.length ? evenHint(state, board, lang) : null;
  if (hint) groups.push(h("div", { class: "ugw-muted ugw-even-hint", "data-ugw": "even-hint", text: hint }));
  const trade = state.can_trade ? h("button", {
    type: "button", class: "ugw-btn", "data-ugw": "trade", text: t(lang, "trade"), onclick: openTrade,
    "aria-haspopup": "dialog",
  }) : null;
  const openManage = groups.length && (d.kind === "debt" || ctx.manageOpen);
  const toggle = groups.length ? h("button", {
    type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "manage", "aria-expanded": openManage ? "true" : "false",
    text: t(lang, "manage"), onclick: () => ctx.toggleManage(),
  }) : null;
  replace(el, head, bidRow, h("div", { class: "ugw-buttons" }, buttons, trade, toggle),
    openManage ? h("div", { class: "ugw-manage", "data-ugw": "manage-panel" }, groups) : null);
  restoreFocus(el, focus);
}

// Keyboard users: the panel is redrawn after every action, which would drop the focus to the
// page (and send Tab through the whole board again). Keep it on the same control when it is
// still there, else on the first control of the panel.
interface FocusKey { action?: string; pos?: string; ugw?: string }

function focusKey(el: HTMLElement): FocusKey | null {
  const active = el.ownerDocument.activeElement as HTMLElement | null;
  if (!active || !el.contains(active)) return null;
  return { action: active.dataset.ugwAction, pos: active.dataset.ugwPos, ugw: active.dataset.ugw };
}

function restoreFocus(el: HTMLElement, key: FocusKey | null): void {
  if (!key) return;
  const same = [...el.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLSelectElement>("button, input, select")].find((c) =>
    (key.action && c.dataset.ugwAction === key.action && c.dataset.ugwPos === key.pos)
    || (key.ugw && c.dataset.ugw === key.ugw));
  const target = same && !same.disabled ? same
    : el.querySelector<HTMLElement>("input:not([disabled]), button:not([disabled])");
  if (target) target.focus({ preventScroll: true });
  else { el.tabIndex = -1; el.focus({ preventScroll: true }); }
}

export function renderStatus(el: HTMLElement, ctx: PanelCtx): void {
  const { state, board, lang, onTile } = ctx;
  const owned: number[][] = state.players.map(() => []);
  (state.owner || []).forEach((o, pos) => { if (o !== null && o !== undefined && owned[o]) owned[o].push(pos); });
  const mortgaged = new Set(state.mortgaged || []);
  const current = state.decision ? state.decision.player : null;
  const rows = state.players.map((p, i) => {
    const flags: string[] = [];
    if (p.in_jail) flags.push(t(lang, "in_jail"));
    if (p.in_park) flags.push(t(lang, "parked"));
    if (p.bankrupt) flags.push(t(lang, "bankrupt_flag"));
    if (p.seat && p.seat !== "person") flags.push(t(lang, p.seat));
    return h("div", {
      class: `ugw-player${i === current ? " ugw-player-current" : ""}${p.bankrupt ? " ugw-player-out" : ""}`,
      "data-ugw": `status-player-${i}`,
    },
      h("div", { class: "ugw-player-line" }, playerChip(p, i, lang),
        h("span", { class: "ugw-cash", "data-ugw": `cash-${i}`, text: money(p.cash) })),
      flags.length ? h("div", { class: "ugw-flags", text: flags.join(" · ") }) : null,
      h("div", { class: "ugw-props" }, owned[i].map((pos) => {
        const tile = board.tiles[pos];
        return h("button", {
          type: "button",
          class: `ugw-prop${mortgaged.has(pos) ? " ugw-prop-mortgaged" : ""}`,
          style: { borderLeftColor: safeColour(tile.colour, "var(--ugw-border)") },
          title: tileName(board, pos, lang), text: tileName(board, pos, lang),
          onclick: () => onTile(pos),
        });
      })),
      p.jail_cards && p.jail_cards.length
        ? h("div", { class: "ugw-flags", text: cardsText(p.jail_cards.length, lang) }) : null);
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

// The players' strip above the board: token, name and cash of everyone, always in view (the
// money changes of an action float over these amounts).
export function renderStrip(el: HTMLElement, ctx: PanelCtx): void {
  const { state, lang } = ctx;
  const current = state.decision ? state.decision.player : null;
  const key = state.players.map((p) => `${p.name}/${p.token}/${p.colour}`).join("|") + lang;
  if (el.dataset.key !== key) {
    // rebuilt only when the players change: money floats live inside and must survive redraws
    el.dataset.key = key;
    replace(el, state.players.map((p, i) => h("div", { class: "ugw-strip-player", "data-ugw": `strip-player-${i}` },
      playerChip(p, i, lang),
      h("span", { class: "ugw-strip-cash", "data-ugw": `strip-cash-${i}` }, h("span", { class: "ugw-strip-amount" })))));
  }
  state.players.forEach((p, i) => {
    const row = el.children[i];
    if (!row) return;
    row.classList.toggle("ugw-player-current", i === current);
    row.classList.toggle("ugw-player-out", !!p.bankrupt);
    row.querySelector(".ugw-strip-amount")!.textContent = money(p.cash);
  });
}

function rentRows(tile: Tile, board: BoardData, lang: Lang, row: (label: string, value: string) => void): void {
  const rules: Partial<BoardData["rules"]> = board.rules || {};
  if (!tile.rents || !tile.rents.length) return;
  if (tile.kind !== "STREET") {
    tile.rents.forEach((r, k) => row(`${t(lang, "rent")} (${k + 1})`, money(r)));
    return;
  }
  if (rules.street_rent === "linear_houses") {
    row(t(lang, "rent"), money(tile.cost));
    row(t(lang, "rent_per_house"), money(Math.floor(tile.cost / 2)));
    return;
  }
  if (rules.buildings === "none" || rules.street_rent === "course") {
    // no houses in these rules: the rent, and double for the whole colour group
    row(t(lang, "rent"), money(tile.rents[0]));
    if (tile.area) row(t(lang, "rent_group"), money(tile.rents[0] * 2));
    return;
  }
  tile.rents.forEach((r, k) => row(k === 0 ? t(lang, "rent")
    : k === board.hotel_level && k === tile.rents.length - 1 ? `+ ${t(lang, "hotel")}`
      : `+ ${k} ${t(lang, k === 1 ? "house" : "houses")}`, money(r)));
}

export function renderTileCard(el: HTMLElement, ctx: PanelCtx, pos: number, close: () => void): void {
  const { state, board, lang, act, guarded } = ctx;
  const tile = board.tiles[pos];
  if (!tile) { close(); return; }
  const rules: Partial<BoardData["rules"]> = board.rules || {};
  const owner = state.owner ? state.owner[pos] : null;
  const ownerP = owner !== null && owner !== undefined ? state.players[owner] : null;
  const level = state.level ? state.level[pos] : 0;
  const rows: HTMLTableRowElement[] = [];
  const row = (label: string, value: string): number => rows.push(h("tr", {}, h("th", { scope: "row", text: label }), h("td", { text: value })));
  if (tile.cost) row(t(lang, "price"), money(tile.cost));
  if (tile.kind === "TAX") row(t(lang, "tax"), `${money(tile.amount)}${tile.percent ? ` / ${tile.percent}%` : ""}`);
  rentRows(tile, board, lang, row);
  if (tile.house_price && rules.buildings !== "none") row(t(lang, "house_price"), money(tile.house_price));
  if (tile.mortgage && rules.mortgages) row(t(lang, "mortgage_value"), money(tile.mortgage));
  const here = (state.legal || []).filter((a): a is PositionAction => positionOf(a) === pos);
  const colour = tile.colour ? safeColour(tile.colour) : null;
  const titleId = `ugw-card-title-${ctx.uid}`;
  el.setAttribute("role", "dialog");
  el.setAttribute("aria-labelledby", titleId);
  const head = h("div", { class: "ugw-card-head" },
    h("span", { id: titleId, text: tileName(board, pos, lang) }),
    h("button", { type: "button", class: "ugw-close", "data-ugw": "card-close", "aria-label": t(lang, "close"), text: "×", onclick: close }));
  if (colour) head.style.setProperty("--ugw-band", colour);
  replace(el, head,
    h("div", { class: "ugw-card-body" },
      h("div", { class: "ugw-muted", text: `#${pos} · ${t(lang, "kind_" + tile.kind)}` }),
      rows.length ? h("table", { class: "ugw-card-table" }, h("tbody", {}, rows)) : null,
      ["STREET", "RAILWAY", "UTILITY"].includes(tile.kind)
        ? h("div", { class: "ugw-card-owner" }, h("strong", { text: `${t(lang, "owner")}: ` }),
          ownerP ? playerChip(ownerP, owner as number, lang) : t(lang, "bank")) : null,
      level ? h("div", { text: `${t(lang, "buildings")}: ${level >= board.hotel_level ? t(lang, "hotel") : `${level} ${t(lang, "houses")}`}` }) : null,
      (state.mortgaged || []).includes(pos) ? h("div", { class: "ugw-warn", text: t(lang, "mortgaged") }) : null,
      here.length ? h("div", { class: "ugw-buttons" }, here.map((action) => guarded({
        class: "ugw-btn ugw-small-btn", "data-ugw-action": action.type, "data-ugw-pos": String(pos),
        text: t(lang, action.type), onclick: () => act(action),
      }))) : null));
}
