"""The strong bot's answers to trade offers against its answers until December 2026 (a swap
that completes a group for each of two players taken up to ``group_tolerance`` below even),
head to head, seats swapped, same seeds; and each against the heuristic bot.

    python benchmarks/duel_answers.py --games 2000
    python benchmarks/duel_answers.py --games 2000 --first-seed 9000
    python benchmarks/duel_answers.py --games 1500 --against heuristic
    python benchmarks/duel_answers.py --games 1500 --against heuristic --subject before

Only the answers differ: both bots propose the same offers (the proposer still offers a swap
about even, the common human deal).
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


class Before(StrongBot):
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000, help="seeds (each played twice)")
    parser.add_argument("--against", default="before", choices=["before", "heuristic"])
    parser.add_argument("--subject", default="after", choices=["after", "before"])
    parser.add_argument("--first-seed", type=int, default=5000)
    args = parser.parse_args()
    subject = StrongBot if args.subject == "after" else Before
    other = {"before": Before, "heuristic": HeuristicBot}[args.against]
    report(args.subject, args.against, *duel(subject, other, args.games, args.first_seed))


if __name__ == "__main__":
    main()
