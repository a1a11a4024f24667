// ugentopoly_widget front end. Python owns the game: this view draws the synced `board_data`
// (static) and `state` (replaced whole on every change) and sends requests tagged with the
// state's `seq`. It holds no rules: it offers exactly the legal actions it is sent. The
// contract with Python (every trait and message) is contract.ts, generated from
// widget/contract/.
//
// Layout: a header, the players' strip, then the board with the current decision in its centre
// (as on a real table) and the side panels (tabs) beside it on wide cells, below it on narrow
// ones. The board is sized to the window's height too, so board and buttons are in view together.
//
// This file is the rendering loop: it builds the parts (header.ts, centre.ts, pacing.ts,
// logview.ts, oddstab.ts, layout.ts; requests.ts sends) and redraws them from the model's
// events.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { BoardView } from "./board.js";
import { FanLayer } from "./fan.js";
import { Lobby } from "./lobby.js";
import type { SetupBody } from "./lobby.js";
import { renderActions, renderStatus, renderStrip } from "./panels.js";
import type { PanelCtx } from "./panels.js";
import { TradeDialog } from "./trade.js";
import { Tabs } from "./tabs.js";
import { Header } from "./header.js";
import { Centre } from "./centre.js";
import { Pacing } from "./pacing.js";
import { LogView } from "./logview.js";
import { OddsTab } from "./oddstab.js";
import { AnalysisTab } from "./analysistab.js";
import { Layout } from "./layout.js";
import { Requests, SafeClicks } from "./requests.js";
import { Synced } from "./model.js";
import type { Model } from "./model.js";
import { Timers } from "./timers.js";
import type { View } from "./view.js";
import type { BoardData, Message } from "./contract.js";

let views = 0;

