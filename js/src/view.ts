// What the view's parts share: the synced model, requests, timers, the board and the few
// choices of this view alone (the open tile card, the lobby asked for, the manage panel).
import type { BoardView } from "./board.js";
import type { PanelCtx } from "./panels.js";
import type { Requests, SafeClicks } from "./requests.js";
import type { Synced } from "./model.js";
import type { Timers } from "./timers.js";
import type { TradeDialog } from "./trade.js";

export interface View {
  readonly synced: Synced;
  readonly requests: Requests;
  readonly clicks: SafeClicks;
  readonly timers: Timers;
  readonly uid: string;
  readonly root: HTMLDivElement;
  readonly boardView: BoardView;
  readonly trade: TradeDialog;
  /** The tile whose card is open (null: none). */
  cardPos: number | null;
  /** The lobby was asked for (New game) while a game is on. */
  wantLobby: boolean;
  /** The Build / Mortgage panel is open. */
  manageOpen: boolean;
  /** What the panels draw from (panels.ts). */
  ctx(): PanelCtx;
  inGame(): boolean;
  /** The state the board shows: a past position while looking back (read-only), else the game's. */
  shown(): import("./contract.js").GameState | null;
  /** The 36-roll map of the player about to roll, for the board's centre (null: none). */
  rollMap(): HTMLElement | null;
  openLobby(): void;
  /** The strip, the side panels, the decision and the centre. */
  drawPanels(): void;
}
