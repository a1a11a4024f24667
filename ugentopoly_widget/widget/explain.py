"""The figures behind the current decision, so the view can say which rule applies: the jail
try and the fine, the 10 % of an income tax worked out, doubles that roll again, the rent a
buyer would collect, an auction's list price and who still bids, and the lots the even-build
rule holds back. Python works them out (the view holds no rules); only the current decision's
figures are made, each from a few engine lookups. The per-tile buttons' prices, refunds and
mortgage figures are fixed by the board: they come once, in board_data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.boards.board import TileKind

if TYPE_CHECKING:
    from ..engine.game import Game

BACK = 40  # events looked back through for this turn's doubles (a turn has a dozen or so)


def decision_help(game: Game, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """``state["help"]``: the rule figures of the current decision (``{}``: nothing to add)."""
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
    if kind in ("turn", "post_roll", "debt"):
        held = even_build(game, legal)
        if held:
            out["even"] = held
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


def even_build(game: Game, legal: list[dict[str, Any]]) -> list[list[int]]:
    """The lots the even-build rule holds back now, by group: a lot gets its next house only
    when every lot of its group has as many (checked only when a house is on offer). The
    prices, counts and mortgage figures of the per-tile buttons are the board's (board_data:
    house_price, sell_refund, mortgage, lift_cost) and the state's levels."""
    offered = [a["position"] for a in legal if a["type"] == "build"]
    if not offered or game.rules.buildings != "classic":
        return []
    board = game.board
    level = game.levels
    held: list[list[int]] = []
    seen: set[str] = set()
    for pos in offered:  # only the groups with a house on offer (one to three)
        area = board.tiles[pos].area
        if area is None or area in seen:
            continue
        seen.add(area)
        lots = board.areas[area].positions
        low = min(level[q] for q in lots)
        back = [q for q in lots if level[q] > low]
        if back:
            held.append(back)
    return held


__all__ = ["buy_rent", "decision_help", "even_build"]
