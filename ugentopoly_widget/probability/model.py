"""What the rules make of one movement: dice outcomes, and where a token that arrives on a
tile ends up once every card and Go To Jail is resolved.

Both the exact chain (:mod:`.chain`) and the Monte Carlo (:mod:`.montecarlo`) start from this
compiled description of a board and a rules profile, so they cannot disagree about what a
card does; they agree or disagree about everything else on their own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from ..engine.boards.board import Board, Card, CardKind, TileKind
from ..engine.rules import RulesProfile, get_profile
from .dice import Roll, roll_outcomes
from .errors import ArgumentError, CyclingDeckError, MissingJailError, UnsupportedCardError

if TYPE_CHECKING:
    from ..engine.game import Game

Strategy = Literal["short", "long", "off"]
JailCard = Literal["keep", "ignore"]
Decks = Literal["random", "strict"]
Per = Literal["roll", "turn"]
Measure = Literal["roll", "turn", "visits"]  # exact measures: visits = rolls ending there per turn

# How a token arrived on its final tile: rent on a railway or utility depends on it.
DICE, CARD, NEAREST = "dice", "card", "nearest"


def _one_of(value: object, choices: tuple[str, ...]) -> bool:
    return isinstance(value, str) and value in choices  # an array's `in` would not say


@dataclass(frozen=True)
class Options:
    """The assumptions that have more than one reading (see docs/probability.md)."""

    jail: Strategy = "short"  # short: leave jail at once if the rules let you pay (or use a card)
    # ("off": no jail at all; Go To Jail is a plain tile, the third double moves as any other)
    jail_card: JailCard = "keep"  # keep a Get Out of Jail Free card and use it, or ignore it
    jail_doubles_roll_again: bool = False  # leaving jail on doubles gives another roll
    decks: Decks = "random"  # treat every deck as drawn at random with replacement
    cards: bool = True  # False: card tiles do nothing (no card is drawn)

    def check(self) -> None:
        if not _one_of(self.jail, ("short", "long", "off")):
            raise ArgumentError(f"jail is 'short', 'long' or 'off', not {self.jail!r}")
        if not isinstance(self.cards, bool):
            raise ArgumentError(f"cards is True or False, not {self.cards!r}")
        if not _one_of(self.jail_card, ("keep", "ignore")):
            raise ArgumentError(f"jail_card is 'keep' or 'ignore', not {self.jail_card!r}")
        if not _one_of(self.decks, ("random", "strict")):
            raise ArgumentError(f"decks is 'random' or 'strict', not {self.decks!r}")
        if not isinstance(self.jail_doubles_roll_again, bool):
            raise ArgumentError("jail_doubles_roll_again is True or False")


@dataclass(frozen=True)
class Landing:
    """Where a token ends after arriving on a tile (cards and Go To Jail resolved)."""

    position: int  # the jail tile when jailed
    jailed: bool = False
    again: bool = False  # a card said "roll again"
    card: bool = False  # a Get Out of Jail Free card was drawn and kept
    how: str = DICE  # DICE, CARD or NEAREST: how the token reached `position`
    rent_multiplier: int = 1  # NEAREST cards: multiply the railway's rent
    dice_multiplier: int | None = None  # NEAREST utility cards: roll again, pay dice x this


@dataclass(frozen=True)
class Movement:
    """A board and a rules profile compiled for movement."""

    board: Board
    rules: RulesProfile
    options: Options
    size: int
    jail: int | None
    rolls: tuple[Roll, ...]
    landings: tuple[tuple[tuple[Landing, float], ...], ...]  # per tile arrived on by dice
    doubles_roll_again: bool
    max_doubles: int | None
    max_jail_turns: int | None
    can_pay: bool  # the rules let a jailed player pay to leave
    card_auto: bool
    skip_turns: int
    track_cards: bool  # the number of held jail cards changes how players leave jail
    has_jail_cards: bool

    @property
    def leave_at_once(self) -> bool:
        """A short-strategy player with the fine available leaves before rolling."""
        return self.options.jail == "short" and self.can_pay


def _effect(board: Board, rules: RulesProfile, pos: int, card: Card, options: Options
            ) -> tuple[str, int | None, Landing | None]:
    """One card drawn on tile `pos`: ("stop", None, landing) or ("move", target, template)."""
    size = board.size
    kind = card.kind
    where = f"card {card.id!r} ({getattr(kind, 'value', kind)})"
    no_jail = options.jail == "off"
    if kind is CardKind.JAIL:
        return "stop", None, Landing(pos, card=options.jail_card == "keep" and not no_jail)
    if kind in (CardKind.MONEY, CardKind.PLAYERS_MONEY, CardKind.REPAIRS):
        return "stop", None, Landing(pos)
    if kind is CardKind.ROLL_AGAIN:
        return "stop", None, Landing(pos, again=True)
    if kind is CardKind.GO_TO_JAIL:
        if no_jail:
            return "stop", None, Landing(pos)  # without a jail the card does nothing
        if board.jail_position is None:
            raise MissingJailError(f"{board.source}: {where} sends a player to jail, "
                                   "but the board has no JAIL tile")
        return "stop", None, Landing(board.jail_position, jailed=True)
    if kind is CardKind.MOVE:
        if not isinstance(card.position, int) or not 0 <= card.position < size:
            raise UnsupportedCardError(f"{board.source}: {where} moves to position "
                                       f"{card.position!r}, which is not on the board")
        if (card.position == board.jail_position and rules.card_move_to_jail_tile_jails
                and not no_jail):
            return "stop", None, Landing(card.position, jailed=True)
        return "move", card.position, Landing(card.position, how=CARD)
    if kind is CardKind.MOVEREL:
        if not isinstance(card.relative, int):
            raise UnsupportedCardError(f"{board.source}: {where} has no whole relative move")
        return "move", (pos + card.relative) % size, Landing(0, how=CARD)
    if kind is CardKind.NEAREST:
        if card.target not in (TileKind.RAILWAY, TileKind.UTILITY):
            raise UnsupportedCardError(f"{board.source}: {where} advances to the nearest "
                                       f"{card.target!r}; the chain knows RAILWAY and UTILITY")
        for step in range(1, size + 1):
            target = (pos + step) % size
            if board.tiles[target].kind is card.target:
                return "move", target, Landing(target, how=NEAREST,
                                               rent_multiplier=card.rent_multiplier,
                                               dice_multiplier=card.dice_multiplier)
        raise UnsupportedCardError(f"{board.source}: {where} advances to the nearest "
                                   f"{card.target.value}, but the board has none")
    raise UnsupportedCardError(f"{board.source}: {where}: the chain cannot model this card "
                               "kind's effect on the token")


def _resolve(board: Board, rules: RulesProfile, options: Options
             ) -> tuple[tuple[tuple[Landing, float], ...], ...]:
    """For every tile, the distribution of landings of a token that arrives there.

    Card tiles form an absorbing Markov chain (a card may send the token to another card
    tile, e.g. "go back 3" from Chance 36 to Community Chest 33): solved exactly with the
    fundamental matrix, so chains of draws of any length are counted."""
    size = board.size
    jail = board.jail_position
    kinds = [t.kind for t in board.tiles]
    decks = {k: d for k, d in board.decks.items() if d.cards and options.cards}
    no_jail = options.jail == "off"
    if options.decks == "strict":
        for name, deck in decks.items():
            if deck.draw != "random":
                raise CyclingDeckError(
                    f"{board.source}: the {name} deck cycles (draw='{deck.draw}'); the chain "
                    "models decks drawn at random with replacement (use decks='random' to "
                    "treat it so)")
    draws = [p for p in range(size) if kinds[p].value in decks]
    index = {p: k for k, p in enumerate(draws)}
    if TileKind.GO_TO_JAIL in kinds and jail is None and not no_jail:
        raise MissingJailError(f"{board.source}: a GO_TO_JAIL tile sends players to jail, "
                               "but the board has no JAIL tile")

    def arrive(target: int, template: Landing) -> Landing | None:
        """A token moved onto `target`: a final landing, or None to draw there again."""
        if target in index:
            return None
        if kinds[target] is TileKind.GO_TO_JAIL and not no_jail:
            assert jail is not None
            return Landing(jail, jailed=True)
        return Landing(target, how=template.how, rent_multiplier=template.rent_multiplier,
                       dice_multiplier=template.dice_multiplier)

    outcomes: list[Landing] = []
    where: dict[Landing, int] = {}
    q = np.zeros((len(draws), len(draws)))
    r_rows: list[dict[int, float]] = [{} for _ in draws]
    for i, pos in enumerate(draws):
        cards = decks[kinds[pos].value].cards
        share = 1.0 / len(cards)
        for card in cards:
            what, target, template = _effect(board, rules, pos, card, options)
            assert template is not None
            final = template if what == "stop" else arrive(target or 0, template)
            if final is None:
                q[i, index[target or 0]] += share
                continue
            k = where.setdefault(final, len(outcomes))
            if k == len(outcomes):
                outcomes.append(final)
            r_rows[i][k] = r_rows[i].get(k, 0.0) + share
    resolved: dict[int, tuple[tuple[Landing, float], ...]] = {}
    if draws:
        r = np.zeros((len(draws), len(outcomes)))
        for i, row in enumerate(r_rows):
            for k, v in row.items():
                r[i, k] = v
        try:
            absorbed = np.linalg.solve(np.eye(len(draws)) - q, r)
        except np.linalg.LinAlgError:
            absorbed = np.full_like(r, np.nan)
        if not np.all(np.isfinite(absorbed)) or np.any(np.abs(absorbed.sum(axis=1) - 1) > 1e-9):
            raise UnsupportedCardError(
                f"{board.source}: the cards can send a token from card tile to card tile for "
                "ever (no card ever lets it stop): the chain has no answer")
        for i, pos in enumerate(draws):
            resolved[pos] = tuple(
                (outcomes[k], float(absorbed[i, k]))
                for k in range(len(outcomes)) if absorbed[i, k] > 1e-15
            )
    table: list[tuple[tuple[Landing, float], ...]] = []
    for pos in range(size):
        if pos in resolved:
            table.append(resolved[pos])
        elif kinds[pos] is TileKind.GO_TO_JAIL and not no_jail:
            assert jail is not None
            table.append(((Landing(jail, jailed=True), 1.0),))
        else:
            table.append(((Landing(pos), 1.0),))
    return tuple(table)


def resolve_inputs(game_or_board: Game | Board | str | os.PathLike[str],
                   rules: RulesProfile | str | None = None) -> tuple[Board, RulesProfile]:
    """(board, rules) from a Game, a Board (+ rules), a profile name or a board reference.

    A string is a profile name ("classic": its bundled board), ``"bundled:<name>"`` or a
    board file path; a board without rules takes the profile its file names, else Ugentopoly."""
    from ..engine.game import Game, _resolve_board

    if isinstance(game_or_board, Game):
        if rules is not None:
            raise ArgumentError("a Game brings its own rules: pass rules only with a Board")
        return game_or_board.board, game_or_board.rules
    if isinstance(game_or_board, Board):
        board = game_or_board
    elif isinstance(game_or_board, str) and not game_or_board.startswith("bundled:") and (
        not game_or_board.endswith(".xml")
    ):
        profile = get_profile(game_or_board)
        return _resolve_board(None, profile), get_profile(rules) if rules else profile
    elif isinstance(game_or_board, (str, os.PathLike)):
        board = _resolve_board(game_or_board, get_profile("ugentopoly"))
    else:
        raise ArgumentError(f"expected a Game, a Board, a profile name or a board file, not "
                        f"{type(game_or_board).__name__}")
    if rules is None:
        rules = board.profile or "ugentopoly"
    return board, get_profile(rules)


def compile_movement(board: Board, rules: RulesProfile, options: Options) -> Movement:
    """Check the inputs and compile them (named errors on what the model cannot do)."""
    options.check()
    rolls = roll_outcomes(rules)
    jail = board.jail_position
    no_jail = options.jail == "off"  # the third double then moves like any other double
    max_doubles = rules.max_doubles if rules.doubles_roll_again and not no_jail else None
    if jail is None and max_doubles is not None:
        raise MissingJailError(
            f"{board.source}: the rules send a player to jail after {rules.max_doubles} "
            "doubles in a row, but the board has no JAIL tile (set max_doubles=None to "
            "play without that rule)")
    if rules.max_jail_turns is not None and rules.max_jail_turns < 1:
        raise ArgumentError("max_jail_turns is None or at least 1")
    landings = _resolve(board, rules, options)
    has_cards = options.cards and not no_jail and any(
        c.kind is CardKind.JAIL for d in board.decks.values() for c in d.cards)
    can_pay = rules.jail_fine is not None
    skip = rules.jail_skip_turns
    track = (
        has_cards
        and options.jail_card == "keep"
        and skip == 0
        and (rules.jail_card_auto or (options.jail == "short" and not can_pay))
    )
    return Movement(
        board=board, rules=rules, options=options, size=board.size, jail=jail, rolls=rolls,
        landings=landings, doubles_roll_again=rules.doubles_roll_again,
        max_doubles=max_doubles,
        max_jail_turns=rules.max_jail_turns, can_pay=can_pay,
        card_auto=rules.jail_card_auto, skip_turns=skip, track_cards=track,
        has_jail_cards=has_cards,
    )


__all__ = ["Measure", "Options", "Landing", "Movement", "compile_movement", "resolve_inputs"]
