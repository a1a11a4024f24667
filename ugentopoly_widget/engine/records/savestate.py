"""A checkpoint in a save file: the state at a turn boundary as plain JSON, checked on load.

A version-3 save carries the newest undo checkpoint (:mod:`.checkpoints`) of the game, so a load
restores it and replays only the actions after it instead of the whole record. What is read is
checked before anything is restored, and a problem raises :class:`SaveFileError` naming the field:

1. every field by type and range (a cash amount, a position on this board, a card of this deck);
2. the state's consistency, as the rules keep it (the invariants the playout tests check after
   every action): the money of the players, the pot and the bank adds up to the starting money;
   only properties are owned, by players still in the game, and nothing else owns them; buildings
   stand on streets of whole, unmortgaged groups, evenly, and the bank's stock plus the buildings
   on the board is the stock the rules start with; a cycling deck plus the jail cards held from it
   is exactly the board's cards; the random generator's position is a well-formed state;
3. (the caller) the digest, which covers the checkpoint, and the actions after it, which must be
   legal from the restored state.

The lists a checkpoint does not carry (who owns what, per player and per group; building levels
per group) are rebuilt from the owner and level of every tile, so they cannot disagree.
"""

from __future__ import annotations

import math
from array import array
from collections import deque
from typing import TYPE_CHECKING, Any

from ..boards.board import Card, CardKind, TileKind
from ..errors import SaveFileError
from ..state import BLOCK
from . import checkpoints

if TYPE_CHECKING:
    from ..core import Engine
    from .checkpoints import Checkpoint

__all__ = ["restore", "to_data"]

PLAYER_FIELDS = ("cash", "position", "in_jail", "jail_tries", "jail_skip", "jail_cards",
                 "bankrupt", "in_park", "last_roll", "out_order")
FIELDS = {"applied", "events", "undoable_before", "players", "owner", "level", "mortgaged",
          "houses_left", "hotels_left", "bank", "pot", "decks", "rng", "scripted", "forced",
          "current", "turn", "round", "out_count", "time_up"}
BIG = 10**15  # larger sums of money are not from a game


def to_data(e: Engine, cp: Checkpoint, events_before: int, undoable_before: bool
            ) -> dict[str, Any]:
    """A checkpoint as JSON-ready plain data (lists, numbers, text)."""
    (version, internal, gauss), drawn = cp.rng
    assert version == 3  # random.Random's state format since Python 2.3
    current, turn, round_, out_count = cp.counters
    return {
        "applied": cp.applied,
        "events": events_before + cp.events,
        "undoable_before": bool(undoable_before),
        "players": [
            {"cash": cash, "position": position, "in_jail": in_jail, "jail_tries": tries,
             "jail_skip": skip, "jail_cards": [[c.deck, c.id] for c in cards],
             "bankrupt": bankrupt, "in_park": in_park, "last_roll": last_roll,
             "out_order": out_order}
            for (cash, position, in_jail, tries, skip, cards, bankrupt, in_park, last_roll,
                 out_order) in cp.players
        ],
        "owner": list(cp.owner),
        "level": list(cp.level),
        "mortgaged": [pos for pos, flag in enumerate(cp.mortgaged) if flag],
        "houses_left": cp.stock[0],
        "hotels_left": cp.stock[1],
        "bank": cp.money[0],
        "pot": cp.money[1],
        "decks": {kind: [c.id for c in cards] for kind, cards in cp.decks.items()},
        "rng": {"state": list(internal), "gauss": gauss, "drawn": drawn},
        "scripted": [list(roll) for roll in cp.scripted],
        "forced": {kind: list(ids) for kind, ids in cp.forced.items()},
        "current": current,
        "turn": turn,
        "round": round_,
        "out_count": out_count,
        "time_up": cp.time_up,
    }


# --------------------------------------------------------------------------- field checks


def _fail(field: str, expected: str, value: Any) -> SaveFileError:
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return SaveFileError(f"{_where(field)}: expected {expected}, not {shown}")


def _where(field: str) -> str:
    return f"checkpoint.{field}" if field else "checkpoint"


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _fail(field, f"a whole number from {low} to {high}", value)
    return value


