// The words of the current decision, with the rule that applies and its figures: the jail try
// and fine, the income tax's percentage worked out, doubles that roll again, the rent a buyer
// collects, the auction's list price and who still bids, and each house's price and count.
// Every figure comes from Python (state.help, see widget/explain.py, and board_data); this
// file only words it.
import { money } from "./dom.js";
import { t, tf } from "./i18n.js";
import type { AuctionHelp, BoardData, Empty, GameState, HouseHelp, JailHelp, Lang, PositionAction, RentHelp, TradeSide } from "./contract.js";

export function tileName(board: BoardData | Empty | null, pos: number, lang: Lang): string {
  const tile = board && board.tiles ? board.tiles[pos] : null;
  if (!tile) return `#${pos}`;
  return tile.name[lang] || tile.name.en || tile.id;
}

function names(state: GameState, indexes: number[] | undefined): string {
  return (indexes || []).map((i) => (state.players[i] ? state.players[i].name : "?")).join(", ");
}

export function jailText(jail: JailHelp, lang: Lang, last: boolean): string {
  if (last) return tf(lang, "jail_last", { n: jail.of ?? jail.try, f: money(jail.fine) });
  let text = jail.of ? tf(lang, "jail_try", { k: jail.try, n: jail.of }) : t(lang, "jail_try_open");
  if (jail.fine !== null && jail.fine !== undefined) text += tf(lang, "jail_or_pay", { f: money(jail.fine) });
  if (jail.cards) text += t(lang, "jail_or_card");
  return text;
}

function rentText(rent: RentHelp | undefined, lang: Lang): string {
  if (!rent) return "";
  if (rent.kind === "street" && "per_house" in rent) return tf(lang, "buy_rent_linear", { r: money(rent.rent), h: money(rent.per_house) });
  if (rent.kind === "street" && "completes_group" in rent && rent.completes_group) return tf(lang, "buy_rent_group", { g: money(rent.group_rent) });
  if (rent.kind === "street" && "group_rent" in rent && rent.group_rent) return tf(lang, "buy_rent", { r: money(rent.rent), g: money(rent.group_rent) });
  if (rent.kind === "street") return `${t(lang, "rent")} ${money(rent.rent)}`;
  if (rent.kind === "railway") return tf(lang, "buy_rent_station", { r: money(rent.rent), n: rent.owned, by: rent.by_count.map(money).join(" / ") });
  if (rent.kind === "utility") return tf(lang, "buy_rent_utility", { low: rent.low, high: rent.high, of: rent.of });
  return "";
}

