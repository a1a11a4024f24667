// The classroom's anywidget view (one per page and device): the phone view, the projector's
// join card and class charts, or the teacher's controls. Python (classroom/views.py RoomPanel)
// sends the room as `view` and the tiles as `board`; every click is a request the room checks.
import { h, replace } from "./dom";
import { t } from "./i18n";
import { playerPage } from "./player";
import type { Drafts } from "./player";
import { projectorPage } from "./projector";
import { teacherPage } from "./teacher";
import type { Board, Lang, Model, View } from "./types";

function render({ model, el }: { model: Model; el: HTMLElement }): () => void {
  const root = h("div", { class: "ugc-root" });
  const top = h("div", { class: "ugc-top" });
  const error = h("p", { class: "ugc-error", "data-ugc": "error", role: "alert", "aria-live": "assertive" });
  const body = h("div", { class: "ugc-body" });
  root.append(top, error, body);
  el.appendChild(root);
  const drafts: Drafts = { code: "", name: "", trade: null };
  let lastError = 0;
  // the language is this device's: chosen here, told to the room (the board follows it too)
  let lang: Lang = (navigator.language || "en").toLowerCase().startsWith("nl") ? "nl" : "en";
  let told = false;

  const send = (content: Record<string, unknown>) => model.send(content);

  function draw(): void {
    const view = model.get("view") as View;
    const board = model.get("board") as Board;
    if (!view || !view.me) return;
    if (!told && view.lang !== lang) { told = true; send({ type: "lang", lang }); }
    else if (told) lang = view.lang;
    root.lang = lang;
    root.dataset.page = view.page;
    root.dataset.v = String(view.v);
    root.dataset.seq = String(view.seq);
    const title = board && board.titles ? board.titles[lang] : "";
    replace(top, h("b", { class: "ugc-title", text: `${title}${view.me.name ? ` · ${view.me.name}` : ""}` }),
      h("button", { class: "ugc-btn ugc-lang", "data-ugc": "lang", "aria-label": "language",
        onclick: () => { told = true; send({ type: "lang", lang: lang === "en" ? "nl" : "en" }); }, text: t(lang, "lang") }));
    const focus = document.activeElement as HTMLElement | null;
    const focusKey = focus && root.contains(focus) ? focus.getAttribute("data-ugc") || focus.getAttribute("data-ugc-action") : null;
    // what the person typed (a bid, a count, cash in a trade) survives the room's redraws,
    // with the caret where it was
    const kept = new Map<string, { value: string; start: number | null; end: number | null }>();
    body.querySelectorAll<HTMLInputElement>("input[data-edited][data-ugc], select[data-keep][data-edited]").forEach((input) => {
      const text = input.tagName === "INPUT" && input.type !== "checkbox";
      kept.set(input.getAttribute("data-ugc") || "", { value: input.value,
        start: text && input.type !== "number" ? input.selectionStart : null, end: text && input.type !== "number" ? input.selectionEnd : null });
    });
    const parts = view.page === "projector" ? projectorPage(view, board, lang, String(model.get("qr") || ""))
      : view.page === "teacher" ? teacherPage(view, board, lang, send)
        : playerPage(view, board, lang, send, drafts, draw);
    replace(body, parts);
    kept.forEach((k, key) => {
      const input = body.querySelector(`[data-ugc="${key}"]`) as HTMLInputElement | null;
      if (!input || input.value === k.value) return;
      input.value = k.value;
      input.dataset.edited = "1";
    });
    if (focusKey) {
      const again = body.querySelector(`[data-ugc="${focusKey}"], [data-ugc-action="${focusKey}"]`) as HTMLInputElement | null;
      if (again && again !== document.activeElement) {
        again.focus();
        const k = kept.get(focusKey);
        if (k && k.start !== null && typeof again.setSelectionRange === "function") again.setSelectionRange(k.start, k.end);
      }
    }
  }

  function showError(): void {
    const e = (model.get("error") || {}) as { message?: string; n?: number };
    if (!e.message) { error.textContent = ""; error.hidden = true; return; }
    if (e.n === lastError) return;
    lastError = e.n || 0;
    error.hidden = false;
    error.textContent = e.message;
    error.dataset.n = String(e.n);
  }

  error.hidden = true;
  const edited = (ev: Event) => { const el = ev.target as HTMLElement; if (el && el.dataset) el.dataset.edited = "1"; };
  body.addEventListener("input", edited);
  body.addEventListener("change", edited);
  model.on("change:view", draw);
  model.on("change:board", draw);
  model.on("change:error", showError);
  draw();
  showError();
  return () => {
    model.off("change:view", draw);
    model.off("change:board", draw);
    model.off("change:error", showError);
  };
}

export default { render };
