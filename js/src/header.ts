// The header: the game's title and turn, the bots' pace and pause, Undo, New game, Present
// and the language switch. The view-writable traits (lang, bot_delay, paused, presentation)
// are set here; Python checks them.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import type { Requests } from "./requests.js";
import type { Synced } from "./model.js";
import type { GameState } from "./contract.js";

export class Header {
  readonly el: HTMLDivElement;
  private readonly title: HTMLSpanElement;
  private readonly langBtn: HTMLButtonElement;
  private readonly undoBtn: HTMLButtonElement;
  private readonly newBtn: HTMLButtonElement;
  private readonly presentBtn: HTMLButtonElement;
  private readonly delay: HTMLInputElement;
  private readonly paceLabel: HTMLLabelElement;
  private readonly pauseBtn: HTMLButtonElement;
  private readonly botBox: HTMLSpanElement;
  private readonly synced: Synced;
  private readonly requests: Requests;

  constructor(synced: Synced, requests: Requests, uid: string, openLobby: () => void) {
    this.synced = synced;
    this.requests = requests;
    const model = synced.model;
    this.title = h("span", { class: "ugw-title", "data-ugw": "title" });
    this.langBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "lang",
      onclick: () => { model.set("lang", synced.lang() === "en" ? "nl" : "en"); model.save_changes(); } });
    this.undoBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "undo",
      onclick: () => { if (!this.undoBtn.disabled) requests.send({ type: "undo" }, "undo"); } });
    this.newBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "new-game",
      onclick: () => openLobby() });
    // presentation mode (w.presentation): a trait the view may set, checked in Python
    this.presentBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "present",
      onclick: () => { model.set("presentation", !synced.get("presentation")); model.save_changes(); } });
    const delayId = `ugw-delay-${uid}`;
    this.delay = h("input", { type: "range", min: "0", max: "3", step: "0.1", "data-ugw": "bot-delay", id: delayId,
      oninput: (ev) => { model.set("bot_delay", Number((ev.target as HTMLInputElement).value)); model.save_changes(); } });
    this.paceLabel = h("label", { class: "ugw-pace-label", for: delayId });
    this.pauseBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "pause",
      onclick: () => { model.set("paused", !synced.get("paused")); model.save_changes(); } });
    this.botBox = h("span", { class: "ugw-bots", "data-ugw": "bot-controls" },
      h("span", { class: "ugw-pace" }, this.paceLabel, this.delay), this.pauseBtn);
    this.el = h("div", { class: "ugw-header" }, this.title, h("span", { class: "ugw-spacer" }), this.botBox,
      this.undoBtn, this.newBtn, this.presentBtn, this.langBtn);
  }

  draw(showLobby: boolean): void {
    const synced = this.synced;
    const L = synced.lang();
    const board = synced.board();
    const state = synced.state() as Partial<GameState>;
    const playing = !!synced.game() && !showLobby;
    this.title.textContent = playing ? `${(board.titles && board.titles[L]) || board.name || ""} · ${t(L, "turn")} ${state.turn ?? ""}` : "Ugentopoly";
    // the accessible name starts with the visible text (WCAG 2.5.3, label in name)
    this.langBtn.textContent = L === "en" ? "NL" : "EN";
    this.langBtn.setAttribute("aria-label", L === "en" ? "NL (Nederlands)" : "EN (English)");
    this.presentBtn.textContent = t(L, "present");
    this.presentBtn.title = t(L, "present_title");
    this.presentBtn.setAttribute("aria-pressed", synced.get("presentation") ? "true" : "false");
    this.presentBtn.hidden = !playing;
    this.undoBtn.textContent = t(L, "undo");
    this.undoBtn.hidden = !playing || state.phase === "over";
    this.undoBtn.disabled = !state.can_undo || this.requests.disconnected;
    this.undoBtn.title = state.can_undo ? "" : t(L, "undo_none");
    this.newBtn.textContent = t(L, "new_game");
    this.newBtn.hidden = !playing;
    const seats = synced.get("seats") || [];
    this.botBox.hidden = !playing || seats.every((s) => s === "person");
    this.delay.value = String(synced.get("bot_delay"));
    this.paceLabel.textContent = `${t(L, "bots")}: ${t(L, "pace")} ${Number(synced.get("bot_delay")).toFixed(1)}s`;
    this.pauseBtn.textContent = synced.get("paused") ? t(L, "resume") : t(L, "pause");
    this.pauseBtn.setAttribute("aria-pressed", synced.get("paused") ? "true" : "false");
  }
}