def _flag(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise _fail(field, "true or false", value)
    return value


def _list(value: Any, field: str, low: int, high: int) -> list[Any]:
    if type(value) is not list or not low <= len(value) <= high:
        size = f"{low} items" if low == high else f"{low} to {high} items"
        raise _fail(field, f"a list of {size}", value)
    return value


def _object(value: Any, field: str, keys: set[str] | frozenset[str]) -> dict[str, Any]:
    if type(value) is not dict:
        raise _fail(field, "an object", value)
    if set(value) != keys:
        extra = sorted(str(k)[:40] for k in set(value) - keys)
        missing = sorted(keys - set(value))
        raise SaveFileError(f"{_where(field)}: "
                            + (f"unexpected field {extra[0]!r}" if extra
                               else f"missing field {missing[0]!r}"))
    return value


def _cards(value: Any, field: str, known: dict[str, Card], limit: int) -> list[Card]:
    cards = []
    for k, cid in enumerate(_list(value, field, 0, limit)):
        if type(cid) is not str or cid not in known:
            raise _fail(f"{field}[{k}]", "a card id of this deck", cid)
        cards.append(known[cid])
    return cards


# --------------------------------------------------------------------------- restoring


def restore(e: Engine, data: Any, actions: int) -> None:
    """Check a saved checkpoint against this game (fresh from its record's setup) and put the
    engine in its state, with a fresh flow at the start of that turn. Raises SaveFileError
    naming the field, before changing anything, when the checkpoint is malformed or does not
    fit the game."""
    c = _object(data, "", frozenset(FIELDS)) if type(data) is dict else None
    if c is None:
        raise SaveFileError(f"checkpoint: expected an object or null, not {type(data).__name__}")
    board, rules = e.board, e.rx
    n, size = len(e.players), e.size
    applied = _whole(c["applied"], "applied", 0, actions)
    _whole(c["events"], "events", 0, 10**9)
    undoable_before = _flag(c["undoable_before"], "undoable_before")
    if applied == 0 and undoable_before:
        raise SaveFileError("checkpoint.undoable_before: there is no action before it")
    decks_by_kind = {kind: {card.id: card for card in deck.cards}
                     for kind, deck in board.decks.items()}
    players = []
    max_roll = rules.dice_count * rules.dice_sides
    for k, item in enumerate(_list(c["players"], "players", n, n)):
        where = f"players[{k}]"
        p = _object(item, where, frozenset(PLAYER_FIELDS))
        held: list[Card] = []
        for j, pair in enumerate(_list(p["jail_cards"], f"{where}.jail_cards", 0, 64)):
            deck = decks_by_kind.get(pair[0]) if type(pair) is list and len(pair) == 2 and \
                type(pair[0]) is str else None
            card = deck.get(pair[1]) if deck is not None and type(pair[1]) is str else None
            if card is None or card.kind is not CardKind.JAIL:
                raise _fail(f"{where}.jail_cards[{j}]", "[deck, id] of a jail card", pair)
            held.append(card)
        players.append((
            _whole(p["cash"], f"{where}.cash", 0, BIG),
            _whole(p["position"], f"{where}.position", 0, size - 1),
            _flag(p["in_jail"], f"{where}.in_jail"),
            _whole(p["jail_tries"], f"{where}.jail_tries", 0, 1000),
            _whole(p["jail_skip"], f"{where}.jail_skip", 0, 1000),
            held,
            _flag(p["bankrupt"], f"{where}.bankrupt"),
            _flag(p["in_park"], f"{where}.in_park"),
            _whole(p["last_roll"], f"{where}.last_roll", 0, max_roll),
            _whole(p["out_order"], f"{where}.out_order", 0, n),
        ))
    owner = [_whole(v, f"owner[{pos}]", -1, n - 1)
             for pos, v in enumerate(_list(c["owner"], "owner", size, size))]
    top = e.hotel_level if rules.buildings == "classic" else 10**6
    level = [_whole(v, f"level[{pos}]", 0, top)
             for pos, v in enumerate(_list(c["level"], "level", size, size))]
    mortgaged = [False] * size
    for k, pos in enumerate(_list(c["mortgaged"], "mortgaged", 0, size)):
        _whole(pos, f"mortgaged[{k}]", 0, size - 1)
        if mortgaged[pos]:
            raise SaveFileError(f"checkpoint.mortgaged: position {pos} is named twice")
        mortgaged[pos] = True
    stock: list[int | None] = []
    for key, bank_stock in (("houses_left", rules.bank_houses),
                            ("hotels_left", rules.bank_hotels)):
        if bank_stock is None:
            if c[key] is not None:
                raise _fail(key, "null (these rules have no building stock)", c[key])
            stock.append(None)
        else:
            stock.append(_whole(c[key], key, 0, bank_stock))
    bank = _whole(c["bank"], "bank", -BIG, BIG)
    pot = _whole(c["pot"], "pot", 0, BIG)
    decks_data = _object(c["decks"], "decks", frozenset(board.decks))
    decks = {kind: _cards(decks_data[kind], f"decks[{kind!r}]", decks_by_kind[kind], 10_000)
             for kind in board.decks}
    rng = _object(c["rng"], "rng", frozenset({"state", "gauss", "drawn"}))
    words = _list(rng["state"], "rng.state", 625, 625)
    for k, word in enumerate(words[:624]):
        _whole(word, f"rng.state[{k}]", 0, 2**32 - 1)
    _whole(words[624], "rng.state[624]", 0, 624)
    if not any(words[:624]):
        raise SaveFileError("checkpoint.rng.state: a generator state cannot be all zero")
    gauss = rng["gauss"]
    if gauss is not None and (type(gauss) is not float or not math.isfinite(gauss)):
        raise _fail("rng.gauss", "null or a number", gauss)
    drawn = _whole(rng["drawn"], "rng.drawn", 0, BLOCK)
    scripted = []
    for k, roll in enumerate(_list(c["scripted"], "scripted", 0, 10**6)):
        dice = _list(roll, f"scripted[{k}]", rules.dice_count, rules.dice_count)
        scripted.append(tuple(_whole(d, f"scripted[{k}]", 1, rules.dice_sides) for d in dice))
    random_decks = frozenset(k for k, d in board.decks.items() if d.draw == "random")
    forced_data = c["forced"]
    if type(forced_data) is not dict or not set(forced_data) <= random_decks:
        raise _fail("forced", f"an object of draws of the decks {sorted(random_decks)}",
                    forced_data)
    forced = {kind: [card.id for card in _cards(ids, f"forced[{kind!r}]", decks_by_kind[kind],
                                                10**6)]
              for kind, ids in forced_data.items()}
    current = _whole(c["current"], "current", 0, n - 1)
    turn = _whole(c["turn"], "turn", 0, 10**9)
    round_ = _whole(c["round"], "round", 1, 10**9)
    out_count = _whole(c["out_count"], "out_count", 0, n)
    time_up = _flag(c["time_up"], "time_up")

    _check_consistency(e, players, owner, level, mortgaged, stock, bank, pot, decks, current,
                       out_count)

    # All checked: write the state into the engine (fresh from the setup, so nothing is lost).
    for player, saved in zip(e.players, players, strict=True):
        (player.cash, player.position, player.in_jail, player.jail_tries, player.jail_skip,
         player.jail_cards, player.bankrupt, player.in_park, player.last_roll,
         player.out_order) = saved
    e.owner[:] = owner
    e.level[:] = level
    e.mortgaged[:] = mortgaged
    for owned in e.owned:
        owned.clear()
    for counts in e.group_count:
        counts[:] = [0] * len(counts)
    e.group_levels[:] = [0] * len(e.group_levels)
    for pos in range(size):
        ai = e.area_index[pos]
        if owner[pos] >= 0:
            e.owned[owner[pos]].append(pos)  # ascending: positions in order
            if ai >= 0:
                e.group_count[owner[pos]][ai] += 1
        if ai >= 0:
            e.group_levels[ai] += level[pos]
    e.houses_left, e.hotels_left = stock
    e.bank, e.pot = bank, pot
    e.decks = {kind: deque(cards) for kind, cards in decks.items()}
    chance = e.chance
    chance.restore_position(((3, array("I", words), gauss), drawn))
    chance.scripted_dice = deque(scripted)
    chance.forced_draws = {kind: deque(ids) for kind, ids in forced.items()}
    e.current, e.turn_number, e.round, e.out_count = current, turn, round_, out_count
    e.time_up = time_up
    e.applied = applied
    del e.events[:]  # the events before the checkpoint stay in the record until asked for
    cp = checkpoints.Checkpoint(e)
    e.checkpoints = [cp]
    checkpoints.restore(e, cp)


def _check_consistency(
    e: Engine, players: list[tuple[Any, ...]], owner: list[int], level: list[int],
    mortgaged: list[bool], stock: list[int | None], bank: int, pot: int,
    decks: dict[str, list[Card]], current: int, out_count: int,
) -> None:
    """What the rules keep true at every turn boundary (tests/invariants.py checks the same
    after every action of the seeded playouts)."""
    board, rules = e.board, e.rx
    cash = sum(p[0] for p in players)
    if cash + pot + bank != e.money_total:
        raise SaveFileError(
            f"checkpoint: the players' cash ({cash}), the pot ({pot}) and the bank's balance "
            f"({bank}) add up to {cash + pot + bank}, not the {e.money_total} the game started "
            "with")
    bankrupt = [p[6] for p in players]
    if sum(bankrupt) != out_count:
        raise SaveFileError(f"checkpoint.out_count: {out_count}, but {sum(bankrupt)} players "
                            "are bankrupt")
    orders = sorted(p[9] for p in players if p[6])
    if orders != list(range(1, out_count + 1)) or any(p[9] for p in players if not p[6]):
        raise SaveFileError("checkpoint.players: the order in which players went out is not "
                            "1, 2, ... for the bankrupt players and 0 for the others")
    if bankrupt[current]:
        raise SaveFileError(f"checkpoint.current: player {current} is bankrupt")
    for k, p in enumerate(players):
        if p[6] and p[5]:
            raise SaveFileError(f"checkpoint.players[{k}]: a bankrupt player holds jail cards")
        if p[2] and not p[6] and p[1] != e.jail:
            raise SaveFileError(f"checkpoint.players[{k}]: in jail but not on the jail tile")
    for pos, tile in enumerate(board.tiles):
        who = owner[pos]
        if who >= 0 and not tile.is_property:
            raise SaveFileError(f"checkpoint.owner[{pos}]: {tile.id!r} is not a property")
        if who >= 0 and bankrupt[who]:
            raise SaveFileError(f"checkpoint.owner[{pos}]: player {who} is bankrupt")
        if who < 0 and (mortgaged[pos] or level[pos]):
            raise SaveFileError(f"checkpoint: position {pos} has no owner but is mortgaged "
                                "or built on")
        if mortgaged[pos] and not rules.mortgages:
            raise SaveFileError(f"checkpoint.mortgaged: these rules have no mortgages ({pos})")
    hotel = e.hotel_level
    houses = hotels = 0
    for pos, tile in enumerate(board.tiles):
        lv = level[pos]
        if not lv:
            continue
        if tile.kind is not TileKind.STREET or rules.buildings not in ("classic", "unlimited"):
            raise SaveFileError(f"checkpoint.level[{pos}]: no building can stand on {tile.id!r}")
        if mortgaged[pos]:
            raise SaveFileError(f"checkpoint.level[{pos}]: a building on a mortgaged street")
        if rules.buildings == "classic":
            lots = board.areas[tile.area or ""].positions
            if any(owner[q] != owner[pos] or mortgaged[q] for q in lots):
                raise SaveFileError(f"checkpoint.level[{pos}]: a building without the whole, "
                                    "unmortgaged group")
            levels = [level[q] for q in lots]
            if max(levels) - min(levels) > 1:
                raise SaveFileError(f"checkpoint.level[{pos}]: uneven building {levels}")
            if lv == hotel:
                hotels += 1
            else:
                houses += lv
    if rules.bank_houses is not None and stock[0] is not None and (
            stock[0] + houses != rules.bank_houses):
        raise SaveFileError(f"checkpoint.houses_left: {stock[0]} in the bank and {houses} on "
                            f"the board are not the {rules.bank_houses} houses of the game")
    if rules.bank_hotels is not None and stock[1] is not None and (
            stock[1] + hotels != rules.bank_hotels):
        raise SaveFileError(f"checkpoint.hotels_left: {stock[1]} in the bank and {hotels} on "
                            f"the board are not the {rules.bank_hotels} hotels of the game")
    for kind, deck in board.decks.items():
        ids = [c.id for c in decks[kind]]
        if deck.draw == "cycle":
            held = [c.id for p in players for c in p[5] if c.deck == kind]
            if sorted(ids + held) != sorted(c.id for c in deck.cards):
                raise SaveFileError(f"checkpoint.decks[{kind!r}]: the deck and the jail cards "
                                    "held from it are not the board's cards, each once")
        elif ids != [c.id for c in deck.cards]:
            raise SaveFileError(f"checkpoint.decks[{kind!r}]: a deck drawn at random keeps "
                                "the board's cards in order")
