// The trade dialog: over the board, with each side's properties, cash and jail cards, the
// partner's answer and the rollouts' advice (Python's rate_trade, w.trade_advice).
import { checkedOf, h, money, replace, valueOf } from "./dom.js";
import type { Child } from "./dom.js";
import { t } from "./i18n.js";
import { tileName } from "./prompts.js";
import type { PanelCtx } from "./panels.js";
import type { AdviceRated, GameState, Lang, ProposeTradeAction, TradeAdvice, TradeOffer, TradeSide } from "./contract.js";

/** One side's choices while the dialog is open. */
interface Choice { properties: Set<number>; cash: number; cards: Set<string> }

const none = (): Choice => ({ properties: new Set(), cash: 0, cards: new Set() });

// The trade dialog: over the board, keeps its choices until it is sent and accepted by the
// engine or cancelled; a refusal is shown inside it, in plain words.
export class TradeDialog {
  readonly send: (action: ProposeTradeAction) => boolean;
  readonly uid: string;
  readonly el: HTMLDivElement;
  open: boolean;
  partner: number | undefined | null;
  sel: { give: Choice; get: Choice };
  error: string;
  sentAt: number | null;
  me: number | undefined;
  asked: { seq: number; key: string } | null = null;
  focusFirst = false;
  /** Ask Python to rate an offer (null where rollouts cannot run: no Advice button). */
  advise: ((offer: TradeOffer) => boolean) | null = null;
  /** The trade_advice trait as it is now. */
  advice: (() => TradeAdvice) | null = null;
  onHide: (() => void) | null = null;

  constructor(send: (action: ProposeTradeAction) => boolean, uid: string) {
    this.send = send;
    this.uid = uid;
    this.el = h("div", { class: "ugw-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": `ugw-trade-title-${uid}`, "data-ugw": "trade-dialog", hidden: true });
    this.open = false;
    this.partner = null;
    this.sel = { give: none(), get: none() };
    this.error = "";
    this.sentAt = null;
  }

  show(state: GameState): void {
    const me = state.decision.player;
    const others = state.players.map((p, i) => i).filter((i) => i !== me && !state.players[i].bankrupt);
    this.partner = others[0];
    this.sel = { give: none(), get: none() };
    this.open = true;
    this.error = "";
    this.sentAt = null;
    this.asked = null;
    this.focusFirst = true;
  }

  hide(): void { this.open = false; this.el.hidden = true; this.sentAt = null; if (this.onHide) this.onHide(); }

  // A new state: the offer went through when the decision moved on to the partner.
  stateChanged(state: GameState): void {
    if (!this.open) return;
    if (this.sentAt !== null && state.seq !== this.sentAt) this.hide();
  }

