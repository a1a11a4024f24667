// Picture tokens: small inline SVG silhouettes (24x24 view box) filled with the player's colour
// and outlined in a contrasting ink, so the eight pieces stay distinct at 16 px and on any tile.
import { NS, contrast, safeColour } from "./dom.js";

// One path (or a few) per token; drawn with fill = player colour, stroke = ink.
const SHAPES: Record<string, string[]> = {
  // top hat: crown, band and a wide brim
  hat: ["M7 3.5h10l-.6 12H7.6z", "M2.5 16.2c0-.9 1-1.4 2.2-1.4h14.6c1.2 0 2.2.5 2.2 1.4s-1 1.6-2.2 1.6H4.7c-1.2 0-2.2-.7-2.2-1.6z"],
  // racing car side view with two wheels
  car: ["M2 15.5v-3l3.2-1.2 2.8-3.3h6l3.5 3.3 3.8.8v3.4z", "M4.6 15.6a2.3 2.3 0 1 0 4.6 0a2.3 2.3 0 1 0-4.6 0z", "M14.8 15.6a2.3 2.3 0 1 0 4.6 0a2.3 2.3 0 1 0-4.6 0z"],
  // scottie dog: square body, pointed ears, beard and tail
  dog: ["M3 9.5l2-3.5 1 2h3l1-2.5 1.2 3V11h7l2.5-3 .8 1-2 3.4V18h-2.2v-3.5h-7V18H8.2v-4L6 13l-3-1.5z"],
  // battleship: hull, deck house and funnel
  ship: ["M1.5 14h21l-3.2 5.5H4.8z", "M6 14v-3h4V8h3v3h4.5v3z", "M11 8V4.5h1.8V8z"],
  // boot: shaft and sole pointing right
  boot: ["M7 2.5h6.5v9.2l5.3 2.6c1.6.8 2.4 1.7 2.4 3.1V20H5.5v-3.3L7 15z"],
  // flat iron: pointed sole, body and a handle
  iron: ["M2 18.5c.4-4.6 3.8-7.6 9.5-7.6H21v7.6z", "M9 10.9V8.2c0-1.7 1.2-2.7 3-2.7h6.5c1.3 0 2 .9 2 2.2v3.2h-2.4V8h-6.6v2.9z"],
  // thimble: dome with a rim
  thimble: ["M6.5 18V10.5a5.5 5.5 0 0 1 11 0V18z", "M5 18h14v2.6H5z"],
  // sitting cat: two ears, round back and a curled tail
  cat: ["M6 21c-.6-4 .2-7.6 2.4-9.6L7.4 4.3l3.3 3h2.6l3.3-3-1 7.1c2.2 2 3 5.6 2.4 9.6z", "M17.5 20.2c2.4-.3 4-2 3.5-4.6"],
};

export const TOKEN_NAMES = Object.keys(SHAPES);

// A token picture as an <svg> element (aria-hidden: the name is said elsewhere).
export function tokenSvg(token: string, colour: string, size = 16): SVGSVGElement {
  const fill = safeColour(colour);
  const ink = contrast(fill) === "#fff" ? "#ffffff" : "#111111";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.classList.add("ugw-token-svg");
  const shapes = SHAPES[token];
  if (!shapes) {
    // an unknown token: a disc with its first letter
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", "12"); c.setAttribute("cy", "12"); c.setAttribute("r", "10");
    c.setAttribute("fill", fill); c.setAttribute("stroke", "#111"); c.setAttribute("stroke-width", "1.5");
    const t = document.createElementNS(NS, "text");
    t.setAttribute("x", "12"); t.setAttribute("y", "16.5"); t.setAttribute("text-anchor", "middle");
    t.setAttribute("font-size", "13"); t.setAttribute("font-weight", "700");
    t.setAttribute("fill", contrast(fill));
    t.textContent = String(token || "?").slice(0, 1).toUpperCase();
    svg.append(c, t);
    return svg;
  }
  // A darker halo first (legible on light and dark tiles), then the coloured piece.
  const pens: [string, number][] = [[ink === "#ffffff" ? "#000000" : "#ffffff", 3.2], [ink === "#ffffff" ? "#000000" : "#111111", 1.3]];
  for (const [stroke, width] of pens) {
    for (const d of shapes) {
      const p = document.createElementNS(NS, "path");
      p.setAttribute("d", d);
      p.setAttribute("fill", width > 2 ? "none" : fill);
      p.setAttribute("stroke", stroke);
      p.setAttribute("stroke-width", String(width));
      p.setAttribute("stroke-linejoin", "round");
      p.setAttribute("stroke-linecap", "round");
      if (width > 2) p.setAttribute("opacity", "0.55");
      svg.appendChild(p);
    }
  }
  return svg;
}

// Small inline icons used by the interface (stopwatch, cards, trophy).
const ICONS: Record<string, string[]> = {
  stopwatch: ["M9 1.5h6v2H9z", "M12 4.5a8 8 0 1 0 0 16a8 8 0 1 0 0-16z", "M12 8v5l3 2"],
  trophy: ["M7 3h10v5a5 5 0 0 1-10 0z", "M7 5H4v2a3 3 0 0 0 3 3", "M17 5h3v2a3 3 0 0 1-3 3", "M12 13v4", "M8 20h8l-1-3H9z"],
};

export function icon(name: string, size = 14): SVGSVGElement {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.classList.add("ugw-icon");
  for (const d of ICONS[name] || []) {
    const p = document.createElementNS(NS, "path");
    p.setAttribute("d", d);
    p.setAttribute("fill", "none");
    p.setAttribute("stroke", "currentColor");
    p.setAttribute("stroke-width", "2");
    p.setAttribute("stroke-linecap", "round");
    p.setAttribute("stroke-linejoin", "round");
    svg.appendChild(p);
  }
  return svg;
}

export { NS };
