"""Count landings over many engine games: the rules engine itself, played by bots that keep
the movement rules and nothing else (they buy what they land on, never build or trade, pay
their way out of jail or roll for doubles as the strategy says).

This is the ground truth the chain is checked against (tests/test_probability_engine.py).

>>> from ugentopoly_widget.engine import load_bundled
>>> result = play_landings("cell22", games=2, turns=200, seed=1)
>>> result.total.per, len(result.games)
('roll', 2)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.boards.board import Board
from ..engine.game import Game
from ..engine.records.landings import LandingCounter, Landings, Per
from ..engine.rules import RulesProfile, get_profile


class MoverBot:
    """Keeps the movement rules, nothing more: buys if it can (fewer decisions than an
    auction), declines houses, pays flat tax, ends turns; in jail pays the fine at once
    (``jail="short"``, a card if the rules let it) or rolls for doubles (``"long"``)."""

    def __init__(self, jail: Literal["short", "long"] = "short") -> None:
        self.jail = jail

    def choose(self, game: Game) -> Action:
        decision = game.decision
        legal = game.legal_actions()
        kind = decision.kind
        by_type = {type(a): a for a in legal}
        if kind == "turn":
            if self.jail == "short":
                for leave in (A.PayFine, A.UseJailCard):
                    if leave in by_type:
                        return by_type[leave]
            return by_type[A.Roll]
        if kind == "post_roll":
            return by_type[A.EndTurn]
        if kind == "buy":
            return by_type.get(A.Buy, by_type.get(A.Decline, legal[0]))
        if kind == "auction":
            return by_type.get(A.Pass, legal[0])
        if kind == "tax":
            return A.ChooseTax(decision.player or 0, "flat")
        if kind == "jail_fine":
            return by_type.get(A.PayFine, legal[0])
        if kind == "house_offer":
            return by_type.get(A.Decline, legal[0])
        if kind == "mortgaged":
            return by_type.get(A.KeepMortgage, legal[0])
        if kind == "trade":
            return by_type.get(A.RejectTrade, legal[0])
        return legal[0]


@dataclass
class EngineLandings:
    """Landings of every game (after each game's burn-in), and their sum."""

    total: Landings
    games: list[Landings] = field(default_factory=list)

    def frequencies(self) -> np.ndarray:
        return np.asarray(self.total.frequencies())

    def standard_errors(self) -> np.ndarray:
        """Standard error of each pooled share, from the spread between games (games are
        independent; rolls within a game are not)."""
        counts = np.array([[*g.tiles, g.in_jail] for g in self.games], dtype=float)
        n = counts.sum(axis=1)
        pooled = counts.sum(axis=0) / n.sum()
        g = len(self.games)
        if g < 2:
            return np.full(counts.shape[1], np.inf)
        resid = counts - np.outer(n, pooled)  # ratio estimator: sum of residuals
        return np.asarray(np.sqrt((resid**2).sum(axis=0) * g / (g - 1)) / n.sum())


def _subtract(a: Landings, b: Landings) -> Landings:
    return Landings(tuple(x - y for x, y in zip(a.tiles, b.tiles, strict=True)),
                    a.in_jail - b.in_jail, a.per)


def play_landings(
    profile: str | RulesProfile = "ugentopoly",
    *,
    board: Board | str | os.PathLike[str] | None = None,
    games: int = 10,
    players: int = 2,
    turns: int = 1000,
    burn_in: int = 0,
    seed: int = 0,
    jail: Literal["short", "long"] = "short",
    per: Per = "roll",
    options: dict[str, Any] | None = None,
) -> EngineLandings:
    """Play `games` engine games of `turns` player-turns each and count where every roll (or
    turn) ended, leaving out each game's first `burn_in` player-turns (to forget GO).

    Money never runs out (starting money 10**9): the bots only keep the movement rules."""
    rules = get_profile(profile)
    opts: dict[str, Any] = {"starting_money": 10**9, "turn_limit": turns + burn_in,
                            "auto_end_turn": True, "income_tax_choice": False}
    if rules.round_limit is not None:
        opts["round_limit"] = None
    opts.update(options or {})
    bots = [MoverBot(jail) for _ in range(players)]
    total: Landings | None = None
    per_game: list[Landings] = []
    for k in range(games):
        game = Game(rules, board=board, players=players, seed=seed * 100_003 + k, options=opts)
        counter = LandingCounter(game.board.size, game.board.jail_position)
        before = counter.landings(per, include_current=False)
        seen = 0
        apply, decision = game.apply, type(game).decision
        while not game.is_over:
            if burn_in and seen == 0 and game.turn_number > burn_in:
                counter.feed(game.events)
                seen = len(game.events)
                before = counter.landings(per, include_current=False)
            d = decision.fget(game)  # type: ignore[attr-defined]
            apply(bots[d.player].choose(game))
        counter.feed(game.events[seen:])
        result = _subtract(counter.landings(per, include_current=False), before)
        per_game.append(result)
        total = result if total is None else total + result
    assert total is not None
    return EngineLandings(total, per_game)


__all__ = ["EngineLandings", "MoverBot", "play_landings"]
