"""Rollout figures: speed and precision of win_chances, the variance the stratified first roll
and paired seeds save, the rollout bot against the heuristic bot, and the live display's cost
to a click.

    python benchmarks/bench_rollouts.py                      # chances, variance, live
    python benchmarks/bench_rollouts.py --cases bot --games 1000
    python benchmarks/bench_rollouts.py --cases chances --rollouts 1000 --workers 2
    python benchmarks/bench_rollouts.py --cases switch      # the view's on/off, Advice x 20
    python benchmarks/bench_rollouts.py --cases figures     # the figures: lists against numpy

Variants run side by side in one run (the machine is shared and noisy); wall and CPU seconds
are both printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ugentopoly_widget import Game  # noqa: E402
from ugentopoly_widget.engine import compiled  # noqa: E402
from ugentopoly_widget.engine.bots import HeuristicBot, play_game  # noqa: E402
from ugentopoly_widget.rollouts import action_values, win_chances  # noqa: E402
from ugentopoly_widget.rollouts.bot import RolloutBot  # noqa: E402
from ugentopoly_widget.rollouts.runner import (  # noqa: E402
    check_bots,
    execute,
    make_plan,
)
from ugentopoly_widget.simulation.executors import new_process_pool  # noqa: E402


def mid_game(players: int = 4, seed: int = 5, turn: int = 60) -> Game:
    game = Game("classic", players=players, seed=seed)
    play_game(game, [HeuristicBot(seed=seed + k) for k in range(players)], until_turn=turn)
    return game


def timed(call: object) -> tuple[object, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = call()  # type: ignore[operator]
    return out, time.perf_counter() - wall, time.process_time() - cpu


def case_chances(args: argparse.Namespace) -> None:
    game = mid_game()
    n = args.rollouts
    print(f"\n== win_chances: {n} rollouts, classic 4 players (heuristic) at turn "
          f"{game.turn_number}, compiled={compiled}")
    pool = new_process_pool(args.workers)
    list(pool.map(abs, range(args.workers)))  # started before the clock
    win_chances(game, rollouts=36, seed=99, executor=pool)  # the position cached per worker
    variants = [("this process", {}), (f"processes x{args.workers} (new pool)",
                                       {"executor": "processes", "workers": args.workers}),
                (f"processes x{args.workers} (warm pool)",
                 {"executor": pool, "workers": args.workers})]
    first = None
    for label, kwargs in variants:
        table, wall, cpu = timed(lambda kw=kwargs: win_chances(game, rollouts=n, seed=1, **kw))
        play = table.attrs["seconds"]  # type: ignore[union-attr]
        play_cpu = table.attrs["cpu_seconds"]  # type: ignore[union-attr]
        se = table.se.max()  # type: ignore[union-attr]
        print(f"  {label:32s} wall {wall:6.2f} s  (this process' cpu {cpu:5.2f} s; rollout "
              f"play {play:5.2f} s wall, {play_cpu:5.2f} s cpu in the playing threads)  "
              f"max se {100 * se:.2f} points")
        if first is None:
            first = table
        else:
            assert first.equals(table), "the same seed must give the same figures"
    pool.shutdown()
    print(first.round(4).to_string())  # type: ignore[union-attr]


def _estimates(game: Game, n: int, repeats: int, stratify: bool, player: int) -> np.ndarray:
    specs = check_bots("heuristic", len(game.players))
    out = []
    for r in range(repeats):
        plan = make_plan(game, bots=specs, seed=1000 + r, max_turns=1000, at_cap="apart",
                         variants=[()], stratify=stratify)
        out.append(statistics.fmean(execute(game, plan, n).share(0, player)))
    return np.array(out)


def case_variance(args: argparse.Namespace) -> None:
    game = mid_game(players=2, seed=7, turn=40)
    n, repeats = args.variance_rollouts, args.repeats
    print(f"\n== variance: {repeats} independent estimates of {n} rollouts each "
          f"(classic 2 players, turn {game.turn_number})")
    plain = _estimates(game, n, repeats, False, 0)
    strat = _estimates(game, n, repeats, True, 0)
    sd_plain, sd_strat = plain.std(ddof=1), strat.std(ddof=1)
    print(f"  P(win) of seat 0: plain sampling      sd {100 * sd_plain:.2f} points "
          f"(mean {plain.mean():.3f})")
    print(f"                     stratified 1st roll sd {100 * sd_strat:.2f} points "
          f"(mean {strat.mean():.3f})  variance ratio {sd_strat**2 / sd_plain**2:.2f}")
    # paired against independent seeds: a buy or decline decision's difference
    position = Game.scenario("classic", players=["Ann", "Bob"], seed=1, current="Ann",
                             owners={16: "Ann", 18: "Ann", 21: "Bob", 23: "Bob"},
                             cash={"Ann": 900, "Bob": 1500}, positions={"Ann": 14})
    position.testing.script_dice((2, 3))
    position.act("roll")
    choices = [a for a in position.legal_actions() if a.type in ("buy", "decline")]
    paired, independent = [], []
    for r in range(repeats):
        both = action_values(position, rollouts=n, seed=2000 + r, actions=choices)
        delta = both.set_index("text").p_win
        paired.append(delta["0:decline"] - delta["0:buy"])
        buy = action_values(position, rollouts=n, seed=3000 + r, actions=choices[:1])
        decline = action_values(position, rollouts=n, seed=4000 + r, actions=choices[1:])
        independent.append(decline.set_index("text").p_win["0:decline"]
                           - buy.set_index("text").p_win["0:buy"])
    sd_i, sd_p = np.std(independent, ddof=1), np.std(paired, ddof=1)
    print(f"  decline - buy at the last orange lot: independent seeds sd {100 * sd_i:.2f} "
          f"points, paired sd {100 * sd_p:.2f} (variance ratio {sd_p**2 / sd_i**2:.2f}); "
          f"mean {100 * np.mean(paired):+.1f} points")


def case_bot(args: argparse.Namespace) -> None:
    from ugentopoly_widget import simulate
    from ugentopoly_widget.simulation.stats import wilson

    games = args.games
    print(f"\n== rollout bot ({args.bot_rollouts} rollouts a choice, margin {args.margin}) "
          f"against the heuristic bot: {games} two-player classic games, seats rotated")
    bot = partial(RolloutBot, rollouts=args.bot_rollouts, margin=args.margin)
    # In batches (batch b seeded args.seed + b), a running total after each: a long run that
    # is stopped still leaves its figures.
    wins = played = undecided = 0
    wall = 0.0
    for batch, start in enumerate(range(0, games, args.batch)):
        size = min(args.batch, games - start)
        results, seconds, _ = timed(lambda n=size, b=batch: simulate(
            n, "classic", bots=[bot, "heuristic"], rotate_seats=True, seed=args.seed + b,
            progress=False, collect=(), executor="processes", workers=args.workers))
        rows = results.games  # type: ignore[union-attr]
        # the factory's name carries its settings: "rollout(margin=1.0,rollouts=24)"
        wins += int(rows.winner_bot.str.startswith("rollout").sum())
        undecided += int((rows.n_winners != 1).sum())
        played += size
        wall += seconds
        low, high = wilson(wins, played)
        print(f"  after {played:4d} games: rollout bot won {wins} ({100 * wins / played:.1f} %, "
              f"95 % interval {100 * low:.1f} to {100 * high:.1f} %); {undecided} without a "
              f"single winner; {wall:.0f} s wall on {args.workers} processes", flush=True)
    # the time per decision, measured in this process on a few games
    stats = {"decisions": 0, "thought": 0, "seconds": 0.0, "changed": 0}
    cpu = time.process_time()
    for seed in range(args.timing_games):
        rb = RolloutBot(seed=seed, rollouts=args.bot_rollouts, margin=args.margin)
        game = Game("classic", players=2, seed=10_000 + seed)
        play_game(game, [rb, HeuristicBot(seed=seed)])
        for key in stats:
            stats[key] += rb.stats[key]
    cpu = time.process_time() - cpu
    print(f"  timing ({args.timing_games} games): {stats['decisions']} decisions, "
          f"{stats['thought']} thought about ({stats['changed']} changed from the "
          f"heuristic's), {1000 * stats['seconds'] / max(stats['thought'], 1):.1f} ms wall "
          f"per decision thought about, {1000 * cpu / max(stats['decisions'], 1):.2f} ms cpu "
          f"per decision overall, {cpu / args.timing_games:.2f} s cpu per game")


def case_live(args: argparse.Namespace) -> None:
    from ugentopoly_widget.widget import UgentopolyWidget

    print("\n== live win chances: what a click pays, Python side, with the estimator off, in a "
          "worker thread and in its own process (classic 4 players, heuristic moves):\n"
          "   apply = a click's action applied and its state published; wake = the kernel "
          "thread's wait for the interpreter lock after a 2 ms sleep, paid at every step a\n"
          "   reply blocks on (reading the click, sending the state); first = a decision to "
          "the estimator's first 36 rollouts of the new position (no hold: the widget's\n"
          "   click requests add one of 0.15 s, see docs/rollouts.md)")
    for worker in ("off", "thread", "process"):
        game = mid_game(players=4, seed=5, turn=60)
        w = UgentopolyWidget.from_game(game)
        if worker != "off":
            from ugentopoly_widget.rollouts.live_process import live_estimator

            w.show_win_chances(True, budget=100_000)
            w._win.close()  # type: ignore[union-attr]
            w._win = live_estimator(worker=worker, budget=100_000,  # type: ignore[arg-type]
                                    on_update=w._on_estimate)
            w._win_position = None
            w._refresh_win_chances()
            w._win.wait(timeout=0.5 if worker == "thread" else 5)  # warm, then busy
            time.sleep(0.5)
        times, wakes, first = [], [], []
        bot = HeuristicBot(seed=3)
        for _ in range(args.clicks):
            if game.is_over:
                break
            action = bot.choose(game)
            started = clicked = time.perf_counter()
            w.apply(action)
            times.append(time.perf_counter() - started)
            for _ in range(5):
                started = time.perf_counter()
                time.sleep(0.002)
                wakes.append(time.perf_counter() - started - 0.002)
            if worker != "off":
                estimator = w._win
                assert estimator is not None
                generation = estimator.generation
                while estimator.latest is None or estimator.latest.generation != generation:
                    time.sleep(0.001)
                first.append(time.perf_counter() - clicked)
            time.sleep(0.02)
        w.close()
        ms = sorted(1000 * t for t in times)
        wake = sorted(1000 * t for t in wakes)
        line = (f"  {worker:>7}: apply median {statistics.median(ms):.2f} ms, max {ms[-1]:.2f};"
                f" wake median {statistics.median(wake):.2f} ms, 95th "
                f"{wake[int(0.95 * (len(wake) - 1))]:.2f}, max {wake[-1]:.2f} ({len(ms)} clicks)")
        if first:
            line += (f"; first {1000 * statistics.median(first):.0f} ms median, "
                     f"{1000 * max(first):.0f} max")
        print(line)


def case_switch(args: argparse.Namespace) -> None:
    """The widget's win-chance switch and Advice button as a view sends them (issue 30: 100
    on/off requests took 88 s, each off waiting for the process; twenty Advice requests ran
    twenty threads and the last one's first figures came after 19 s)."""
    import threading

    from ugentopoly_widget.rollouts.live_process import discard_spare
    from ugentopoly_widget.widget import UgentopolyWidget

    game = mid_game(players=2, seed=1, turn=30)
    w = UgentopolyWidget.from_game(game, seats=["person", "person"])
    took = []
    for k in range(args.switches):
        started = time.perf_counter()
        w._handle_custom_msg({"type": "win_chances", "on": k % 2 == 0, "budget": 1000}, [])
        took.append(time.perf_counter() - started)
    assert not w.errors, w.errors
    ms = sorted(1000 * t for t in took)
    print(f"\n== {args.switches} win-chance requests on, off, on ... from the view: "
          f"{sum(took):.2f} s in all, median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} "
          "ms (the first starts the process)")
    w.close()
    discard_spare()
    scenario = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                             owners={16: "Ann", 18: "Ann", 19: "Bob"})
    w = UgentopolyWidget.from_game(scenario, seats=["person", "person"])
    offer = {"player": 0, "partner": 1, "give": {"cash": 300}, "get": {"properties": [19]}}
    started = time.perf_counter()
    most = 0
    for k in range(args.advice):
        w._handle_custom_msg({"type": "trade_advice", "seq": w.state["seq"],
                              "offer": {**offer, "give": {"cash": 300 + k}}}, [])
    last = w.trade_advice["id"]
    while not (w.trade_advice.get("id") == last and w.trade_advice.get("status") == "quick"):
        most = max(most, sum(t.name == "ugw-trade-advice" for t in threading.enumerate()))
        time.sleep(0.005)
    first = time.perf_counter() - started
    print(f"== {args.advice} Advice requests in a row ({w.advice_rollouts} rollouts a side): the "
          f"last one's first figures after {first:.2f} s; at most {most} advice threads alive")
    w.close()


