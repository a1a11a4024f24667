// The narration of the last action in words, and its money changes: one badge per player
// beside their cash in the players' strip (merged: +18 and -18 in one action show as one
// change; never over the title or another chip), none for a play_bots batch or fast bots.
import { h, money } from "./dom.js";
import { t, tf } from "./i18n.js";
import { tileName } from "./prompts.js";
import type { BoardData, DrawnCard, GameState, Lang, Last } from "./contract.js";

export const FAST_BOTS = 0.5; // s: bots quicker than this play without money badges
const FLOAT_MS = 2200;

export function signed(n: number): string {
  return `${n > 0 ? "+" : "−"}${money(Math.abs(n))}`;
}

// A card's text in language L: from board_data (every card, both languages), else as sent.
export function cardText(board: BoardData | null, card: DrawnCard, L: Lang): string {
  const texts = board && board.cards && board.cards[card.id];
  return (texts && (texts[L] || texts.en)) || card.text || card.id;
}

// The narration line of the last action, in language L (drawn again after a switch). A batch
// of bot turns is one summary line (its last moves would be a run-on of several players).
export function narrationWords(last: Last, state: GameState, board: BoardData, L: Lang): string[] {
  if (last.batch) {
    const b = last.batch;
    return [tf(L, "batch_line", { turns: money(b.to - b.from), a: money(b.from), b: money(b.to), n: money(b.actions) })];
  }
  const words: string[] = [];
  const actor = last.actor === null ? undefined : state.players[last.actor];
  if (last.dice && actor) words.push(`${actor.name} ${t(L, "rolled")} ${last.dice.join(" + ")} = ${last.dice.reduce((a, b) => a + b, 0)}`);
  for (const [p, , end] of last.moves || []) {
    const who = state.players[p];
    if (who) words.push(`${who.name} ${t(L, "moves_to")} ${tileName(board, end, L)}`);
  }
  for (const p of last.jail || []) if (state.players[p]) words.push(`${state.players[p].name} ${t(L, "goes_to_jail")}`);
  if (last.card) words.push(`${t(L, "card")}: ${cardText(board, last.card, L)}`);
  for (const [p, delta] of merged(last)) if (state.players[p]) words.push(`${state.players[p].name} ${signed(delta)}`);
  return words;
}

// The money changes of an action, one per player (in the order they first changed).
export function merged(last: Last): [number, number][] {
  const sums = new Map<number, number>();
  for (const [p, delta] of last.money || []) sums.set(p, (sums.get(p) || 0) + delta);
  return [...sums].filter(([, delta]) => delta !== 0);
}

// Whether an action's money changes get badges: not a batch, not bots faster than FAST_BOTS.
export function wantsFloats(last: Last | undefined, state: GameState, botDelay: number): boolean {
  if (!last || last.batch || !(last.money || []).length) return false;
  const actor = last.actor === null ? undefined : state.players[last.actor];
  const bot = actor && actor.seat && actor.seat !== "person";
  return !(bot && Number(botDelay) < FAST_BOTS);
}

// One badge per player inside their strip entry, after the cash, shown once the token arrived
// (`settle` ms) and gone FLOAT_MS later.
export function showFloats(strip: HTMLElement, last: Last, settle: number, later: (fn: () => void, ms: number) => unknown): void {
  for (const old of strip.querySelectorAll(".ugw-float")) old.remove();
  for (const [p, delta] of merged(last)) {
    const row = strip.querySelector<HTMLElement>(`[data-ugw="strip-player-${p}"]`);
    if (!row) continue;
    row.dataset.delta = signed(delta);
    const badge = h("span", {
      class: `ugw-float ${delta > 0 ? "ugw-gain" : "ugw-loss"}`, "data-ugw": `money-float-${p}`,
      "aria-hidden": "true", text: signed(delta), style: { animationDelay: `${settle}ms` },
    });
    row.appendChild(badge);
    later(() => badge.remove(), settle + FLOAT_MS);
  }
}
