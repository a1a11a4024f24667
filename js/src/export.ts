// Save picture: the board with its heat layer (drawn by Python as SVG: w.board_picture()) and
// each chart of the Odds tab, as SVG and PNG files for slides. The charts are copied with the
// colours and sizes they are drawn in (the theme's CSS inlined), on a plain background; PNGs
// are drawn from the SVG on a canvas at twice the size. Links (download) appear in the tab.
import { NS, h, replace } from "./dom.js";
import { t } from "./i18n.js";
import type { Lang } from "./contract.js";

/** A picture to save: its key (file name), label and SVG text. */
export interface Picture { key: string; label: string; svg: string }

const STYLED = ["fill", "stroke", "stroke-width", "stroke-dasharray", "opacity", "font-size", "font-weight", "font-family"];

// A chart as a standalone SVG document: computed styles written as attributes.
export function chartSvg(svg: SVGSVGElement, background: string): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const from: Element[] = [svg, ...svg.querySelectorAll("*")];
  const to: Element[] = [copy, ...copy.querySelectorAll("*")];
  from.forEach((el, k) => {
    const cs = getComputedStyle(el);
    for (const prop of STYLED) {
      const value = cs.getPropertyValue(prop);
      if (value && value !== "none" || prop === "fill") to[k].setAttribute(prop, value || "none");
    }
  });
  const box = svg.viewBox && svg.viewBox.baseVal;
  const w = box && box.width ? box.width : svg.getBoundingClientRect().width;
  const hgt = box && box.height ? box.height : svg.getBoundingClientRect().height;
  copy.setAttribute("xmlns", NS);
  copy.setAttribute("width", String(Math.round(w * 3)));
  copy.setAttribute("height", String(Math.round(hgt * 3)));
  copy.removeAttribute("class");
  const bg = document.createElementNS(NS, "rect");
  for (const [k, v] of Object.entries({ x: box ? box.x : 0, y: box ? box.y : 0, width: w, height: hgt, fill: background })) bg.setAttribute(k, String(v));
  copy.insertBefore(bg, copy.firstChild);
  for (const title of copy.querySelectorAll("title")) if (title.parentNode !== copy) title.remove();
  return new XMLSerializer().serializeToString(copy);
}

// The PNG of an SVG text, `scale` times its width/height attributes.
export async function pngOf(svgText: string, scale = 2): Promise<string> {
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(img.naturalWidth * scale));
  canvas.height = Math.max(1, Math.round(img.naturalHeight * scale));
  canvas.getContext("2d")!.drawImage(img, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL("image/png");
}

function svgUrl(text: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
}

// pictures: [{key, label, svg}] -> links "Board: SVG · PNG", ... in `el`.
export async function showPictures(el: HTMLElement, pictures: Picture[], lang: Lang): Promise<void> {
  const rows: HTMLLIElement[] = [];
  for (const pic of pictures) {
    let png = null;
    try { png = await pngOf(pic.svg); } catch (err) { png = null; }
    rows.push(h("li", { "data-ugw": `picture-${pic.key}` }, `${pic.label}: `,
      h("a", { href: svgUrl(pic.svg), download: `${pic.key}.svg`, "data-ugw": `picture-${pic.key}-svg`, text: "SVG" }),
      png ? " · " : null,
      png ? h("a", { href: png, download: `${pic.key}.png`, "data-ugw": `picture-${pic.key}-png`, text: "PNG" }) : null));
  }
  el.hidden = false;
  replace(el, h("div", { class: "ugw-odds-head", text: t(lang, "pictures") }), h("ul", { class: "ugw-picture-list" }, rows));
}

// The charts shown in the Odds panel, as pictures.
export function chartPictures(odds: HTMLElement, lang: Lang, background: string): Picture[] {
  const out: Picture[] = [];
  for (const [key, sel] of [["dice", "[data-ugw=dice-hist]"], ["convergence", "[data-ugw=convergence]"], ["jail", "[data-ugw=jail-chart]"]]) {
    const svg = odds.querySelector<SVGSVGElement>(sel);
    if (svg) out.push({ key, label: t(lang, `picture_${key}`), svg: chartSvg(svg, background) });
  }
  return out;
}
