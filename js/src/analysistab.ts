// The Analysis tab, the live lines under the win bar and the read-only look at a past
// position, wired to the model: the switch, the roll map and a mistake's position are requests
// to Python (checked there, stale ones refused); nothing is drawn until the answer comes back.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { renderAnalysis, renderLive, rollMapGrid } from "./analysis.js";
import { chartSvg, showPictures } from "./export.js";
import type { Picture } from "./export.js";
import type { GameState, PositionMessage } from "./contract.js";
import type { View } from "./view.js";

export class AnalysisTab {
  readonly el = h("div", { class: "ugw-analysis", "data-ugw": "analysis" });
  readonly pictures = h("div", { class: "ugw-pictures", "data-ugw": "analysis-pictures", hidden: true });
  /** Under the win bar: the last decision's verdict and the last roll's luck. */
  readonly liveEl = h("div", { class: "ugw-an-live", "data-ugw": "analysis-live", "aria-live": "polite", hidden: true });
  /** Over the board's decision while a past position is shown. */
  readonly banner = h("div", { class: "ugw-replay-banner", "data-ugw": "replay-banner", role: "status", hidden: true });
  /** The past position shown instead of the live game (null: the live game). */
  replay: PositionMessage | null = null;
  private readonly view: View;
  private readonly rollouts: boolean;
  private readonly onReplay: () => void;

  /** The chart is drawn at the panel's width: drawn again when it changes (a tab shown). */
  private readonly resize: ResizeObserver | null;
  private drawnWidth = 0;

  constructor(view: View, onReplay: () => void) {
    this.view = view;
    this.rollouts = view.synced.get("rollouts_available") !== false;
    this.onReplay = onReplay;
    this.resize = typeof ResizeObserver !== "undefined" ? new ResizeObserver(() => {
      const width = this.el.clientWidth;
      if (width && Math.abs(width - this.drawnWidth) > 30) this.draw();
    }) : null;
    if (this.resize) this.resize.observe(this.el);
  }

  destroy(): void {
    if (this.resize) this.resize.disconnect();
  }

  /** The state the board shows: the past position while looking back, else the game's. */
  shown(live: GameState): GameState {
    return this.replay ? this.replay.state : live;
  }

  /** The roll map of the state shown now (not while looking back, not once closed). */
  private mapClosed: number | null = null;

  centreMap(): HTMLElement | null {
    const state = this.view.synced.game();
    const rm = this.view.synced.get("roll_map") || {};
    if (!state || this.replay || !("status" in rm) || rm.status !== "done" || rm.seq !== state.seq || this.mapClosed === rm.seq) return null;
    return rollMapGrid(rm, this.view.synced.lang(), () => { this.mapClosed = rm.seq; this.view.drawPanels(); });
  }

  private canRollMap(): boolean {
    const state = this.view.synced.game();
    if (!state || this.replay) return false;
    const d = state.decision;
    const mover = d.player !== null && d.player !== undefined ? state.players[d.player] : null;
    return !!mover && (state.legal || []).some((a) => a.type === "roll");
  }

  draw(): void {
    const { synced, requests } = this.view;
    renderAnalysis(this.el, {
      analysis: synced.get("analysis") || {}, rollMap: synced.get("roll_map") || {}, state: synced.game(), lang: synced.lang(),
      toggle: this.rollouts ? (on) => requests.send({ type: "analysis", on }) : null,
      askRollMap: this.canRollMap() ? () => { this.mapClosed = null; requests.send({ type: "roll_map" }); } : null,
      open: (index) => requests.send({ type: "position", index }),
      savePicture: () => this.savePicture(),
      pictures: this.pictures,
      width: this.el.clientWidth || 480,
    });
    this.drawnWidth = this.el.clientWidth;
  }

  drawLive(): void {
    const { synced, root, boardView } = this.view;
    const a = synced.get("analysis") || {};
    const on = "on" in a && !!a.on && this.view.inGame() && !this.view.wantLobby;
    renderLive(this.liveEl, on ? a : null, synced.game(), synced.lang());
    if (on !== root.classList.contains("ugw-analysis-on")) { root.classList.toggle("ugw-analysis-on", on); boardView.scheduleFit(); }
  }

  changed(): void {
    this.drawLive();
    this.draw();
  }

  // ---------------------------------------------------------------- looking back

  show(msg: PositionMessage): void {
    this.replay = msg;
    this.drawBanner();
    this.onReplay();
  }

  back(): void {
    if (!this.replay) return;
    this.replay = null;
    this.drawBanner();
    this.onReplay();
  }

  drawBanner(): void {
    const L = this.view.synced.lang();
    const r = this.replay;
    this.view.root.classList.toggle("ugw-replaying", !!r);
    if (!r) { replace(this.banner); this.banner.hidden = true; delete this.view.root.dataset.replay; return; }
    this.banner.hidden = false;
    this.view.root.dataset.replay = String(r.index);
    replace(this.banner,
      h("strong", { class: "ugw-replay-title", text: t(L, "replay_title") }),
      h("span", { "data-ugw": "replay-text", text: r.text[L] || r.text.en }),
      h("button", { type: "button", class: "ugw-btn ugw-primary", "data-ugw": "replay-back", text: t(L, "replay_back"), onclick: () => this.back() }));
  }

  private savePicture(): void {
    const L = this.view.synced.lang();
    const bg = getComputedStyle(this.view.root).getPropertyValue("--ugw-bg").trim() || "#ffffff";
    const out: Picture[] = [];
    const chart = this.el.querySelector<SVGSVGElement>("[data-ugw=analysis-chart]");
    if (chart) out.push({ key: "luck-skill", label: t(L, "analysis_chart"), svg: chartSvg(chart, bg) });
    void showPictures(this.pictures, out, L);
  }
}
