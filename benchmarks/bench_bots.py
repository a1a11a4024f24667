"""The bots' tournament and the strong bot's targets (issue 31), in one command.

    python benchmarks/bench_bots.py                          # everything below but 'rollout'
    python benchmarks/bench_bots.py --cases tournament --games 200
    python benchmarks/bench_bots.py --cases targets --target-games 1000
    python benchmarks/bench_bots.py --cases rollout --rollout-games 600

Cases:
- ``tournament``: every pair of bots (random, heuristic, strong; ``--bots`` adds rollout), 2
  players (A against B) and 4 players (one A against three B, and one B against three A), on
  every profile, seats rotated, through ``simulate()`` on ``--workers`` processes: each bot's
  win share with its 95 % Wilson interval, the share of games without an end (stopped by
  simulate's 500-round limit, the richest winning), the mean turns and the seconds.
- ``targets``: strong against heuristic, 2-player classic (``--target-games``, seats
  alternated) and 4-player classic (one strong, three heuristic); an exploiter (the heuristic
  bot offering 1.5x to 2x the list price for every lot that completes its group) against the
  strong bot.
- ``speed``: CPU per decision of each bot (every decision timed with the process clock, the
  bot's own choice only), 2 and 4 players, every profile.
- ``blocker``: the README's position (2-player classic, Ann holds St. James and Tennessee,
  Bob New York, 1,500 each): Bob's win_chances and rate_trade of "Ann pays 300 for New York",
  with the strong bot and with the heuristic bot side by side.
- ``rollout`` (long): the rollout bot (thinking on top of the strong bot) against the strong
  bot, 2-player classic, seats rotated.

The wall time of 1,000 rollouts from a mid-game classic position with the strong bot (the
target of 2 s on 2 cores) is ``benchmarks/bench_rollouts.py --cases chances``.

Heavy runs belong under ``nice``; every figure is printed with the load average (``uptime``).
"""

from __future__ import annotations

import argparse
import itertools
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ugentopoly_widget import Game  # noqa: E402
from ugentopoly_widget.engine import actions as A  # noqa: E402
from ugentopoly_widget.engine import compiled  # noqa: E402
from ugentopoly_widget.engine import legal as rules_legal  # noqa: E402
from ugentopoly_widget.engine.bots import HeuristicBot, make_bot, play_game  # noqa: E402
from ugentopoly_widget.simulation import simulate  # noqa: E402
from ugentopoly_widget.simulation.stats import wilson  # noqa: E402

PROFILES = ("classic", "ugentopoly", "cell22")
UNFINISHED = ("round_limit", "turn_limit")


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def share_line(label: str, wins: float, games: int) -> str:
    low, high = wilson(round(wins), games)
    return (f"{label:>10s} {100 * wins / games:5.1f} %  [{100 * low:4.1f}, {100 * high:4.1f}]"
            if games else f"{label:>10s}     -")


def shares(results: Any, names: list[str]) -> tuple[dict[str, float], dict[str, int], int, float]:
    """Win shares by bot name (a shared win split), seat-games by name, unfinished games,
    mean turns."""
    g = results.games
    seats = results.settings.seats
    wins: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for row in g.itertuples():
        n = max(1, int(row.n_winners))
        for s in range(seats):
            bot = getattr(row, f"bot_{s}")
            count[bot] += 1
            if getattr(row, f"won_{s}"):
                wins[bot] += 1.0 / n
    unfinished = int(g["end_reason"].isin(UNFINISHED).sum())
    return dict(wins), dict(count), unfinished, float(g["turns"].mean()) if len(g) else 0.0


def run_lineup(profile: str, lineup: list[str], games: int, args: argparse.Namespace,
               seed: int) -> tuple[dict[str, float], dict[str, int], int, float, float]:
    started = time.perf_counter()
    executor = "processes" if args.workers > 1 else None
    results = simulate(games, profile, players=len(lineup), bots=lineup, rotate_seats=True,
                       seed=seed, executor=executor, workers=args.workers if executor else None,
                       progress=False)
    wins, count, unfinished, turns = shares(results, sorted(set(lineup)))
    return wins, count, unfinished, turns, time.perf_counter() - started


# ---------------------------------------------------------------------- the tournament


