"""Scenarios: a position a teacher sets up (owners, buildings, mortgages, cash, tokens, jail,
cards held, whose turn), checked as a whole and recorded as one testing step.

``Game.scenario(...)`` builds a fresh game and applies the scenario before the first action.
Tiles are named by position, tile id or display name (English or Dutch, any case), a whole
colour group by its area id; players by seat number or name. Everything not named stays as the
set-up left it. An impossible position raises :class:`ScenarioError` naming what is wrong and
no game is made: a building without the whole group, uneven building, a building or mortgage
where the rules have none, more houses than the bank holds, a mortgage under buildings, a card
that is not a get-out-of-jail card or is named twice, a player in jail on a board without one.

The scenario is recorded as the testing step ``"scenario"`` with its checked, plain form (the
same for every way of naming things), so the game saves, loads, copies and undoes like any
other; a save file's scenario is checked again when it is loaded.

>>> from ugentopoly_widget import Game
>>> game = Game.scenario("classic", players=["Ann", "Bob"], seed=1,
...                      owners={"orange": "Ann", "Boardwalk": "Bob"},
...                      buildings={"orange": 3}, cash={"Ann": 200, "Bob": 900},
...                      positions={"Bob": "tile.jail"}, current="Bob")
>>> game.buildings(19), game.players[0].cash, game.current_player
(3, 200, 1)
>>> try:
...     Game.scenario("classic", players=2, owners={"Boardwalk": 0}, buildings={"Boardwalk": 1})
... except ScenarioError as exc:
...     print(exc)
buildings: Boardwalk: a building needs the whole darkblue group owned by one player
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .boards.board import Card, CardKind, TileKind
from .errors import ScenarioError
from .records.events import Event
from .turns import send_to_jail

if TYPE_CHECKING:
    from .core import Engine
    from .game import Game

MAX_CASH = 10**9
MAX_LEVEL = 100  # buildings="unlimited" (22-cell): no cap in the rules; a scenario has one

Ref = int | str
SCENARIO_FIELDS = frozenset({"owners", "levels", "mortgaged", "cash", "positions", "jail",
                             "cards", "current"})


# ------------------------------------------------------------------ naming things


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def player_index(game: Game, ref: Any, field: str) -> int:
    """A seat number, or a player's name (any case)."""
    players = game.players
    if _is_int(ref) and 0 <= ref < len(players):
        return int(ref)
    if isinstance(ref, str):
        found = [p.index for p in players if p.name.casefold() == ref.strip().casefold()]
        if len(found) == 1:
            return found[0]
    names = [p.name for p in players]
    raise ScenarioError(f"{field}: there is no player {ref!r} (seats 0 to {len(players) - 1}, "
                        f"or a name of {names})")


def tile_position(game: Game, ref: Any, field: str) -> int:
    """A position, a tile id or a tile's display name (English or Dutch, any case)."""
    board = game.board
    if _is_int(ref) and 0 <= ref < board.size:
        return int(ref)
    if isinstance(ref, str):
        key = ref.strip().casefold()
        found = {t.position for t in board.tiles if t.id.casefold() == key}
        if not found:
            found = {t.position for t in board.tiles for lang in ("en", "nl")
                     if board.tile_name(t.position, lang).casefold() == key}
        if len(found) == 1:
            return found.pop()
        if len(found) > 1:
            raise ScenarioError(f"{field}: {ref!r} names several tiles {sorted(found)}; "
                                "use a position")
    raise ScenarioError(f"{field}: there is no tile {ref!r} on this board (a position from 0 "
                        f"to {board.size - 1}, a tile id or a tile's name)")


def tiles_of(game: Game, ref: Any, field: str) -> tuple[int, ...]:
    """The lots of a colour group named by its area id, or the one tile named."""
    if isinstance(ref, str):
        area = game.board.areas.get(ref.strip())
        if area is not None and area.positions:
            return area.positions
    return (tile_position(game, ref, field),)


