// The setup screen: profile, board, mode, options, players (names, tokens, colours, seats).
import { h, replace } from "./dom.js";
import { t, tokenName } from "./i18n.js";

const DEFAULT_NAMES = ["Ann", "Bob", "Cleo", "Dirk", "Eva", "Fien", "Gust", "Hanne"];

export class Lobby {
  constructor(send, onBack, uid = "0") {
    this.send = send;
    this.onBack = onBack;
    this.uid = uid;
    this.el = h("div", { class: "ugw-lobby", "data-ugw": "lobby", role: "form", "aria-label": "setup" });
    this.form = null;
    this.schema = null;
    this.players = [];
  }

  profileSchema() {
    const name = this.form.profile;
    return this.schema.profiles.find((p) => p.name === name) || this.schema.profiles[0];
  }

  reset(schema) {
    this.schema = schema;
    const profile = schema.default_profile || "ugentopoly";
    this.form = { profile, board: schema.default_board || `bundled:${profile}`, seed: "" };
    this.applyProfile();
  }

  applyProfile() {
    const prof = this.profileSchema();
    const form = this.form;
    form.mode = prof.mode;
    form.minutes = prof.time_limit_minutes || 60;
    form.timer = !!prof.turn_timer_seconds;
    form.seconds = prof.turn_timer_seconds || 30;
    form.flags = { ...prof.flags };
    form.money = prof.starting_money;
    if (!this.schema.default_board || form.board !== "custom") form.board = `bundled:${prof.name}`;
    const n = Math.max(prof.min_players, Math.min(prof.max_players, this.players.length || 2));
    this.resize(n);
  }

  resize(n) {
    const { tokens, colours } = this.schema;
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

  render(lang, hasGame, error) {
    if (!this.schema) return;
    const form = this.form;
    const prof = this.profileSchema();
    const field = (label, control) => h("label", { class: "ugw-field" }, h("span", { text: label }), control);
    const select = (testid, value, options, onchange, label) => h("select", {
      "data-ugw": testid, "aria-label": label || null,
      onchange: (ev) => onchange(ev.target.value),
    }, options.map(([v, label, title]) => h("option", { value: v, selected: v === value, text: label, title: title || null })));
    const rerender = () => this.render(lang, hasGame, error);

    const profiles = select("profile", form.profile,
      this.schema.profiles.map((p) => [p.name, p.label[lang] || p.name]),
      (v) => { form.profile = v; this.applyProfile(); rerender(); });
    const boards = select("board-file", form.board,
      this.schema.boards.map((b) => [b.id, b.label]), (v) => { form.board = v; });
    const mode = select("mode", form.mode,
      this.schema.modes.map((m) => [m, t(lang, m)]), (v) => { form.mode = v; rerender(); });
    const minutes = form.mode === "timed" ? field(t(lang, "minutes"), h("input", {
      type: "number", min: "1", max: "600", value: String(form.minutes), "data-ugw": "minutes",
      oninput: (ev) => { form.minutes = Number(ev.target.value); },
    })) : null;
    const timer = h("label", { class: "ugw-check" }, h("input", {
      type: "checkbox", checked: form.timer, "data-ugw": "turn-timer",
      onchange: (ev) => { form.timer = ev.target.checked; rerender(); },
    }), t(lang, "turn_timer"));
    const seconds = form.timer ? h("input", {
      type: "number", min: "5", max: "600", value: String(form.seconds), "data-ugw": "timer-seconds",
      class: "ugw-small", "aria-label": t(lang, "seconds"),
      oninput: (ev) => { form.seconds = Number(ev.target.value); },
    }) : null;
    const flags = Object.entries(this.schema.flags).map(([key, label]) => h("label", { class: "ugw-check" },
      h("input", {
        type: "checkbox", checked: !!form.flags[key], "data-ugw": `flag-${key}`,
        onchange: (ev) => { form.flags[key] = ev.target.checked; },
      }), label[lang] || label.en));
    const count = select("player-count", String(this.players.length),
      Array.from({ length: prof.max_players - prof.min_players + 1 }, (_, k) => {
        const v = String(prof.min_players + k);
        return [v, v];
      }), (v) => { this.resize(Number(v)); rerender(); });
    const money = h("input", {
      type: "number", min: "1", step: "50", value: String(form.money), "data-ugw": "starting-money",
      oninput: (ev) => { form.money = Number(ev.target.value); },
    });
    const seed = h("input", {
      type: "number", min: "0", value: form.seed, "data-ugw": "seed", placeholder: "–",
      oninput: (ev) => { form.seed = ev.target.value; },
    });

    const rows = this.players.map((p, k) => h("div", { class: "ugw-player-row", "data-ugw": `player-${k}` },
      h("input", {
        type: "color", value: p.colour, "data-ugw": `player-colour-${k}`, "aria-label": t(lang, "colour"),
        oninput: (ev) => { p.colour = ev.target.value; },
      }),
      h("input", {
        type: "text", value: p.name, maxlength: "40", "data-ugw": `player-name-${k}`,
        "aria-label": `${t(lang, "name")} ${k + 1}`,
        oninput: (ev) => { p.name = ev.target.value; },
      }),
      select(`player-token-${k}`, p.token, this.schema.tokens.map((tok) => [tok, tokenName(lang, tok)]), (v) => { p.token = v; },
        `${t(lang, "token")} ${k + 1}`),
      // each level with its sentence for a class (Python's engine.bots.LEVELS) as a tooltip
      select(`player-seat-${k}`, p.seat, this.schema.seat_kinds.map((s) => [s, t(lang, s), ((this.schema.seat_help || {})[s] || {})[lang]]), (v) => { p.seat = v; },
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

  submit() {
    const form = this.form;
    const options = { mode: form.mode, ...form.flags };
    if (form.mode === "timed") options.time_limit_minutes = Number(form.minutes) || 60;
    options.turn_timer_seconds = form.timer ? Number(form.seconds) || 30 : null;
    if (Number.isInteger(form.money) && form.money > 0) options.starting_money = form.money;
    const request = {
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
