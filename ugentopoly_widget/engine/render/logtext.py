"""Log lines filled, and the last events narrated, in compiled code: the hot path of what a
view shows of the log (the text, see i18n; the story it animates, see widget_data.narrate).

A view renders the lines of every action, and 25 at once after a bot batch: interpreted, with a
closure call per field, those 25 cost a third of the state a batch ends with. Here i18n's
pieces of an event shape are plain tuples (a literal, then what follows it: an op code and the
positions of the fields it reads), filled from the event's values with the names of the game's
players, tiles and cards looked up once per batch (a :class:`LineContext`). Compiled with the
engine (hatch_build.py); the same file runs as Python in the pure build.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, TypeAlias

from ..records.events import Event

# What follows a piece's literal (`a` and `b`: positions in the event's values, -1 if absent;
# `text`: a word in the line's language, picked when the pieces were made)
LIT: Final = 0  # nothing
OWN: Final = 1  # str(values[a])
PLAYER: Final = 2  # the acting player's name ("" without one)
TILE: Final = 3  # the tile at values[a] when it is one, else str(values[b]) ("" without b)
END: Final = 4  # the tile at values[a]
DICE: Final = 5  # the dice at values[a] joined by "+"
FLAG: Final = 6  # text when values[a] is true, else ""
PARTY: Final = 7  # the party (player, bank or pot) at values[a] (None without a)
TO_POT: Final = 8  # text when values[a] is "pot", else ""
REASON: Final = 9  # the word of values[a] (b: 0 only when true, 1 declined, 2 always)
CARD: Final = 10  # the text of the card values[a] on one line (ctx.card)
VERB: Final = 11  # "received" when values[a] (payee) is the player, else "paid"
WHAT: Final = 12  # "a hotel" when values[a] is true, else "a house"
WINNERS: Final = 13  # the parties at values[a], joined by ", "

Piece: TypeAlias = "tuple[str, int, int, int, str]"
Pieces: TypeAlias = "tuple[Piece, ...]"


class LineContext:
    """The names a batch of lines reads: players, tiles (by position), the language's words
    (key -> text) and `card(id)`, a card's text with its newlines made spaces."""

    def __init__(self, players: list[str], tiles: list[str], card: Callable[[str], str],
                 words: dict[str, str]) -> None:
        self.players = players
        self.tiles = tiles
        self.card = card
        self.words = words


def party(value: Any, ctx: LineContext) -> str:
    """i18n.party_name: a player's name, the bank's or the pot's word, else the value."""
    if isinstance(value, int) and 0 <= value < len(ctx.players):
        return ctx.players[value]
    if isinstance(value, str) and (value == "bank" or value == "pot"):
        return ctx.words.get(value, value)
    return str(value)


def fill(pieces: Pieces, event: Event, ctx: LineContext) -> str | None:
    """The line of `event` from its shape's pieces (None: an op it does not know: the general
    renderer makes the line)."""
    values = event.values
    parts: list[str] = []
    for literal, op, a, b, text in pieces:
        parts.append(literal)
        if op == LIT:
            continue
        if op == OWN:
            parts.append(str(values[a]))
        elif op == PLAYER:
            player = event.player
            parts.append("" if player is None else party(player, ctx))
        elif op == TILE:
            pos = values[a]
            if isinstance(pos, int) and 0 <= pos < len(ctx.tiles):
                parts.append(ctx.tiles[pos])
            else:
                parts.append(str(values[b]) if b >= 0 else "")
        elif op == END:
            end: Any = values[a]
            parts.append(ctx.tiles[end])
        elif op == DICE:
            dice: Any = values[a]
            parts.append("+".join([str(d) for d in dice]))
        elif op == FLAG:
            parts.append(text if a >= 0 and values[a] else "")
        elif op == PARTY:
            parts.append(party(values[a] if a >= 0 else None, ctx))
        elif op == TO_POT:
            parts.append(text if a >= 0 and values[a] == "pot" else "")
        elif op == REASON:
            reason: Any = values[a] if a >= 0 else None
            if b == 1:
                parts.append(text if reason else "")
            elif b == 2 or reason:
                key = str(reason)
                parts.append(ctx.words.get(key, key))
            else:
                parts.append("")
        elif op == CARD:
            parts.append(ctx.card(str(values[a])))
        elif op == VERB:
            payee: Any = values[a] if a >= 0 else None
            parts.append(ctx.words["receives" if payee == event.player else "pays"])
        elif op == WHAT:
            parts.append(ctx.words["hotel" if a >= 0 and values[a] else "house"])
        elif op == WINNERS:
            winners: Any = values[a]
            parts.append(", ".join([party(w, ctx) for w in winners]))
        else:
            return None
    return "".join(parts)


