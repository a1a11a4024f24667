// ugentopoly_widget front end. Python owns the game: this view draws the synced `board_data`
// (static) and `state` (replaced whole on every change) and sends requests tagged with the
// state's `seq`. It holds no rules: it offers exactly the legal actions it is sent.
//
// Layout: a header, the players' strip, then the board with the current decision in its centre
// (as on a real table) and the side panels (tabs) beside it on wide cells, below it on narrow
// ones. The board is sized to the window's height too, so board and buttons are in view together.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { BoardView } from "./board.js";
import { renderLegend, renderOdds } from "./odds.js";
import { FanLayer } from "./fan.js";
import { chartPictures, showPictures } from "./export.js";
import { cardText, narrationWords, showFloats, wantsFloats } from "./narrate.js";
import { Lobby } from "./lobby.js";
import { renderActions, renderStatus, renderStrip, renderTileCard, TradeDialog, tileName } from "./panels.js";
import { Tabs } from "./tabs.js";
import { LogFeed } from "./logfeed.js";
import { gameOver } from "./gameover.js";
import { renderWinBar } from "./winbar.js";
import { icon } from "./tokens.js";

const PIPS = {
  1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8],
};
const ARM_MS = 300; // a button that appears in a new place ignores clicks this long
const PENDING_MS = 4000; // a request without an answer stops blocking after this long
const DICE_MS = 560;
let views = 0;

function die(value) {
  const el = h("span", { class: "ugw-die", "data-value": String(value) });
  const pips = PIPS[value];
  if (!pips) { el.textContent = String(value); el.classList.add("ugw-die-num"); return el; }
  for (let k = 0; k < 9; k++) el.appendChild(h("span", { class: pips.includes(k) ? "ugw-pip" : "ugw-nopip" }));
  return el;
}

function fmtTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  return m ? `${m}:${String(s % 60).padStart(2, "0")}` : `${s}s`;
}

// The centre's title on one or two lines, whatever its length ("Classic Monopoly (standard
// 16-card decks)" wrapped to three huge lines): its size falls with the number of letters.
function titleSize(text) {
  const letters = Math.max(8, String(text).length);
  return `clamp(${letters > 24 ? 11 : 15}px, min(4.2cqw, ${(140 / letters).toFixed(2)}cqw), 48px)`;
}

function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

