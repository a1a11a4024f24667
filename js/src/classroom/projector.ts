// The projector: how to join (address, code, QR code), who sits where, the class experiment's
// chart and the class vote, large enough to read from the back of the room. No buttons.
import { h } from "./dom";
import { t } from "./i18n";
import { experimentCard, rankingCard, seatList, voteCard } from "./common";
import type { Board, Lang, View } from "./types";

export function projectorPage(view: View, board: Board, lang: Lang, qr: string): HTMLElement[] {
  const out: HTMLElement[] = [];
  const code = view.room.code || "";
  // the QR code of the join address, drawn by segno on the server (an SVG data: URI)
  const qrBox = h("div", { class: "ugc-qr", "data-ugc": "qr" },
    qr.startsWith("data:image/svg+xml") ? h("img", { src: qr, alt: view.room.url, width: "210", height: "210" }) : null);
  out.push(h("section", { class: "ugc-card ugc-joincard", "data-ugc": "join-card" },
    qrBox,
    h("div", {},
      h("p", { class: "ugc-muted", text: t(lang, "join_here") }),
      h("p", { class: "ugc-url", "data-ugc": "join-url", text: view.room.url }),
      h("p", { class: "ugc-muted", text: t(lang, "class_code") }),
      h("p", { class: "ugc-code", "data-ugc": "class-code", text: code }),
      h("p", { class: "ugc-muted", "data-ugc": "devices", text: t(lang, "players_here", { n: view.room.devices }) }))));
  const vote = voteCard(view, board, lang, null);
  if (vote) out.push(vote);
  const experiment = experimentCard(view, lang, () => undefined, false, true);
  if (experiment) out.push(experiment);
  const ranking = rankingCard(view, lang);
  if (ranking) out.push(ranking);
  out.push(seatList(view, lang, null));
  return out;
}
