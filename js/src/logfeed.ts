// The log arrives in pieces: each state carries only the lines added since the previous state
// (`base`: how many lines a view must already have for them to follow on; `base: null`: the
// lines replace what the view has). A view that missed a piece (it was opened later, or drew
// the lobby meanwhile) asks Python once for the whole kept tail and waits for it. Lines before
// the first one come when the reader asks for them ("earlier lines", `prepend`).
import type { LogLangMessage, LogMessage, LogPageMessage, LogPiece } from "./contract.js";

const KEEP = 1000; // lines a view keeps (the whole log stays in Python)
const RETRY_MS = 3000; // an unanswered request for the tail may be sent again after this long

export class LogFeed {
  epoch: number | null;
  first: number;
  lines: string[];
  resets: number;
  waitingSince: number | null;
  last: LogPiece | null;

  constructor() {
    this.epoch = null;
    this.first = 0; // number of lines[0] in the game's log
    this.lines = [];
    this.resets = 0; // bumped when the lines are replaced, not extended
    this.waitingSince = null;
    this.last = null;
  }

  get next(): number { return this.first + this.lines.length; }

  // Whether earlier lines can be asked for (there are some, and room to keep them).
  get more(): boolean { return this.first > 0 && this.lines.length > 0 && this.lines.length < KEEP; }

  // Take the log part of a new state; true when the view must ask for the whole tail.
  take(log: LogPiece | undefined, now: number): boolean {
    if (!log || log === this.last) return false;
    this.last = log;
    // the same piece again (a state with no new lines repeats it): nothing to do
    if (this.waitingSince === null && log.epoch === this.epoch && log.total === this.next) return false;
    if (log.base === null || log.base === undefined) { this.replace(log); return false; }
    if (this.waitingSince === null && log.epoch === this.epoch && log.base === this.next) {
      if (log.start > log.base) this.replace(log); // a long batch: the lines between are not sent
      else { this.lines.push(...log.lines); this.trim(); }
      return false;
    }
    if (this.waitingSince !== null && now - this.waitingSince < RETRY_MS) return false;
    this.waitingSince = now;
    return true;
  }

  // Python's answer to a request for the whole tail (it reaches every view of the widget).
  reply(msg: LogMessage): boolean {
    if (this.waitingSince === null || !msg || !Array.isArray(msg.lines)) return false;
    this.replace(msg);
    return true;
  }

  // Python's answer to a request for the lines before the first one (the reader scrolls
  // back): true when they were put in front. A page of another run (undo, a language switch
  // in between) or one that does not end where the lines start is dropped.
  prepend(msg: LogPageMessage): boolean {
    if (!msg || !Array.isArray(msg.lines) || msg.epoch !== this.epoch || this.waitingSince !== null) return false;
    if (msg.start + msg.lines.length !== this.first || !msg.lines.length) return false;
    const room = KEEP - this.lines.length;
    if (room <= 0) return false;
    const page = msg.lines.slice(Math.max(0, msg.lines.length - room));
    this.lines = page.concat(this.lines);
    this.first -= page.length;
    this.resets += 1;
    return true;
  }

  replace(log: LogPiece | LogMessage | LogLangMessage): void {
    this.epoch = log.epoch;
    this.first = log.start;
    this.lines = Array.isArray(log.lines) ? log.lines.slice() : [];
    this.waitingSince = null;
    this.resets += 1;
    this.trim();
  }

  trim(): void {
    const extra = this.lines.length - KEEP;
    if (extra > 0) { this.lines.splice(0, extra); this.first += extra; }
  }
}
