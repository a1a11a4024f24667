"""The figures behind the current decision, so the view can say which rule applies: the jail
try and the fine, the 10 % of an income tax worked out, doubles that roll again, the rent a
buyer would collect, an auction's list price and who still bids, and the price, count and
even-build rule of every house on offer. Python works them out (the view holds no rules);
only the current decision's figures are made, each from a few engine lookups.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.boards.board import TileKind
from ..engine.state import interest

if TYPE_CHECKING:
    from ..engine.game import Game

MANAGE = ("build", "sell", "mortgage", "unmortgage")
BACK = 40  # events looked back through for this turn's doubles (a turn has a dozen or so)


def decision_help(game: Game, legal: list[dict[str, Any]],
                  manage: Callable[[], dict[str, Any]] | None = None) -> dict[str, Any]:
    """``state["help"]``: the rule figures of the current decision (``{}``: nothing to add).
    ``manage`` gives the house and mortgage figures (the widget keeps them while the levels
    and the offers stay the same); default: :func:`manage_figures`."""
    decision = game.decision
    kind = decision.kind
    player = decision.player
    if player is None:
        return {}
    out: dict[str, Any] = {}
    data = decision.data
    if kind == "turn":
        p = game.players[player]
        if p.in_jail:
            out["jail"] = _jail(game, player)
        else:
            again = _roll_again(game, player)
            if again:
                out["again"] = again
    elif kind == "jail_fine":
        out["jail"] = _jail(game, player)
    elif kind == "tax":
        worth = game.net_worth(player)
        percent = int(data.get("percent") or 0)
        out["tax"] = {"flat": data.get("amount"), "percent": percent, "worth": worth,
                      "percent_amount": worth * percent // 100}
    elif kind == "buy":
        out["rent"] = buy_rent(game, player, int(data["position"]))
    elif kind == "auction":
        pos = data.get("position")
        out["auction"] = {"position": pos, "bidders": list(data.get("bidders") or ()),
                          "list_price": game.board.tiles[pos].cost if pos is not None else None}
    elif kind == "house_offer":
        pos = int(data["position"])
        out["house"] = {"position": pos, "price": data.get("price"),
                        "level": game.buildings(pos)}
    if kind in ("turn", "post_roll", "debt") and any(a["type"] in MANAGE for a in legal):
        out["manage"] = manage() if manage is not None else manage_figures(game, player, legal)
    return out


def _jail(game: Game, player: int) -> dict[str, Any]:
    p = game.players[player]
    rules = game.rules
    tries = rules.max_jail_turns
    # the try this roll would be (after the last failed one, the jail_fine decision, the tries
    # are used up)
    return {"try": min(p.jail_tries + 1, tries) if tries else p.jail_tries + 1,
            "of": tries, "fine": rules.jail_fine, "cards": len(p.jail_cards)}


def _roll_again(game: Game, player: int) -> dict[str, Any] | None:
    """Doubles (or a card) give this player another roll now: how many doubles so far this
    turn and after how many in a row a player goes to jail. Looks back through this turn's
    events only (its kinds, nothing decoded), so a fresh turn costs one lookup."""
    _, log = game.known_events()
    k = len(log) - 1
    stop = max(-1, k - BACK)
    doubles = 0
    again: str | None = None
    while k > stop:
        kind = log.kind_at(k)
        if kind == "turn_started":
            break
        if kind == "roll_again":
            if again is None:
                again = str(log[k].get("reason", "double"))
            doubles += 1
        k -= 1
    if again is None:
        return None
    return {"reason": "card" if again == "card" else "double", "doubles": doubles,
            "max": game.rules.max_doubles}


def buy_rent(game: Game, player: int, pos: int) -> dict[str, Any]:
    """What the tile at `pos` would earn its buyer: the rent now and what owning more of its
    kind gives (the rules of engine.core.Engine.rent, for the buyer as the owner)."""
    board = game.board
    rules = game.rules
    tile = board.tiles[pos]
    mine = set(game.properties_of(player))
    if tile.kind is TileKind.STREET:
        if rules.street_rent == "linear_houses":
            return {"kind": "street", "rent": tile.cost, "per_house": tile.cost // 2}
        base = tile.rents[0] if tile.rents else 0
        area = board.areas.get(tile.area) if tile.area else None
        group = list(area.positions) if area is not None else []
        completes = bool(group) and all(q in mine or q == pos for q in group)
        return {"kind": "street", "rent": base * 2 if completes else base,
                "group_rent": base * 2 if group else None, "base": base,
                "completes_group": completes, "group_size": len(group),
                "owned_in_group": sum(1 for q in group if q in mine)}
    if tile.kind is TileKind.RAILWAY:
        spots = [t.position for t in board.tiles if t.kind is TileKind.RAILWAY]
        owned = sum(1 for q in spots if q in mine) + 1

        def rent(n: int) -> int:
            return tile.rents[n - 1] if len(tile.rents) >= n else tile.rents[0] << (n - 1)
        return {"kind": "railway", "rent": rent(owned), "owned": owned,
                "by_count": [rent(n) for n in range(1, len(spots) + 1)]}
    if tile.kind is TileKind.UTILITY:
        spots = [t.position for t in board.tiles if t.kind is TileKind.UTILITY]
        owned = sum(1 for q in spots if q in mine) + 1
        low, high = rules.utility_multipliers
        return {"kind": "utility", "times": low if owned <= 1 else high, "low": low,
                "high": high, "owned": owned, "of": len(spots)}
    return {"kind": tile.kind.value.lower()}


def manage_figures(game: Game, player: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Per tile on offer: a house's price and the tile's level now (of the most it takes), the
    cash a sale or a mortgage brings, what lifting a mortgage costs; ``even``: the lots held
    back by the even-build rule, by group (every lot gets its next house before any gets
    another)."""
    hotel = game.hotel_level
    out: dict[str, Any] = {}
    building = False
    for action in legal:
        kind = action["type"]
        if kind not in MANAGE:
            continue
        pos = action["position"]
        tile = game.board.tiles[pos]
        if kind == "build":
            building = True
            out.setdefault("build", {})[str(pos)] = {
                "price": game.house_price(pos), "level": game.buildings(pos), "max": hotel}
        elif kind == "sell":
            out.setdefault("sell", {})[str(pos)] = {
                "refund": game.house_price(pos) // 2, "level": game.buildings(pos), "max": hotel}
        elif kind == "mortgage":
            out.setdefault("mortgage", {})[str(pos)] = tile.mortgage
        else:
            out.setdefault("unmortgage", {})[str(pos)] = tile.mortgage + interest(tile.mortgage)
    if building and game.rules.buildings == "classic":
        offered = {int(k) for k in out["build"]}
        held: list[list[int]] = []
        for area in game.board.areas.values():
            lots = list(area.positions)
            if any(q in offered for q in lots):
                low = min(game.buildings(q) for q in lots)
                back = [q for q in lots if game.buildings(q) > low]
                if back:
                    held.append(back)
        if held:
            out["even"] = held
    return out


__all__ = ["buy_rent", "decision_help", "manage_figures"]
