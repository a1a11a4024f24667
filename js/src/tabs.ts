// Tabbed side panels (players, log; more can be added with add(), e.g. the probability lab's
// heat modes, dice histogram and convergence chart). Keyboard: arrow keys move between tabs.
import { ARROWS, h, replace } from "./dom.js";

interface Tab { id: string; label: () => string; tab: HTMLButtonElement; panel: HTMLDivElement }

export class Tabs {
  readonly uid: string;
  readonly list: HTMLDivElement;
  readonly body: HTMLDivElement;
  readonly el: HTMLDivElement;
  readonly items: Tab[];
  current: string | null;

  constructor(uid: string, label: string) {
    this.uid = uid;
    this.list = h("div", { class: "ugw-tablist", role: "tablist", "aria-label": label });
    this.body = h("div", { class: "ugw-tabbodies" });
    this.el = h("div", { class: "ugw-tabs", "data-ugw": "side-tabs" }, this.list, this.body);
    this.items = [];
    this.current = null;
  }

  // id: short name (data-ugw=tab-ID / panel-ID); label: () => text in the current language
  add(id: string, label: () => string, content: Node): HTMLDivElement {
    const tab = h("button", {
      type: "button", role: "tab", class: "ugw-tab", id: `ugw-tab-${id}-${this.uid}`,
      "data-ugw": `tab-${id}`, "aria-controls": `ugw-panel-${id}-${this.uid}`,
      onclick: () => this.select(id),
      onkeydown: (ev) => {
        const k = this.items.findIndex((it) => it.id === id);
        const step = ARROWS[ev.key];
        if (!step) return;
        ev.preventDefault();
        const next = this.items[(k + step + this.items.length) % this.items.length];
        this.select(next.id);
        next.tab.focus();
      },
    });
    const panel = h("div", {
      role: "tabpanel", class: "ugw-tabpanel", id: `ugw-panel-${id}-${this.uid}`,
      "data-ugw": `panel-${id}`, "aria-labelledby": tab.id,
    }, content);
    this.items.push({ id, label, tab, panel });
    this.list.appendChild(tab);
    this.body.appendChild(panel);
    if (this.current === null) this.select(id);
    else this.sync();
    return panel;
  }

  select(id: string): void {
    this.current = id;
    this.sync();
  }

  sync(): void {
    for (const it of this.items) {
      const on = it.id === this.current;
      it.tab.setAttribute("aria-selected", on ? "true" : "false");
      it.tab.tabIndex = on ? 0 : -1;
      it.panel.hidden = !on;
      replace(it.tab, it.label());
    }
  }
}
