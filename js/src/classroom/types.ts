// The room as Python sends it (ugentopoly_widget/classroom/viewdata.py).

export type Lang = "en" | "nl";

export interface Action { type: string; player: number; position?: number; amount?: number;
  choice?: string; area?: string; level?: number; [key: string]: unknown }

export interface Seat { index: number; name: string; colour: string; token: string; cash: number;
  bankrupt: boolean; holder: string | null; bot: string | null; controller: string;
  connected: boolean; waiting: string[] }

export interface Mine { seat: number; cash: number; position: number; in_jail: boolean;
  jail_cards: number; bankrupt: boolean; properties: { pos: number; level: number; mortgaged: boolean }[];
  legal: Action[]; my_turn: boolean; bid?: { min: number; max: number };
  trade?: { player: number; name: string; cash: number; properties: number[] }[]; give?: number[] }

export interface Experiment { id: number; number: number; kind: string; title: string; count: number;
  open: boolean; labels: string[]; exact: number[]; counts: number[]; n: number;
  band: [number, number][]; devices: number; finished: number;
  mine: { trials: number; outcomes: number[] } }

export interface Vote { id: number; number: number; player: number; kind: string; choices: Action[];
  split: number[]; votes: number; open: boolean; stale: boolean;
  swing: { p_win: number | null; se: number | null; points: number | null }[] | null;
  swing_status: string; mine: number | null }

export interface TeacherDevice { number: number; name: string; role: string; seat: number | null;
  asked: number | null; views: number; kicked: boolean; refused: number; away: boolean }

export interface Teacher { devices: TeacherDevice[]; refusals: { device: string; kind: string; message: string }[];
  refused: number; bot_delay: number; away_seconds: number; can_undo: boolean; experiments: number }

export interface View {
  v: number; seq: number; lang: Lang; page: string; code_hint?: string;
  me: { role: string; name: string; seat: number | null; asked: number | null; kicked: boolean; number: number };
  room: { started: boolean; paused: boolean; ended: boolean; admit: string; turn: number; over: boolean;
    url: string; code: string | null; devices: number };
  seats: Seat[];
  decision: { kind: string; player: number | null; [key: string]: unknown };
  mine: Mine | null;
  experiment?: Experiment;
  vote?: Vote;
  ranking?: { player: number; name: string; net_worth: number }[];
  teacher?: Teacher;
}

export interface Tile { pos: number; kind: string; name: { en: string; nl: string }; area?: string;
  colour?: string; cost?: number; mortgage?: number; lift_cost?: number; house_price?: number }

export interface Board { profile: string; titles: { en: string; nl: string }; size: number;
  hotel_level: number; trading: boolean; tiles: Tile[] }

export interface Model {
  get(name: string): unknown;
  set(name: string, value: unknown): void;
  save_changes(): void;
  send(content: unknown): void;
  on(event: string, callback: (...args: unknown[]) => void): void;
  off(event?: string | null, callback?: ((...args: unknown[]) => void) | null): void;
}
