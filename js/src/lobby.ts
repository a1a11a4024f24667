// The setup screen: profile, board, mode, options, players (names, tokens, colours, seats).
import { checkedOf, h, replace, valueOf } from "./dom.js";
import { t, tokenName } from "./i18n.js";
import type { GameMode, Lang, LobbyData, LobbyProfile, SeatKind, SetupOptions, SetupPlayer, SetupRequest } from "./contract.js";

type LobbyFlag = keyof LobbyData["flags"];

const DEFAULT_NAMES = ["Ann", "Bob", "Cleo", "Dirk", "Eva", "Fien", "Gust", "Hanne"];

/** The form as it is being filled in. */
interface Form {
  profile: string;
  board: string;
  seed: string;
  mode: GameMode;
  minutes: number;
  timer: boolean;
  seconds: number;
  flags: Partial<Record<LobbyFlag, boolean>>;
  money: number;
}

/** A setup request as the lobby makes it (the view adds `seq`). */
export type SetupBody = Omit<SetupRequest, "seq">;

export class Lobby {
  readonly send: (request: SetupBody) => unknown;
  readonly onBack: () => void;
  readonly uid: string;
  readonly el: HTMLDivElement;
  form: Form | null;
  schema: LobbyData | null;
  players: (SetupPlayer & { seat: SeatKind })[];
  /** The n of the last error shown here (an old one is not news). */
  shownError: number | null | undefined = undefined;

  constructor(send: (request: SetupBody) => unknown, onBack: () => void, uid = "0") {
    this.send = send;
    this.onBack = onBack;
    this.uid = uid;
    this.el = h("div", { class: "ugw-lobby", "data-ugw": "lobby", role: "form", "aria-label": "setup" });
    this.form = null;
    this.schema = null;
    this.players = [];
  }

  profileSchema(): LobbyProfile {
    const schema = this.schema as LobbyData;
    const name = (this.form as Form).profile;
    return schema.profiles.find((p) => p.name === name) || schema.profiles[0];
  }

  reset(schema: LobbyData): void {
    this.schema = schema;
    const profile = schema.default_profile || "ugentopoly";
    // (the rest of the form comes from the profile: applyProfile)
    this.form = { profile, board: schema.default_board || `bundled:${profile}`, seed: "" } as Form;
    this.applyProfile();
  }

  applyProfile(): void {
    const prof = this.profileSchema();
    const form = this.form as Form;
    const schema = this.schema as LobbyData;
    form.mode = prof.mode;
    form.minutes = prof.time_limit_minutes || 60;
    form.timer = !!prof.turn_timer_seconds;
    form.seconds = prof.turn_timer_seconds || 30;
    form.flags = { ...prof.flags };
    form.money = prof.starting_money;
    if (!schema.default_board || form.board !== "custom") form.board = `bundled:${prof.name}`;
    const n = Math.max(prof.min_players, Math.min(prof.max_players, this.players.length || 2));
    this.resize(n);
  }

  resize(n: number): void {
    const { tokens, colours } = this.schema as LobbyData;
    while (this.players.length < n) {
      const k = this.players.length;
      const used = new Set(this.players.map((p) => p.token));
      this.players.push({
        name: DEFAULT_NAMES[k] || `Player ${k + 1}`,
        token: tokens.find((tok) => !used.has(tok)) || tokens[k % tokens.length],
        colour: colours[k % colours.length],
        seat: k === 0 ? "person" : "strong",
      });
    }
    this.players.length = n;
  }

