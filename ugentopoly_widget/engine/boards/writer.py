"""Write a :class:`Board` back as board-file XML (the format of ``docs/board-format.md``).

Records and save files carry a custom board as XML text; a board built in code (not read from a
file) gets its text from here, and ``parse_board(board_to_xml(b))`` gives the same board.
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from .board import Board, Card, CardKind, Tile, TileKind


def _attrs(pairs: list[tuple[str, object]]) -> str:
    parts = []
    for key, value in pairs:
        if value is None:
            continue
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        parts.append(f"{key}={quoteattr(text)}")
    return " ".join(parts)


def _tile(tile: Tile) -> str:
    pairs: list[tuple[str, object]] = [
        ("type", tile.kind.value), ("position", tile.position), ("id", tile.id)
    ]
    if tile.kind is TileKind.STREET:
        pairs += [("area", tile.area), ("cost", tile.cost)]
        pairs += [(f"rent{k}", rent) for k, rent in enumerate(tile.rents)]
        pairs += [("mortgage", tile.mortgage), ("house", tile.house_price)]
    elif tile.kind is TileKind.RAILWAY:
        pairs += [("cost", tile.cost), ("rent", tile.rents[0] if tile.rents else None)]
        if len(tile.rents) > 1:
            pairs.append(("rents", ",".join(map(str, tile.rents))))
        pairs.append(("mortgage", tile.mortgage))
    elif tile.kind is TileKind.UTILITY:
        pairs += [("cost", tile.cost), ("mortgage", tile.mortgage)]
    elif tile.kind is TileKind.TAX:
        pairs += [("amount", tile.amount), ("percent", tile.percent)]
    return f"    <tile {_attrs(pairs)}/>"


def _card(card: Card) -> str:
    pairs: list[tuple[str, object]] = [("type", card.kind.value), ("id", card.id)]
    kind = card.kind
    if kind is CardKind.MOVE:
        pairs += [("position", card.position), ("collect", card.collect)]
    elif kind is CardKind.MOVEREL:
        pairs.append(("relative", card.relative))
    elif kind in (CardKind.MONEY, CardKind.PLAYERS_MONEY):
        pairs.append(("amount", card.amount))
    elif kind is CardKind.NEAREST:
        pairs += [("kind", card.target.value if card.target else None), ("collect", card.collect),
                  ("rentMultiplier", card.rent_multiplier),
                  ("diceMultiplier", card.dice_multiplier)]
    elif kind is CardKind.REPAIRS:
        pairs += [("house", card.house), ("hotel", card.hotel)]
    return f"    <card {_attrs(pairs)}/>"


def board_to_xml(board: Board) -> str:
    """The board as XML text in the (extended) course format."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    lines.append(f"<board {_attrs([('profile', board.profile)])}>" if board.profile else "<board>")
    lines.append(f"  <settings {_attrs([('balance', board.balance), ('start', board.salary)])}/>")
    lines.append("  <areas>")
    for area in board.areas.values():
        pairs: list[tuple[str, object]] = [
            ("id", area.id), ("color", area.color), ("house", area.house_price)
        ]
        lines.append(f"    <area {_attrs(pairs)}/>")
    lines.append("  </areas>")
    lines.append("  <tiles>")
    lines += [_tile(tile) for tile in board.tiles]
    lines.append("  </tiles>")
    for deck in board.decks.values():
        lines.append(f"  <deck {_attrs([('type', deck.kind), ('draw', deck.draw)])}>")
        lines += ["  " + _card(card) for card in deck.cards]
        lines.append("  </deck>")
    lines.append("</board>")
    return "\n".join(lines) + "\n"
