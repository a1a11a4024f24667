// The board's centre box, as on a real table: the game's name and the heat legend, the two
// decks and a drawn card face up, the dice, the narration line, the clocks, the decision's
// buttons and a refusal under them, the tile card and the game-over screen.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { renderLegend } from "./odds.js";
import { cardText } from "./narrate.js";
import { renderTileCard } from "./panels.js";
import { gameOver } from "./gameover.js";
import { icon } from "./tokens.js";
import type { DrawnCard, GameState, ProbabilityHeat } from "./contract.js";
import type { View } from "./view.js";

const PIPS: Record<number, number[]> = {
  1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8],
};
export const DICE_MS = 560;

function die(value: number): HTMLSpanElement {
  const el = h("span", { class: "ugw-die", "data-value": String(value) });
  const pips = PIPS[value];
  if (!pips) { el.textContent = String(value); el.classList.add("ugw-die-num"); return el; }
  for (let k = 0; k < 9; k++) el.appendChild(h("span", { class: pips.includes(k) ? "ugw-pip" : "ugw-nopip" }));
  return el;
}

function fmtTime(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  return m ? `${m}:${String(s % 60).padStart(2, "0")}` : `${s}s`;
}

// The centre's title on one or two lines, whatever its length ("Classic Monopoly (standard
// 16-card decks)" wrapped to three huge lines): its size falls with the number of letters.
function titleSize(text: string): string {
  const letters = Math.max(8, String(text).length);
  return `clamp(${letters > 24 ? 11 : 15}px, min(4.2cqw, ${(140 / letters).toFixed(2)}cqw), 48px)`;
}

