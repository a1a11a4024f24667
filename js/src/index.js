// ugentopoly_widget front end. Python owns the game: this view draws the synced `board_data`
// (static) and `state` (replaced whole on every change) and sends requests tagged with the
// state's `seq`. It holds no rules: it offers exactly the legal actions it is sent.
import { h, replace, money, safeColour, contrast } from "./dom.js";
import { t } from "./i18n.js";
import { BoardView, heatColour } from "./board.js";
import { Lobby } from "./lobby.js";
import { renderActions, renderStatus, renderTileCard, TradeDialog, decisionText } from "./panels.js";

const PIPS = {
  1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8],
};

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

function render({ model, el }) {
  const timers = new Set();
  const handlers = [];
  let cardPos = null;
  let wantLobby = false;
  let lastRolls = null;
  let diceTimer = null;
  let logLang = null;
  let logLines = [];
  let logRendered = 0;
  let tickSentFor = null;
  let lastTickAt = -1e9;
  let stateAt = performance.now();
  let errorTimer = null;
  let lastErrorN = 0;
  let lastBoard = null;

  const get = (name) => model.get(name);
  const lang = () => (get("lang") === "nl" ? "nl" : "en");
  const seq = () => (get("state") || {}).seq ?? 0;
  const send = (msg) => model.send({ ...msg, seq: seq() });
  const act = (action) => {
    model.send({ type: "act", action, seq: seq() });
  };

  // ---------------------------------------------------------------- skeleton
  const root = h("div", { class: "ugw-root", "data-ugw": "root" });
  // Keys typed in the widget must not become notebook commands (JupyterLab, VS Code).
  const stopKeys = (ev) => ev.stopPropagation();
  root.addEventListener("keydown", stopKeys);
  root.addEventListener("keyup", stopKeys);
  root.addEventListener("keypress", stopKeys);

  const title = h("span", { class: "ugw-title", "data-ugw": "title" });
  const langBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "lang",
    onclick: () => { model.set("lang", lang() === "en" ? "nl" : "en"); model.save_changes(); } });
  const undoBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "undo",
    onclick: () => send({ type: "undo" }) });
  const newBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "new-game",
    onclick: () => { wantLobby = true; draw(); } });
  const delay = h("input", { type: "range", min: "0", max: "3", step: "0.1", "data-ugw": "bot-delay",
    oninput: (ev) => { model.set("bot_delay", Number(ev.target.value)); model.save_changes(); } });
  const pauseBtn = h("button", { type: "button", class: "ugw-btn ugw-small-btn", "data-ugw": "pause",
    onclick: () => { model.set("paused", !get("paused")); model.save_changes(); } });
  const botBox = h("span", { class: "ugw-bots", "data-ugw": "bot-controls" },
    h("label", { class: "ugw-pace" }, h("span", { class: "ugw-pace-label" }), delay), pauseBtn);
  const header = h("div", { class: "ugw-header" }, title, h("span", { class: "ugw-spacer" }), botBox, undoBtn, newBtn, langBtn);
  const errorBox = h("div", { class: "ugw-error", role: "alert", "data-ugw": "error", hidden: true });

  const boardView = new BoardView((pos) => { cardPos = cardPos === pos ? null : pos; drawCenter(); });
  const info = h("div", { class: "ugw-info" });
  const diceEl = h("div", { class: "ugw-dice", "data-ugw": "dice" });
  const timerEl = h("div", { class: "ugw-timer", "data-ugw": "timer", hidden: true });
  const clockEl = h("div", { class: "ugw-timer", "data-ugw": "time-left", hidden: true });
  const legendEl = h("div", { class: "ugw-legend", "data-ugw": "heat-legend", hidden: true });
  const cardEl = h("div", { class: "ugw-card", "data-ugw": "tile-card", hidden: true });
  const rankingEl = h("div", { class: "ugw-ranking", "data-ugw": "ranking", hidden: true });
  replace(boardView.center, info, diceEl, timerEl, clockEl, legendEl, rankingEl, cardEl);

  const actionsEl = h("div", { class: "ugw-panel ugw-actions", "data-ugw": "actions", "aria-live": "polite" });
  const trade = new TradeDialog((action) => act(action));
  const statusEl = h("div", { class: "ugw-panel ugw-status", "data-ugw": "status" });
  const logList = h("ol", { class: "ugw-log-list" });
  const logEl = h("div", { class: "ugw-panel ugw-log", "data-ugw": "log", tabindex: "0" }, logList);
  const statusTitle = h("div", { class: "ugw-panel-title" });
  const logTitle = h("div", { class: "ugw-panel-title" });
  const side = h("div", { class: "ugw-side" }, actionsEl, trade.el, statusTitle, statusEl, logTitle, logEl);
  const main = h("div", { class: "ugw-main" }, boardView.el, side);
  const lobby = new Lobby((req) => send(req), () => { wantLobby = false; draw(); });
  root.append(header, errorBox, main, lobby.el);
  el.appendChild(root);

  const onKey = (ev) => {
    if (ev.key === "Escape") {
      if (cardPos !== null) { cardPos = null; drawCenter(); }
      if (trade.open) trade.hide();
    }
  };
  root.addEventListener("keydown", onKey);

  // ---------------------------------------------------------------- drawing
  function ctx() {
    return {
      state: get("state") || {}, board: get("board_data") || {}, lang: lang(), act,
      openTrade: () => { trade.show(get("state")); trade.render(ctx()); },
      onTile: (pos) => { cardPos = pos; drawCenter(); },
    };
  }

  function inGame() {
    const state = get("state") || {};
    const board = get("board_data") || {};
    return state.phase && state.phase !== "lobby" && Array.isArray(board.tiles);
  }

  function drawHeader() {
    const L = lang();
    const board = get("board_data") || {};
    const state = get("state") || {};
    title.textContent = inGame() ? `${(board.titles && board.titles[L]) || board.name || ""} · ${t(L, "turn")} ${state.turn ?? ""}` : "Ugentopoly";
    langBtn.textContent = L === "en" ? "NL" : "EN";
    langBtn.title = L === "en" ? "Nederlands" : "English";
    undoBtn.textContent = t(L, "undo");
    undoBtn.hidden = !inGame() || state.phase === "over";
    newBtn.textContent = t(L, "new_game");
    newBtn.hidden = !inGame() || wantLobby;
    const seats = get("seats") || [];
    botBox.hidden = !inGame() || seats.every((s) => s === "person");
    delay.value = String(get("bot_delay"));
    botBox.querySelector(".ugw-pace-label").textContent = `${t(L, "bots")}: ${t(L, "pace")} ${Number(get("bot_delay")).toFixed(1)}s`;
    pauseBtn.textContent = get("paused") ? t(L, "resume") : t(L, "pause");
    pauseBtn.setAttribute("aria-pressed", get("paused") ? "true" : "false");
  }

  function drawDice(animate) {
    const state = get("state") || {};
    const dice = state.dice;
    if (diceTimer) { clearInterval(diceTimer); timers.delete(diceTimer); diceTimer = null; }
    if (!dice) { replace(diceEl); return; }
    const sides = Math.max(6, ...dice);
    if (!animate) { replace(diceEl, dice.map(die)); diceEl.classList.remove("ugw-rolling"); return; }
    let frames = 8;
    diceEl.classList.add("ugw-rolling");
    diceTimer = setInterval(() => {
      frames -= 1;
      if (frames <= 0) {
        clearInterval(diceTimer); timers.delete(diceTimer); diceTimer = null;
        diceEl.classList.remove("ugw-rolling");
        replace(diceEl, ((get("state") || {}).dice || dice).map(die));
        return;
      }
      replace(diceEl, dice.map(() => die(1 + Math.floor(Math.random() * Math.min(sides, 6)))));
    }, 70);
    timers.add(diceTimer);
  }

  function drawCenter() {
    const L = lang();
    const state = get("state") || {};
    const board = get("board_data") || {};
    if (!inGame()) return;
    const d = state.decision || {};
    const p = d.player !== null && d.player !== undefined ? state.players[d.player] : null;
    const colour = p ? safeColour(p.colour) : null;
    replace(info,
      h("div", { class: "ugw-board-name", text: board.name }),
      p ? h("div", { class: "ugw-whose", "data-ugw": "whose-turn" },
        h("span", { class: "ugw-dot", style: { background: colour, color: contrast(colour) }, text: (p.token || "?").slice(0, 1).toUpperCase() }),
        h("span", { text: `${p.name} ${t(L, "decide")}` })) : null,
      h("div", { class: "ugw-muted ugw-center-text", text: decisionText(state, board, L) }));
    // heat legend
    const heat = get("heat") || {};
    if (Array.isArray(heat.values)) {
      legendEl.hidden = false;
      replace(legendEl, h("span", { text: heat.label || t(L, "heat") }),
        h("span", { class: "ugw-legend-bar", style: { background: `linear-gradient(to right, ${heatColour(heat.min, heat.min, heat.max)}, ${heatColour((heat.min + heat.max) / 2, heat.min, heat.max)}, ${heatColour(heat.max, heat.min, heat.max)})` } }),
        h("span", { class: "ugw-legend-range", text: `${fmtNum(heat.min)} – ${fmtNum(heat.max)}` }));
    } else legendEl.hidden = true;
    // ranking
    if (state.phase === "over" && state.ranking) {
      rankingEl.hidden = false;
      replace(rankingEl, h("strong", { text: `${t(L, "game_over")} — ${t(L, "ranking")}` }),
        h("ol", {}, state.ranking.map((r) => h("li", { "data-ugw": `rank-${r.player}`, class: r.winner ? "ugw-winner" : "" },
          `${r.name}: ${money(r.cash)} ${t(L, "cash")}, ${money(r.net_worth)} ${t(L, "worth")}${r.winner ? ` ★ ${t(L, "winner")}` : ""}`))));
    } else rankingEl.hidden = true;
    // tile card
    if (cardPos !== null && board.tiles && board.tiles[cardPos]) {
      cardEl.hidden = false;
      cardEl.dataset.pos = String(cardPos);
      renderTileCard(cardEl, ctx(), cardPos, () => { cardPos = null; drawCenter(); });
    } else { cardEl.hidden = true; cardPos = null; }
    boardView.select(cardPos);
  }

  function fmtNum(x) {
    if (typeof x !== "number") return "";
    return Math.abs(x) < 1 && x !== 0 ? x.toFixed(3) : String(Math.round(x * 100) / 100);
  }

  function drawLog() {
    const state = get("state") || {};
    const log = state.log;
    if (!log) return;
    const L = state.lang || lang();
    if (logLang !== L || log.total < logLines.length || log.start > logLines.length) {
      // language switched, undo, or a gap: start again from the tail we were sent
      logLang = L;
      logLines = [];
      logRendered = 0;
      replace(logList);
      logList.start = log.start + 1;
      for (let k = 0; k < log.lines.length; k++) logLines[log.start + k] = log.lines[k];
      logRendered = log.start;
    } else {
      for (let k = 0; k < log.lines.length; k++) logLines[log.start + k] = log.lines[k];
    }
    const frag = document.createDocumentFragment();
    for (let i = logRendered; i < logLines.length; i++) {
      frag.appendChild(h("li", { "data-ugw-log": String(i), text: logLines[i] ?? "" }));
    }
    logRendered = logLines.length;
    logList.appendChild(frag);
    while (logList.childElementCount > 1000) { logList.removeChild(logList.firstChild); logList.start += 1; }
    scrollLog();
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
      timerEl.textContent = `⏱ ${t(L, "timer")}: ${fmtTime(left)}`;
      timerEl.classList.toggle("ugw-urgent", left < 10);
      if (left <= 0) expired = true;
    } else timerEl.hidden = true;
    if (typeof state.time_left === "number" && state.phase === "play") {
      const left = state.time_left - elapsed;
      clockEl.hidden = false;
      clockEl.textContent = `${t(L, "time_left")}: ${fmtTime(left)}`;
      if (left <= 0) expired = true;
    } else clockEl.hidden = true;
    const now = performance.now();
    if (expired && tickSentFor !== state.seq && now - lastTickAt > 1500) {
      tickSentFor = state.seq;
      lastTickAt = now;
      model.send({ type: "tick", seq: state.seq });
    }
  }

  function drawError() {
    const error = get("error") || {};
    if (!error.message) { errorBox.hidden = true; return; }
    if (error.n === lastErrorN && !errorBox.hidden) return;
    lastErrorN = error.n;
    errorBox.hidden = false;
    replace(errorBox, h("span", { text: error.message }),
      h("button", { type: "button", class: "ugw-close", "aria-label": t(lang(), "close"), text: "×",
        onclick: () => { errorBox.hidden = true; } }));
    if (errorTimer) { clearTimeout(errorTimer); timers.delete(errorTimer); }
    errorTimer = setTimeout(() => { errorBox.hidden = true; }, 12000);
    timers.add(errorTimer);
  }

  function drawPanels() {
    const c = ctx();
    const L = c.lang;
    statusTitle.textContent = t(L, "status");
    logTitle.textContent = t(L, "log");
    renderActions(actionsEl, c);
    renderStatus(statusEl, c);
    trade.render(c);
  }

  function draw() {
    const showLobby = wantLobby || !inGame();
    root.classList.toggle("ugw-in-lobby", showLobby);
    root.lang = lang();
    main.hidden = showLobby;
    lobby.el.hidden = !showLobby;
    drawHeader();
    if (showLobby) {
      if (!lobby.schema && get("lobby") && get("lobby").profiles) lobby.reset(get("lobby"));
      const error = get("error") || {};
      lobby.render(lang(), inGame(), error.message || "");
      errorBox.hidden = true;
      return;
    }
    drawError();
    const state = get("state");
    const board = get("board_data");
    if (board !== lastBoard) {
      lastBoard = board;
      boardView.build(board, lang());
      boardView.setHeat(get("heat"));
      logLang = null;
    }
    boardView.update(state, board.hotel_level);
    root.dataset.phase = state.phase;
    root.dataset.seq = String(state.seq);
    drawPanels();
    drawCenter();
    const animate = lastRolls !== null && state.rolls > lastRolls;
    if (animate || lastRolls === null || state.rolls !== lastRolls) drawDice(animate);
    lastRolls = state.rolls;
    drawLog();
    drawTimers();
  }

  // ---------------------------------------------------------------- model events
  const on = (name, fn) => { model.on(name, fn); handlers.push([name, fn]); };
  on("change:state", () => { stateAt = performance.now(); draw(); });
  on("change:board_data", () => { wantLobby = false; lastBoard = null; cardPos = null; trade.hide(); });
  on("change:lang", () => { boardView.setLang(lang()); draw(); });
  on("change:heat", () => { boardView.setHeat(get("heat")); drawCenter(); });
  on("change:error", () => { if (wantLobby || !inGame()) draw(); else drawError(); });
  on("change:seats", () => drawHeader());
  on("change:bot_delay", () => drawHeader());
  on("change:paused", () => drawHeader());
  on("change:lobby", () => { lobby.schema = null; if (wantLobby || !inGame()) draw(); });

  const clock = setInterval(() => { if (inGame() && !wantLobby) drawTimers(); }, 250);
  timers.add(clock);
  draw();

  return () => {
    boardView.destroy();
    for (const id of timers) { clearInterval(id); clearTimeout(id); }
    timers.clear();
    if (scrollFrame !== null) cancelAnimationFrame(scrollFrame);
    for (const [name, fn] of handlers) model.off(name, fn);
    root.removeEventListener("keydown", stopKeys);
    root.removeEventListener("keyup", stopKeys);
    root.removeEventListener("keypress", stopKeys);
    root.removeEventListener("keydown", onKey);
    root.remove();
  };
}

export default { render };
