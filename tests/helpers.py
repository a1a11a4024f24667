"""Scenario helpers for the rules tests: chosen dice, stacked decks, exact money checks."""

from __future__ import annotations

import dataclasses
from typing import Any

from ugentopoly_widget import Game, load_bundled
from ugentopoly_widget.engine.boards.board import Board
from ugentopoly_widget.engine.boards.loader import parse_board


def new_game(profile: str = "ugentopoly", players: Any = ("Ann", "Bob"), seed: int = 1,
             board: Any = None, **options: Any) -> Game:
    return Game(profile, players=list(players), seed=seed, options=options, board=board)


def seats(game: Game) -> list[int]:
    """Player indices in turn order, starting with the drawn first player."""
    n = len(game.players)
    return [(game.current_player + k) % n for k in range(n)]


def act(game: Game, kind: str, player: int | None = None, **fields: Any) -> list:
    """Apply the legal action of this type (e.g. "roll", "buy", "decline", "build")."""
    decision = game.decision
    if player is not None:
        assert decision.player == player, f"expected player {player} to decide, got {decision}"
    for action in game.legal_actions():
        if action.type == kind and all(getattr(action, k) == v for k, v in fields.items()):
            events = game.apply(action)
            assert game.money_total() == game.initial_money, "the books do not balance"
            return events
    legal = [str(a) for a in game.legal_actions()]
    raise AssertionError(f"{kind} {fields} is not legal now: {decision}; legal: {legal}")


def roll(game: Game, *dice: int, player: int | None = None) -> list:
    """Script one roll (e.g. ``roll(g, 3, 4)``) and roll it for the deciding player."""
    game.testing.script_dice(tuple(dice))
    return act(game, "roll", player)


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def money(events: list, kind: str | None = None) -> list[tuple[str, Any, Any, int]]:
    """(kind, payer, payee, amount) of every money event (optionally of one kind)."""
    return [
        (e.kind, e.data["payer"], e.data["payee"], e.data["amount"])
        for e in events
        if e.moves_money and (kind is None or e.kind == kind)
    ]


def deck(game: Game, kind: str) -> list[str]:
    return list(game.state()["decks"][kind])


def custom_board(profile: str, *replacements: tuple[str, str]) -> Board:
    """The bundled board of `profile` with text replaced in its XML (each must match)."""
    base = load_bundled(profile)
    xml = base.xml_text
    for old, new in replacements:
        assert old in xml, f"{old!r} is not in the {profile} board"
        xml = xml.replace(old, new)
    return parse_board(xml, file=f"custom-{profile}.xml",
                       names={lang: dict(t) for lang, t in base.names.items()})


def idle_turn(game: Game, player: int, dice: tuple[int, ...] = (2, 4)) -> None:
    """`player` rolls `dice` and declines every offer until the turn passes on."""
    roll(game, *dice, player=player)
    while game.decision.player == player and game.decision.kind in ("buy", "house_offer"):
        act(game, "decline", player)


def long_board(tiles: int) -> Board:
    """The classic board (standard decks) stretched to `tiles` tiles by more streets after
    Boardwalk: a chain of about 3 states per tile (probability benchmarks and size limits).
    Built as a Board, not parsed: a board file is capped at 5 million characters."""
    base = load_bundled("classic-standard-decks")
    extra = tuple(
        dataclasses.replace(base.tiles[39], position=p, id=f"tile.extra{p}")
        for p in range(40, tiles)
    )
    areas = dict(base.areas)
    blue = areas["darkblue"]
    areas["darkblue"] = dataclasses.replace(
        blue, positions=blue.positions + tuple(t.position for t in extra))
    return dataclasses.replace(base, name=f"long-{tiles}", source=f"long-{tiles}",
                               tiles=base.tiles + extra, areas=areas, xml_text="")


def same_payload(a: Any, b: Any, where: str) -> None:
    """Equal JSON payloads, floats to 1e-12 (pure Python sums in another order)."""
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), where
        assert abs(a - b) < 1e-12, (where, a, b)
    elif isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), (where, sorted(a), b)
        for k in a:
            same_payload(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), (where, a, b)
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            same_payload(x, y, f"{where}[{k}]")
    else:
        assert a == b, (where, a, b)
