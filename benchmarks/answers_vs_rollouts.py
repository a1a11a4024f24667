"""The strong bot's trade answers, checked by rollouts played to the end: every trade offer
answered in strong-vs-strong 2-player classic games is played on both ways (accepted and
rejected, ``action_values``: the same seeds for both, strong bots to the end), and the table
says, by kind of offer, how often the bot's answer was the worse one by more than two
standard errors.

    python benchmarks/answers_vs_rollouts.py --games 30 --rollouts 64      # ~5 min, 2 cores
    python benchmarks/answers_vs_rollouts.py --games 30 --out answers.jsonl  # every answer

Kinds: a swap that completes a group for each side; a sale (cash for lots) that completes the
proposer's group; anything else. For swaps, the mean gain of accepting by the valuation's
verdict (the bot's score change, strong.trading.answer: it accepts from +20): the bot's
threshold is right on average, its wrong answers are particular positions, which is why a
rule does not recover what rollouts find (benchmarks/duel_trades.py, ``swaps-by-model``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ugentopoly_widget import Game  # noqa: E402
from ugentopoly_widget.engine.actions import AcceptTrade, RejectTrade  # noqa: E402
from ugentopoly_widget.engine.bots import make_bot, play_game  # noqa: E402
from ugentopoly_widget.engine.strong import trading as T  # noqa: E402
from ugentopoly_widget.engine.strong.bot import StrongBot  # noqa: E402
from ugentopoly_widget.rollouts import action_values  # noqa: E402

DELTA_BINS = (-math.inf, -3000, -1500, -400, 0, 20, 300, math.inf)


def strong_game(seed: int) -> dict[str, Any]:
    """The record of a 2-player classic game of two strong bots."""
    game = Game("classic", players=["A", "B"], seed=seed)
    play_game(game, [make_bot("strong", 1), make_bot("strong", 2)], until_turn=1000)
    return game.record()


def answers_of(record: dict[str, Any]) -> list[int]:
    """The record indices of the game's trade answers."""
    game = Game.replay(record)
    return [i for i, a in enumerate(game.actions) if type(a) in (AcceptTrade, RejectTrade)]


def kind_of(completes_proposer: bool, completes_me: bool, lots_in: int) -> str:
    if completes_proposer and completes_me:
        return "swap completing a group each"
    if completes_proposer and lots_in == 0:
        return "sale completing the proposer's"
    return "other"


def judge(job: tuple[dict[str, Any], int, int]) -> dict[str, Any]:
    """The answer at `index` of the record: the bot's, its valuation and the rollouts'
    (action_values: both answers on the same seeds, strong bots to the end)."""
    record, index, rollouts = job
    game = Game.replay(record, upto=index)
    e = game._engine
    offer = e.decision.data["offer"]
    me = offer.partner
    w = StrongBot().worth(e)
    now = T.position_of(e)
    after = now.deal(offer.player, me, offer.give, offer.get)
    delta = T.score(w, e, after, me) - T.score(w, e, now, me)
    theirs, mine = T.swap_groups(e, after.owner, offer)
    acts = e.acts[me]
    table = action_values(game, rollouts=rollouts, actions=[acts.accept, acts.reject])
    # each row's delta is against the bot's own answer (paired): accepting minus rejecting
    # is the accept row's where the bot rejects, minus the reject row's where it accepts
    row = {type(r.action): r for r in table.itertuples()}
    accept, reject = row[AcceptTrade], row[RejectTrade]
    gain = accept.delta if reject.bot_choice else -reject.delta
    se = reject.delta_se if accept.bot_choice else accept.delta_se
    return {"seed": record["seed"], "index": index, "turn": e.turn_number, "delta": delta,
            "kind": kind_of(theirs >= 0, mine >= 0, len(offer.give.properties)),
            "bot_accepts": bool(accept.bot_choice), "gain": float(gain), "se": float(se)}


def report(rows: list[dict[str, Any]]) -> None:
    print(f"{len(rows)} answers; points of the decider's chance to win, accepting minus "
          "rejecting")
    for kind in sorted({r["kind"] for r in rows}):
        mine = [r for r in rows if r["kind"] == kind]
        wrong = [r for r in mine if (r["gain"] > 2 * r["se"]) != r["bot_accepts"]
                 and abs(r["gain"]) > 2 * r["se"]]
        lost = sum(100 * abs(r["gain"]) for r in wrong)
        mean = 100 * sum(r["gain"] for r in mine) / len(mine)
        print(f"  {kind:32s} {len(mine):4d} answered, {sum(r['bot_accepts'] for r in mine):3d} "
              f"accepted; accepting gains {mean:6.1f} on average; the bot's answer the worse "
              f"by > 2 se: {len(wrong):3d} ({lost:.0f} points)")
    swaps = [r for r in rows if r["kind"].startswith("swap")]
    if swaps:
        print("  swaps, by the valuation's score change (the bot accepts from +20):")
        for low, high in zip(DELTA_BINS, DELTA_BINS[1:], strict=False):
            inside = [r for r in swaps if low <= r["delta"] < high]
            if inside:
                mean = 100 * sum(r["gain"] for r in inside) / len(inside)
                se = 100 * math.sqrt(sum(r["se"] ** 2 for r in inside)) / len(inside)
                print(f"    [{low:>6}, {high:>6}): {len(inside):4d}, accepting gains "
                      f"{mean:6.1f} ± {se:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--first-seed", type=int, default=31000)
    parser.add_argument("--rollouts", type=int, default=64, help="per answer, each way")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, help="every answer, one JSON line each")
    args = parser.parse_args()
    start = time.time()
    seeds = range(args.first_seed, args.first_seed + args.games)
    with Pool(args.workers) as pool:
        records = pool.map(strong_game, seeds)
        found = pool.map(answers_of, records)
        jobs = [(r, i, args.rollouts) for r, indices in zip(records, found, strict=True)
                for i in indices]
        rows = pool.map(judge, jobs, chunksize=2)
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"{args.games} strong-vs-strong games from seed {args.first_seed}, {args.rollouts} "
          f"rollouts each way, {time.time() - start:.0f} s")
    report(rows)


if __name__ == "__main__":
    main()