export function decisionText(state: GameState, board: BoardData, lang: Lang): string {
  const d = state.decision;
  const about = d.data as Partial<{ position: number | null }>;
  const help = state.help || {};
  const p = d.player !== null && d.player !== undefined ? state.players[d.player] : null;
  const who = p ? p.name : "";
  const tile = about.position !== undefined ? tileName(board, about.position as number, lang) : "";
  switch (d.kind) {
    case "turn": {
      if (help.jail) return jailText(help.jail, lang, false);
      if (help.again && help.again.reason === "card") return t(lang, "card_again");
      if (help.again) {
        const count = help.again.max ? ` ${tf(lang, "doubles_count", help.again)}` : "";
        return `${t(lang, "doubles_again")}${count}`;
      }
      return t(lang, "roll");
    }
    case "post_roll": return t(lang, "end_turn");
    case "buy": {
      const rent = rentText(help.rent, lang);
      return `${t(lang, "buy")} ${tile} (${money(d.data.price)})?${rent ? ` ${rent}` : ""}`;
    }
    case "auction": {
      const a: Partial<AuctionHelp> = help.auction || {};
      const item = d.data.item === "house" ? t(lang, "house") : tile;
      const leader = d.data.leader !== null && d.data.leader !== undefined ? state.players[d.data.leader] : null;
      const parts = [a.list_price && d.data.item !== "house" ? tf(lang, "auction_prompt", { tile: item, price: money(a.list_price) }) : item,
        d.data.high_bid ? `${tf(lang, "auction_high", { bid: money(d.data.high_bid) })}${leader ? ` (${leader.name})` : ""}` : t(lang, "auction_none"),
        `${t(lang, "minimum")} ${money(d.data.min_bid)}`];
      if (a.bidders && a.bidders.length) parts.push(tf(lang, "auction_bidders", { names: names(state, a.bidders) }));
      return parts.join(" · ");
    }
    case "tax": {
      const tax = help.tax;
      if (!tax) return `${t(lang, "tax")} ${money(d.data.amount)} / ${d.data.percent}%`;
      return `${tf(lang, "tax_prompt", { flat: money(tax.flat), p: tax.percent, amount: money(tax.percent_amount) })} ${tf(lang, "tax_worth", { p: tax.percent, w: money(tax.worth) })}`;
    }
    case "jail_fine": return help.jail ? jailText(help.jail, lang, true) : `${t(lang, "pay_fine")} (${money(d.data.fine)}) / ${t(lang, "use_card")}`;
    case "trade": {
      const offer = d.data.offer;
      const from = state.players[d.data.proposer];
      return `${t(lang, "offer")} ${from ? from.name : "?"} → ${who}: ${from ? from.name : ""} ${t(lang, "gives")} ${sideText(offer.give || {}, board, lang)}; ${t(lang, "get")} ${sideText(offer.get || {}, board, lang)}`;
    }
    case "mortgaged": return `${tile} (${t(lang, "mortgaged")} ${money(d.data.value)} + ${money(d.data.interest)})`;
    case "debt": return `${t(lang, "owes")} ${money(d.data.amount)}`;
    case "house_offer": {
      const house: Partial<HouseHelp> = help.house || {};
      return `${t(lang, "offer_house")} ${tile} (${money(d.data.price)})${house.level !== undefined ? ` · ${tf(lang, "house_now", { lv: house.level })}` : ""}`;
    }
    case "place_house": return t(lang, "place");
    case "game_over": return t(lang, "game_over");
    default: return (d as { kind?: string }).kind || "";
  }
}

export function cardsText(n: number, lang: Lang): string {
  return `${n} × ${t(lang, n === 1 ? "jail_card_1" : "jail_card_n")}`;
}

export function sideText(side: Partial<TradeSide>, board: BoardData, lang: Lang): string {
  const parts: string[] = [];
  for (const pos of side.properties || []) parts.push(tileName(board, pos, lang));
  if (side.cash) parts.push(money(side.cash));
  if (side.cards && side.cards.length) parts.push(cardsText(side.cards.length, lang));
  return parts.length ? parts.join(", ") : t(lang, "none");
}

// A per-tile button's words: the tile, then what the action costs or brings and the level
// (the figures are the board's, from Python: house_price, sell_refund, mortgage, lift_cost).
export function manageLabel(action: PositionAction, state: GameState, board: BoardData, lang: Lang): string {
  const pos = action.position;
  const name = tileName(board, pos, lang);
  const tile = board.tiles && board.tiles[pos];
  if (!tile) return name;
  const lv = (state.level || [])[pos] || 0;
  const max = board.hotel_level;
  if (action.type === "build" && tile.house_price) {
    const what = lv + 1 >= max && board.rules && board.rules.buildings === "classic" ? t(lang, "hotel") : t(lang, "house");
    return `${name} ${tf(lang, "build_label", { what, price: money(tile.house_price), lv, max })}`;
  }
  if (action.type === "sell" && tile.sell_refund !== undefined) return `${name} ${tf(lang, "sell_label", { refund: money(tile.sell_refund), lv, max })}`;
  if (action.type === "mortgage" && tile.mortgage) return `${name} (${tf(lang, "mortgage_label", { v: money(tile.mortgage) })})`;
  if (action.type === "unmortgage" && tile.lift_cost) return `${name} (${tf(lang, "unmortgage_label", { c: money(tile.lift_cost) })})`;
  return name;
}

// The even-build rule in words, when it holds some lots back (null otherwise).
export function evenHint(state: GameState, board: BoardData, lang: Lang): string | null {
  const even = state.help && state.help.even;
  if (!even || !even.length) return null;
  return tf(lang, "even_hint", { names: even.flat().map((pos) => tileName(board, pos, lang)).join(", ") });
}
