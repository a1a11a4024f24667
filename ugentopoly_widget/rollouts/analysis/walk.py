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


# a double, in words (choices and outcomes are named in every language: a view may switch)
DOUBLE = {"en": " (double)", "nl": " (dubbel)"}


def point_seed(seed: int, index: int, kind: PointKind) -> int:
    return rollout_seed(seed, 3 * index + _KIND_CODE[kind])


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
        dice = next((tuple(ev.get("dice")) for ev in events
                     if ev.kind == "rolled" and ev.get("purpose") is None
                     and ev.player == made.player), None)
        rules = game.rules
        size = strata(rules.dice_count, rules.dice_sides)
        if dice is None or size <= 1:
            return found
        move = (made.to_dict(),)
        outcomes = [outcome_dice(o, rules.dice_count, rules.dice_sides) for o in range(size)]
        branches = tuple(Branch(move, dice=d) for d in outcomes)
        double = len(set(dice)) == 1
        texts = {lang: "+".join(map(str, dice)) + (DOUBLE[lang] if double else "")
                 for lang in LANGS}
        found.append((Point(i, made.player, branches, point_seed(self.seed, i, "roll"),
                            self.chance_rollouts),
                      Meta("roll", i, turn, made.player, outcomes.index(dice),
                           outcome=texts[self.lang], outcome_words=texts)))
        drawn = next((ev for ev in events if ev.kind == "card_drawn"), None)
        if drawn is not None and drawn.player == made.player:
            deck, card = str(drawn.get("deck")), str(drawn.get("card"))
            ids = decks.get(deck, [])
            if card in ids and len(ids) > 1:
                cards = tuple(Branch(move, dice=dice, card=(deck, c)) for c in ids)
                found.append((Point(i, made.player, cards, point_seed(self.seed, i, "card"),
                                    self.chance_rollouts),
                              Meta("card", i, turn, made.player, ids.index(card),
                                   outcome=_card_text(game, card, self.lang),
                                   outcome_words={lang: _card_text(game, card, lang)
                                                  for lang in LANGS})))
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
