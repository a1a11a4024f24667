"""The strong bot's trade answers, checked by rollouts played to the end: every trade offer
answered in strong-vs-strong 2-player classic games is played on both ways (accepted and
rejected, the same seeds for both, strong bots to the end), and the table says, by kind of
offer, how often the bot's answer was the worse one by more than two standard errors.

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
from ugentopoly_widget.engine.actions import AcceptTrade  # noqa: E402
from ugentopoly_widget.engine.bots import play_game  # noqa: E402
from ugentopoly_widget.engine.records.positions import PositionCopy  # noqa: E402
from ugentopoly_widget.engine.state import TRADE  # noqa: E402
from ugentopoly_widget.engine.strong import trading as T  # noqa: E402
from ugentopoly_widget.engine.strong.bot import StrongBot  # noqa: E402

ROLLOUT_TURNS = 600  # then an unfinished rollout counts as half a win
DELTA_BINS = (-math.inf, -3000, -1500, -400, 0, 20, 300, math.inf)


def _game(seed: int) -> tuple[Game, list[StrongBot]]:
    return Game("classic", players=["A", "B"], seed=seed), [StrongBot(1), StrongBot(2)]


def answers_of(seed: int) -> list[int]:
    """The record indices of the game's trade answers."""
    game, bots = _game(seed)
    found = []
    while not game.is_over and game.turn_number < 1000:
        if game.decision.kind == TRADE:
            found.append(len(game.actions))
        player = game.decision.player
        assert player is not None
        game.apply(bots[player].choose(game))
    return found


def kind_of(completes_proposer: bool, completes_me: bool, lots_in: int) -> str:
    if completes_proposer and completes_me:
        return "swap completing a group each"
    if completes_proposer and lots_in == 0:
        return "sale completing the proposer's"
    return "other"


def judge(job: tuple[int, int, int]) -> dict[str, Any]:
    """The answer at `index` of game `seed`: the bot's, its valuation and the rollouts'."""
    seed, index, rollouts = job
    game, bots = _game(seed)
    while len(game.actions) < index:
        player = game.decision.player
        assert player is not None
        game.apply(bots[player].choose(game))
    e = game._engine
    offer = e.decision.data["offer"]
    me = offer.partner
    w = bots[me].worth(e)
    now = T.position_of(e)
    after = now.deal(offer.player, me, offer.give, offer.get)
    delta = T.score(w, e, after, me) - T.score(w, e, now, me)
    theirs, mine = T.swap_groups(e, after.owner, offer)
    accepts = type(bots[me].choose(game)) is AcceptTrade
    acts = e.acts[me]
    position = PositionCopy(game)
    gains = []
    for k in range(rollouts):
        shares = []
        for choice in (acts.accept, acts.reject):
            position.reset()
            position.reseed(7919 * k + seed)
            g = position.game
            g.apply(choice)
            play_game(g, [StrongBot(2 * k), StrongBot(2 * k + 1)],
                      until_turn=g.turn_number + ROLLOUT_TURNS)
            shares.append((me in g.winners) / max(1, len(g.winners)) if g.is_over else 0.5)
        gains.append(shares[0] - shares[1])
    gain = sum(gains) / rollouts
    se = math.sqrt(sum((x - gain) ** 2 for x in gains) / (rollouts - 1) / rollouts)
    return {"seed": seed, "index": index, "turn": e.turn_number, "delta": delta,
            "kind": kind_of(theirs >= 0, mine >= 0, len(offer.give.properties)),
            "bot_accepts": accepts, "gain": gain, "se": se}


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
        found = pool.map(answers_of, seeds)
        jobs = [(s, i, args.rollouts) for s, indices in zip(seeds, found, strict=True)
                for i in indices]
        rows = pool.map(judge, jobs, chunksize=2)
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"{args.games} strong-vs-strong games from seed {args.first_seed}, {args.rollouts} "
          f"rollouts each way, {time.time() - start:.0f} s")
    report(rows)


if __name__ == "__main__":
    main()