def _mapping(value: Any, field: str) -> Mapping[Any, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{field}: expected a mapping, not {type(value).__name__}")
    return value


def _items(value: Any, field: str) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ScenarioError(f"{field}: expected a list, not {type(value).__name__}")
    return list(value)


def _tile_label(game: Game, pos: int) -> str:
    return game.board.tile_name(pos, "en")


# ------------------------------------------------------------------ the plain form


def normalize(
    game: Game,
    *,
    owners: Mapping[Ref, Ref] | None = None,
    buildings: Mapping[Ref, int | str] | None = None,
    mortgaged: Iterable[Ref] | None = None,
    cash: Mapping[Ref, int] | Sequence[int] | None = None,
    positions: Mapping[Ref, Ref] | None = None,
    jail: Iterable[Ref] | None = None,
    cards: Mapping[Ref, Sequence[str]] | None = None,
    current: Ref | None = None,
) -> dict[str, Any]:
    """The scenario in its plain, recorded form (positions and seat numbers), not yet checked
    as a position (see :func:`check`)."""
    hotel = game.hotel_level
    spec: dict[str, Any] = {key: [] for key in SCENARIO_FIELDS}
    spec["current"] = None
    for ref, who in _mapping(owners, "owners").items():
        player = player_index(game, who, f"owners[{ref!r}]")
        spec["owners"] += [[pos, player] for pos in tiles_of(game, ref, f"owners[{ref!r}]")]
    for ref, level in _mapping(buildings, "buildings").items():
        if isinstance(level, str) and level.strip().lower() == "hotel":
            level = hotel
        if not _is_int(level):
            raise ScenarioError(f"buildings[{ref!r}]: a number of houses or 'hotel', not "
                                f"{level!r}")
        spec["levels"] += [[pos, level] for pos in tiles_of(game, ref, f"buildings[{ref!r}]")]
    spec["mortgaged"] = [pos for ref in _items(mortgaged, "mortgaged")
                         for pos in tiles_of(game, ref, f"mortgaged[{ref!r}]")]
    if cash is not None and not isinstance(cash, Mapping):
        amounts = _items(cash, "cash")
        if len(amounts) != len(game.players):
            raise ScenarioError(f"cash: one amount per player ({len(game.players)}), not "
                                f"{len(amounts)}")
        cash = dict(enumerate(amounts))
    for who, amount in _mapping(cash, "cash").items():
        spec["cash"].append([player_index(game, who, f"cash[{who!r}]"), amount])
    for who, where in _mapping(positions, "positions").items():
        spec["positions"].append([player_index(game, who, f"positions[{who!r}]"),
                                  tile_position(game, where, f"positions[{who!r}]")])
    spec["jail"] = [player_index(game, who, f"jail[{who!r}]") for who in _items(jail, "jail")]
    for who, held in _mapping(cards, "cards").items():
        player = player_index(game, who, f"cards[{who!r}]")
        for ref in _items(held, f"cards[{who!r}]"):
            card = _jail_card(game, ref, f"cards[{who!r}]")
            spec["cards"].append([player, card.deck, card.id])
    if current is not None:
        spec["current"] = player_index(game, current, "current")
    return spec


def _jail_card(game: Game, ref: Any, field: str) -> Card:
    """A get-out-of-jail card by its id, or by its deck's name (that deck's first one)."""
    decks = game.board.decks
    if isinstance(ref, str):
        deck = decks.get(ref.strip().upper())
        if deck is not None:
            for card in deck.cards:
                if card.kind is CardKind.JAIL:
                    return card
            raise ScenarioError(f"{field}: the {deck.kind} deck has no get-out-of-jail card")
        for deck in decks.values():
            for card in deck.cards:
                if card.id == ref:
                    if card.kind is not CardKind.JAIL:
                        raise ScenarioError(f"{field}: {ref!r} is not a get-out-of-jail card")
                    return card
    raise ScenarioError(f"{field}: there is no card {ref!r} (a card id or a deck: "
                        f"{sorted(decks)})")


# ------------------------------------------------------------------ checking


def check(game: Game, spec: Any) -> dict[str, Any]:
    """Check a plain scenario (from :func:`normalize`, or read from a save file) against the
    game before its first action; return it. Raises ScenarioError naming the problem."""
    if not isinstance(spec, dict) or set(spec) != SCENARIO_FIELDS:
        raise ScenarioError(f"a scenario has the fields {sorted(SCENARIO_FIELDS)}")
    if game._actions:
        raise ScenarioError("a scenario is set up before the game's first action")
    board, rules, e = game.board, game.rules, game._engine
    n, size = len(game.players), board.size

    def pairs(key: str, low: int, high: int, what: str, second: tuple[int, int]) -> list[Any]:
        items = spec[key]
        if not isinstance(items, list):
            raise ScenarioError(f"{key}: expected a list")
        seen: set[int] = set()
        for item in items:
            if (not isinstance(item, list) or len(item) != 2 or not _is_int(item[0])
                    or not _is_int(item[1]) or not low <= item[0] <= high):
                raise ScenarioError(f"{key}: {item!r} is not a pair ({what}, number)")
            if not second[0] <= item[1] <= second[1]:
                raise ScenarioError(f"{key}: {item[1]} is out of range {second[0]} to "
                                    f"{second[1]}")
            if item[0] in seen:
                raise ScenarioError(f"{key}: {what} {item[0]} is named twice")
            seen.add(item[0])
        return items

    owners = pairs("owners", 0, size - 1, "position", (0, n - 1))
    levels = pairs("levels", 0, size - 1, "position", (0, MAX_LEVEL))
    pairs("cash", 0, n - 1, "player", (0, MAX_CASH))
    positions = pairs("positions", 0, n - 1, "player", (0, size - 1))
    owner = list(e.owner)
    for pos, player in owners:
        if not board.tiles[pos].is_property:
            raise ScenarioError(f"owners: {_tile_label(game, pos)} cannot be owned")
        owner[pos] = player
    mortgaged = list(e.mortgaged)
    for pos in _plain_list(spec["mortgaged"], "mortgaged", size - 1):
        label = _tile_label(game, pos)
        if not rules.mortgages:
            raise ScenarioError(f"mortgaged: {label}: these rules have no mortgages")
        if owner[pos] < 0:
            raise ScenarioError(f"mortgaged: {label} has no owner")
        if mortgaged[pos]:
            raise ScenarioError(f"mortgaged: {label} is named twice")
        mortgaged[pos] = True
    level = list(e.level)
    for pos, lv in levels:
        level[pos] = lv
    _check_buildings(game, owner, level, mortgaged, [pos for pos, _ in levels])
    jailed = _plain_list(spec["jail"], "jail", n - 1)
    if len(set(jailed)) != len(jailed):
        raise ScenarioError("jail: a player is named twice")
    if jailed and board.jail_position is None:
        raise ScenarioError("jail: this board has no jail")
    for player, pos in positions:
        if player in jailed and pos != board.jail_position:
            raise ScenarioError(f"positions: player {player} is in jail, so on the jail tile "
                                f"({board.jail_position}), not on {pos}")
    cards = spec["cards"]
    if not isinstance(cards, list):
        raise ScenarioError("cards: expected a list")
    named: set[tuple[str, str]] = set()
    for item in cards:
        if (not isinstance(item, list) or len(item) != 3 or not _is_int(item[0])
                or not 0 <= item[0] < n or not all(isinstance(x, str) for x in item[1:])):
            raise ScenarioError(f"cards: {item!r} is not [player, deck, card id]")
        deck = board.decks.get(item[1])
        card = next((c for c in deck.cards if c.id == item[2]), None) if deck else None
        if card is None or card.kind is not CardKind.JAIL:
            raise ScenarioError(f"cards: {item[2]!r} is not a get-out-of-jail card of "
                                f"{item[1]!r}")
        if (item[1], item[2]) in named:
            raise ScenarioError(f"cards: {item[2]} is named twice (there is one of it)")
        named.add((item[1], item[2]))
    current = spec["current"]
    if current is not None and (not _is_int(current) or not 0 <= current < n):
        raise ScenarioError(f"current: there is no player {current!r}")
    if any(p.bankrupt for p in game.players) or game.is_over:
        raise ScenarioError("a scenario needs a game that has started and is not over")
    if game.decision.kind != "turn":
        raise ScenarioError("a scenario is set up at the start of a turn")
    return spec


def _plain_list(items: Any, field: str, high: int) -> list[int]:
    if not isinstance(items, list) or not all(_is_int(x) and 0 <= x <= high for x in items):
        raise ScenarioError(f"{field}: expected a list of numbers from 0 to {high}")
    return list(items)


def _check_buildings(game: Game, owner: list[int], level: list[int], mortgaged: list[bool],
                     named: list[int]) -> None:
    board, rules = game.board, game.rules
    hotel = game.hotel_level
    for pos in named:
        tile, lv = board.tiles[pos], level[pos]
        label = _tile_label(game, pos)
        if not lv:
            continue
        if rules.buildings == "none":
            raise ScenarioError(f"buildings: {label}: these rules have no buildings")
        if tile.kind is not TileKind.STREET:
            raise ScenarioError(f"buildings: {label} is not a street")
        if owner[pos] < 0:
            raise ScenarioError(f"buildings: {label} has no owner")
        if mortgaged[pos]:
            raise ScenarioError(f"buildings: {label} is mortgaged")
        if game.house_price(pos) <= 0:
            raise ScenarioError(f"buildings: {label}: nothing can be built there")
        if rules.buildings != "classic":
            continue
        if lv > hotel:
            raise ScenarioError(f"buildings: {label}: at most {hotel - 1} houses and a hotel "
                                f"(level {hotel}), not {lv}")
        lots = board.areas[tile.area or ""].positions
        if any(owner[q] != owner[pos] for q in lots):
            raise ScenarioError(f"buildings: {label}: a building needs the whole {tile.area} "
                                "group owned by one player")
        if any(mortgaged[q] for q in lots):
            raise ScenarioError(f"buildings: {label}: a lot of the {tile.area} group is "
                                "mortgaged")
        levels = [level[q] for q in lots]
        if max(levels) - min(levels) > 1:
            raise ScenarioError(f"buildings: {label}: the {tile.area} group is built unevenly "
                                f"{levels} (levels differ by at most one)")
    # (owners checked against every lot, not only the named: a group with a named building
    # must stay whole; a mortgage in a built group is refused here too)
    for pos, flag in enumerate(mortgaged):
        area = board.tiles[pos].area
        if flag and rules.buildings == "classic" and area is not None and area in board.areas:
            built = [q for q in board.areas[area].positions if level[q]]
            if built:
                raise ScenarioError(f"mortgaged: {_tile_label(game, pos)}: the {area} group "
                                    "has buildings (sell them first)")
    houses = sum(lv for lv in level if 0 < lv < hotel) if rules.buildings == "classic" \
        else sum(level)
    hotels = sum(1 for lv in level if lv == hotel) if rules.buildings == "classic" else 0
    if rules.bank_houses is not None and houses > rules.bank_houses:
        raise ScenarioError(f"buildings: {houses} houses, but the bank has {rules.bank_houses}")
    if rules.bank_hotels is not None and hotels > rules.bank_hotels:
        raise ScenarioError(f"buildings: {hotels} hotels, but the bank has {rules.bank_hotels}")


# ------------------------------------------------------------------ applying


def apply(e: Engine, spec: dict[str, Any]) -> None:
    """Put a checked scenario into the engine and start the turn again. Every field sets a
    value, none adds to one, so applying it again (undo replays testing steps over the
    checkpoint from before it) gives the same state."""
    current = spec["current"] if spec["current"] is not None else e.current
    _take_back_turn_start(e)
    for pos, player in spec["owners"]:
        if e.owner[pos] != player:
            e._set_owner(pos, player)
            e.events.append(Event("owner_set", player, {"position": pos}))
    for pos, lv in spec["levels"]:
        e._set_level(pos, lv)
    for pos in spec["mortgaged"]:
        e._set_mortgaged(pos, True)
    _recount_stock(e)
    for player, amount in spec["cash"]:
        p = e.players[player]
        diff = amount - p.cash
        if diff:
            p.cash = amount
            e.bank -= diff
            e.events.append(Event("cash_set", player,
                                  {"payer": "bank", "payee": player, "amount": diff}))
    for player, pos in spec["positions"]:
        e.players[player].position = pos
        e.events.append(Event("placed", player, {"position": pos}))
    for player in spec["jail"]:
        if not e.players[player].in_jail:
            send_to_jail(e, e.players[player], "testing")
    for player, deck_kind, card_id in spec["cards"]:
        _hand_card(e, player, deck_kind, card_id)
    e.events.append(Event("scenario_set", current, {}))
    e.current = e.first_player = current
    e.forget_caches()
    every = e.checkpoint_every
    e.checkpoint_every = 0  # the checkpoint from before the scenario stays the first
    try:
        e.restart_flow()
    finally:
        e.checkpoint_every = every


def _take_back_turn_start(e: Engine) -> None:
    """The first turn, begun for the player drawn to start, is taken back (its events and the
    turn count): the scenario starts it again, for the player it names (the first player of
    every round, too), with what a turn's start does (a jail turn served, a card used)."""
    events = e.events
    started = max((k for k in range(len(events)) if events[k].kind == "turn_started"),
                  default=None)
    if started is not None:
        del events[started:]
    e.turn_number = 0


def _recount_stock(e: Engine) -> None:
    hotel = e.hotel_level
    classic = e.rx.buildings == "classic"
    if e.rules.bank_houses is not None:
        e.houses_left = e.rules.bank_houses - sum(
            lv for lv in e.level if (0 < lv < hotel) or (lv and not classic))
    if e.rules.bank_hotels is not None:
        e.hotels_left = e.rules.bank_hotels - (
            sum(1 for lv in e.level if lv == hotel) if classic else 0)


def _hand_card(e: Engine, player: int, deck_kind: str, card_id: str) -> None:
    for p in e.players:  # held already (a replay): taken back first
        p.jail_cards = [c for c in p.jail_cards if not (c.deck == deck_kind and c.id == card_id)]
    card = next(c for c in e.board.decks[deck_kind].cards if c.id == card_id)
    deck = e.decks[deck_kind]
    if e.board.decks[deck_kind].draw == "cycle":
        e.decks[deck_kind] = type(deck)(c for c in deck if c.id != card_id)
    e.players[player].jail_cards.append(card)


def build(cls: type[Game], profile: Any, *, players: Any = None, seed: int | None = 0,
          options: Mapping[str, Any] | None = None, board: Any = None, lang: str = "en",
          **position: Any) -> Game:
    """``Game.scenario``: a new game with the scenario applied (see the module's docstring)."""
    game = cls(profile, players=players, seed=seed, options=options, board=board, lang=lang)
    spec = check(game, normalize(game, **position))
    game._inject("scenario", [spec])
    return game


__all__ = ["build", "check", "normalize", "apply", "ScenarioError"]
