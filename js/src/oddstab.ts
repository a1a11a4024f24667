// The Odds tab and the win-chance bar, wired to the model: the tab's requests go to Python (it
// validates and computes) and nothing is drawn until the traits come back. Save picture: Python
// draws the board (with its heat layer), the charts come from this view.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { renderOdds } from "./odds.js";
import { chartPictures, showPictures } from "./export.js";
import { renderWinBar } from "./winbar.js";
import type { GameState, PictureMessage } from "./contract.js";
import type { Tabs } from "./tabs.js";
import type { View } from "./view.js";

export class OddsTab {
  readonly el = h("div", { class: "ugw-odds", "data-ugw": "odds" });
  readonly pictures = h("div", { class: "ugw-pictures", "data-ugw": "pictures", hidden: true });
  /** The live win-chance bar above the board (w.show_win_chances or this tab). */
  readonly winEl = h("div", { class: "ugw-win", "data-ugw": "win-bar", "aria-live": "off", hidden: true });
  private readonly view: View;
  /** whether Python can run rollouts (everywhere now): else no win bar */
  private readonly rollouts: boolean;
  /** the tab shows only whether the bar is on: redrawn when that changes, not per estimate */
  private winShown: boolean;

  constructor(view: View) {
    this.view = view;
    this.rollouts = view.synced.get("rollouts_available") !== false;
    this.winShown = !!(view.synced.get("win_chances") || {}).on;
  }

  // Roll once is offered when a person rolls next and no fan waits for its dice.
  roller(): { ok: boolean; name: string } {
    const { synced } = this.view;
    const state = synced.state() as Partial<GameState>;
    const d: Partial<GameState["decision"]> = state.decision || {};
    const mover = d.player !== null && d.player !== undefined && state.players ? state.players[d.player] : null;
    const fan = synced.get("fan") || {};
    const fanOn = fan.arrows && fan.landed === null;
    const ok = this.view.inGame() && !!mover && (mover.seat || "person") === "person" && !fanOn
      && (state.legal || []).some((a) => a.type === "roll");
    return { ok, name: mover ? mover.name : "" };
  }

  /** Roll once's button follows the decision on every state (the tab is not redrawn). */
  syncRollOnce(): void {
    const rollBtn = this.el.querySelector<HTMLButtonElement>("[data-ugw=roll-once]");
    if (rollBtn) rollBtn.disabled = !this.roller().ok;
  }

  draw(): void {
    const { synced, requests } = this.view;
    const send = requests.send.bind(requests);
    const who = this.roller();
    renderOdds(this.el, {
      heat: synced.get("heat"), stats: synced.get("stats"), lang: synced.lang(), canRoll: who.ok, player: who.name,
      winOn: !!(synced.get("win_chances") || {}).on,
      toggleWin: this.rollouts ? (show) => send({ type: "win_chances", on: show }) : null,
      choose: (mode) => send({ type: "probability", mode }),
      toggleStats: (show) => send({ type: "probability", stats: show }),
      setPer: (per) => send({ type: "probability", per }),
      setJail: (jail) => send({ type: "probability", jail }),
      rollOnce: () => send({ type: "roll_once" }, "act"),
      savePicture: () => send({ type: "picture" }),
      pictures: this.pictures,
    });
  }

  drawWinBar(): void {
    const { synced, root, boardView } = this.view;
    const wc = synced.get("win_chances") || {};
    const on = !!wc.on && this.view.inGame() && !this.view.wantLobby;
    renderWinBar(this.winEl, on ? wc : null, synced.game(), synced.lang());
    if (on !== root.classList.contains("ugw-win-on")) { root.classList.toggle("ugw-win-on", on); boardView.scheduleFit(); }
  }

  winChanged(): void {
    this.drawWinBar();
    const shown = !!(this.view.synced.get("win_chances") || {}).on;
    if (shown !== this.winShown) { this.winShown = shown; this.draw(); }
  }

  statsChanged(tabs: Tabs): void {
    const stats = this.view.synced.get("stats") || {};
    // shown from Python (or this view's toggle): bring the Odds tab forward
    if (stats.dice && !this.el.querySelector("[data-ugw=dice-hist]")) tabs.select("odds");
    this.draw();
  }

  takePicture(msg: PictureMessage): void {
    const L = this.view.synced.lang();
    const bg = getComputedStyle(this.view.root).getPropertyValue("--ugw-bg").trim() || "#ffffff";
    const pictures = [{ key: "board", label: t(L, "picture_board"), svg: String(msg.svg || "") },
      ...chartPictures(this.el, L, bg)];
    void showPictures(this.pictures, pictures, L);
  }
}
