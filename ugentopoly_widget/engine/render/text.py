"""The text form of a game: what ``print(game)`` shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..boards.board import TileKind

if TYPE_CHECKING:
    from ..game import Game


def cell_text(game: Game, position: int, lang: str | None = None) -> str:
    """Seed 002's PropertyCell.toString: ``<name> owned by <owner or -> : <baseCost>``,
    with `` House : <n>`` appended when the property has houses."""
    tile = game.board.tiles[position]
    name = game.board.tile_name(position, lang or game.lang).replace("\n", " ")
    if not tile.is_property:
        return name
    owner = game.owner(position)
    owner_name = game.players[owner].name if owner is not None else "-"
    text = f"{name} owned by {owner_name} : {tile.cost}"
    houses = game.buildings(position)
    if houses:
        text += f" House : {houses}"
    return text


def _building_text(game: Game, position: int) -> str:
    level = game.buildings(position)
    if not level:
        return ""
    if game.rules.buildings == "classic" and level == game.hotel_level:
        return " [hotel]"
    return f" [{level}h]"


def game_text(game: Game) -> str:
    lang = game.lang
    board = game.board
    lines = [
        f"{board.text('board.name', lang) if 'board.name' in _names(game) else board.name}"
        f" - {game.rules.name} ({game.rules.mode}), turn {game.turn_number}, seed {game.seed}"
    ]
    decision = game.decision
    if game.is_over:
        winners = ", ".join(game.players[w].name for w in game.winners)
        lines.append(f"Game over. Winner(s): {winners}")
        lines.append("Ranking: " + ", ".join(game.players[r].name for r in game.ranking))
    elif decision.player is not None:
        who = game.players[decision.player].name
        legal = ", ".join(a.type for a in game.legal_actions())
        lines.append(f"Decision: {who} - {decision.kind} ({legal})")
    for index, p in enumerate(game.players):
        marks = []
        if index == game.current_player and not game.is_over:
            marks.append("to play")
        if p.bankrupt:
            marks.append("bankrupt")
        if p.in_jail:
            marks.append("in jail")
        if p.in_park:
            marks.append("parked")
        if p.jail_cards:
            marks.append(f"{len(p.jail_cards)} jail card(s)")
        where = board.tile_name(p.position, lang).replace("\n", " ")
        props = []
        for pos in game.properties_of(index):
            label = board.tile_name(pos, lang).replace("\n", " ") + _building_text(game, pos)
            if game.is_mortgaged(pos):
                label += " (mortgaged)"
            props.append(label)
        lines.append(
            f"  {p.name} [{p.token}] cash {p.cash} at {where}"
            + (f" ({', '.join(marks)})" if marks else "")
        )
        if props:
            lines.append("    owns: " + ", ".join(props))
    bank = f"Pot {game.pot}"
    if game.houses_left is not None and game.rules.buildings == "classic":
        bank += f"; bank houses {game.houses_left}, hotels {game.hotels_left}"
    unowned = [pos for pos in board.property_positions if game.owner(pos) is None]
    bank += f"; unowned properties {len(unowned)}"
    lines.append(bank)
    if game.rules.name == "cell22" or board.size == 22:
        lines.append("Cells:")
        for tile in board.tiles:
            prefix = f"  {tile.position:2d} "
            if tile.kind in (TileKind.STREET, TileKind.RAILWAY, TileKind.UTILITY):
                lines.append(prefix + cell_text(game, tile.position))
            else:
                lines.append(prefix + board.tile_name(tile.position, lang).replace("\n", " "))
    return "\n".join(lines)


def _names(game: Game) -> set[str]:
    keys: set[str] = set()
    for table in game.board.names.values():
        keys.update(table)
    return keys
