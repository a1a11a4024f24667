"""What one device's room view shows, as plain JSON: its own seat (cash, properties, the
decision's choices when it is theirs, the trade dialog's material), the seats, the open
experiment and vote, and for the teacher the devices, the waiting list and the refusals.

A device sees only what is its own or public: another seat's choices, the class code (for
a device that has not joined), the teacher's list and any device id never reach it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..widget.data import board_data

if TYPE_CHECKING:
    from ..engine.game import Game
    from .room import Device, Room

REFUSALS_SHOWN = 30


def tiles(game: Game) -> dict[str, Any]:
    """The board's tiles for the phone view (names in both languages, colours, prices)."""
    data = board_data(game)
    keep = ("pos", "kind", "name", "area", "colour", "cost", "mortgage", "lift_cost",
            "house_price")
    return {"profile": data["profile"], "titles": data["titles"], "size": data["size"],
            "hotel_level": data["hotel_level"], "trading": bool(data["rules"]["trading"]),
            "tiles": [{k: t[k] for k in keep if k in t} for t in data["tiles"]]}


def _seats(room: Room) -> list[dict[str, Any]]:
    game = room.game
    out = []
    for seat in room.seats:
        p = game.players[seat.index]
        holder = room.holder(seat.index)
        waiting = [d.name for d in room.devices.values() if d.asked == seat.index]
        out.append({
            "index": seat.index, "name": seat.name if not room.started else p.name,
            "colour": p.colour, "token": p.token, "cash": p.cash, "bankrupt": p.bankrupt,
            "holder": holder.name if holder is not None else None,
            "bot": seat.bot, "controller": room.controller(seat.index),
            "connected": holder is not None and holder.views > 0, "waiting": waiting,
        })
    return out


def _mine(room: Room, device: Device) -> dict[str, Any] | None:
    seat = device.seat
    if seat is None:
        return None
    game = room.game
    p = game.players[seat]
    decision = game.decision
    playing = (room.started and not room.paused and not room.ended and not game.is_over
               and room.seats[seat].bot is None)
    mine_now = playing and decision.player == seat
    legal = [a.to_dict() for a in game.legal_actions() if a.player == seat] if mine_now else []
    properties = [{"pos": pos, "level": game.buildings(pos),
                   "mortgaged": game.is_mortgaged(pos)} for pos in game.properties_of(seat)]
    out: dict[str, Any] = {
        "seat": seat, "cash": p.cash, "position": p.position, "in_jail": p.in_jail,
        "jail_cards": len(p.jail_cards), "bankrupt": p.bankrupt, "properties": properties,
        "legal": legal, "my_turn": mine_now,
    }
    if mine_now and decision.kind == "auction":
        out["bid"] = {"min": decision.data.get("min_bid", 0), "max": p.cash}
    if mine_now and game.rules.trading and decision.kind in ("turn", "post_roll", "debt"):
        out["trade"] = [{"player": k, "name": q.name, "cash": q.cash,
                         "properties": [pos for pos in game.properties_of(k)
                                        if game.buildings(pos) == 0]}
                        for k, q in enumerate(game.players) if k != seat and not q.bankrupt]
        out["give"] = [pos for pos in game.properties_of(seat) if game.buildings(pos) == 0]
    return out


def _decision(room: Room) -> dict[str, Any]:
    """Whose decision it is and about what (public: the board shows the same)."""
    data: dict[str, Any] = room.game.decision.to_dict()
    return data


def _teacher(room: Room) -> dict[str, Any]:
    devices = [{"number": d.number, "name": d.name, "role": d.role, "seat": d.seat,
                "asked": d.asked, "views": d.views, "kicked": d.kicked, "refused": d.refused,
                "away": d.views == 0}
               for d in room.devices.values() if d.role != "visitor" or d.kicked or d.views]
    refusals = [{"device": r.device, "kind": r.kind, "message": r.message}
                for r in list(room.refusals)[-REFUSALS_SHOWN:]]
    return {"devices": devices, "refusals": refusals[::-1], "refused": room.refused_count,
            "bot_delay": room.settings.bot_delay, "away_seconds": room.settings.away_seconds,
            "can_undo": room.started and room.game.can_undo(),
            "experiments": len(room.experiments)}


def _public(room: Room, lang: str) -> dict[str, Any]:
    """The part of every view that is the same for every device (in one language): made once
    per change of the room and shared (thirty phones redraw from one copy)."""
    key = (room.version, lang)
    cache: dict[tuple[int, str], dict[str, Any]] = room.view_cache
    hit = cache.get(key)
    if hit is not None:
        return hit
    if len(cache) > 4:
        cache.clear()
    game = room.game
    out: dict[str, Any] = {
        "room": {"started": room.started, "paused": room.paused, "ended": room.ended,
                 "admit": room.settings.admit, "turn": game.turn_number,
                 "over": game.is_over, "url": room.join_url,
                 "devices": sum(1 for d in room.devices.values()
                                if d.role == "member" and d.views > 0)},
        "seats": _seats(room),
        "decision": _decision(room),
    }
    if room.experiment is not None:
        out["experiment"] = room.experiment.summary(lang)
    if room.vote is not None:
        out["vote"] = room.vote.summary()
    if room.ended or game.is_over:
        worth = game.valuations()
        out["ranking"] = [{"player": i, "name": game.players[i].name,
                           "net_worth": worth[i]} for i in game.ranking]
    cache[key] = out
    return out


def view_for(room: Room, device: Device, page: str) -> dict[str, Any]:
    """The room as this device's `page` ("player", "projector", "teacher") shows it."""
    public = _public(room, device.lang)
    member = device.role in ("member", "teacher")
    out: dict[str, Any] = {
        **public,
        "v": room.version, "seq": room.game_seq, "lang": device.lang, "page": page,
        "me": {"role": device.role, "name": device.name, "seat": device.seat,
               "asked": device.asked, "kicked": device.kicked, "number": device.number},
        "room": {**public["room"],
                 "code": room.code if (member or page == "projector") else None},
        "mine": _mine(room, device),
    }
    if room.experiment is not None:
        out["experiment"] = {**public["experiment"], "mine": room.experiment.mine(device.id)}
    if room.vote is not None:
        out["vote"] = {**public["vote"], "mine": room.vote.ballots.get(device.id)}
    if device.role == "teacher" and page == "teacher":
        out["teacher"] = _teacher(room)
    return out


__all__ = ["tiles", "view_for"]