ShapeKey: TypeAlias = "tuple[str, str, tuple[str, ...]]"


def render_all(events: Sequence[Event], lang: str, ctx: LineContext,
               shapes: dict[ShapeKey, Pieces | None],
               make: Callable[[str, str, tuple[str, ...]], Pieces | None],
               slow: Callable[[Event], str]) -> list[str]:
    """The line of each event: its shape's pieces (made by `make` once, kept in `shapes`)
    filled in, or `slow(event)` for a shape without pieces."""
    out: list[str] = []
    for event in events:
        key = (event.kind, lang, event.keys)
        pieces = shapes.get(key)  # one look-up: most shapes have pieces
        if pieces is None and key not in shapes:
            if len(shapes) >= 4096:  # events made by hand can have any fields: stay bounded
                shapes.clear()
            pieces = shapes[key] = make(event.kind, lang, event.keys)
        line = None if pieces is None else fill(pieces, event, ctx)
        out.append(slow(event) if line is None else line)
    return out


# Field names -> the positions of amount, payer and payee (-1: absent; amount -1 unless the
# event has both an amount and a payer): looked up once per shape, not searched per event.
_MONEY_AT: dict[tuple[str, ...], tuple[int, int, int]] = {}


def _money_at(keys: tuple[str, ...]) -> tuple[int, int, int]:
    if "amount" in keys and "payer" in keys:
        at = (keys.index("amount"), keys.index("payer"),
              keys.index("payee") if "payee" in keys else -1)
    else:
        at = (-1, -1, -1)
    if len(_MONEY_AT) >= 4096:  # events made by hand can have any fields: stay bounded
        _MONEY_AT.clear()
    _MONEY_AT[keys] = at
    return at


def narrate_events(events: Sequence[Event], total: int, card_text: Callable[[str], str],
                   max_moves: int) -> dict[str, Any]:
    """widget_data.narrate's work (see there): the compact story of `events`, of `total`
    events in all; `card_text(id)` is a drawn card's text. Only the events it uses are decoded
    (most are read by kind and player alone)."""
    money: dict[Any, int] = {}
    moves: list[list[Any]] = []
    card: dict[str, Any] | None = None
    jailed: list[int] = []
    actor: int | None = None
    turn_passed = False
    dice: list[Any] | None = None
    for event in events:
        kind = event.kind
        player = event.player
        if actor is None and player is not None and kind != "first_player":
            actor = player
        keys = event.keys
        at = _MONEY_AT.get(keys)
        if at is None:
            at = _money_at(keys)
        if at[0] >= 0:  # it moves money: read by position, no dict per event
            values = event.values
            amount: Any = values[at[0]]
            if isinstance(amount, int):
                payer: Any = values[at[1]]
                payee: Any = values[at[2]] if at[2] >= 0 else None
                if isinstance(payer, int):
                    money[payer] = money.get(payer, 0) - amount
                if isinstance(payee, int):
                    money[payee] = money.get(payee, 0) + amount
        if kind == "moved":
            moves.append([player, event.get("start"), event.get("end"), event.get("steps"),
                          event.get("via")])
        elif kind == "rolled":
            dice = list(event.get("dice") or [])
        elif kind == "went_to_jail" and player is not None:
            jailed.append(player)
        elif kind == "card_drawn":
            card_id = str(event.get("card"))
            card = {"deck": event.get("deck"), "id": card_id, "player": player,
                    "text": card_text(card_id)}
        elif kind == "turn_ended":
            turn_passed = True
    out: dict[str, Any] = {"actor": actor, "n": total}
    if dice:
        out["dice"] = dice
    if moves:
        out["moves"] = moves[-max_moves:]
    changes = [[p, d] for p, d in sorted(money.items()) if d]
    if changes:
        out["money"] = changes
    if card is not None:
        out["card"] = card
    if jailed:
        out["jail"] = jailed
    if turn_passed and dice:  # the turn ended by itself after a roll (not an "end turn" click)
        out["turn_passed"] = True
    return out