def case_tournament(args: argparse.Namespace) -> None:
    bots = args.bots.split(",")
    print(f"\n== tournament: {bots}, {args.games} games a line-up ({args.rollout_games} with "
          f"the rollout bot), seats rotated, compiled={compiled}\n   load: {load()}")
    for profile in args.profiles.split(","):
        for players in (2, 4):
            for a, b in itertools.combinations(bots, 2):
                lineups = [[a, b]] if players == 2 else [[a] + [b] * 3, [b] + [a] * 3]
                for lineup in lineups:
                    n = args.rollout_games if "rollout" in lineup else args.games
                    wins, count, unfinished, turns, wall = run_lineup(profile, lineup, n, args,
                                                                      args.seed)
                    label = " vs ".join(f"{lineup.count(x)} {x}" for x in dict.fromkeys(lineup))
                    # the share of the games each bot won (three seats of one bot: their
                    # wins together; a fair share is then 75 %)
                    cells = "  ".join(share_line(x, wins.get(x, 0.0), n)
                                      for x in dict.fromkeys(lineup))
                    print(f"  {profile:10s} {players}p {label:28s} {cells}   no end "
                          f"{100 * unfinished / n:5.1f} %  turns {turns:6.1f}  "
                          f"{wall:6.1f} s")
    print(f"   load: {load()}")


# ---------------------------------------------------------------------- the targets


class Exploiter(HeuristicBot):
    """The heuristic bot, offering 1.5x to 2x the list price (drawn each time) for every lot
    that would complete a group of its own, one lot a turn in turn (BOTS.md §3: the offer
    list-price bots take)."""

    def _group_offer(self, e: Any, player: int, short: list[int]) -> A.Action | None:
        me = e.players[player]
        start = e.turn_number % len(short)
        for k in range(len(short)):
            pos = short[(start + k) % len(short)]
            holder = e.owner[pos]
            if holder < 0 or e.level[pos] or e.players[holder].bankrupt:
                continue
            price = int(e.costs[pos] * (1.5 + 0.5 * self.rng.random()))
            if me.cash < price:
                continue
            offer = A.ProposeTrade(player, holder, A.TradeSide(cash=price),
                                   A.TradeSide(properties=(pos,)))
            if e.trade_problem(offer) is None:
                return offer
        return None

    def choose(self, game: Game) -> A.Action:
        e = game._engine
        d = e.decision
        if d.kind == "turn" and self._offered_turn != e.turn_number and e.trading:
            self._offered_turn = e.turn_number
            short = rules_legal.lots_one_short(e, d.player)
            if short:
                offer = self._group_offer(e, d.player, short)
                if offer is not None:
                    return offer
        return super().choose(game)


def serial_duel(profile: str, mine: Any, theirs: Any, games: int, seed: int
                ) -> tuple[float, int, float]:
    """`mine` (a bot factory) against `theirs`, 2 players, seats alternated, in this
    process: its win share, the games without an end, the seconds."""
    started = time.perf_counter()
    wins = 0.0
    unfinished = 0
    for g in range(games):
        game = Game(profile, players=2, seed=seed + g, options={"round_limit": 500})
        seat = g % 2
        bots = [theirs(seed=seed + 2 * g), theirs(seed=seed + 2 * g + 1)]
        bots[seat] = mine(seed=seed + 2 * g + seat)
        play_game(game, bots)
        if seat in game.winners:
            wins += 1.0 / len(game.winners)
        unfinished += game._engine.over_reason in UNFINISHED
    return wins, unfinished, time.perf_counter() - started


def case_targets(args: argparse.Namespace) -> None:
    n = args.target_games
    print(f"\n== targets, compiled={compiled}\n   load: {load()}")
    wins, count, unfinished, turns, wall = run_lineup("classic", ["strong", "heuristic"], n,
                                                      args, args.seed)
    print(f"  strong vs heuristic, 2p classic, {n} games: "
          f"{share_line('strong', wins.get('strong', 0.0), n)}  (target >= 75 %, interval "
          f"above 70 %)  no end {unfinished}  turns {turns:.0f}  {wall:.0f} s")
    wins, count, unfinished, turns, wall = run_lineup("classic", ["strong"] + ["heuristic"] * 3,
                                                      n, args, args.seed)
    print(f"  1 strong vs 3 heuristic, 4p classic, {n} games: "
          f"{share_line('strong', wins.get('strong', 0.0), n)}  (target >= 45 %)  "
          f"no end {unfinished}  turns {turns:.0f}  {wall:.0f} s")
    won, unfinished, wall = serial_duel("classic", Exploiter, make_strong, n, args.seed)
    print(f"  exploiter vs strong, 2p classic, {n} games: "
          f"{share_line('exploiter', won, n)}  (target <= 50 %)  no end {unfinished}  "
          f"{wall:.0f} s (in this process)")
    won, unfinished, wall = serial_duel("classic", Exploiter, HeuristicBot, n, args.seed)
    print(f"  exploiter vs heuristic (for comparison), 2p classic, {n} games: "
          f"{share_line('exploiter', won, n)}  no end {unfinished}  {wall:.0f} s")
    print(f"   load: {load()}")


