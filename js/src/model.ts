// The synced model as this view sees it: the traits of the contract (contract.ts, generated
// from Python's widget/contract/) and the requests it sends. `state` travels as JSON text
// (cheaper to send from Python) and is parsed once per new text.
import type { BoardData, Empty, GameState, Lang, Message, Request, State, Traits, ViewWrites } from "./contract.js";

/** The traits on the wire: `state` is JSON text (an object only where a kernel sent one). */
export type Wire = Omit<Traits, "state"> & { state: string | State };

/** The part of anywidget's model this view uses. */
export interface Model {
  get<K extends keyof Wire>(name: K): Wire[K];
  set<K extends ViewWrites>(name: K, value: Traits[K]): void;
  save_changes(): void;
  send(content: Request): void;
  on(name: "msg:custom", fn: (msg: Message) => void): void;
  on(name: string, fn: () => void): void;
  off(name: string, fn: (...args: never[]) => void): void;
  comm_live?: boolean;
}

/** A request as the view builds it: `send` adds the `seq` of the state it was made for. */
export type RequestBody = Request extends infer R ? R extends Request ? Omit<R, "seq"> : never : never;

/** Reads the traits, `state` parsed. */
export class Synced {
  readonly model: Model;
  private stateText: string | null = null;
  private stateValue: State | Empty = {};

  constructor(model: Model) {
    this.model = model;
  }

  get<K extends keyof Traits>(name: K): Traits[K] {
    if (name === "state") return this.state() as Traits[K];
    return this.model.get(name as Exclude<K, "state">) as Traits[K];
  }

  /** The state: a game's, the lobby's, or {} before the first one arrived. */
  state(): State | Empty {
    const value = this.model.get("state");
    if (typeof value !== "string") return value || {};
    if (value !== this.stateText) { this.stateText = value; this.stateValue = JSON.parse(value) as State; }
    return this.stateValue;
  }

  /** The game's state, or null while there is no game (the lobby). */
  game(): GameState | null {
    const state = this.state();
    const board = this.model.get("board_data");
    return state.phase && state.phase !== "lobby" && board && Array.isArray(board.tiles) ? state : null;
  }

  /** The board of the game shown (undefined fields while there is none). */
  board(): BoardData {
    return (this.model.get("board_data") || {}) as BoardData;
  }

  lang(): Lang {
    return this.model.get("lang") === "nl" ? "nl" : "en";
  }

  seq(): number {
    return this.state().seq ?? 0;
  }
}