def case_figures(args: argparse.Namespace) -> None:
    """What the figures cost once the rollouts are played: summarize() and the paired
    differences of every variant, on plain lists (the runner's since issue 32) against the
    same sums in numpy (the runner's before), on made-up outcomes of the sizes used."""
    rng = np.random.default_rng(1)
    for n, variants, players in ((360, 4, 2), (1000, 1, 4), (3000, 4, 4)):
        _figures_of(rng, n, variants, players)


def _figures_of(rng: np.random.Generator, n: int, variants: int, players: int) -> None:
    from ugentopoly_widget.rollouts.chances import summarize
    from ugentopoly_widget.rollouts.runner import Outcomes
    from ugentopoly_widget.rollouts.stats import differences, mean, standard_error

    winner = rng.integers(0, players, (variants, n))
    wins = np.zeros((variants, n, players))
    for v in range(variants):
        wins[v, np.arange(n), winner[v]] = 1.0
    strata = rng.integers(0, 36, n)
    finished = np.ones((variants, n), dtype=bool)
    turns = rng.integers(10, 300, (variants, n))
    plain = Outcomes(0, [[wins[v, :, k].tolist() for k in range(players)]
                         for v in range(variants)], finished.tolist(), turns.tolist(),
                     strata.tolist())

    def with_lists() -> None:
        for v in range(variants):
            summarize(plain, v)
            diff = differences(plain.share(v, 0), plain.share(0, 0))
            mean(diff)
            standard_error(diff, plain.strata)

    def with_numpy() -> None:  # the same figures as the runner made them before
        counts = np.bincount(strata)
        for v in range(variants):
            for k in range(players):
                col = wins[v, :, k]
                float(col.mean())
                sums = np.bincount(strata, weights=col)
                squares = np.bincount(strata, weights=col * col)
                nh = counts[counts > 0].astype(float)
                mean_h = sums[counts > 0] / nh
                var_h = (squares[counts > 0] - nh * mean_h * mean_h) / (nh - 1)
                float(np.sum((nh / n) ** 2 * np.maximum(var_h, 0.0) / nh))
            left = 1.0 - wins[v].sum(axis=1)
            float(left.mean())
            float(np.std(left, ddof=1))
            float(turns[v][finished[v]].mean())
            diff = wins[v, :, 0] - wins[0, :, 0]
            float(diff.mean())
            float(np.std(diff, ddof=1))

    for label, call in (("lists", with_lists), ("numpy", with_numpy)):
        repeats = 20
        started = time.perf_counter()
        for _ in range(repeats):
            call()
        ms = 1000 * (time.perf_counter() - started) / repeats
        per = ms / (n * variants) * 1000
        print(f"  {n:5d} rollouts x {variants} variants x {players} players  {label}: "
              f"{ms:7.2f} ms  ({per:.2f} us per rollout; a strong rollout: ~1,000 us compiled)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="chances,variance,live")
    parser.add_argument("--rollouts", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variance-rollouts", type=int, default=360)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=50, help="bot games per batch")
    parser.add_argument("--bot-rollouts", type=int, default=24)
    parser.add_argument("--margin", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timing-games", type=int, default=5)
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--switches", type=int, default=100)
    parser.add_argument("--advice", type=int, default=20)
    args = parser.parse_args()
    for case in args.cases.split(","):
        {"chances": case_chances, "variance": case_variance, "bot": case_bot,
         "live": case_live, "switch": case_switch, "figures": case_figures}[case](args)


if __name__ == "__main__":
    main()
