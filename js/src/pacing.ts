// Pacing and narration of the last action: dice settle, the token hops, the landed tile lights
// up, money changes show beside the players' cash, a drawn card lies face up in the centre, and
// a short pause (turn_pause seconds) before a turn that ended by itself hands over. A
// play_bots batch is told in one line, without hops, badges or its last card.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { narrationWords, showFloats, wantsFloats } from "./narrate.js";
import { DICE_MS, reducedMotion } from "./centre.js";
import type { Centre } from "./centre.js";
import type { BoardData, GameState, Lang, Last } from "./contract.js";
import type { View } from "./view.js";

export class Pacing {
  /** The same words for screen readers (aria-live). */
  readonly announce = h("div", { class: "ugw-sr", "aria-live": "polite", "aria-atomic": "true", "data-ugw": "announce" });
  /** Until when a turn that ended by itself lingers (performance.now() ms; 0: no pause). */
  holdUntil = 0;
  /** The money badges of the last action, shown once the strip is drawn. */
  floats: (() => void) | null = null;
  /** What the narration line tells (drawn again in another language). */
  narrated: { last: Last; state: GameState; board: BoardData } | null = null;
  private holdTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly view: View;
  private readonly centre: Centre;
  private readonly strip: HTMLElement;

  constructor(view: View, centre: Centre, strip: HTMLElement) {
    this.view = view;
    this.centre = centre;
    this.strip = strip;
  }

  /** Whether the decision waits behind a turn's pause. */
  holding(state: GameState): boolean {
    return performance.now() < this.holdUntil && state.phase === "play";
  }

  showNarration(words: string[], L: Lang): void {
    this.centre.narrationEl.textContent = words.filter((w) => !w.startsWith(`${t(L, "card")}:`)).join(" · ");
  }

  /** The narration line again, in the view's language now. */
  relang(): void {
    const told = this.narrated;
    const L = this.view.synced.lang();
    if (told) this.showNarration(narrationWords(told.last, told.state, told.board, L), L);
  }

  narrate(state: GameState, board: BoardData, prevPositions: number[] | null): void {
    const view = this.view;
    const { boardView, synced, timers } = view;
    const centre = this.centre;
    const strip = this.strip;
    const last = state.last;
    const L = synced.lang();
    if (!last) return;
    const batch = !!last.batch;
    const diceDelay = last.dice && !batch && !reducedMotion() ? DICE_MS : 0;
    const moveMs = batch ? boardView.animateMoves(null) : boardView.animateMoves(last, prevPositions, diceDelay);
    const moves = last.moves || [];
    const landed = moves.length ? moves[moves.length - 1][2] : null;
    const jailed = (last.jail || []).map((i) => state.players[i] && state.players[i].position);
    boardView.highlight(batch ? null : jailed.length ? jailed[jailed.length - 1] : landed, diceDelay + moveMs);
    if (last.card && !batch) centre.drawnCard = last.card;
    else if (last.n) centre.drawnCard = null;
    centre.drawTable();
    const settle = diceDelay + moveMs;
    for (const row of strip.querySelectorAll<HTMLElement>("[data-delta]")) delete row.dataset.delta;
    for (const old of strip.querySelectorAll(".ugw-float")) old.remove();
    this.floats = wantsFloats(last, state, synced.get("bot_delay"))
      ? () => showFloats(strip, last, settle, (fn, ms) => timers.later(fn, ms)) : null;
    // words for the narration line and for screen readers (aria-live), in the current language
    this.narrated = { last, state, board };
    const words = narrationWords(last, state, board, L);
    this.showNarration(words, L);
    this.announce.textContent = words.map((w) => (/[.!?]$/.test(w) ? w : `${w}.`)).join(" ");
    const actor = last.actor === null ? undefined : state.players[last.actor];
    // the pause before an automatic hand-over, for people (bots have their own pace)
    const pause = Number(synced.get("turn_pause")) || 0;
    const seat = actor && actor.seat ? actor.seat : "person";
    if (last.turn_passed && pause > 0 && seat === "person" && state.phase === "play") {
      this.holdUntil = performance.now() + settle + pause * 1000;
      timers.cancel(this.holdTimer);
      this.holdTimer = timers.later(() => { this.holdUntil = 0; view.drawPanels(); view.clicks.settle(); }, this.holdUntil - performance.now());
    }
  }

  // The summary shown while a turn that ended by itself lingers (turn_pause).
  drawHold(state: GameState, L: Lang): void {
    const actionsEl = this.centre.actionsEl;
    const last: Partial<Last> = state.last || {};
    const actor = last.actor === null || last.actor === undefined ? undefined : state.players[last.actor];
    const next = state.decision && state.decision.player !== null ? state.players[state.decision.player] : null;
    const hadFocus = actionsEl.contains(document.activeElement);
    replace(actionsEl,
      h("div", { class: "ugw-decision", "data-ugw": "turn-summary" },
        h("span", { class: "ugw-decision-text", text: `${next ? `${t(L, "next_up")}: ${next.name}` : ""}` })),
      h("div", { class: "ugw-buttons" }, h("button", {
        type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "continue", text: t(L, "continue"),
        onclick: () => { this.holdUntil = 0; this.view.timers.cancel(this.holdTimer); this.view.drawPanels(); },
      })));
    actionsEl.dataset.holding = actor ? "true" : "";
    // keyboard users keep their place: Continue now, the next decision's first button after
    if (hadFocus) actionsEl.querySelector<HTMLElement>("[data-ugw=continue]")!.focus({ preventScroll: true });
  }
}
