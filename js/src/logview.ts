// The Log tab: the lines arrive through a LogFeed (on every state, see index.ts); this draws
// the lines the list does not show yet, or all of them after the feed replaced its lines, and
// keeps the newest line in view unless the reader scrolled up.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { LogFeed } from "./logfeed.js";
import type { Requests } from "./requests.js";
import type { Synced } from "./model.js";
import type { GameState } from "./contract.js";

export class LogView {
  readonly feed = new LogFeed();
  readonly list = h("ol", { class: "ugw-log-list" });
  readonly more: HTMLButtonElement;
  readonly el: HTMLDivElement;
  private drawn = { resets: -1, next: 0 };
  private stick = true;
  private scrollFrame: number | null = null;
  private readonly synced: Synced;
  private readonly requests: Requests;

  constructor(synced: Synced, requests: Requests) {
    this.synced = synced;
    this.requests = requests;
    // the lines before the first one shown: asked from Python a page at a time
    this.more = h("button", {
      class: "ugw-log-more", "data-ugw": "log-more", type: "button", hidden: true,
      onclick: () => { if (this.feed.more) requests.send({ type: "log", before: this.feed.first }); },
    });
    this.el = h("div", { class: "ugw-log", "data-ugw": "log", tabindex: "0", role: "log", "aria-label": "log" }, this.more, this.list);
    this.el.addEventListener("scroll", () => {
      const el = this.el;
      this.stick = el.scrollHeight - el.scrollTop - el.clientHeight < 30;
    });
  }

  draw(): void {
    const feed = this.feed;
    const list = this.list;
    this.more.hidden = !feed.more;
    this.more.textContent = t(this.synced.lang(), "log_earlier");
    if (this.drawn.resets !== feed.resets) {
      replace(list);
      list.start = feed.first + 1;
      this.drawn = { resets: feed.resets, next: feed.first };
    }
    const from = Math.max(this.drawn.next, feed.first);
    if (from >= feed.next) return;
    const frag = document.createDocumentFragment();
    for (let i = from; i < feed.next; i++) {
      frag.appendChild(h("li", { "data-ugw-log": String(i), text: feed.lines[i - feed.first] ?? "" }));
    }
    this.drawn.next = feed.next;
    list.appendChild(frag);
    while (list.childElementCount > 1000) { list.removeChild(list.firstChild as Node); list.start += 1; }
    this.scroll();
  }

  /** The log part of the state that just came: a gap asks Python for the kept tail. */
  take(): void {
    const log = (this.synced.state() as Partial<GameState>).log;
    if (this.feed.take(log, performance.now())) this.requests.send({ type: "log" });
  }

  // Newest line in view: stick to the bottom unless the reader scrolled up.
  private scroll(): void {
    if (!this.stick || this.scrollFrame !== null) return;
    this.scrollFrame = requestAnimationFrame(() => {
      this.scrollFrame = null;
      this.el.scrollTop = this.el.scrollHeight;
    });
  }

  destroy(): void {
    if (this.scrollFrame !== null) cancelAnimationFrame(this.scrollFrame);
  }
}
