"""The rollout bot ("thinking bot"): plays like the strong bot, except at the decisions that
matter, where it tries the sensible choices by a few rollouts each (strong play to the end,
the same seeds for every choice) and takes the best, when it beats the strong bot's own
choice by more than its noise.

The decisions it thinks about: buy or decline; bid on where the strong bot would drop out of
an auction; accept or reject a trade; lift a received mortgage or keep it; leave jail by
paying, by a card or by rolling; make the strong bot's trade offer or none; build one more
house where the strong bot keeps its cash. Everything else (and every choice where only one
is sensible) is the strong bot's answer at once.

>>> from ugentopoly_widget import Game
>>> from ugentopoly_widget.engine.bots import HeuristicBot, play_game
>>> game = Game("classic", players=2, seed=1)
>>> _ = play_game(game, [RolloutBot(seed=1, rollouts=8), HeuristicBot(seed=2)],
...               max_actions=200)
>>> game.turn_number > 10
True
"""

from __future__ import annotations

import math
import numbers
import random
import time
from typing import Any, ClassVar

from ..engine import actions as A
from ..engine import legal as rules_legal
from ..engine.actions import Action
from ..engine.game import Game
from ..engine.integers import as_integer
from ..engine.records.positions import PositionCopy
from ..engine.strong.bot import StrongBot
from ..engine.strong.why import Why
from .errors import RolloutError
from .runner import Plan, check_max_turns, check_rollouts, play_rollouts
from .stats import differences, mean, standard_error

DEFAULT_BOT_ROLLOUTS = 24  # per choice: ~0.5 ms each in a two-player classic game
DEFAULT_BOT_MAX_TURNS = 400  # then the richest counts as the winner (at_cap="richest")
MAX_BOT_ROLLOUTS = 10_000  # per choice (four times that for a trade): seconds per decision
THOUGHT = (A.Buy, A.Decline, A.AcceptTrade, A.RejectTrade, A.LiftMortgage, A.KeepMortgage,
           A.PayFine, A.UseJailCard)


def _check_margin(margin: object) -> float:
    if (isinstance(margin, bool) or not isinstance(margin, numbers.Real)
            or not 0 <= float(margin) < math.inf):
        raise RolloutError(f"margin is a number of standard errors of at least 0, not "
                           f"{margin!r}")
    return float(margin)


