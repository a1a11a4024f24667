"""Finding what to judge in a record: the analyser's own copy of the game walks forward
through it, action by action, and notes each decision point (with its candidates), each roll
(the 36 outcomes) and each card drawn (the deck's remaining cards)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ...engine import actions as A
from ...engine.actions import Action
from ...engine.game import Game
from ...engine.records.events import Event
from ..runner import BotSpec, _bots_for
from ..streams import outcome_dice, rollout_seed, strata
from ..words import LANGS, describe_action
from .options import candidates
from .playout import Branch, Point, Walker
from .results import DecisionKind

PointKind = Literal["decision", "roll", "card"]
_KIND_CODE = {"decision": 0, "roll": 1, "card": 2}


@dataclass(frozen=True)
class Meta:
    """What the analyser keeps of a point to make its row."""

    kind: PointKind
    index: int
    turn: int
    player: int
    actual: int  # the branch that happened (the choice made, the outcome rolled or drawn)
    decision: DecisionKind = "other"
    choices: tuple[Action, ...] = ()
    descriptions: tuple[str, ...] = ()
    outcome: str = ""
    words: tuple[dict[str, str], ...] = ()  # each choice's description in every language
    outcome_words: dict[str, str] = field(default_factory=dict)  # the outcome in every language
    seq: int = 0  # a chance point's place among its action's chance events (0: the roll)


# a double, in words (choices and outcomes are named in every language: a view may switch)
DOUBLE = {"en": " (double)", "nl": " (dubbel)"}
# a roll made for a purpose other than moving, in words
PURPOSE = {"utility": {"en": " (the utility's rent)", "nl": " (huur van het nutsbedrijf)"}}


def point_seed(seed: int, index: int, kind: PointKind, again: int = 0) -> int:
    """A point's own seed; the action's second roll or card (`again` > 0) its own."""
    base = rollout_seed(seed, 3 * index + _KIND_CODE[kind])
    return base if again == 0 else rollout_seed(base, again)


def _branch(move: tuple[dict[str, Any], ...], rolls: Sequence[tuple[int, ...]],
            cards: Sequence[tuple[str, str]]) -> Branch:
    """The action with these rolls and cards coming, in order (then the rollout's own)."""
    return Branch(move, dice=rolls[0] if rolls else None, more_dice=tuple(rolls[1:]),
                  cards=tuple(cards))


def _roll_words(dice: tuple[int, ...], purpose: Any) -> dict[str, str]:
    double = purpose is None and len(set(dice)) == 1
    return {lang: "+".join(map(str, dice)) + (DOUBLE[lang] if double else "")
            + (PURPOSE[purpose][lang] if purpose in PURPOSE else "") for lang in LANGS}


def _next_cards(game: Game, decks: dict[str, list[str]], drawn: Sequence[tuple[str, str]],
                deck: str) -> list[str]:
    """The cards of `deck` that could come next, after the cards `drawn` earlier in the same
    action: a cycling deck's drawn card went to the bottom (or to the player), so it is not
    among them."""
    ids = decks.get(deck, [])
    if game.board.decks[deck].draw != "cycle":
        return ids
    gone = {c for d, c in drawn if d == deck}
    return [c for c in ids if c not in gone]


def _card_text(game: Game, card_id: str, lang: str) -> str:
    """The card's words as the log shows them (the board's texts; its id where it has none)."""
    return game.board.text(card_id, lang).replace("\n", " ")


def _deck_cards(game: Game) -> dict[str, list[str]]:
    """Per deck, the ids of the cards that could be drawn next, each once (a cycling deck's
    order is hidden from the players)."""
    e = game._engine
    out = {}
    for kind, spec in game.board.decks.items():
        ids = [c.id for c in (e.decks[kind] if spec.draw == "cycle" else spec.cards)]
        out[kind] = list(dict.fromkeys(ids))
    return out


class Finder:
    """Walks the record forward (never back) and returns the points of each new action."""

    def __init__(self, setup: dict[str, Any], bots: tuple[BotSpec, ...], seed: int,
                 rollouts: int, chance_rollouts: int, lang: str) -> None:
        self.walker = Walker(setup)
        self.bots = bots
        self.seed = seed
        self.rollouts = rollouts
        self.chance_rollouts = chance_rollouts
        self.lang = lang

    @property
    def game(self) -> Game:
        return self.walker.game

    def step(self, actions: Sequence[Action], raw: Sequence[Any],
             injections: Sequence[Any]) -> list[tuple[Point, Meta]]:
        """The points of action ``actions[walker.applied]``, which is then applied."""
        walker = self.walker
        walker.advance(actions, raw, injections, walker.applied)
        game = walker.game
        i = walker.applied
        made = actions[i]
        found: list[tuple[Point, Meta]] = []
        turn = game.turn_number
        decision = self._decision(game, made, i, turn)
        if decision is not None:
            found.append(decision)
        rolled = isinstance(made, A.Roll)
        decks = _deck_cards(game) if rolled else {}
        first = len(game._engine.events)
        walker.advance(actions, raw, injections, i + 1)
        if not rolled:
            return found
        events: list[Event] = game._engine.events.since(first)
        found += self._chances(game, made, i, turn, events, decks)
        return found

    def _chances(self, game: Game, made: Action, i: int, turn: int, events: list[Event],
                 decks: dict[str, list[str]]) -> list[tuple[Point, Meta]]:
        """The roll's chance events, in order, each measured with the ones before it as they
        happened: the roll (36 outcomes), a card drawn (the deck's remaining cards), and what
        those lead to: a second roll (a utility's rent, by a card) or a second card (a card
        that moves the player onto another card tile)."""
        rules = game.rules
        size = strata(rules.dice_count, rules.dice_sides)
        happened = [ev for ev in events if ev.player == made.player
                    and ev.kind in ("rolled", "card_drawn")]
        if (size <= 1 or not happened or happened[0].kind != "rolled"
                or happened[0].get("purpose") is not None):
            return []
        move = (made.to_dict(),)
        outcomes = [outcome_dice(o, rules.dice_count, rules.dice_sides) for o in range(size)]
        rolls: list[tuple[int, ...]] = []  # the rolls and cards so far, as they happened
        cards: list[tuple[str, str]] = []
        found: list[tuple[Point, Meta]] = []
        for seq, ev in enumerate(happened):
            if ev.kind == "rolled":
                dice = tuple(ev.get("dice"))
                branches = tuple(_branch(move, rolls + [d], cards) for d in outcomes)
                texts = _roll_words(dice, ev.get("purpose"))
                meta = Meta("roll", i, turn, made.player, outcomes.index(dice), seq=seq,
                            outcome=texts[self.lang], outcome_words=texts)
                rolls.append(dice)
            else:
                deck, card = str(ev.get("deck")), str(ev.get("card"))
                ids = _next_cards(game, decks, cards, deck)
                if card not in ids or len(ids) < 2:
                    cards.append((deck, card))
                    continue
                branches = tuple(_branch(move, rolls, cards + [(deck, c)])
                                 for c in ids)
                meta = Meta("card", i, turn, made.player, ids.index(card), seq=seq,
                            outcome=_card_text(game, card, self.lang),
                            outcome_words={lang: _card_text(game, card, lang)
                                           for lang in LANGS})
                cards.append((deck, card))
            # (the first roll's and first card's seeds are the action's: tables made before
            # later events were measured stay the same)
            again = sum(m.kind == meta.kind for _, m in found)
            found.append((Point(i, made.player, branches,
                                point_seed(self.seed, i, meta.kind, again),
                                self.chance_rollouts), meta))
        return found

    def _decision(self, game: Game, made: Action, i: int, turn: int
                  ) -> tuple[Point, Meta] | None:
        seat = made.player
        if not 0 <= seat < len(game.players):
            return None

        def bot() -> Action:
            choice = _bots_for((self.bots[seat],), self.seed)[0].choose(game)
            if not isinstance(choice, Action):
                choice = A.action_from_dict(dict(choice))
            return choice

        found = candidates(game, made, bot)
        if found is None or len(found[1]) < 2:
            return None
        kind, choices, quiet = found
        context = dict(game.decision.data)
        branches = tuple(Branch((a.to_dict(),)) for a in choices)
        point = Point(i, seat, branches, point_seed(self.seed, i, "decision"), self.rollouts,
                      quiet=quiet)
        words = tuple({lang: describe_action(game, a, lang, context) for lang in LANGS}
                      for a in choices)
        return point, Meta("decision", i, turn, seat, choices.index(made), kind,
                           tuple(choices), tuple(w[self.lang] for w in words), words=words)


__all__ = ["Finder", "Meta", "point_seed"]
