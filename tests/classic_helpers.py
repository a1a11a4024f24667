"""Helpers for the classic-profile scenario tests: chosen dice, stacked decks, exact money."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from ugentopoly_widget import Game, IllegalActionError
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.records.events import Event

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]

BROWN = (1, 3)
LIGHTBLUE = (6, 8, 9)
PINK = (11, 13, 14)
ORANGE = (16, 18, 19)
RED = (21, 23, 24)
YELLOW = (26, 27, 29)
GREEN = (31, 32, 34)
DARKBLUE = (37, 39)
RAILROADS = (5, 15, 25, 35)
UTILITIES = (12, 28)
GROUPS = {
    "brown": BROWN, "lightblue": LIGHTBLUE, "pink": PINK, "orange": ORANGE, "red": RED,
    "yellow": YELLOW, "green": GREEN, "darkblue": DARKBLUE,
}
PRICE = {
    1: 60, 3: 60, 6: 100, 8: 100, 9: 120, 11: 140, 13: 140, 14: 160, 16: 180, 18: 180, 19: 200,
    21: 220, 23: 220, 24: 240, 26: 260, 27: 260, 29: 280, 31: 300, 32: 300, 34: 320, 37: 350,
    39: 400, 5: 200, 15: 200, 25: 200, 35: 200, 12: 150, 28: 150,
}
HOUSE_PRICE = {pos: price for area, price in (
    ("brown", 50), ("lightblue", 50), ("pink", 100), ("orange", 100), ("red", 150),
    ("yellow", 150), ("green", 200), ("darkblue", 200)) for pos in GROUPS[area]}

JAIL_CARD = "card.chance.08"


class FakeClock:
    """An injectable clock: ``clock.now`` seconds, moved by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def new_game(players: int = 3, *, seed: int = 1, clock: Callable[[], float] | None = None,
             **options: Any) -> Game:
    return Game("classic", players=NAMES[:players], seed=seed, options=options, clock=clock)


def seats(game: Game) -> list[int]:
    """Player indices in seat order, starting with the current player."""
    n = len(game.players)
    c = game.current_player
    return [(c + k) % n for k in range(n)]


def do(game: Game, action: A.Action) -> list[Event]:
    events = game.apply(action)
    check_books(game)
    return events


def who(game: Game) -> int:
    player = game.decision.player
    assert player is not None, game.decision
    return player


def roll(game: Game, *dice: Sequence[int]) -> list[Event]:
    """Script these rolls and roll once for whoever is to roll now."""
    assert game.decision.kind == "turn", game.decision
    game.testing.script_dice(*dice)
    return do(game, A.Roll(who(game)))


def end_turn(game: Game) -> list[Event]:
    assert game.decision.kind == "post_roll", game.decision
    return do(game, A.EndTurn(who(game)))


def idle_turn(game: Game) -> None:
    """The current player rolls 4+6 from GO onto Just Visiting and ends the turn."""
    p = game.current_player
    game.testing.place(p, 0)
    roll(game, (4, 6))
    assert game.players[p].position == 10 and not game.players[p].in_jail
    end_turn(game)


def draw_jail_card(game: Game, card: str = JAIL_CARD) -> None:
    """The current player rolls from GO onto Chance (7) and draws a get-out-of-jail card."""
    p = game.current_player
    game.testing.place(p, 0)
    game.testing.stack_deck("CHANCE", [card])
    roll(game, (3, 4))
    assert [c.id for c in game.players[p].jail_cards][-1] == card


def give(game: Game, player: int, *positions: int) -> None:
    for pos in positions:
        game.testing.give_property(player, pos)


def build_evenly(game: Game, player: int, lots: Iterable[int], level: int) -> None:
    """Build lot by lot, one level at a time, until every lot has `level` buildings."""
    lots = tuple(lots)
    for lv in range(1, level + 1):
        for pos in lots:
            if game.buildings(pos) < lv:
                do(game, A.Build(player, pos))
                assert game.buildings(pos) == lv


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def check_books(game: Game) -> None:
    assert game.money_total() == game.initial_money


def cash(game: Game) -> list[int]:
    return [p.cash for p in game.players]


def valuation(game: Game, player: int) -> int:
    """Cash + properties at price (mortgaged at half) + buildings at cost (RULES.md §2)."""
    total = game.players[player].cash
    for pos in game.properties_of(player):
        total += PRICE[pos] // 2 if game.is_mortgaged(pos) else PRICE[pos]
        if pos in HOUSE_PRICE:
            total += game.buildings(pos) * HOUSE_PRICE[pos]
    return total


def assert_refused(game: Game, action: A.Action | str) -> IllegalActionError:
    """The action raises IllegalActionError naming it, the decider and the phase; no change."""
    digest, state, n_events = game.digest(), game.state(), len(game.events)
    decision = game.decision
    decider = game.players[decision.player].name if decision.player is not None else None
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    err = info.value
    text = str(err)
    type_name = action.type if isinstance(action, A.Action) else action.split(":")[1].split()[0]
    assert type_name in text, text
    assert err.phase == decision.kind, (err.phase, decision.kind)
    assert decision.kind in text, text
    if decider is not None:
        assert err.player == decider
        assert decider in text, text
    assert game.digest() == digest
    assert game.state() == state
    assert len(game.events) == n_events
    return err
