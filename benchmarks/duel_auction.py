"""The strong bot's auction limits of this branch against main's (capped by what the lot does,
floored at the mortgage value, bids never above what wins outright) head to head, seats
swapped, same seeds; and each against the heuristic bot.

    PYTHONPATH=. python benchmarks/duel_auction.py --games 300          # pure engine, slow
    python benchmarks/duel_auction.py --games 300 --against heuristic
    python benchmarks/duel_auction.py --games 500 --first-seed 2000 --against groupcaps \
        --blocks 1.6 --completes 2.5

`GroupCaps` caps the lots that block or complete a group too (at `--blocks` / `--completes`
times the price; the bot caps only lone lots): 1.6/2.5 against the bot changed not one game.

`Before` is StrongBot with main's `_bid` (the valuation's limit alone, a jump to half the
price): kept here, not in the bot, to measure the change side by side.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ugentopoly_widget import Game  # noqa: E402
from ugentopoly_widget.engine.actions import Action  # noqa: E402
from ugentopoly_widget.engine.bots import Bot, HeuristicBot, play_game  # noqa: E402
from ugentopoly_widget.engine.legal import bid_action  # noqa: E402
from ugentopoly_widget.engine.strong.bot import AUCTION_CAP_VALUE, StrongBot, Why  # noqa: E402

CAPS = {"auction_blocks": 1.6, "auction_completes": 2.5}  # (set by --blocks, --completes)


class GroupCaps(StrongBot):
    """The strong bot with a blocker's and a completer's bids capped as well."""

    def _lot_cap(self, e, pos, code) -> int:  # type: ignore[no-untyped-def]
        return int(e.costs[pos] * CAPS.get(code, AUCTION_CAP_VALUE))


class Before(StrongBot):
    """main's auction bids (efb05f2)."""

    def _bid(self, e, w, i) -> Action:  # type: ignore[no-untyped-def]
        d = e.decision
        acts = e.acts[i]
        low = d.data["min_bid"]
        cash = e.players[i].cash
        pos = d.data["position"]
        if cash < low:
            return acts.pass_
        key = (e.turn_number, pos if pos is not None else -1, e.applied if pos is None else -2)
        if key != self._auction_key:
            self._auction_key = key
            self._auction_limit = (self._house_limit(e, w, i, low) if pos is None
                                   else self._lot_limit(e, w, i, pos, d.data["bidders"]))
            self._auction_why = Why("auction_pass")
        limit = self._auction_limit
        if limit < low:
            return acts.pass_
        price = e.costs[pos] if pos is not None else low
        jump = price // 20 if price >= 100 else 5
        if low // 10 > jump:
            jump = low // 10
        amount = low + jump
        if pos is not None and amount < price // 2:
            amount = price // 2
        amount = min(amount, limit, cash)
        return bid_action(e, i, amount)


def duel(subject: Callable[[int], Bot], other: Callable[[int], Bot], seeds: int,
         first_seed: int) -> tuple[float, int, float, list[float]]:
    """2-player classic games of `subject` against `other`, each seed played twice (seats
    swapped): the subject's wins (a tie shared, a game without an end won by the highest
    valuation), the games, the seconds and the subject's wins per seed (0, 1 or 2)."""
    start = time.time()
    per_seed: list[float] = []
    for seed in range(first_seed, first_seed + seeds):
        pair = 0.0
        for seat in range(2):
            game = Game("classic", players=["P0", "P1"], seed=seed)
            bots = [subject(seed * 10 + k) if k == seat else other(seed * 10 + k)
                    for k in range(2)]
            play_game(game, bots, until_turn=1500)
            if game.is_over:
                pair += (seat in game.winners) / max(len(game.winners), 1)
            else:
                values = game.valuations()
                leaders = [k for k in range(2) if values[k] == max(values)]
                pair += (seat in leaders) / len(leaders)
        per_seed.append(pair)
    return sum(per_seed), 2 * len(per_seed), time.time() - start, per_seed


def report(subject: str, against: str, wins: float, games: int, seconds: float,
           per_seed: list[float]) -> None:
    """The share with two 95 % intervals: as if the games were independent, and paired by
    seed (the bots draw nothing: two bots that play alike split every seed, so the paired
    interval sees a small change that the first hides)."""
    p = wins / games
    half = 1.96 * math.sqrt(p * (1 - p) / games)
    n = len(per_seed)
    mean = sum(per_seed) / n
    var = sum((x - mean) ** 2 for x in per_seed) / (n - 1) if n > 1 else 0.0
    paired = 1.96 * math.sqrt(var / n) / 2
    print(f"{subject} vs {against}: {wins:.1f}/{games} = {p:.4f} ± {half:.4f} (95 %; paired "
          f"by seed ± {paired:.4f}), {seconds:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300, help="seeds (each played twice)")
    parser.add_argument("--against", default="before",
                        choices=["before", "heuristic", "groupcaps"])
    parser.add_argument("--subject", default="after", choices=["after", "before"])
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--blocks", type=float, default=1.6, help="groupcaps: a blocker's")
    parser.add_argument("--completes", type=float, default=2.5, help="groupcaps: a completer's")
    args = parser.parse_args()
    CAPS.update(auction_blocks=args.blocks, auction_completes=args.completes)
    subject = StrongBot if args.subject == "after" else Before
    other = {"before": Before, "heuristic": HeuristicBot, "groupcaps": GroupCaps}[args.against]
    report(args.subject, args.against, *duel(subject, other, args.games, args.first_seed))


if __name__ == "__main__":
    main()