class RolloutBot:
    """``simulate(bots=["rollout", "strong"])``, or a widget seat ``"rollout"``.

    ``rollouts`` per choice; ``margin``: how many paired standard errors a choice must beat
    the strong bot's by to be taken instead (noise never overrules it); ``max_turns``: the
    rollouts' cap, after which the richest counts as the winner. ``stats`` counts the
    decisions thought about and the seconds spent; ``base`` is the strong bot it starts from.
    ``notes``, when a list, collects (event index, reason) of its decisions, as the strong
    bot's does (the widget's log). Settings are checked when the bot is made (RolloutError:
    rollouts from 1 to ``MAX_BOT_ROLLOUTS``, a margin of at least 0, max_turns from 1; numpy
    integers too), so ``simulate()`` refuses a factory such as
    ``partial(RolloutBot, rollouts=-1)`` before any game."""

    name: ClassVar[str] = "rollout"

    def __init__(self, seed: int | None = None, rollouts: int = DEFAULT_BOT_ROLLOUTS,
                 margin: float = 1.0, max_turns: int = DEFAULT_BOT_MAX_TURNS) -> None:
        if seed is not None and as_integer(seed) is None:
            raise RolloutError(f"seed is None or a whole number, not {seed!r}")
        seed = None if seed is None else as_integer(seed)
        self.rollouts = check_rollouts(rollouts, "rollouts", MAX_BOT_ROLLOUTS)
        self.margin = _check_margin(margin)
        self.max_turns = check_max_turns(max_turns)
        self.base = StrongBot(seed=seed)
        self.notes: list[tuple[int, Why]] | None = None
        self.rng = random.Random(seed)
        self.stats: dict[str, Any] = {"decisions": 0, "thought": 0, "changed": 0,
                                      "seconds": 0.0}
        self._built_turn = -1
        self._overruled = Why("rollouts_overrule")

    # ------------------------------------------------------------------ choosing

    def choose(self, game: Game) -> Action:
        self.stats["decisions"] += 1
        default = self.base.choose(game)
        candidates = self.candidates(game, default)
        if len(candidates) < 2:
            self._note(game, self.base.why)
            return default
        started = time.perf_counter()
        # a trade moves a whole group: worth four times the rollouts (and rare)
        kind = game.decision.kind
        weight = 4 if kind == "trade" or type(default) is A.ProposeTrade else 1
        best = self._best(game, candidates, default, self.rollouts * weight)
        self.stats["thought"] += 1
        self.stats["changed"] += best != default
        self.stats["seconds"] += time.perf_counter() - started
        self._note(game, self.base.why if best == default else self._overruled)
        return best

    def _note(self, game: Game, why: Why | None) -> None:
        if self.notes is not None and why is not None:
            self.notes.append((len(game._engine.events), why))

    def candidates(self, game: Game, default: Action) -> list[Action]:
        """The sensible choices of this decision, the strong bot's first (one: no thinking).

        Thought about: buy or decline; accept or reject a trade; lift a received mortgage
        or keep it; pay, use a card or roll in jail; make the strong bot's trade offer or
        none; one more house where the strong bot keeps its cash (once a turn); in an
        auction, bid on where the strong bot would drop out (its own bids up to its limit
        stand)."""
        decision = game.decision
        kind = decision.kind
        out: list[Action] = [default]

        def add(action: Action | None) -> None:
            if action is not None and action not in out and game.is_legal(action):
                out.append(action)

        if kind in ("buy", "trade", "mortgaged", "jail_fine"):
            for action in game.legal_actions():
                if type(action) in THOUGHT:
                    add(action)
        elif kind == "auction":
            if type(default) is A.Pass:
                for action in game.legal_actions():  # the lowest bid
                    add(action)
        elif kind in ("turn", "post_roll"):
            player = decision.player
            assert player is not None
            if kind == "turn" and game.players[player].in_jail:
                if type(default) not in (A.Roll, A.PayFine, A.UseJailCard):
                    return out  # a house first (the jail choice comes back after it)
                for action in game.legal_actions():
                    if type(action) in (A.Roll, A.PayFine, A.UseJailCard):
                        add(action)
            elif type(default) is A.ProposeTrade:
                add(A.Roll(player) if kind == "turn" else A.EndTurn(player))
            elif self._built_turn != game.turn_number:
                # the strong bot keeps its reserve: would one more house, keeping half of it,
                # pay? (asked once a turn)
                self._built_turn = game.turn_number
                e = game._engine
                keep = self.base.reserve(e, self.base.worth(e), player)
                add(rules_legal.affordable_build(e, e.players[player], keep // 2))
        return out

    def _best(self, game: Game, candidates: list[Action], default: Action, rollouts: int
              ) -> Action:
        """The candidate with the best chance, if it beats the strong bot's by the margin."""
        player = game.decision.player
        assert player is not None
        position = PositionCopy(game)
        plan = Plan(record={}, applied=len(game.actions), seats=len(game.players),
                    bots=("strong",) * len(game.players), seed=self.rng.getrandbits(62),
                    max_turns=self.max_turns, at_cap="richest", variants=())
        out = play_rollouts(position, plan, [[a] for a in candidates], 0, rollouts)
        means = [mean(out.share(c, player)) for c in range(len(candidates))]
        base = candidates.index(default)
        best = means.index(max(means))  # the first of the best, as numpy's argmax
        if best == base:
            return default
        diff = differences(out.share(best, player), out.share(base, player))
        se = standard_error(diff, out.strata)
        gain = mean(diff)
        if not math.isfinite(se) or gain <= self.margin * se:
            return default
        self._overruled = Why("rollouts_overrule", value=100.0 * gain, amount=rollouts)
        return candidates[best]


__all__ = ["RolloutBot", "DEFAULT_BOT_ROLLOUTS", "MAX_BOT_ROLLOUTS"]
