// The live win-chance bar above the board: each player's chance to win (rollouts from the
// position, computed in Python: w.win_chances) as a stacked bar in the player's colour, the
// games not decided within the rollout cap in grey, and the swing of the last decision.
// Only Python's figures are drawn; every segment carries them in data- attributes.
import { h, replace, safeColour, contrast } from "./dom.js";
import { t, tf } from "./i18n.js";
import type { Empty, GameState, Lang, WinChances, WinEstimate, WinRow } from "./contract.js";

const pct = (p: number): string => `${Math.round(100 * p)}%`;

// Python's figures, whatever stage they are at: a waiting bar has no rows yet.
type Shown = Partial<Omit<WinEstimate, "status">> & { status?: Exclude<WinChances, Empty>["status"] };

export function renderWinBar(el: HTMLElement, wc: WinChances | null, state: GameState | null, L: Lang): void {
  const players = (state && state.players) || [];
  if (!state || !wc || !wc.on || !players.length) { replace(el); el.hidden = true; return; }
  const shown = wc as Shown;
  el.hidden = false;
  const rows: WinRow[] = Array.isArray(shown.players) ? shown.players : [];
  const stale = shown.seq !== undefined && state.seq !== undefined && shown.seq !== state.seq;
  const status = shown.status || "waiting";
  const bar = h("div", { class: "ugw-win-track", role: "img", "data-ugw": "win-track" });
  const said: string[] = [];
  for (const row of rows) {
    const p = players[row.player];
    const colour = safeColour(p && p.colour);
    const share = Math.max(0, Number(row.p_win) || 0);
    const label = `${row.name} ${pct(share)}`;
    said.push(label);
    bar.appendChild(h("div", {
      class: "ugw-win-seg", "data-ugw": "win-seg", "data-player": String(row.player),
      "data-p-win": String(row.p_win), "data-se": String(row.se),
      title: `${label} (${pct(row.ci_low)}–${pct(row.ci_high)})`,
      style: { flexGrow: String(share), background: colour, color: contrast(colour) },
    }, share >= 0.06 ? h("span", { class: "ugw-win-label", text: share >= 0.2 ? label : pct(share) }) : null));
  }
  const open = shown.unfinished && Number(shown.unfinished.p_win) > 0 ? shown.unfinished : null;
  if (open) {
    bar.appendChild(h("div", {
      class: "ugw-win-seg ugw-win-open", "data-ugw": "win-seg-open", "data-p-win": String(open.p_win),
      title: `${(open.label && (open.label[L] || open.label.en)) || ""} ${pct(open.p_win)}`,
      style: { flexGrow: String(open.p_win) },
    }));
  }
  bar.setAttribute("aria-label", `${t(L, "win_chances")}: ${said.join(", ")}`);
  const swings = Array.isArray(shown.swings) ? shown.swings : [];
  const swing = swings.length ? swings[swings.length - 1] : null;
  const note = status === "over" ? t(L, "win_over")
    : rows.length ? tf(L, "win_note", { n: shown.rollouts || 0 }) + (status === "done" ? "" : " …")
      : t(L, "win_waiting");
  // the browser site plays fewer rollouts (Pyodide, one thread): its budget is said
  const browser = shown.browser && status !== "over"
    ? h("div", { class: "ugw-muted ugw-win-budget", "data-ugw": "win-budget",
      "data-budget": String(shown.budget || 0), text: tf(L, "win_browser", { n: shown.budget || 0 }) })
    : null;
  replace(el,
    h("div", { class: "ugw-win-head" },
      h("strong", { text: t(L, "win_chances") }),
      h("span", { class: "ugw-muted", "data-ugw": "win-note", text: note })),
    browser,
    rows.length ? bar : null,
    rows.length ? h("span", { class: "ugw-win-figures", "data-ugw": "win-figures", text: said.join(" · ") }) : null,
    swing && swing.text ? h("div", { class: "ugw-win-swing", "data-ugw": "win-swing", "data-points": String(swing.points),
      text: swing.text[L] || swing.text.en }) : null);
  el.dataset.seq = String(shown.seq ?? "");
  el.dataset.status = status;
  el.dataset.rollouts = String(shown.rollouts || 0);
  el.classList.toggle("ugw-win-stale", stale);
}
