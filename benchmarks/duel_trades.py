"""The strong bot's trading against its trading until December 2026, head to head, seats
swapped, same seeds; and each against the heuristic bot. Two changes, measured apart or
together:

- answers: a swap that completes a group for each of two players was taken up to
  ``group_tolerance`` below even; now only at the bot's margin, like any offer;
- offers: the bot now makes no offer that the calibrated model of the chance to win
  (``strong.winmodel``) says lowers its chance (``StrongBot.check_offers``).

    python benchmarks/duel_trades.py --games 2000                      # against both old
    python benchmarks/duel_trades.py --games 2000 --against answers-before
    python benchmarks/duel_trades.py --games 2000 --against offers-before --first-seed 9000
    python benchmarks/duel_trades.py --games 1500 --against heuristic [--subject before]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duel_auction import duel, report  # noqa: E402

from ugentopoly_widget.engine.actions import Action  # noqa: E402
from ugentopoly_widget.engine.bots import HeuristicBot  # noqa: E402
from ugentopoly_widget.engine.state import TRADE  # noqa: E402
from ugentopoly_widget.engine.strong import trading as T  # noqa: E402
from ugentopoly_widget.engine.strong.bot import StrongBot, Why  # noqa: E402


class AnswersBefore(StrongBot):
    """The strong bot answering as before: between two players, a swap that completes a group
    for each side taken up to group_tolerance below even, any other offer at the margin."""

    def _decide(self, e) -> Action:  # type: ignore[no-untyped-def]
        d = e.decision
        if d.kind != TRADE:
            return super()._decide(e)
        me = d.player
        w = self.worth(e)
        action, why = T.answer(w, e, me)
        offer = d.data["offer"]
        now = T.position_of(e)
        after = now.deal(offer.player, me, offer.give, offer.get)
        theirs, mine = T.swap_groups(e, after.owner, offer)
        if (type(action) is not type(e.acts[me].accept) and mine >= 0 and theirs >= 0
                and w.active == 2 and min(after.cash) >= 0):
            delta = T.score(w, e, after, me) - T.score(w, e, now, me)
            if delta >= -T.group_tolerance(w, mine):
                action, why = e.acts[me].accept, Why("accept_swap", value=delta)
        self.why = why
        return action


class OffersBefore(StrongBot):
    """The strong bot offering as before: no check by the model of the chance to win."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.check_offers = False


class Before(AnswersBefore):
    """Both as before."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.check_offers = False


BOTS = {"after": StrongBot, "before": Before, "answers-before": AnswersBefore,
        "offers-before": OffersBefore, "heuristic": HeuristicBot}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000, help="seeds (each played twice)")
    parser.add_argument("--against", default="before", choices=sorted(BOTS))
    parser.add_argument("--subject", default="after", choices=sorted(BOTS))
    parser.add_argument("--first-seed", type=int, default=5000)
    args = parser.parse_args()
    report(args.subject, args.against,
           *duel(BOTS[args.subject], BOTS[args.against], args.games, args.first_seed))

if __name__ == "__main__":
    main()
