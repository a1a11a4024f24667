// DOM helpers of the classroom views. Text always goes through textContent: names come from
// students' phones.

export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, unknown>;

export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = String(value);
    else if (key === "text") el.textContent = String(value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value as EventListener);
    } else if (key === "value" || key === "checked" || key === "disabled" || key === "selected") {
      (el as unknown as Record<string, unknown>)[key] = value;
    } else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function replace(el: HTMLElement, ...children: Child[]): HTMLElement {
  // the very same nodes again: nothing to do (an input being typed in keeps its caret)
  const flat = children.flat(Infinity as 1) as unknown[];
  if (flat.length === el.childNodes.length && flat.every((c, i) => c === el.childNodes[i])) return el;
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, children);
  return el;
}

const SVG = "http://www.w3.org/2000/svg";

export function s(tag: string, attrs?: Record<string, string | number | null | undefined>,
  ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined) continue;
    el.setAttribute(key, String(value));
  }
  for (const c of children) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

export function money(n: number | null | undefined): string {
  if (n === null || n === undefined) return "–";
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

export function safeColour(value: unknown, fallback = "#888"): string {
  const text = String(value || "");
  return /^#[0-9a-f]{3,8}$/i.test(text) || /^[a-z]{3,20}$/i.test(text) ? text : fallback;
}

export function pct(p: number, digits = 1): string {
  return `${(100 * p).toFixed(digits)} %`;
}