function render({ model, el }) {
  const uid = `${++views}${Math.floor(Math.random() * 1e6)}`;
  const timers = new Set();
  const handlers = [];
  let cardPos = null;
  let wantLobby = false;
  let lastRolls = null;
  let diceTimer = null;
  const logFeed = new LogFeed();
  let logDrawn = { resets: -1, next: 0 };
  let tickSentFor = null;
  let lastTickAt = -1e9;
  let stateAt = performance.now();
  let lastErrorN = null;
  let lastBoard = null;
  let lastSeq = null;
  let prevPositions = null;
  let pending = null; // {seq, at, kind}: a request on its way; more clicks are dropped
  let holdUntil = 0; // narration pause before a turn that ended by itself hands over
  let holdTimer = null;
  let drawnCard = null;
  let narrated = null; // {last, state, board} of the narration line shown
  let manageOpen = false;
  let disconnected = false;
  let floats = null; // money floats of the last action, added once the strip is drawn
  let places = new Map(); // guarded button key -> rect of the last drawing

  // `state` arrives as JSON text (cheaper to send from Python); parse each new text once.
  let stateText = null;
  let stateValue = {};
  const get = (name) => {
    const value = model.get(name);
    if (name !== "state" || typeof value !== "string") return value;
    if (value !== stateText) { stateText = value; stateValue = JSON.parse(value); }
    return stateValue;
  };
  const lang = () => (get("lang") === "nl" ? "nl" : "en");
  const seq = () => (get("state") || {}).seq ?? 0;
  const later = (fn, ms) => { const id = setTimeout(() => { timers.delete(id); fn(); }, ms); timers.add(id); return id; };
  const cancel = (id) => { if (id) { clearTimeout(id); timers.delete(id); } };

  // Every request goes through here: nothing is sent twice for the same state (a double click
  // is dropped quietly), and a comm that is gone shows the "run the cell again" overlay.
  function send(msg, kind) {
    if (disconnected) { showDisconnected(); return false; }
    const now = performance.now();
    if (kind && pending && pending.seq === seq() && now - pending.at < PENDING_MS) return false;
    try {
      model.send({ ...msg, seq: seq() });
    } catch (err) {
      showDisconnected();
      return false;
    }
    if (kind) pending = { seq: seq(), at: now, kind };
    return true;
  }
  const act = (action) => send({ type: "act", action }, action.type === "propose_trade" ? "trade" : "act");

  // A guarded button: while `data-arming` is set (for ARM_MS after it appears somewhere new)
  // clicks on it do nothing.
  function guarded(attrs) {
    const onclick = attrs.onclick;
    const d = (get("state") || {}).decision || {};
    const key = `${d.kind}/${d.player}/${attrs["data-ugw-action"] || ""}/${attrs["data-ugw-pos"] || ""}`;
    return h("button", {
      ...attrs, type: "button", "data-ugw-guard": key,
      onclick: (ev) => {
        if (ev.currentTarget.hasAttribute("data-arming")) { ev.preventDefault(); return; }
        onclick(ev);
      },
    });
  }

  // Measured in the next frame, before it is painted: no forced layout inside the click's task,
  // and no click can reach a button that has not been painted yet.
  let settleFrame = null;
  function settleButtons() {
    if (settleFrame === null) settleFrame = requestAnimationFrame(() => { settleFrame = null; settleNow(); });
  }
  function settleNow() {
    const next = new Map();
    const now = performance.now();
    for (const b of root.querySelectorAll("button[data-ugw-guard]")) {
      const key = b.dataset.ugwGuard;
      const r = b.getBoundingClientRect();
      next.set(key, r);
      const old = places.get(key);
      const same = old && Math.abs(old.left - r.left) < 4 && Math.abs(old.top - r.top) < 4;
      if (same && old.armedAt <= now) continue;
      b.setAttribute("data-arming", "");
      const wait = same ? old.armedAt - now : ARM_MS;
      r.armedAt = now + wait;
      later(() => b.removeAttribute("data-arming"), wait);
    }
    for (const [key, r] of next) if (r.armedAt === undefined) r.armedAt = (places.get(key) || {}).armedAt ?? 0;
    places = next;
  }

  // ---------------------------------------------------------------- skeleton
  // tabindex=-1: a click on plain text inside the widget focuses the widget, so keys typed
  // next (d d, a, b ...) reach it and stop here instead of becoming notebook commands.
  const root = h("div", { class: "ugw-root", "data-ugw": "root", tabindex: "-1" });
  const stopKeys = (ev) => ev.stopPropagation();
  root.addEventListener("keydown", stopKeys);
  root.addEventListener("keyup", stopKeys);
  root.addEventListener("keypress", stopKeys);

  const title = h("span", { class: "ugw-title", "data-ugw": "title" });
  const langBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "lang",
    onclick: () => { model.set("lang", lang() === "en" ? "nl" : "en"); model.save_changes(); } });
  const undoBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "undo",
    onclick: () => { if (!undoBtn.disabled) send({ type: "undo" }, "undo"); } });
  const newBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "new-game",
    onclick: () => openLobby() });
  // presentation mode (w.presentation): a trait the view may set, checked in Python
  const presentBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "present",
    onclick: () => { model.set("presentation", !get("presentation")); model.save_changes(); } });
  const delayId = `ugw-delay-${uid}`;
  const delay = h("input", { type: "range", min: "0", max: "3", step: "0.1", "data-ugw": "bot-delay", id: delayId,
    oninput: (ev) => { model.set("bot_delay", Number(ev.target.value)); model.save_changes(); } });
  const paceLabel = h("label", { class: "ugw-pace-label", for: delayId });
  const pauseBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "pause",
    onclick: () => { model.set("paused", !get("paused")); model.save_changes(); } });
  const botBox = h("span", { class: "ugw-bots", "data-ugw": "bot-controls" },
    h("span", { class: "ugw-pace" }, paceLabel, delay), pauseBtn);
  const header = h("div", { class: "ugw-header" }, title, h("span", { class: "ugw-spacer" }), botBox, undoBtn, newBtn, presentBtn, langBtn);
  const strip = h("div", { class: "ugw-strip", "data-ugw": "players" });

  // the board's side sets the type of everything around it (--ugw-board-side, styles.css)
  const boardView = new BoardView((pos) => { cardPos = cardPos === pos ? null : pos; drawCenter(); },
    (side) => { root.style.setProperty("--ugw-board-side", `${Math.round(side)}px`); fan.redraw(); });
  const fan = new FanLayer(boardView);
  const boardTitle = h("div", { class: "ugw-board-name", "data-ugw": "board-title", role: "heading", "aria-level": "3" });
  const legendEl = h("div", { class: "ugw-legend", "data-ugw": "heat-legend", hidden: true });
  const decksEl = h("div", { class: "ugw-decks", "data-ugw": "decks" });
  const cardShown = h("div", { class: "ugw-drawn", "data-ugw": "drawn-card", hidden: true, role: "group" });
  const diceEl = h("div", { class: "ugw-dice", "data-ugw": "dice", role: "img" });
  const table = h("div", { class: "ugw-table" }, decksEl, cardShown, diceEl);
  const timerEl = h("div", { class: "ugw-timer", "data-ugw": "timer", hidden: true });
  const clockEl = h("div", { class: "ugw-timer", "data-ugw": "time-left", hidden: true });
  const narrationEl = h("div", { class: "ugw-narration", "data-ugw": "narration" });
  const actionsEl = h("div", { class: "ugw-actions", "data-ugw": "actions" });
  const errorEl = h("div", { class: "ugw-error ugw-inline-error", role: "alert", "data-ugw": "error", hidden: true });
  const cardEl = h("div", { class: "ugw-card", "data-ugw": "tile-card", hidden: true });
  const overEl = h("div", { class: "ugw-ranking", "data-ugw": "ranking", hidden: true });
  const play = h("div", { class: "ugw-play" }, narrationEl, h("div", { class: "ugw-timers" }, timerEl, clockEl), actionsEl, errorEl);
  const centerTop = h("div", { class: "ugw-center-top" }, boardTitle, legendEl);
  replace(boardView.center, centerTop, table, play, overEl, cardEl);
  // presentation mode: the decision and the legend move here, above the tabs, in large type
  // (the tabs below keep the rest of the board's height: --ugw-dock-h)
  const dock = h("div", { class: "ugw-dock", "data-ugw": "dock", hidden: true });
  const dockWatch = typeof ResizeObserver !== "undefined" ? new ResizeObserver((entries) => {
    root.style.setProperty("--ugw-dock-h", `${Math.round(entries[0].contentRect.height)}px`);
  }) : null;
  if (dockWatch) dockWatch.observe(dock);

  const trade = new TradeDialog((action) => act(action), uid);
  // rollouts need numpy and pandas: without them (the browser site) no Advice, no win bar
  const rollouts = get("rollouts_available") !== false;
  trade.advise = rollouts ? (offer) => send({ type: "trade_advice", offer }) : null;
  trade.advice = () => get("trade_advice") || {};
  trade.onHide = () => {
    const active = document.activeElement;
    const lost = !active || active === document.body || trade.el.contains(active);
    if (inGame()) drawPanels();
    // keyboard users land on the decision's first button, not at the top of the page
    if (lost) {
      const first = actionsEl.querySelector("button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    }
  };
  boardView.el.appendChild(trade.el);
  const statusEl = h("div", { class: "ugw-status", "data-ugw": "status" });
  const logList = h("ol", { class: "ugw-log-list" });
  // the lines before the first one shown: asked from Python a page at a time
  const logMore = h("button", {
    class: "ugw-log-more", "data-ugw": "log-more", type: "button", hidden: true,
    onclick: () => { if (logFeed.more) send({ type: "log", before: logFeed.first }); },
  });
  const logEl = h("div", { class: "ugw-log", "data-ugw": "log", tabindex: "0", role: "log", "aria-label": "log" }, logMore, logList);
  const tabs = new Tabs(uid, "panels");
  tabs.add("players", () => t(lang(), "players_tab"), statusEl);
  tabs.add("log", () => t(lang(), "log"), logEl);
  const oddsEl = h("div", { class: "ugw-odds", "data-ugw": "odds" });
  const picturesEl = h("div", { class: "ugw-pictures", "data-ugw": "pictures", hidden: true });
  tabs.add("odds", () => t(lang(), "odds_tab"), oddsEl);
  const side = h("div", { class: "ugw-side" }, dock, tabs.el);
  // a place for a bar above the board (empty unless something is put there: hidden)
  const aboveBoard = h("div", { class: "ugw-above-board", "data-ugw": "above-board" });
  const winEl = h("div", { class: "ugw-win", "data-ugw": "win-bar", "aria-live": "off", hidden: true });
  aboveBoard.appendChild(winEl);
  const boardCol = h("div", { class: "ugw-board-col" }, aboveBoard, boardView.el);
  const main = h("div", { class: "ugw-main" }, boardCol, side);
  const lobby = new Lobby((req) => send(req, "setup"), () => { wantLobby = false; draw(); }, uid);
  const announce = h("div", { class: "ugw-sr", "aria-live": "polite", "aria-atomic": "true", "data-ugw": "announce" });
  const deadEl = h("div", { class: "ugw-disconnected", role: "alert", "data-ugw": "disconnected", hidden: true });
  root.append(header, strip, main, lobby.el, announce, deadEl);
  el.appendChild(root);

  const onKey = (ev) => {
    if (ev.key === "Escape") {
      if (trade.open) { trade.hide(); return; }
      if (cardPos !== null) { cardPos = null; drawCenter(); }
      if (drawnCard) { drawnCard = null; drawTable(); }
    }
  };
  root.addEventListener("keydown", onKey);

  // ---------------------------------------------------------------- kernel gone
  function isDead() {
    return model.comm_live === false || el.classList.contains("jupyter-widgets-disconnected")
      || !!(el.closest && el.closest(".jupyter-widgets-disconnected"));
  }
  function showDisconnected() {
    disconnected = true;
    const L = lang();
    deadEl.hidden = false;
    root.classList.add("ugw-dead");
    replace(deadEl, h("div", { class: "ugw-dead-box" },
      h("strong", { text: t(L, "disconnected_title") }), h("p", { text: t(L, "disconnected_text") })));
  }
  const deadWatch = typeof MutationObserver !== "undefined" ? new MutationObserver(() => { if (isDead()) showDisconnected(); }) : null;
  if (deadWatch) deadWatch.observe(el, { attributes: true, attributeFilter: ["class"] });

  // ---------------------------------------------------------------- drawing
  function ctx() {
    return {
      state: get("state") || {}, board: get("board_data") || {}, lang: lang(), act, guarded, uid,
      openTrade: () => { trade.show(get("state")); trade.render(ctx()); },
      onTile: (pos) => { cardPos = pos; drawCenter(); },
      manageOpen,
      toggleManage: () => { manageOpen = !manageOpen; drawPanels(); },
    };
  }

  function inGame() {
    const state = get("state") || {};
    const board = get("board_data") || {};
    return state.phase && state.phase !== "lobby" && Array.isArray(board.tiles);
  }

  function openLobby() {
    wantLobby = true;
    lobby.schema = null; // fresh form: no seed or names carried over from the last game
    trade.hide();
    draw();
  }

  function drawHeader(showLobby) {
    const L = lang();
    const board = get("board_data") || {};
    const state = get("state") || {};
    const playing = inGame() && !showLobby;
    title.textContent = playing ? `${(board.titles && board.titles[L]) || board.name || ""} · ${t(L, "turn")} ${state.turn ?? ""}` : "Ugentopoly";
    // the accessible name starts with the visible text (WCAG 2.5.3, label in name)
    langBtn.textContent = L === "en" ? "NL" : "EN";
    langBtn.setAttribute("aria-label", L === "en" ? "NL (Nederlands)" : "EN (English)");
    presentBtn.textContent = t(L, "present");
    presentBtn.title = t(L, "present_title");
    presentBtn.setAttribute("aria-pressed", get("presentation") ? "true" : "false");
    presentBtn.hidden = !playing;
    undoBtn.textContent = t(L, "undo");
    undoBtn.hidden = !playing || state.phase === "over";
    undoBtn.disabled = !state.can_undo || disconnected;
    undoBtn.title = state.can_undo ? "" : t(L, "undo_none");
    newBtn.textContent = t(L, "new_game");
    newBtn.hidden = !playing;
    const seats = get("seats") || [];
    botBox.hidden = !playing || seats.every((s) => s === "person");
    delay.value = String(get("bot_delay"));
    paceLabel.textContent = `${t(L, "bots")}: ${t(L, "pace")} ${Number(get("bot_delay")).toFixed(1)}s`;
    pauseBtn.textContent = get("paused") ? t(L, "resume") : t(L, "pause");
    pauseBtn.setAttribute("aria-pressed", get("paused") ? "true" : "false");
  }

  function drawDice(animate) {
    const state = get("state") || {};
    const dice = state.dice;
    cancel(diceTimer); diceTimer = null;
    const L = lang();
    diceEl.setAttribute("aria-label", dice ? `${t(L, "dice_label")}: ${dice.join(" + ")}` : t(L, "dice_label"));
    if (!dice) { replace(diceEl, die(1), die(1)); diceEl.classList.add("ugw-dice-idle"); return; }
    diceEl.classList.remove("ugw-dice-idle");
    if (!animate || reducedMotion()) { replace(diceEl, dice.map(die)); diceEl.classList.remove("ugw-rolling"); return; }
    const sides = Math.max(6, ...dice);
    let frames = Math.round(DICE_MS / 70);
    diceEl.classList.add("ugw-rolling");
    const spin = () => {
      frames -= 1;
      if (frames <= 0) {
        diceTimer = null;
        diceEl.classList.remove("ugw-rolling");
        replace(diceEl, ((get("state") || {}).dice || dice).map(die));
        return;
      }
      replace(diceEl, dice.map(() => die(1 + Math.floor(Math.random() * Math.min(sides, 6)))));
      diceTimer = later(spin, 70);
    };
    spin();
  }

  function drawTable() {
    const L = lang();
    const board = get("board_data") || {};
    const kinds = new Set((board.tiles || []).map((tl) => tl.kind));
    replace(decksEl, ["CHANCE", "CHEST"].filter((k) => kinds.has(k)).map((k) => h("div", { class: "ugw-deck-wrap", "data-ugw": `deck-${k}` },
      h("div", { class: `ugw-deck ugw-deck-${k.toLowerCase()}`, "aria-hidden": "true" },
        h("span", { class: "ugw-deck-mark", text: k === "CHANCE" ? "?" : "✉" })),
      h("span", { class: "ugw-deck-name", text: t(L, `deck_${k}`) }))));
    if (!drawnCard) { cardShown.hidden = true; return; }
    cardShown.hidden = false;
    cardShown.dataset.deck = drawnCard.deck || "";
    cardShown.setAttribute("aria-label", `${t(L, "card")}: ${t(L, `deck_${drawnCard.deck}`)}`);
    const who = (get("state") || {}).players?.[drawnCard.player];
    replace(cardShown,
      h("div", { class: "ugw-drawn-head" }, h("span", { text: `${t(L, `deck_${drawnCard.deck}`)}${who ? ` · ${who.name}` : ""}` }),
        h("button", { type: "button", class: "ugw-close", "data-ugw": "drawn-card-close", "aria-label": t(L, "dismiss"), text: "×",
          onclick: () => { drawnCard = null; drawTable(); } })),
      h("div", { class: "ugw-drawn-text", text: cardText(get("board_data"), drawnCard, L) }));
  }

  function drawCenter() {
    const L = lang();
    const state = get("state") || {};
    const board = get("board_data") || {};
    if (!inGame()) return;
    boardTitle.textContent = (board.titles && board.titles[L]) || board.name || "";
    boardTitle.style.fontSize = titleSize(boardTitle.textContent);
    const heat = get("heat") || {};
    renderLegend(legendEl, heat, L, state.players);
    const d = state.decision || {};
    boardView.auction(d.kind === "auction" && d.data ? d.data.position : null);
    const mover = heat.mode === "next" && state.players ? state.players[heat.player] : null;
    boardView.markStart(mover ? mover.position : null);
    const over = state.phase === "over" && state.ranking;
    boardView.center.classList.toggle("ugw-center-over", !!over);
    if (over) {
      overEl.hidden = false;
      replace(overEl, gameOver(state, L, () => openLobby()));
    } else overEl.hidden = true;
    if (cardPos !== null && board.tiles && board.tiles[cardPos]) {
      cardEl.hidden = false;
      cardEl.dataset.pos = String(cardPos);
      renderTileCard(cardEl, ctx(), cardPos, () => { cardPos = null; drawCenter(); });
    } else { cardEl.hidden = true; cardPos = null; }
    boardView.select(cardPos);
    settleButtons();
  }

  // Roll once is offered when a person rolls next and no fan waits for its dice.
  function roller() {
    const state = get("state") || {};
    const d = state.decision || {};
    const mover = d.player !== null && d.player !== undefined && state.players ? state.players[d.player] : null;
    const fanOn = (get("fan") || {}).arrows && (get("fan") || {}).landed === null;
    const ok = inGame() && !!mover && (mover.seat || "person") === "person" && !fanOn
      && (state.legal || []).some((a) => a.type === "roll");
    return { ok, name: mover ? mover.name : "" };
  }

  // The Odds tab: requests go to Python (it validates and computes); nothing is drawn here
  // until the traits come back.
  function drawOdds() {
    const who = roller();
    renderOdds(oddsEl, {
      heat: get("heat"), stats: get("stats"), lang: lang(), canRoll: who.ok, player: who.name,
      winOn: !!(get("win_chances") || {}).on,
      toggleWin: rollouts ? (show) => send({ type: "win_chances", on: show }) : null,
      choose: (mode) => send({ type: "probability", mode }),
      toggleStats: (show) => send({ type: "probability", stats: show }),
      setPer: (per) => send({ type: "probability", per }),
      setJail: (jail) => send({ type: "probability", jail }),
      rollOnce: () => send({ type: "roll_once" }, "act"),
      savePicture: () => send({ type: "picture" }),
      pictures: picturesEl,
    });
  }

  // The win-chance bar above the board (Python's rollouts; w.show_win_chances or the Odds tab)
  function drawWinBar() {
    const wc = get("win_chances") || {};
    const on = !!wc.on && inGame() && !wantLobby;
    renderWinBar(winEl, on ? wc : null, get("state") || {}, lang());
    if (on !== root.classList.contains("ugw-win-on")) { root.classList.toggle("ugw-win-on", on); boardView.scheduleFit(); }
  }

  // Save picture: Python draws the board (with its heat layer), the charts come from this view.
  function takePicture(msg) {
    const bg = getComputedStyle(root).getPropertyValue("--ugw-bg").trim() || "#ffffff";
    const pictures = [{ key: "board", label: t(lang(), "picture_board"), svg: String(msg.svg || "") },
      ...chartPictures(oddsEl, lang(), bg)];
    showPictures(picturesEl, pictures, lang());
  }

  // The lines arrive through `logFeed` (on every state, see "change:state"); this draws the
  // lines the list does not show yet, or all of them after the feed replaced its lines.
  function drawLog() {
    logMore.hidden = !logFeed.more;
    logMore.textContent = t(lang(), "log_earlier");
    if (logDrawn.resets !== logFeed.resets) {
      replace(logList);
      logList.start = logFeed.first + 1;
      logDrawn = { resets: logFeed.resets, next: logFeed.first };
    }
    const from = Math.max(logDrawn.next, logFeed.first);
    if (from >= logFeed.next) return;
    const frag = document.createDocumentFragment();
    for (let i = from; i < logFeed.next; i++) {
      frag.appendChild(h("li", { "data-ugw-log": String(i), text: logFeed.lines[i - logFeed.first] ?? "" }));
    }
    logDrawn.next = logFeed.next;
    logList.appendChild(frag);
    while (logList.childElementCount > 1000) { logList.removeChild(logList.firstChild); logList.start += 1; }
    scrollLog();
  }
  function takeLog() {
    const log = (get("state") || {}).log;
    if (logFeed.take(log, performance.now())) send({ type: "log" });
  }

  // Newest line in view: stick to the bottom unless the reader scrolled up.
  let stick = true;
  let scrollFrame = null;
  logEl.addEventListener("scroll", () => {
    stick = logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 30;
  });
  function scrollLog() {
    if (!stick || scrollFrame !== null) return;
    scrollFrame = requestAnimationFrame(() => {
      scrollFrame = null;
      logEl.scrollTop = logEl.scrollHeight;
    });
  }

  function drawTimers() {
    const state = get("state") || {};
    const L = lang();
    const elapsed = (performance.now() - stateAt) / 1000;
    let expired = false;
    if (state.timer && state.phase === "play") {
      const left = state.timer.remaining - elapsed;
      timerEl.hidden = false;
      replace(timerEl, icon("stopwatch", 14), ` ${t(L, "timer")}: ${fmtTime(left)}`);
      timerEl.classList.toggle("ugw-urgent", left < 10);
      if (left <= 0) expired = true;
    } else timerEl.hidden = true;
    if (typeof state.time_left === "number" && state.phase === "play") {
      const left = state.time_left - elapsed;
      clockEl.hidden = false;
      replace(clockEl, icon("stopwatch", 14), ` ${t(L, "time_left")}: ${fmtTime(left)}`);
      if (left <= 0) expired = true;
    } else clockEl.hidden = true;
    const now = performance.now();
    if (expired && tickSentFor !== state.seq && now - lastTickAt > 1500 && !disconnected) {
      tickSentFor = state.seq;
      lastTickAt = now;
      send({ type: "tick" });
    }
  }

  // In-place, plain-language errors: in the trade dialog when it caused them, in the lobby, or
  // under the decision's buttons. A stale request (double click) is dropped without a word.
  function drawError() {
    const error = get("error") || {};
    if (!error.message || error.n === lastErrorN) return;
    lastErrorN = error.n;
    pending = null;
    if (error.quiet) return;
    const text = (error.text && error.text[lang()]) || error.message;
    if (trade.open) { trade.showError(text, ctx()); return; }
    errorEl.hidden = false;
    replace(errorEl, h("span", { text }),
      h("button", { type: "button", class: "ugw-close", "aria-label": t(lang(), "close"), text: "×",
        onclick: () => { errorEl.hidden = true; } }));
  }

  // The summary shown while a turn that ended by itself lingers (turn_pause).
  function drawHold(state, L) {
    const last = state.last || {};
    const actor = state.players[last.actor];
    const next = state.decision && state.decision.player !== null ? state.players[state.decision.player] : null;
    const hadFocus = actionsEl.contains(document.activeElement);
    replace(actionsEl,
      h("div", { class: "ugw-decision", "data-ugw": "turn-summary" },
        h("span", { class: "ugw-decision-text", text: `${next ? `${t(L, "next_up")}: ${next.name}` : ""}` })),
      h("div", { class: "ugw-buttons" }, h("button", {
        type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "continue", text: t(L, "continue"),
        onclick: () => { holdUntil = 0; cancel(holdTimer); drawPanels(); },
      })));
    actionsEl.dataset.holding = actor ? "true" : "";
    // keyboard users keep their place: Continue now, the next decision's first button after
    if (hadFocus) actionsEl.querySelector("[data-ugw=continue]").focus({ preventScroll: true });
  }

  // The side panels go beside the board on a wide cell (1000 px), and on a narrower one when
  // the board keeps nearly all its size there: a laptop's window (1280x800 with JupyterLab's
  // file browser open: 848 px) has room beside a board its height allows anyway. Below
  // otherwise. Measured when the widget or the window changes size.
  function placeSide() {
    const width = root.clientWidth - 12;
    const present = root.classList.contains("ugw-present");
    const boardH = Math.max(330, window.innerHeight - (present ? 165 : 215));
    const ar = Number(boardView.el.style.getPropertyValue("--ugw-ar")) || 1;
    const panel = present ? 330 : 250;
    const beside = width >= 1000 || (width >= 800 && width - panel >= 0.88 * Math.min(width, boardH * ar));
    if (beside !== root.classList.contains("ugw-beside")) {
      root.classList.toggle("ugw-beside", beside);
      boardView.scheduleFit();
    }
  }
  const sizeWatch = typeof ResizeObserver !== "undefined" ? new ResizeObserver(() => placeSide()) : null;
  if (sizeWatch) sizeWatch.observe(root);
  window.addEventListener("resize", placeSide);

  // Presentation mode: the decision, the narration and the legend sit in the side panel's dock.
  // The header and the players' strip go to the top of the side column too: the board takes
  // the cell's whole height.
  function applyPresentation() {
    const on = !!get("presentation") && inGame() && !wantLobby;
    if (on === root.classList.contains("ugw-present")) return;
    root.classList.toggle("ugw-present", on);
    dock.hidden = !on;
    if (on) {
      side.insertBefore(header, dock);
      side.insertBefore(strip, dock);
      dock.append(legendEl, play);
    } else {
      root.insertBefore(header, main);
      root.insertBefore(strip, main);
      centerTop.appendChild(legendEl);
      boardView.center.insertBefore(play, overEl);
    }
    placeSide();
    boardView.scheduleFit();
  }

  function drawPanels() {
    const c = ctx();
    const rollBtn = oddsEl.querySelector("[data-ugw=roll-once]");
    if (rollBtn) rollBtn.disabled = !roller().ok;
    const L = c.lang;
    tabs.sync();
    renderStrip(strip, c);
    renderStatus(statusEl, c);
    if (performance.now() < holdUntil && c.state.phase === "play") drawHold(c.state, L);
    else { delete actionsEl.dataset.holding; renderActions(actionsEl, c); }
    trade.render(c);
    drawCenter();
  }

  // Narration of the last action: dice settle, the token hops, the landed tile lights up, money
  // changes show beside the players' cash, a drawn card lies face up in the centre, and a short
  // pause (turn_pause seconds) before a turn that ended by itself hands over. A play_bots batch
  // is told in one line, without hops, badges or its last card.
  function showNarration(words, L) {
    narrationEl.textContent = words.filter((w) => !w.startsWith(`${t(L, "card")}:`)).join(" · ");
  }

  function narrate(state, board) {
    const last = state.last;
    const L = lang();
    if (!last) return;
    const batch = !!last.batch;
    const diceDelay = last.dice && !batch && !reducedMotion() ? DICE_MS : 0;
    const moveMs = batch ? boardView.animateMoves(null) : boardView.animateMoves(last, prevPositions, diceDelay);
    const moves = last.moves || [];
    const landed = moves.length ? moves[moves.length - 1][2] : null;
    const jailed = (last.jail || []).map((i) => state.players[i] && state.players[i].position);
    boardView.highlight(batch ? null : jailed.length ? jailed[jailed.length - 1] : landed, diceDelay + moveMs);
    if (last.card && !batch) drawnCard = last.card;
    else if (last.n) drawnCard = null;
    drawTable();
    const settle = diceDelay + moveMs;
    for (const row of strip.querySelectorAll("[data-delta]")) delete row.dataset.delta;
    for (const old of strip.querySelectorAll(".ugw-float")) old.remove();
    floats = wantsFloats(last, state, get("bot_delay")) ? () => showFloats(strip, last, settle, later) : null;
    // words for the narration line and for screen readers (aria-live), in the current language
    narrated = { last, state, board };
    const words = narrationWords(last, state, board, L);
    showNarration(words, L);
    announce.textContent = words.map((w) => (/[.!?]$/.test(w) ? w : `${w}.`)).join(" ");
    const actor = state.players[last.actor];
    // the pause before an automatic hand-over, for people (bots have their own pace)
    const pause = Number(get("turn_pause")) || 0;
    const seat = actor && actor.seat ? actor.seat : "person";
    if (last.turn_passed && pause > 0 && seat === "person" && state.phase === "play") {
      holdUntil = performance.now() + settle + pause * 1000;
      cancel(holdTimer);
      holdTimer = later(() => { holdUntil = 0; drawPanels(); settleButtons(); }, holdUntil - performance.now());
    }
  }

  function draw() {
    const showLobby = wantLobby || !inGame();
    applyPresentation();
    root.classList.toggle("ugw-in-lobby", showLobby);
    root.lang = lang();
    main.hidden = showLobby;
    strip.hidden = showLobby;
    lobby.el.hidden = !showLobby;
    drawHeader(showLobby);
    if (disconnected) showDisconnected();
    if (showLobby) {
      if (!lobby.schema && get("lobby") && get("lobby").profiles) lobby.reset(get("lobby"));
      const error = get("error") || {};
      const text = error.message && !error.quiet && error.n !== lobby.shownError
        ? ((error.text && error.text[lang()]) || error.message) : "";
      lobby.render(lang(), inGame(), text);
      return;
    }
    const state = get("state");
    const board = get("board_data");
    if (board !== lastBoard) {
      lastBoard = board;
      boardView.build(board, lang());
      boardView.setHeat(get("heat"));
      drawOdds();
      boardView.highlight(null);
      drawnCard = null;
      narrated = null;
      prevPositions = null;
      lastSeq = null;
    }
    const fresh = lastSeq !== null && state.seq !== lastSeq;
    if (fresh) { errorEl.hidden = true; trade.stateChanged(state); }
    boardView.update(state, board.hotel_level);
    root.dataset.phase = state.phase;
    root.dataset.seq = String(state.seq);
    if (fresh && state.last) narrate(state, board);
    if (lastSeq === null) drawTable();
    drawPanels();
    drawWinBar();
    if (floats) { floats(); floats = null; }
    const animate = lastRolls !== null && state.rolls > lastRolls;
    if (animate || lastRolls === null || state.rolls !== lastRolls) drawDice(animate);
    lastRolls = state.rolls;
    drawLog();
    drawTimers();
    lastSeq = state.seq;
    prevPositions = state.players.map((p) => p.position);
  }

  // ---------------------------------------------------------------- model events
  // Several traits can change in one message (a new game: board_data, state, seats): redraw
  // once, after all of them, so the lobby never stays up over a started game.
  let drawQueued = false;
  const redraw = () => {
    if (drawQueued) return;
    drawQueued = true;
    queueMicrotask(() => { drawQueued = false; draw(); });
  };
  const on = (name, fn) => { model.on(name, fn); handlers.push([name, fn]); };
  on("change:state", () => {
    stateAt = performance.now();
    // A game started from this view's lobby: show it (board_data may be unchanged when the
    // new game has the same board, so its change event cannot be relied on).
    if (pending && pending.kind === "setup" && wantLobby && inGame()) { wantLobby = false; trade.hide(); }
    pending = null;
    takeLog(); // every state's lines, also while the lobby is up
    draw();
  });
  on("change:presentation", () => { applyPresentation(); drawHeader(wantLobby || !inGame()); });
  // the Odds tab shows only whether the bar is on: redrawn when that changes, not per estimate
  let winShown = !!(get("win_chances") || {}).on;
  on("change:win_chances", () => {
    drawWinBar();
    const shown = !!(get("win_chances") || {}).on;
    if (shown !== winShown) { winShown = shown; drawOdds(); }
  });
  on("change:trade_advice", () => { if (trade.open && inGame()) trade.render(ctx()); });
  on("change:fan", () => { fan.draw(get("fan"), lang()); drawOdds(); });
  on("msg:custom", (msg) => {
    if (msg && msg.type === "picture") takePicture(msg);
    if (msg && msg.type === "log" && logFeed.reply(msg)) drawLog();
    if (msg && msg.type === "log_page" && logFeed.prepend(msg)) drawLog();
    // another language: the log's lines in it (the state itself is not re-sent)
    if (msg && msg.type === "log_lang" && Array.isArray(msg.lines)) { logFeed.replace(msg); drawLog(); }
  });
  on("change:board_data", () => { wantLobby = false; lastBoard = null; cardPos = null; holdUntil = 0; trade.hide(); redraw(); });
  on("change:lang", () => {
    boardView.setLang(lang()); boardView.setHeat(get("heat")); draw(); drawTable(); drawOdds(); drawWinBar(); fan.draw(get("fan"), lang());
    if (narrated) showNarration(narrationWords(narrated.last, narrated.state, narrated.board, lang()), lang());
  });
  on("change:heat", () => { boardView.setHeat(get("heat")); drawCenter(); drawOdds(); });
  on("change:stats", () => {
    const stats = get("stats") || {};
    // shown from Python (or this view's toggle): bring the Odds tab forward
    if (stats.dice && !oddsEl.querySelector("[data-ugw=dice-hist]")) tabs.select("odds");
    drawOdds();
  });
  on("change:error", () => {
    if (wantLobby || !inGame()) { pending = null; draw(); lobby.shownError = (get("error") || {}).n; } else drawError();
  });
  on("change:seats", () => drawHeader(wantLobby || !inGame()));
  on("change:bot_delay", () => drawHeader(wantLobby || !inGame()));
  on("change:paused", () => drawHeader(wantLobby || !inGame()));
  on("change:lobby", () => { lobby.schema = null; if (wantLobby || !inGame()) draw(); });
  // The widget manager flips comm_live to false (and fires this) when the kernel restarts or
  // goes away; a model never comes back to life, so this event means "disconnected".
  on("comm_live_update", () => showDisconnected());

  const clock = setInterval(() => {
    if (!disconnected && isDead()) showDisconnected();
    if (inGame() && !wantLobby) drawTimers();
  }, 250);
  lastErrorN = (get("error") || {}).n ?? null; // an old error is not news for a new view
  lobby.shownError = lastErrorN;
  takeLog(); // a view opened later asks for the lines it missed
  draw();
  fan.draw(get("fan"), lang());

  return () => {
    boardView.destroy();
    clearInterval(clock);
    for (const id of timers) clearTimeout(id);
    timers.clear();
    if (deadWatch) deadWatch.disconnect();
    if (dockWatch) dockWatch.disconnect();
    if (sizeWatch) sizeWatch.disconnect();
    window.removeEventListener("resize", placeSide);
    if (scrollFrame !== null) cancelAnimationFrame(scrollFrame);
    if (settleFrame !== null) cancelAnimationFrame(settleFrame);
    for (const [name, fn] of handlers) model.off(name, fn);
    root.removeEventListener("keydown", stopKeys);
    root.removeEventListener("keyup", stopKeys);
    root.removeEventListener("keypress", stopKeys);
    root.removeEventListener("keydown", onKey);
    root.remove();
  };
}

export default { render };