  render(lang: Lang, hasGame: boolean, error: string): void {
    if (!this.schema) return;
    const schema = this.schema;
    const form = this.form as Form;
    const prof = this.profileSchema();
    const field = (label: string, control: Node): HTMLLabelElement => h("label", { class: "ugw-field" }, h("span", { text: label }), control);
    const select = (testid: string, value: string, options: [string, string, string?][], onchange: (value: string) => void, label?: string): HTMLSelectElement => h("select", {
      "data-ugw": testid, "aria-label": label || null,
      onchange: (ev) => onchange(valueOf(ev)),
    }, options.map(([v, label, title]) => h("option", { value: v, selected: v === value, text: label, title: title || null })));
    const rerender = (): void => this.render(lang, hasGame, error);

    const profiles = select("profile", form.profile,
      schema.profiles.map((p) => [p.name, p.label[lang] || p.name]),
      (v) => { form.profile = v; this.applyProfile(); rerender(); });
    const boards = select("board-file", form.board,
      schema.boards.map((b) => [b.id, b.label]), (v) => { form.board = v; });
    const mode = select("mode", form.mode,
      schema.modes.map((m) => [m, t(lang, m)]), (v) => { form.mode = v as GameMode; rerender(); });
    const minutes = form.mode === "timed" ? field(t(lang, "minutes"), h("input", {
      type: "number", min: "1", max: "600", value: String(form.minutes), "data-ugw": "minutes",
      oninput: (ev) => { form.minutes = Number(valueOf(ev)); },
    })) : null;
    const timer = h("label", { class: "ugw-check" }, h("input", {
      type: "checkbox", checked: form.timer, "data-ugw": "turn-timer",
      onchange: (ev) => { form.timer = checkedOf(ev); rerender(); },
    }), t(lang, "turn_timer"));
    const seconds = form.timer ? h("input", {
      type: "number", min: "5", max: "600", value: String(form.seconds), "data-ugw": "timer-seconds",
      class: "ugw-small", "aria-label": t(lang, "seconds"),
      oninput: (ev) => { form.seconds = Number(valueOf(ev)); },
    }) : null;
    const flags = (Object.entries(schema.flags) as [LobbyFlag, LobbyData["flags"][LobbyFlag]][]).map(([key, label]) => h("label", { class: "ugw-check" },
      h("input", {
        type: "checkbox", checked: !!form.flags[key], "data-ugw": `flag-${key}`,
        onchange: (ev) => { form.flags[key] = checkedOf(ev); },
      }), label[lang] || label.en));
    const count = select("player-count", String(this.players.length),
      Array.from({ length: prof.max_players - prof.min_players + 1 }, (_, k): [string, string] => {
        const v = String(prof.min_players + k);
        return [v, v];
      }), (v) => { this.resize(Number(v)); rerender(); });
    const money = h("input", {
      type: "number", min: "1", step: "50", value: String(form.money), "data-ugw": "starting-money",
      oninput: (ev) => { form.money = Number(valueOf(ev)); },
    });
    const seed = h("input", {
      type: "number", min: "0", value: form.seed, "data-ugw": "seed", placeholder: "–",
      oninput: (ev) => { form.seed = valueOf(ev); },
    });

    const rows = this.players.map((p, k) => h("div", { class: "ugw-player-row", "data-ugw": `player-${k}` },
      h("input", {
        type: "color", value: p.colour, "data-ugw": `player-colour-${k}`, "aria-label": t(lang, "colour"),
        oninput: (ev) => { p.colour = valueOf(ev); },
      }),
      h("input", {
        type: "text", value: p.name, maxlength: "40", "data-ugw": `player-name-${k}`,
        "aria-label": `${t(lang, "name")} ${k + 1}`,
        oninput: (ev) => { p.name = valueOf(ev); },
      }),
      select(`player-token-${k}`, p.token, schema.tokens.map((tok): [string, string] => [tok, tokenName(lang, tok)]), (v) => { p.token = v; },
        `${t(lang, "token")} ${k + 1}`),
      // each level with its sentence for a class (Python's engine.bots.LEVELS) as a tooltip
      select(`player-seat-${k}`, p.seat, schema.seat_kinds.map((s): [string, string, string?] => [s, t(lang, s), schema.seat_help?.[s]?.[lang]]), (v) => { p.seat = v as SeatKind; },
        `${t(lang, "seat")} ${k + 1}`),
    ));

    const start = h("button", {
      class: "ugw-btn ugw-primary", "data-ugw": "start", type: "button", text: t(lang, "start"),
      onclick: () => this.submit(),
    });
    const back = hasGame ? h("button", {
      class: "ugw-btn", "data-ugw": "back", type: "button", text: t(lang, "back"), onclick: () => this.onBack(),
    }) : null;
    const err = error ? h("div", { class: "ugw-error", role: "alert", "data-ugw": "error", text: error }) : null;

    replace(this.el,
      h("h3", { class: "ugw-title", text: t(lang, "setup") }),
      h("div", { class: "ugw-lobby-grid" },
        h("fieldset", { class: "ugw-fieldset" }, h("legend", { text: t(lang, "game") }),
          field(t(lang, "profile"), profiles), field(t(lang, "board"), boards),
          field(t(lang, "mode"), mode), minutes,
          h("div", { class: "ugw-field" }, timer, seconds),
          field(t(lang, "starting_money"), money), field(t(lang, "seed"), seed)),
        h("fieldset", { class: "ugw-fieldset" }, h("legend", { text: t(lang, "options") }), flags),
        h("fieldset", { class: "ugw-fieldset ugw-players-set" }, h("legend", { text: t(lang, "players") }),
          field(t(lang, "number"), count),
          h("div", { class: "ugw-player-head" }, h("span"), h("span", { text: t(lang, "name") }),
            h("span", { text: t(lang, "token") }), h("span", { text: t(lang, "seat") })),
          rows)),
      err,
      h("div", { class: "ugw-lobby-buttons" }, start, back));
  }

  submit(): void {
    const form = this.form as Form;
    const options: SetupOptions = { mode: form.mode, ...form.flags };
    if (form.mode === "timed") options.time_limit_minutes = Number(form.minutes) || 60;
    options.turn_timer_seconds = form.timer ? Number(form.seconds) || 30 : null;
    if (Number.isInteger(form.money) && form.money > 0) options.starting_money = form.money;
    const request: SetupBody = {
      type: "setup",
      profile: form.profile,
      board: form.board,
      options,
      players: this.players.map((p) => ({ name: p.name, token: p.token, colour: p.colour, seat: p.seat })),
    };
    if (form.seed !== "" && Number.isInteger(Number(form.seed))) request.seed = Number(form.seed);
    this.send(request);
  }
}