def make_strong(seed: int | None = None) -> Any:
    return make_bot("strong", seed=seed)


# ---------------------------------------------------------------------- CPU per decision


class Timed:
    """A bot whose every choice is timed on the process clock."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.ns = 0
        self.decisions = 0

    def choose(self, game: Game) -> A.Action:
        start = time.process_time_ns()
        action = self.bot.choose(game)
        self.ns += time.process_time_ns() - start
        self.decisions += 1
        return action  # type: ignore[no-any-return]


def case_speed(args: argparse.Namespace) -> None:
    print(f"\n== CPU per decision (the bot's own choice), compiled={compiled}\n   load: {load()}")
    for profile in args.profiles.split(","):
        for players in (2, 4):
            cells = []
            for name in ("random", "heuristic", "strong"):
                total_ns = 0
                decisions = 0
                for g in range(args.speed_games):
                    game = Game(profile, players=players, seed=args.seed + g,
                                options={"round_limit": 200})
                    bots = [Timed(make_bot(name, seed=g * 8 + k)) for k in range(players)]
                    play_game(game, bots)
                    total_ns += sum(b.ns for b in bots)
                    decisions += sum(b.decisions for b in bots)
                cells.append(f"{name} {total_ns / 1000 / max(1, decisions):6.1f} us "
                             f"({decisions} decisions)")
            print(f"  {profile:10s} {players}p  " + "   ".join(cells))
    print(f"   load: {load()}")


# ---------------------------------------------------------------------- the README's position


def case_blocker(args: argparse.Namespace) -> None:
    from ugentopoly_widget.rollouts import rate_trade, win_chances

    print(f"\n== the blocker position (README): 2-player classic, Ann St. James + Tennessee, "
          f"Bob New York, 1,500 each\n   load: {load()}")
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann", 18: "Ann", 19: "Bob"}, cash=[1500, 1500])
    offer = A.ProposeTrade(0, 1, give=A.TradeSide(cash=300), get=A.TradeSide(properties=(19,)))
    for bots in ("heuristic", "strong"):
        started = time.perf_counter()
        table = win_chances(game, rollouts=args.rollouts, bots=bots, seed=1,
                            executor="processes" if args.workers > 1 else None,
                            workers=args.workers)
        bob = table.iloc[1]
        rating = rate_trade(game, offer, rollouts=args.rollouts, bots=bots, seed=1, fair=False,
                            executor="processes" if args.workers > 1 else None,
                            workers=args.workers)
        row = rating.table.iloc[1]
        print(f"  {bots:10s} Bob's win_chances {100 * bob.p_win:5.1f} % (se {100 * bob.se:.1f}, "
              f"target >= 30 %); 'Ann pays 300 for New York' changes Bob's chance by "
              f"{100 * row.delta:+5.1f} points (se {100 * row.delta_se:.1f}, target <= -5); "
              f"{time.perf_counter() - started:.1f} s")
    print(f"   load: {load()}")


# ---------------------------------------------------------------------- the rollout bot


def case_rollout(args: argparse.Namespace) -> None:
    n = args.rollout_games
    print(f"\n== the rollout bot (on strong) vs strong, 2p classic, {n} games, seats rotated\n"
          f"   load: {load()}")
    wins, count, unfinished, turns, wall = run_lineup("classic", ["rollout", "strong"], n, args,
                                                      args.seed)
    print(f"  {share_line('rollout', wins.get('rollout', 0.0), n)}  (target >= 55 %, interval "
          f"above 50 %)  no end {unfinished}  turns {turns:.0f}  {wall:.0f} s on "
          f"{args.workers} processes")
    print(f"   load: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default="tournament,targets,speed,blocker")
    parser.add_argument("--bots", default="random,heuristic,strong")
    parser.add_argument("--profiles", default=",".join(PROFILES))
    parser.add_argument("--games", type=int, default=200, help="games a tournament line-up")
    parser.add_argument("--target-games", type=int, default=1000)
    parser.add_argument("--rollout-games", type=int, default=40)
    parser.add_argument("--speed-games", type=int, default=30)
    parser.add_argument("--rollouts", type=int, default=1000, help="blocker case")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    random.seed(args.seed)
    cases = {"tournament": case_tournament, "targets": case_targets, "speed": case_speed,
             "blocker": case_blocker, "rollout": case_rollout}
    for name in args.cases.split(","):
        cases[name](args)


if __name__ == "__main__":
    main()
