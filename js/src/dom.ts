// Tiny DOM helpers. Text always goes through textContent (player names come from anyone).

/** What h() and replace() take as children: nodes, text, nothing, or lists of them. */
export type Child = Node | string | number | null | undefined | false | Child[];

/** h()'s attributes: `class`, `text`, `style` (an object), `on<event>` listeners, DOM
 * properties given as non-strings (`checked: true`, `disabled: false`), else attributes
 * (null, undefined and false leave one out). */
export interface Attrs {
  [key: string]: unknown;
  class?: string;
  text?: string | number;
  style?: Partial<Record<keyof CSSStyleDeclaration, string>>;
  onclick?: (ev: MouseEvent) => void;
  onkeydown?: (ev: KeyboardEvent) => void;
  onfocus?: (ev: FocusEvent) => void;
  oninput?: (ev: Event) => void;
  onchange?: (ev: Event) => void;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") el.className = String(value);
      else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
      else if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2), value as EventListener);
      } else if (key === "text") el.textContent = String(value);
      else if (key in el && typeof value !== "string") (el as unknown as Record<string, unknown>)[key] = value;
      else el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/** The value of the form control an input or change event came from. */
export function valueOf(ev: Event): string {
  return (ev.target as HTMLInputElement | HTMLSelectElement).value;
}

/** Whether the checkbox a change event came from is checked. */
export function checkedOf(ev: Event): boolean {
  return (ev.target as HTMLInputElement).checked;
}

function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function clear<E extends Node>(el: E): E {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace<E extends Node>(el: E, ...children: Child[]): E {
  clear(el);
  append(el, children);
  return el;
}

export function money(n: number | null | undefined): string {
  if (n === null || n === undefined) return "–";
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

function luminance(hex: string): number {
  const v = parseInt(hex, 16);
  const lin = (c: number): number => { const x = c / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin((v >> 16) & 255) + 0.7152 * lin((v >> 8) & 255) + 0.0722 * lin(v & 255);
}

// Readable text colour on a background colour (#rrggbb): black or white, whichever has the
// higher WCAG contrast ratio.
export function contrast(hex: string | null | undefined): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(String(hex || ""));
  if (!m) return "#fff";
  const l = luminance(m[1]);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000" : "#fff";
}

export function safeColour(value: string | null | undefined, fallback = "#888"): string {
  const s = String(value || "");
  return /^#[0-9a-f]{3,8}$/i.test(s) || /^[a-z]{3,20}$/i.test(s) ? s : fallback;
}

export const NS = "http://www.w3.org/2000/svg";

/** An SVG element with its attributes (any value, as text) and optional text. */
export function svgEl<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Record<string, string | number | boolean> | null, text?: string | number): SVGElementTagNameMap[K] {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = String(text);
  return el;
}

/** Arrow keys as steps through a list (tabs, tiles). */
export const ARROWS: Partial<Record<string, number>> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
