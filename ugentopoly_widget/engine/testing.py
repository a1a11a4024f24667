"""Testing mode: chosen dice, stacked decks and set-ups, as the course graders test.

``Testing`` checks each step and records it in the game (so a scripted game replays exactly);
``run_injection`` applies a recorded step to an engine.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .errors import InvalidActionError, SaveFileError
from .records.events import Event

if TYPE_CHECKING:
    from .core import Engine
    from .game import Game


class Testing:
    """Testing mode: choose the dice and stack the decks, as the course graders do.

    Everything done here is part of the game's record, so a scripted game replays exactly.
    """

    def __init__(self, game: Game) -> None:
        self._game = game

    def script_dice(self, *rolls: Sequence[int]) -> None:
        """Queue dice results: ``game.testing.script_dice((3, 4), (6, 6))``."""
        rules = self._game.rules
        clean: list[list[int]] = []
        for roll in rolls:
            if isinstance(roll, (str, bytes)) or not isinstance(roll, Sequence):
                raise InvalidActionError(f"a roll is a sequence of {rules.dice_count} dice")
            values = list(roll)
            if len(values) != rules.dice_count or not all(
                isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= rules.dice_sides
                for v in values
            ):
                raise InvalidActionError(
                    f"a roll is {rules.dice_count} dice from 1 to {rules.dice_sides}, not {roll!r}"
                )
            clean.append(values)
        self._game._inject("dice", clean)

    def stack_deck(self, deck: str, card_ids: Sequence[str]) -> None:
        """Put these cards on top of a deck, in this order (next drawn first)."""
        game = self._game
        if (
            not isinstance(deck, str)
            or isinstance(card_ids, str)
            or not isinstance(card_ids, Sequence)
            or not all(isinstance(c, str) for c in card_ids)
        ):
            raise InvalidActionError("stack_deck takes a deck name and a list of card ids")
        spec = game.board.decks.get(deck)
        if spec is None:
            decks = sorted(game.board.decks)
            raise InvalidActionError(f"there is no deck {deck!r}; decks: {decks}")
        known = {c.id for c in spec.cards}
        ids = list(card_ids)
        for cid in ids:
            if cid not in known:
                raise InvalidActionError(f"deck {deck} has no card {cid!r}")
        if spec.draw == "cycle":
            in_deck = {c.id for c in game._engine.decks[deck]}
            missing = [cid for cid in ids if cid not in in_deck]
            if missing or len(set(ids)) != len(ids):
                raise InvalidActionError(
                    f"cards {missing or ids} are not in the {deck} deck now (held, or repeated)"
                )
        game._inject("stack", [deck, ids])

    def set_cash(self, player: int, amount: int) -> None:
        """Set a player's cash; the difference comes from (or goes to) the bank."""
        game = self._game
        game._player(player)
        if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= 10**9:
            raise InvalidActionError("cash is an integer from 0 to 10**9")
        game._inject("cash", [player, amount])

    def give_property(self, player: int, position: int) -> None:
        """Make `player` the owner of a property (from the bank or another player)."""
        game = self._game
        game._player(player)
        if (
            not isinstance(position, int)
            or not 0 <= position < game.board.size
            or not game.board.tiles[position].is_property
        ):
            raise InvalidActionError(f"there is no property at {position!r}")
        game._inject("owner", [player, position])

    def place(self, player: int, position: int) -> None:
        """Put a player's token on a tile without any effect of the tile."""
        game = self._game
        game._player(player)
        if not isinstance(position, int) or not 0 <= position < game.board.size:
            raise InvalidActionError(f"there is no tile {position!r}")
        game._inject("place", [player, position])

    def send_to_jail(self, player: int) -> None:
        self._game._player(player)
        self._game._inject("jail", [player])


def run_injection(engine: Engine, op: str, args: Any) -> None:
    if op == "dice":
        engine.chance.scripted_dice.extend(tuple(r) for r in args)
    elif op == "stack":
        deck_kind, ids = args
        if engine.board.decks[deck_kind].draw == "random":
            engine.chance.forced_draws.setdefault(deck_kind, deque()).extend(ids)
        else:
            deck = engine.decks[deck_kind]
            cards = {c.id: c for c in deck}
            rest = [c for c in deck if c.id not in set(ids)]
            deck.clear()
            deck.extend([cards[i] for i in ids] + rest)
    elif op == "cash":
        player, amount = args
        p = engine.players[player]
        diff = amount - p.cash
        p.cash = amount
        engine.bank -= diff
        engine.events.append(
            Event("cash_set", player, {"payer": "bank", "payee": player, "amount": diff})
        )
    elif op == "owner":
        player, pos = args
        engine._set_owner(pos, player)
        engine.events.append(Event("owner_set", player, {"position": pos}))
    elif op == "place":
        player, pos = args
        engine.players[player].position = pos
        engine.events.append(Event("placed", player, {"position": pos}))
    elif op == "jail":
        engine._send_to_jail(engine.players[args[0]], "testing")
    elif op == "scenario":
        from . import scenario  # (its own module: the set-up of a whole position)

        scenario.apply(engine, args[0])
    else:  # pragma: no cover
        raise SaveFileError(f"unknown injection {op!r}")
