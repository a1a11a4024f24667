"""Setting a game up: the players' names, tokens and colours, and whether a board has what the
chosen rules need (streets in colour groups, a JAIL tile for the doubles rule ...)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .boards.board import Board, CardKind, TileKind
from .errors import SetupError
from .rules import RulesProfile

TOKENS = ("hat", "car", "dog", "ship", "boot", "iron", "thimble", "cat")
COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324")

PlayerSpec = str | Mapping[str, Any]
# "Player 1", "Speler 1", ...: the default seats' names in the game's language
DEFAULT_NAME = {"en": "Player", "nl": "Speler"}


# Boards and profiles already checked together, by identity (each kept alive by its entry):
# simulations create thousands of games on the same bundled board and profile.
_CHECKED: dict[tuple[int, int], tuple[Board, RulesProfile]] = {}
# The default seats ("Player 1" ...) by player count and the profile's limits.
_DEFAULT_SEATS: dict[tuple[int, int, int, str], tuple[tuple[str, str, str], ...]] = {}


def check_board_for_rules(board: Board, rules: RulesProfile) -> None:
    key = (id(board), id(rules))
    known = _CHECKED.get(key)
    if known is not None and known[0] is board and known[1] is rules:
        return
    _check_board_for_rules(board, rules)
    if len(_CHECKED) >= 64:
        _CHECKED.clear()
    _CHECKED[key] = (board, rules)


def _check_board_for_rules(board: Board, rules: RulesProfile) -> None:
    grouped = rules.street_rent in ("course", "classic") or rules.buildings == "classic"
    for tile in board.tiles:
        if tile.kind is TileKind.STREET:
            if grouped and tile.area is None:
                raise SetupError(
                    f"{board.source}: street at {tile.position} has no area, but the "
                    f"{rules.name!r} rules need colour groups"
                )
            if not tile.rents:
                raise SetupError(f"{board.source}: street at {tile.position} has no rents")
        if tile.kind is TileKind.RAILWAY and not tile.rents:
            raise SetupError(f"{board.source}: railway at {tile.position} has no rent")
    kinds = {tile.kind for tile in board.tiles}
    for kind, rule in _tiles_needed(board, rules):
        if kind not in kinds:
            raise SetupError(
                f"{board.source}: the {rules.name!r} rules need a {kind.value} tile and the "
                f"board has none: {rule}"
            )


def _tiles_needed(board: Board, rules: RulesProfile) -> list[tuple[TileKind, str]]:
    """(tile kind, the rule that needs it) for the tile kinds these rules rely on. START is
    always there (the loader checks it); GO_TO_JAIL tiles and jail cards need a JAIL tile
    under any rules (the loader checks that too)."""
    needed: list[tuple[TileKind, str]] = []
    if rules.doubles_roll_again and rules.max_doubles is not None:
        needed.append((TileKind.JAIL, (
            f"{rules.max_doubles} doubles in a row send a player to jail; to play this board "
            f"without that rule, pass options={{'max_doubles': None}}")))
    if rules.parking == "car_park":
        needed.append((TileKind.FREE_PARKING, (
            "the car park rule (no rent while the owner stays on the car park) needs it; "
            "pass options={'parking': 'nothing'} to play without")))
    elif rules.free_parking_pot and _pot_can_fill(board, rules):
        needed.append((TileKind.FREE_PARKING, (
            "taxes and fines go to a pot that a player landing on FREE_PARKING wins "
            "(free_parking_pot); pass options={'free_parking_pot': False} to pay them to the "
            "bank instead")))
    return needed


def _pot_can_fill(board: Board, rules: RulesProfile) -> bool:
    if any(tile.kind is TileKind.TAX for tile in board.tiles):
        return True
    if rules.jail_fine and board.jail_position is not None:
        return True
    return any(
        card.kind is CardKind.REPAIRS or (card.kind is CardKind.MONEY and card.amount < 0)
        for deck in board.decks.values()
        for card in deck.cards
    )


def player_specs(
    players: Sequence[PlayerSpec] | int | None,
    tokens: Sequence[str] | None,
    colours: Sequence[str] | None,
    rules: RulesProfile,
    lang: str = "en",
) -> list[tuple[str, str, str]]:
    if players is None:
        players = rules.min_players
    if isinstance(players, int) and not isinstance(players, bool):
        key = (players, rules.min_players, rules.max_players, lang)
        seats = _DEFAULT_SEATS.get(key) if tokens is None and colours is None else None
        if seats is not None:
            return list(seats)
        word = DEFAULT_NAME.get(lang, DEFAULT_NAME["en"])
        out = _player_specs([f"{word} {k + 1}" for k in range(players)], tokens, colours, rules)
        if tokens is None and colours is None:
            _DEFAULT_SEATS[key] = tuple(out)
        return out
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise SetupError("players must be a number or a list of names")
    return _player_specs(players, tokens, colours, rules)


def _player_specs(
    players: Sequence[PlayerSpec],
    tokens: Sequence[str] | None,
    colours: Sequence[str] | None,
    rules: RulesProfile,
) -> list[tuple[str, str, str]]:
    n = len(players)
    if not rules.min_players <= n <= rules.max_players:
        raise SetupError(
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}"
        )
    out: list[tuple[str, str, str]] = []
    taken_tokens: dict[str, str] = {}
    for k, spec in enumerate(players):
        if isinstance(spec, Mapping):
            name = spec.get("name")
            token = spec.get("token")
            colour = spec.get("colour", spec.get("color"))
        else:
            name, token, colour = spec, None, None
        if token is None and tokens is not None and k < len(tokens):
            token = tokens[k]
        if colour is None and colours is not None and k < len(colours):
            colour = colours[k]
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise SetupError(f"player {k + 1}: a name is a non-empty text of at most 40 characters")
        name = name.strip()
        if any(name == other for other, _, _ in out):
            raise SetupError(f"the name {name!r} is taken: every player needs their own name")
        if token is None:
            token = next(
                t for t in TOKENS + tuple(f"token{j}" for j in range(9)) if t not in taken_tokens
            )
        if not isinstance(token, str) or not token.strip() or len(token) > 40:
            raise SetupError(f"{name}: a token is a non-empty text")
        if token in taken_tokens:
            raise SetupError(
                f"the token {token!r} is already taken by {taken_tokens[token]}: "
                f"{name} must choose a different token"
            )
        taken_tokens[token] = name
        if colour is None:
            colour = COLOURS[k % len(COLOURS)]
        if not isinstance(colour, str) or not colour.strip() or len(colour) > 40:
            raise SetupError(f"{name}: a colour is a text such as '#e6194b'")
        out.append((name, token, colour))
    return out
