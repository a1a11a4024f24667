// Requests to Python, and safe clicks. Every request goes through send(): nothing is sent
// twice for the same state (a double click is dropped quietly), and a comm that is gone shows
// the "run the cell again" overlay. A button that appears somewhere new ignores clicks for
// ARM_MS (`data-arming`), measured in the next frame, before it is painted.
import { h } from "./dom.js";
import type { Attrs } from "./dom.js";
import type { Action, Decision } from "./contract.js";
import type { Model, RequestBody } from "./model.js";
import type { Timers } from "./timers.js";

const ARM_MS = 300; // a button that appears in a new place ignores clicks this long
const PENDING_MS = 4000; // a request without an answer stops blocking after this long

/** What a request on its way is for (a second one for the same state is dropped). */
export type PendingKind = "act" | "trade" | "undo" | "setup";

export class Requests {
  /** A request on its way: more clicks for its state are dropped. `game`: for a setup, the
   * game running when it was sent (its `game_start`), so that its states are not taken for
   * the new game's. */
  pending: { seq: number; at: number; kind: PendingKind; game?: number } | null = null;
  disconnected = false;
  private readonly model: Model;
  private readonly seq: () => number;
  private readonly onDead: () => void;

  constructor(model: Model, seq: () => number, onDead: () => void) {
    this.model = model;
    this.seq = seq;
    this.onDead = onDead;
  }

  send(msg: RequestBody, kind?: PendingKind): boolean {
    if (this.disconnected) { this.onDead(); return false; }
    const now = performance.now();
    const pending = this.pending;
    // (a second Start while the first is on its way is dropped too, though the old game's
    // bots may have moved meanwhile: it would be refused as made before the new game)
    const same = pending && (pending.seq === this.seq() || (pending.kind === "setup" && kind === "setup"));
    if (kind && same && pending && now - pending.at < PENDING_MS) return false;
    try {
      this.model.send({ ...msg, seq: this.seq() });
    } catch (err) {
      this.onDead();
      return false;
    }
    if (kind) this.pending = { seq: this.seq(), at: now, kind };
    return true;
  }

  act(action: Action): boolean {
    return this.send({ type: "act", action }, action.type === "propose_trade" ? "trade" : "act");
  }
}

type Place = DOMRect & { armedAt?: number };

/** Guarded buttons: while `data-arming` is set (for ARM_MS after a button appears somewhere
 * new) clicks on it do nothing. */
export class SafeClicks {
  private places = new Map<string, Place>(); // guarded button key -> rect of the last drawing
  private frame: number | null = null;
  private readonly root: HTMLElement;
  private readonly timers: Timers;

  constructor(root: HTMLElement, timers: Timers) {
    this.root = root;
    this.timers = timers;
  }

  button(attrs: Attrs & { onclick: (ev: MouseEvent) => void }, decision: Partial<Decision>): HTMLButtonElement {
    const onclick = attrs.onclick;
    const key = `${decision.kind}/${decision.player}/${attrs["data-ugw-action"] || ""}/${attrs["data-ugw-pos"] || ""}`;
    return h("button", {
      ...attrs, type: "button", "data-ugw-guard": key,
      onclick: (ev: MouseEvent) => {
        if ((ev.currentTarget as HTMLElement).hasAttribute("data-arming")) { ev.preventDefault(); return; }
        onclick(ev);
      },
    });
  }

  // Measured in the next frame, before it is painted: no forced layout inside the click's
  // task, and no click can reach a button that has not been painted yet.
  settle(): void {
    if (this.frame === null) this.frame = requestAnimationFrame(() => { this.frame = null; this.now(); });
  }

  private now(): void {
    const next = new Map<string, Place>();
    const now = performance.now();
    for (const b of this.root.querySelectorAll<HTMLButtonElement>("button[data-ugw-guard]")) {
      const key = b.dataset.ugwGuard as string;
      const r: Place = b.getBoundingClientRect();
      next.set(key, r);
      const old = this.places.get(key);
      const same = old && Math.abs(old.left - r.left) < 4 && Math.abs(old.top - r.top) < 4;
      if (same && (old.armedAt as number) <= now) continue;
      b.setAttribute("data-arming", "");
      const wait = same ? (old.armedAt as number) - now : ARM_MS;
      r.armedAt = now + wait;
      this.timers.later(() => b.removeAttribute("data-arming"), wait);
    }
    for (const [key, r] of next) if (r.armedAt === undefined) r.armedAt = (this.places.get(key) || {}).armedAt ?? 0;
    this.places = next;
  }

  destroy(): void {
    if (this.frame !== null) cancelAnimationFrame(this.frame);
  }
}