  render(ctx: PanelCtx): void {
    if (!this.open) { this.el.hidden = true; return; }
    const { state, board, lang } = ctx;
    if (!state.can_trade && this.sentAt === null) { this.hide(); return; }
    this.el.hidden = false;
    const me = (this.me !== undefined && this.sentAt !== null ? this.me : state.decision.player) as number;
    this.me = me;
    const rerender = (): void => this.render(ctx);
    const pid = `ugw-trade-partner-${this.uid}`;
    const partnerSelect = h("select", {
      "data-ugw": "trade-partner", id: pid,
      onchange: (ev) => { this.partner = Number(valueOf(ev)); this.sel.get = none(); this.error = ""; rerender(); },
    }, state.players.map((p, i) => (i === me || p.bankrupt ? null
      : h("option", { value: String(i), selected: i === this.partner, text: p.name }))));
    const column = (who: number, side: "give" | "get", label: string): HTMLFieldSetElement => {
      const p = state.players[who];
      const props: number[] = [];
      (state.owner || []).forEach((o, pos) => { if (o === who) props.push(pos); });
      const cashId = `ugw-trade-${side}-cash-${this.uid}`;
      return h("fieldset", { class: "ugw-trade-col", "data-ugw": `trade-${side}` },
        h("legend", { text: `${label} (${p.name})` }),
        props.map((pos) => h("label", { class: "ugw-check" }, h("input", {
          type: "checkbox", checked: this.sel[side].properties.has(pos), "data-ugw": `trade-${side}-prop-${pos}`,
          onchange: (ev) => { if (checkedOf(ev)) this.sel[side].properties.add(pos); else this.sel[side].properties.delete(pos); },
        }), tileName(board, pos, lang))),
        (p.jail_cards || []).map((card) => h("label", { class: "ugw-check" }, h("input", {
          type: "checkbox", checked: this.sel[side].cards.has(card), "data-ugw": `trade-${side}-card-${card}`,
          onchange: (ev) => { if (checkedOf(ev)) this.sel[side].cards.add(card); else this.sel[side].cards.delete(card); },
        }), (board.cards[card] && (board.cards[card][lang] || board.cards[card].en) || card).slice(0, 60))),
        h("label", { class: "ugw-field", for: cashId }, h("span", { text: `${t(lang, "cash")} (≤ ${money(p.cash)})` })),
        h("input", { type: "number", min: "0", max: String(p.cash), value: String(this.sel[side].cash), id: cashId,
          "data-ugw": `trade-${side}-cash`, oninput: (ev) => { this.sel[side].cash = Math.max(0, Math.floor(Number(valueOf(ev)) || 0)); } }));
    };
    const pack = (side: Choice): TradeSide => ({ properties: [...side.properties], cash: side.cash, cards: [...side.cards] });
    const offerNow = (): { player: number; partner: number; give: TradeSide; get: TradeSide } =>
      ({ player: me, partner: this.partner as number, give: pack(this.sel.give), get: pack(this.sel.get) });
    const keyOf = (offer: ReturnType<typeof offerNow>): string => JSON.stringify([offer.partner, ...(["give", "get"] as const).map((k) => [
      [...offer[k].properties].sort((a, b) => a - b), offer[k].cash, [...offer[k].cards].sort()])]);
    const active = this.el.ownerDocument.activeElement as HTMLElement | null;
    const focusUgw = active && this.el.contains(active) ? active.dataset.ugw : null;
    replace(this.el,
      h("div", { class: "ugw-dialog-head" }, h("strong", { id: `ugw-trade-title-${this.uid}`, text: t(lang, "trade").replace("…", "") }),
        h("button", { type: "button", class: "ugw-close", "aria-label": t(lang, "close"), text: "×", onclick: () => { this.hide(); } })),
      h("div", { class: "ugw-field" }, h("label", { for: pid, text: t(lang, "partner") }), partnerSelect),
      this.partner === undefined ? null : h("div", { class: "ugw-trade-cols" },
        column(me, "give", t(lang, "you_give")), column(this.partner as number, "get", t(lang, "you_get"))),
      this.error ? h("div", { class: "ugw-error ugw-inline-error", role: "alert", "data-ugw": "trade-error", text: this.error }) : null,
      this.adviceBox(state, lang, keyOf(offerNow())),
      h("div", { class: "ugw-buttons" },
        h("button", { type: "button", class: "ugw-btn ugw-primary", "data-ugw": "trade-send", text: t(lang, "send_offer"),
          onclick: () => {
            this.error = "";
            const sent = this.send({ type: "propose_trade", player: me, partner: this.partner as number, give: pack(this.sel.give), get: pack(this.sel.get) });
            if (sent) this.sentAt = state.seq;
            rerender();
          } }),
        this.advise ? h("button", { type: "button", class: "ugw-btn", "data-ugw": "trade-advice-ask", text: t(lang, "advice"),
          onclick: () => {
            const offer = offerNow();
            if (this.advise && this.advise(offer)) this.asked = { seq: state.seq, key: keyOf(offer) };
            rerender();
          } }) : null,
        h("button", { type: "button", class: "ugw-btn", "data-ugw": "trade-cancel", text: t(lang, "cancel"), onclick: () => this.hide() })));
    const again = focusUgw && this.el.querySelector<HTMLElement>(`[data-ugw="${focusUgw}"]`);
    if (again) again.focus({ preventScroll: true });
    else if (this.focusFirst) { this.focusFirst = false; partnerSelect.focus({ preventScroll: true }); }
  }

  // The advice asked for this offer in this position (Python's rate_trade, w.trade_advice):
  // its words, and each side's chances in data- attributes; stale once either changed.
  adviceBox(state: GameState, lang: Lang, key: string): HTMLDivElement | null {
    const asked = this.asked;
    if (!asked || !this.advice) return null;
    // (the fields of a stage that does not have them read as undefined)
    const a = this.advice() as Partial<Omit<AdviceRated, "status">> & { status?: Exclude<TradeAdvice, Record<string, never>>["status"] };
    const box = (status: string, text: Child, extra?: Record<string, string>): HTMLDivElement => h("div", { class: "ugw-advice", role: "status", "data-ugw": "trade-advice",
      "data-status": status, ...extra }, text);
    if (asked.seq !== state.seq || asked.key !== key) return box("stale", t(lang, "advice_stale"));
    if (a.seq !== asked.seq || !a.status || a.status === "working") return box("working", t(lang, "advice_working"));
    const text = (a.text && (a.text[lang] || a.text.en)) || "";
    if (a.status === "error") return box("error", text);
    const sides = (a.sides || []).map((row, i) => h("span", { "data-ugw": `advice-side-${i}`, hidden: true,
      "data-p-with": String(row.p_with), "data-p-without": String(row.p_without), "data-delta": String(row.delta) }));
    return box(a.status, [text, a.status === "quick" ? ` ${t(lang, "advice_fair")}` : "", ...sides],
      { "data-fair-cash": a.fair_cash === null || a.fair_cash === undefined ? "" : String(a.fair_cash),
        "data-rollouts": String(a.rollouts || 0) });
  }

  showError(message: string, ctx: PanelCtx): void {
    this.error = message;
    this.sentAt = null;
    this.render(ctx);
  }
}
