// Where the parts go: the side panels beside the board on a wide cell, below it otherwise, and
// presentation mode (w.presentation), which moves the header, the players' strip, the heat
// legend and the decision into the side column's dock in large type.
import { h } from "./dom.js";
import type { Centre } from "./centre.js";
import type { View } from "./view.js";

export interface Parts {
  header: HTMLElement;
  strip: HTMLElement;
  main: HTMLElement;
  side: HTMLElement;
}

export class Layout {
  // presentation mode: the decision and the legend move here, above the tabs, in large type
  // (the tabs below keep the rest of the board's height: --ugw-dock-h)
  readonly dock = h("div", { class: "ugw-dock", "data-ugw": "dock", hidden: true });
  private readonly dockWatch: ResizeObserver | null;
  private sizeWatch: ResizeObserver | null = null;
  private readonly view: View;
  private readonly centre: Centre;
  private parts: Parts | null = null;
  private readonly onResize = (): void => this.placeSide();

  constructor(view: View, centre: Centre) {
    this.view = view;
    this.centre = centre;
    this.dockWatch = typeof ResizeObserver !== "undefined" ? new ResizeObserver((entries) => {
      view.root.style.setProperty("--ugw-dock-h", `${Math.round(entries[0].contentRect.height)}px`);
    }) : null;
    if (this.dockWatch) this.dockWatch.observe(this.dock);
  }

  /** Start placing the side panels (the parts are in the page). */
  watch(parts: Parts): void {
    this.parts = parts;
    this.sizeWatch = typeof ResizeObserver !== "undefined" ? new ResizeObserver(() => this.placeSide()) : null;
    if (this.sizeWatch) this.sizeWatch.observe(this.view.root);
    window.addEventListener("resize", this.onResize);
  }

  // The side panels go beside the board on a wide cell (1000 px), and on a narrower one when
  // the board keeps nearly all its size there: a laptop's window (1280x800 with JupyterLab's
  // file browser open: 848 px) has room beside a board its height allows anyway. Below
  // otherwise. Measured when the widget or the window changes size.
  placeSide(): void {
    const { root, boardView } = this.view;
    const width = root.clientWidth - 12;
    const present = root.classList.contains("ugw-present");
    const boardH = Math.max(330, window.innerHeight - (present ? 165 : 215));
    const ar = Number(boardView.el.style.getPropertyValue("--ugw-ar")) || 1;
    const panel = present ? 330 : 250;
    const beside = width >= 1000 || (width >= 800 && width - panel >= 0.88 * Math.min(width, boardH * ar));
    if (beside !== root.classList.contains("ugw-beside")) {
      root.classList.toggle("ugw-beside", beside);
      boardView.scheduleFit();
    }
  }

  // Presentation mode: the decision, the narration and the legend sit in the side panel's dock.
  // The header and the players' strip go to the top of the side column too: the board takes
  // the cell's whole height.
  applyPresentation(): void {
    const view = this.view;
    const { root, boardView } = view;
    const parts = this.parts as Parts;
    const centre = this.centre;
    const on = !!view.synced.get("presentation") && view.inGame() && !view.wantLobby;
    if (on === root.classList.contains("ugw-present")) return;
    root.classList.toggle("ugw-present", on);
    this.dock.hidden = !on;
    if (on) {
      parts.side.insertBefore(parts.header, this.dock);
      parts.side.insertBefore(parts.strip, this.dock);
      this.dock.append(centre.legendEl, centre.play);
    } else {
      root.insertBefore(parts.header, parts.main);
      root.insertBefore(parts.strip, parts.main);
      centre.centerTop.appendChild(centre.legendEl);
      boardView.center.insertBefore(centre.play, centre.overEl);
    }
    this.placeSide();
    boardView.scheduleFit();
  }

  destroy(): void {
    if (this.dockWatch) this.dockWatch.disconnect();
    if (this.sizeWatch) this.sizeWatch.disconnect();
    window.removeEventListener("resize", this.onResize);
  }
}