export function reducedMotion(): boolean {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

export class Centre {
  readonly boardTitle = h("div", { class: "ugw-board-name", "data-ugw": "board-title", role: "heading", "aria-level": "3" });
  readonly legendEl = h("div", { class: "ugw-legend", "data-ugw": "heat-legend", hidden: true });
  readonly decksEl = h("div", { class: "ugw-decks", "data-ugw": "decks" });
  readonly cardShown = h("div", { class: "ugw-drawn", "data-ugw": "drawn-card", hidden: true, role: "group" });
  readonly diceEl = h("div", { class: "ugw-dice", "data-ugw": "dice", role: "img" });
  readonly table = h("div", { class: "ugw-table" }, this.decksEl, this.cardShown, this.diceEl);
  readonly timerEl = h("div", { class: "ugw-timer", "data-ugw": "timer", hidden: true });
  readonly clockEl = h("div", { class: "ugw-timer", "data-ugw": "time-left", hidden: true });
  readonly narrationEl = h("div", { class: "ugw-narration", "data-ugw": "narration" });
  readonly actionsEl = h("div", { class: "ugw-actions", "data-ugw": "actions" });
  readonly errorEl = h("div", { class: "ugw-error ugw-inline-error", role: "alert", "data-ugw": "error", hidden: true });
  readonly cardEl = h("div", { class: "ugw-card", "data-ugw": "tile-card", hidden: true });
  readonly overEl = h("div", { class: "ugw-ranking", "data-ugw": "ranking", hidden: true });
  readonly play = h("div", { class: "ugw-play" }, this.narrationEl, h("div", { class: "ugw-timers" }, this.timerEl, this.clockEl), this.actionsEl, this.errorEl);
  readonly centerTop = h("div", { class: "ugw-center-top" }, this.boardTitle, this.legendEl);
  /** The 36-roll map, in the place of the decks and the dice while it is shown. */
  readonly rollMapEl = h("div", { class: "ugw-centre-map", "data-ugw": "roll-map-centre", hidden: true });
  /** The last drawn card, face up until the next action (or closed). */
  drawnCard: DrawnCard | null = null;
  /** The state's `rolls` when the dice were drawn (null: not yet). */
  lastRolls: number | null = null;
  /** When the state arrived (the clocks count down from its figures). */
  stateAt = performance.now();
  lastErrorN: number | null = null;
  private diceTimer: ReturnType<typeof setTimeout> | null = null;
  private tickSentFor: number | null | undefined = null;
  private lastTickAt = -1e9;
  private readonly view: View;

  constructor(view: View) {
    this.view = view;
    replace(view.boardView.center, this.centerTop, this.table, this.rollMapEl, this.play, this.overEl, this.cardEl);
  }

  drawDice(animate: boolean): void {
    const synced = this.view.synced;
    const timers = this.view.timers;
    const dice = (synced.state() as Partial<GameState>).dice;
    const diceEl = this.diceEl;
    timers.cancel(this.diceTimer); this.diceTimer = null;
    const L = synced.lang();
    diceEl.setAttribute("aria-label", dice ? `${t(L, "dice_label")}: ${dice.join(" + ")}` : t(L, "dice_label"));
    if (!dice) { replace(diceEl, die(1), die(1)); diceEl.classList.add("ugw-dice-idle"); return; }
    diceEl.classList.remove("ugw-dice-idle");
    if (!animate || reducedMotion()) { replace(diceEl, dice.map(die)); diceEl.classList.remove("ugw-rolling"); return; }
    const sides = Math.max(6, ...dice);
    let frames = Math.round(DICE_MS / 70);
    diceEl.classList.add("ugw-rolling");
    const spin = (): void => {
      frames -= 1;
      if (frames <= 0) {
        this.diceTimer = null;
        diceEl.classList.remove("ugw-rolling");
        replace(diceEl, ((synced.state() as Partial<GameState>).dice || dice).map(die));
        return;
      }
      replace(diceEl, dice.map(() => die(1 + Math.floor(Math.random() * Math.min(sides, 6)))));
      this.diceTimer = timers.later(spin, 70);
    };
    spin();
  }

  drawTable(): void {
    const synced = this.view.synced;
    const L = synced.lang();
    const board = synced.board();
    const kinds = new Set((board.tiles || []).map((tl) => tl.kind));
    replace(this.decksEl, (["CHANCE", "CHEST"] as const).filter((k) => kinds.has(k)).map((k) => h("div", { class: "ugw-deck-wrap", "data-ugw": `deck-${k}` },
      h("div", { class: `ugw-deck ugw-deck-${k.toLowerCase()}`, "aria-hidden": "true" },
        h("span", { class: "ugw-deck-mark", text: k === "CHANCE" ? "?" : "✉" })),
      h("span", { class: "ugw-deck-name", text: t(L, `deck_${k}`) }))));
    const drawn = this.drawnCard;
    const cardShown = this.cardShown;
    if (!drawn) { cardShown.hidden = true; return; }
    cardShown.hidden = false;
    cardShown.dataset.deck = drawn.deck || "";
    cardShown.setAttribute("aria-label", `${t(L, "card")}: ${t(L, `deck_${drawn.deck}`)}`);
    const who = drawn.player === null ? undefined : (synced.state() as Partial<GameState>).players?.[drawn.player];
    replace(cardShown,
      h("div", { class: "ugw-drawn-head" }, h("span", { text: `${t(L, `deck_${drawn.deck}`)}${who ? ` · ${who.name}` : ""}` }),
        h("button", { type: "button", class: "ugw-close", "data-ugw": "drawn-card-close", "aria-label": t(L, "dismiss"), text: "×",
          onclick: () => { this.drawnCard = null; this.drawTable(); } })),
      h("div", { class: "ugw-drawn-text", text: cardText(synced.board(), drawn, L) }));
  }

  drawCenter(): void {
    const view = this.view;
    const synced = view.synced;
    const boardView = view.boardView;
    const L = synced.lang();
    const state = view.shown();
    const board = synced.board();
    if (!state) return;
    this.boardTitle.textContent = (board.titles && board.titles[L]) || board.name || "";
    this.boardTitle.style.fontSize = titleSize(this.boardTitle.textContent);
    const heat = synced.get("heat") || {};
    renderLegend(this.legendEl, heat, L, state.players);
    const d = state.decision;
    boardView.auction(d.kind === "auction" && d.data ? d.data.position : null);
    const next = heat as Partial<ProbabilityHeat>;
    const mover = next.mode === "next" && state.players && next.player !== null && next.player !== undefined ? state.players[next.player] : null;
    boardView.markStart(mover ? mover.position : null);
    const map = view.rollMap();
    if (map) replace(this.rollMapEl, map); else replace(this.rollMapEl);
    this.rollMapEl.hidden = !map;
    this.table.hidden = !!map;
    this.boardTitle.hidden = !!map;
    const over = state.phase === "over" && state.ranking;
    boardView.center.classList.toggle("ugw-center-over", !!over);
    if (over) {
      this.overEl.hidden = false;
      replace(this.overEl, gameOver(state, L, () => view.openLobby()));
    } else this.overEl.hidden = true;
    const cardEl = this.cardEl;
    if (view.cardPos !== null && board.tiles && board.tiles[view.cardPos]) {
      cardEl.hidden = false;
      cardEl.dataset.pos = String(view.cardPos);
      renderTileCard(cardEl, view.ctx(), view.cardPos, () => { view.cardPos = null; this.drawCenter(); });
    } else { cardEl.hidden = true; view.cardPos = null; }
    boardView.select(view.cardPos);
    view.clicks.settle();
  }

  // The turn timer and a timed game's clock count down in the view; when one reaches 0 the
  // view asks Python to check (a tick), once per state.
  drawTimers(): void {
    const view = this.view;
    const state = view.synced.state() as Partial<GameState>;
    const L = view.synced.lang();
    const elapsed = (performance.now() - this.stateAt) / 1000;
    let expired = false;
    if (state.timer && state.phase === "play") {
      const left = state.timer.remaining - elapsed;
      this.timerEl.hidden = false;
      replace(this.timerEl, icon("stopwatch", 14), ` ${t(L, "timer")}: ${fmtTime(left)}`);
      this.timerEl.classList.toggle("ugw-urgent", left < 10);
      if (left <= 0) expired = true;
    } else this.timerEl.hidden = true;
    if (typeof state.time_left === "number" && state.phase === "play") {
      const left = state.time_left - elapsed;
      this.clockEl.hidden = false;
      replace(this.clockEl, icon("stopwatch", 14), ` ${t(L, "time_left")}: ${fmtTime(left)}`);
      if (left <= 0) expired = true;
    } else this.clockEl.hidden = true;
    const now = performance.now();
    if (expired && this.tickSentFor !== state.seq && now - this.lastTickAt > 1500 && !view.requests.disconnected) {
      this.tickSentFor = state.seq;
      this.lastTickAt = now;
      view.requests.send({ type: "tick" });
    }
  }

  // In-place, plain-language errors: in the trade dialog when it caused them, in the lobby, or
  // under the decision's buttons. A stale request (double click) is dropped without a word.
  drawError(): void {
    const view = this.view;
    const L = view.synced.lang();
    const error = view.synced.get("error") || {};
    if (!error.message || error.n === this.lastErrorN) return;
    this.lastErrorN = error.n;
    view.requests.pending = null;
    if (error.quiet) return;
    const text = (error.text && error.text[L]) || error.message;
    if (view.trade.open) { view.trade.showError(text, view.ctx()); return; }
    this.errorEl.hidden = false;
    replace(this.errorEl, h("span", { text }),
      h("button", { type: "button", class: "ugw-close", "aria-label": t(L, "close"), text: "×",
        onclick: () => { this.errorEl.hidden = true; } }));
  }
}