function render({ model, el }: { model: Model; el: HTMLElement }): () => void {
  const uid = `${++views}${Math.floor(Math.random() * 1e6)}`;
  const synced = new Synced(model);
  const timers = new Timers();
  const handlers: [string, (...args: never[]) => void][] = [];
  const lang = () => synced.lang();
  let lastBoard: BoardData | Record<string, never> | null = null;
  let lastSeq: number | null = null;
  let prevPositions: number[] | null = null;

  // ---------------------------------------------------------------- skeleton
  // tabindex=-1: a click on plain text inside the widget focuses the widget, so keys typed
  // next (d d, a, b ...) reach it and stop here instead of becoming notebook commands.
  const root = h("div", { class: "ugw-root", "data-ugw": "root", tabindex: "-1" });
  const stopKeys = (ev: Event): void => ev.stopPropagation();
  root.addEventListener("keydown", stopKeys);
  root.addEventListener("keyup", stopKeys);
  root.addEventListener("keypress", stopKeys);
  const requests = new Requests(model, () => synced.seq(), () => showDisconnected());
  const strip = h("div", { class: "ugw-strip", "data-ugw": "players" });

  // the board's side sets the type of everything around it (--ugw-board-side, styles.css)
  const boardView = new BoardView((pos) => { view.cardPos = view.cardPos === pos ? null : pos; centre.drawCenter(); },
    (side) => { root.style.setProperty("--ugw-board-side", `${Math.round(side)}px`); fan.redraw(); });
  const fan = new FanLayer(boardView);
  const trade = new TradeDialog((action) => requests.act(action), uid);
  const view: View = {
    synced, requests, timers, uid, root, boardView, trade,
    clicks: new SafeClicks(root, timers),
    cardPos: null,
    wantLobby: false,
    manageOpen: false,
    ctx,
    inGame: () => !!synced.game(),
    shown: () => { const live = synced.game(); return live ? analysis.shown(live) : null; },
    rollMap: () => analysis.centreMap(),
    openLobby,
    drawPanels,
  };
  const header = new Header(synced, requests, uid, () => openLobby());
  const centre = new Centre(view);
  const pacing = new Pacing(view, centre, strip);
  const layout = new Layout(view, centre);

  // Python says whether rollouts run here (everywhere now: the browser site in slices)
  const rollouts = synced.get("rollouts_available") !== false;
  trade.advise = rollouts ? (offer) => requests.send({ type: "trade_advice", offer }) : null;
  trade.advice = () => synced.get("trade_advice") || {};
  trade.onHide = () => {
    const active = document.activeElement;
    const lost = !active || active === document.body || trade.el.contains(active);
    if (view.inGame()) drawPanels();
    // keyboard users land on the decision's first button, not at the top of the page
    if (lost) {
      const first = centre.actionsEl.querySelector<HTMLElement>("button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    }
  };
  boardView.el.appendChild(trade.el);
  const statusEl = h("div", { class: "ugw-status", "data-ugw": "status" });
  const log = new LogView(synced, requests);
  const tabs = new Tabs(uid, "panels");
  tabs.add("players", () => t(lang(), "players_tab"), statusEl);
  tabs.add("log", () => t(lang(), "log"), log.el);
  const odds = new OddsTab(view);
  tabs.add("odds", () => t(lang(), "odds_tab"), odds.el);
  // looking back at a past position: the board, the strip and the panels draw it, no buttons
  const analysis = new AnalysisTab(view, () => { trade.hide(); view.cardPos = null; draw(); });
  tabs.add("analysis", () => t(lang(), "analysis_tab"), analysis.el);
  const side = h("div", { class: "ugw-side" }, layout.dock, tabs.el);
  // a place for a bar above the board (empty unless something is put there: hidden)
  const aboveBoard = h("div", { class: "ugw-above-board", "data-ugw": "above-board" }, analysis.banner, odds.winEl, analysis.liveEl);
  const boardCol = h("div", { class: "ugw-board-col" }, aboveBoard, boardView.el);
  const main = h("div", { class: "ugw-main" }, boardCol, side);
  const startGame = (req: SetupBody): boolean => {
    const sent = requests.send(req, "setup");
    if (sent && requests.pending) requests.pending.game = synced.game()?.game_start;
    return sent;
  };
  const lobby = new Lobby(startGame, () => { view.wantLobby = false; draw(); }, uid);
  const deadEl = h("div", { class: "ugw-disconnected", role: "alert", "data-ugw": "disconnected", hidden: true });
  root.append(header.el, strip, main, lobby.el, pacing.announce, deadEl);
  el.appendChild(root);
  layout.watch({ header: header.el, strip, main, side });

  const onKey = (ev: KeyboardEvent): void => {
    if (ev.key === "Escape") {
      if (analysis.replay) { analysis.back(); return; }
      if (trade.open) { trade.hide(); return; }
      if (view.cardPos !== null) { view.cardPos = null; centre.drawCenter(); }
      if (centre.drawnCard) { centre.drawnCard = null; centre.drawTable(); }
    }
  };
  root.addEventListener("keydown", onKey);

  // ---------------------------------------------------------------- kernel gone
  function isDead(): boolean {
    return model.comm_live === false || el.classList.contains("jupyter-widgets-disconnected")
      || !!(el.closest && el.closest(".jupyter-widgets-disconnected"));
  }
  function showDisconnected(): void {
    requests.disconnected = true;
    const L = lang();
    deadEl.hidden = false;
    root.classList.add("ugw-dead");
    replace(deadEl, h("div", { class: "ugw-dead-box" },
      h("strong", { text: t(L, "disconnected_title") }), h("p", { text: t(L, "disconnected_text") })));
  }
  const deadWatch = typeof MutationObserver !== "undefined" ? new MutationObserver(() => { if (isDead()) showDisconnected(); }) : null;
  if (deadWatch) deadWatch.observe(el, { attributes: true, attributeFilter: ["class"] });

  // ---------------------------------------------------------------- drawing
  function ctx(): PanelCtx {
    const live = synced.state() as PanelCtx["state"];
    const replaying = !!analysis.replay && !!synced.game();
    return {
      state: replaying ? analysis.shown(live) : live, board: synced.board(), lang: lang(),
      act: (action) => (replaying ? false : requests.act(action)),
      guarded: (attrs) => view.clicks.button(attrs as Parameters<SafeClicks["button"]>[0],
        (synced.state() as Partial<PanelCtx["state"]>).decision || {}),
      uid,
      openTrade: () => { trade.show(synced.state() as PanelCtx["state"]); trade.render(ctx()); },
      onTile: (pos) => { view.cardPos = pos; centre.drawCenter(); },
      manageOpen: view.manageOpen,
      toggleManage: () => { view.manageOpen = !view.manageOpen; drawPanels(); },
    };
  }

  function openLobby(): void {
    view.wantLobby = true;
    lobby.schema = null; // fresh form: no seed or names carried over from the last game
    trade.hide();
    draw();
  }

  function drawPanels(): void {
    const c = ctx();
    odds.syncRollOnce();
    const L = c.lang;
    tabs.sync();
    renderStrip(strip, c);
    renderStatus(statusEl, c);
    if (analysis.replay) { delete centre.actionsEl.dataset.holding; renderActions(centre.actionsEl, c); }
    else if (pacing.holding(c.state)) pacing.drawHold(c.state, L);
    else { delete centre.actionsEl.dataset.holding; renderActions(centre.actionsEl, c); }
    trade.render(c);
    centre.drawCenter();
  }

  function draw(): void {
    const showLobby = view.wantLobby || !view.inGame();
    layout.applyPresentation();
    root.classList.toggle("ugw-in-lobby", showLobby);
    root.lang = lang();
    main.hidden = showLobby;
    strip.hidden = showLobby;
    lobby.el.hidden = !showLobby;
    header.draw(showLobby);
    if (requests.disconnected) showDisconnected();
    const state = synced.game();
    if (showLobby || !state) {
      const schema = synced.get("lobby");
      if (!lobby.schema && schema && schema.profiles) lobby.reset(schema);
      const error = synced.get("error") || {};
      const text = error.message && !error.quiet && error.n !== lobby.shownError
        ? ((error.text && error.text[lang()]) || error.message) : "";
      lobby.render(lang(), view.inGame(), text);
      const seq = synced.state().seq; // the state taken under the lobby (tests wait on it)
      if (seq !== undefined) root.dataset.seq = String(seq);
      return;
    }
    const board = synced.board();
    if (model.get("board_data") !== lastBoard) {
      lastBoard = model.get("board_data");
      boardView.build(board, lang());
      boardView.setHeat(synced.get("heat"));
      odds.draw();
      boardView.highlight(null);
      centre.drawnCard = null;
      pacing.narrated = null;
      prevPositions = null;
      lastSeq = null;
    }
    const fresh = lastSeq !== null && state.seq !== lastSeq;
    if (fresh) { centre.errorEl.hidden = true; trade.stateChanged(state); }
    const shown = analysis.shown(state);
    boardView.update(shown, board.hotel_level);
    root.dataset.phase = state.phase;
    root.dataset.seq = String(state.seq);
    if (fresh && state.last && !analysis.replay) pacing.narrate(state, board, prevPositions);
    if (lastSeq === null) centre.drawTable();
    drawPanels();
    odds.drawWinBar();
    analysis.drawLive();
    analysis.draw();
    if (pacing.floats) { pacing.floats(); pacing.floats = null; }
    const lastRolls = centre.lastRolls;
    const animate = lastRolls !== null && state.rolls > lastRolls;
    if (animate || lastRolls === null || state.rolls !== lastRolls) centre.drawDice(animate);
    centre.lastRolls = state.rolls;
    log.draw();
    centre.drawTimers();
    lastSeq = state.seq;
    prevPositions = state.players.map((p) => p.position);
  }

  // ---------------------------------------------------------------- model events
  // Several traits can change in one message (a new game: board_data, state, seats): redraw
  // once, after all of them, so the lobby never stays up over a started game.
  let drawQueued = false;
  const redraw = (): void => {
    if (drawQueued) return;
    drawQueued = true;
    queueMicrotask(() => { drawQueued = false; draw(); });
  };
  const drawHeader = (): void => header.draw(view.wantLobby || !view.inGame());
  function on(name: "msg:custom", fn: (msg: Message) => void): void;
  function on(name: string, fn: () => void): void;
  function on(name: string, fn: (msg: Message) => void): void {
    model.on(name, fn as () => void);
    handlers.push([name, fn]);
  }
  on("change:state", () => {
    centre.stateAt = performance.now();
    // A game started from this view's lobby: show it (board_data may be unchanged when the
    // new game has the same board, so its change event cannot be relied on). A state of the
    // game that was running when Start was sent (its bots move on while the form is open) is
    // not the answer: the lobby stays up, the setup still on its way.
    const pending = requests.pending;
    const game = synced.game();
    if (pending && pending.kind === "setup" && view.wantLobby) {
      if (game && game.game_start !== pending.game) { view.wantLobby = false; trade.hide(); requests.pending = null; }
    } else requests.pending = null;
    log.take(); // every state's lines, also while the lobby is up
    draw();
  });
  on("change:presentation", () => { layout.applyPresentation(); drawHeader(); });
  on("change:win_chances", () => odds.winChanged());
  on("change:analysis", () => analysis.changed());
  on("change:roll_map", () => { analysis.draw(); centre.drawCenter(); });
  on("change:trade_advice", () => { if (trade.open && view.inGame()) trade.render(ctx()); });
  on("change:fan", () => { fan.draw(synced.get("fan"), lang()); odds.draw(); });
  on("msg:custom", (msg: Message) => {
    if (msg && msg.type === "picture") odds.takePicture(msg);
    if (msg && msg.type === "position" && view.inGame() && msg.state && msg.state.phase) analysis.show(msg);
    if (msg && msg.type === "log" && log.feed.reply(msg)) log.draw();
    if (msg && msg.type === "log_page" && log.feed.prepend(msg)) log.draw();
    // another language: the log's lines in it (the state itself is not re-sent)
    if (msg && msg.type === "log_lang" && Array.isArray(msg.lines)) { log.feed.replace(msg); log.draw(); }
  });
  on("change:board_data", () => { analysis.replay = null; analysis.drawBanner(); view.wantLobby = false; lastBoard = null; view.cardPos = null; pacing.holdUntil = 0; trade.hide(); redraw(); });
  on("change:lang", () => {
    boardView.setLang(lang()); boardView.setHeat(synced.get("heat")); draw(); centre.drawTable(); odds.draw(); odds.drawWinBar(); analysis.changed(); analysis.drawBanner(); fan.draw(synced.get("fan"), lang());
    pacing.relang();
  });
  on("change:heat", () => { boardView.setHeat(synced.get("heat")); centre.drawCenter(); odds.draw(); });
  on("change:stats", () => odds.statsChanged(tabs));
  on("change:error", () => {
    if (view.wantLobby || !view.inGame()) { requests.pending = null; draw(); lobby.shownError = (synced.get("error") || {}).n; } else centre.drawError();
  });
  on("change:seats", drawHeader);
  on("change:bot_delay", drawHeader);
  on("change:paused", drawHeader);
  on("change:lobby", () => { lobby.schema = null; if (view.wantLobby || !view.inGame()) draw(); });
  // The widget manager flips comm_live to false (and fires this) when the kernel restarts or
  // goes away; a model never comes back to life, so this event means "disconnected".
  on("comm_live_update", () => showDisconnected());

  const clock = setInterval(() => {
    if (!requests.disconnected && isDead()) showDisconnected();
    if (view.inGame() && !view.wantLobby) centre.drawTimers();
  }, 250);
  centre.lastErrorN = (synced.get("error") || {}).n ?? null; // an old error is not news for a new view
  lobby.shownError = centre.lastErrorN;
  log.take(); // a view opened later asks for the lines it missed
  draw();
  fan.draw(synced.get("fan"), lang());

  return () => {
    boardView.destroy();
    clearInterval(clock);
    timers.clear();
    if (deadWatch) deadWatch.disconnect();
    layout.destroy();
    log.destroy();
    analysis.destroy();
    view.clicks.destroy();
    for (const [name, fn] of handlers) model.off(name, fn);
    root.removeEventListener("keydown", stopKeys);
    root.removeEventListener("keyup", stopKeys);
    root.removeEventListener("keypress", stopKeys);
    root.removeEventListener("keydown", onKey);
    root.remove();
  };
}

export default { render };
