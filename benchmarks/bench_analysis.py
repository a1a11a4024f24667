"""Game-analysis figures: a whole game analysed (serial and on 2 processes), the 36-roll map,
the truncated rollouts' bias against rollouts played to the end, the evaluator's calibration.

    python benchmarks/bench_analysis.py                          # game, rollmap
    python benchmarks/bench_analysis.py --cases game --turns 150 --workers 2
    python benchmarks/bench_analysis.py --cases bias --points 12
    python benchmarks/bench_analysis.py --cases calibrate --games 600

Wall and CPU seconds are both printed (the machine is shared: give `uptime` with them).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ugentopoly_widget import Game  # noqa: E402
from ugentopoly_widget.engine import compiled  # noqa: E402
from ugentopoly_widget.engine.bots import make_bot, play_game  # noqa: E402
from ugentopoly_widget.engine.strong.bot import StrongBot  # noqa: E402
from ugentopoly_widget.engine.strong.trading import position_of  # noqa: E402
from ugentopoly_widget.rollouts.analysis import Analyser, roll_map  # noqa: E402
from ugentopoly_widget.rollouts.analysis.evaluate import VALUE_WEIGHT, WORTH_WEIGHT  # noqa: E402


def strong_game(turns: int, seed: int) -> Game:
    """A finished 2-player classic game between strong bots, the first from `seed` on that
    lasts at least `turns` player-turns."""
    while True:
        game = Game("classic", players=["Ann", "Bob"], seed=seed)
        play_game(game, [make_bot("strong", seed), make_bot("strong", seed + 1)])
        if game.is_over and game.turn_number >= turns:
            return game
        seed += 1


def case_game(args: argparse.Namespace) -> None:
    game = strong_game(args.turns, args.seed)
    print(f"game: seed {game.seed}, {game.turn_number} player-turns, {len(game.actions)} "
          f"actions; rollouts {args.rollouts}, chance_rollouts {args.chance_rollouts}, "
          f"horizon {args.horizon}")
    for executor in ([None, "processes"] if args.workers > 1 else [None]):
        analyser = Analyser(game, rollouts=args.rollouts, chance_rollouts=args.chance_rollouts,
                            horizon=args.horizon, executor=executor, workers=args.workers)
        wall, cpu = time.perf_counter(), time.process_time()
        result = analyser.update()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        ses = sorted(r.loss_se for r in result.decisions)
        worst = sorted(max(o.loss_se for o in r.options) for r in result.decisions)
        lucks = sorted(r.luck_se for r in result.chances)
        print(f"  {executor or 'serial':9s}: {wall:6.1f} s wall ({cpu:.1f} s CPU here), "
              f"{len(result.decisions)} decisions, {len(result.chances)} rolls and cards, "
              f"{analyser.playouts:,} playouts ({1000 * wall / analyser.playouts:.2f} ms "
              "each, wall)")
        print(f"    loss SE of the choice made: median {statistics.median(ses):.2f}, 95th "
              f"{ses[int(0.95 * (len(ses) - 1))]:.2f}, max {ses[-1]:.2f} points; of any "
              f"option: median {statistics.median(worst):.2f}, max {worst[-1]:.2f}")
        print(f"    luck SE: median {statistics.median(lucks):.2f}, 95th "
              f"{lucks[int(0.95 * (len(lucks) - 1))]:.2f}, max {lucks[-1]:.2f} points")
        for p in result.players:
            print(f"    {p.name}: result {p.result:.2f}, luck {p.luck:+.1f} ± {p.luck_se:.1f}, "
                  f"skill loss {p.skill_loss:.1f} ± {p.skill_loss_se:.1f}, "
                  f"{p.inaccuracies}/{p.mistakes}/{p.blunders}")


def case_rollmap(args: argparse.Namespace) -> None:
    game = Game("classic", players=["Ann", "Bob"], seed=args.seed)
    play_game(game, [make_bot("strong", 1), make_bot("strong", 2)], until_turn=30)
    roll_map(game, rollouts=2, horizon=1)  # warm up (imports, board facts)
    for executor in ([None, "processes"] if args.workers > 1 else [None]):
        times = []
        for _ in range(3):
            wall = time.perf_counter()
            rmap = roll_map(game, horizon=args.horizon, executor=executor,
                            workers=args.workers)
            times.append(time.perf_counter() - wall)
        gains = sorted(o.gain for o in rmap.outcomes)
        print(f"roll map ({executor or 'serial'}, {rmap.rollouts} rollouts an outcome, horizon "
              f"{args.horizon}): {statistics.median(times):.2f} s median of 3 "
              f"({', '.join(f'{t:.2f}' for t in times)}); gains {gains[0]:+.1f} .. "
              f"{gains[-1]:+.1f}, largest SE {100 * max(o.se for o in rmap.outcomes):.1f}")


def case_bias(args: argparse.Namespace) -> None:
    """The loss of each choice made in a game, truncated (default horizon) against played to
    the end (horizon=None), on the same seeds: the truncation's bias, in points."""
    game = strong_game(60, args.seed)
    record = game.record()
    short = Analyser(record, rollouts=args.rollouts, chance_rollouts=1,
                     horizon=args.horizon).update()
    full = Analyser(record, rollouts=args.rollouts, chance_rollouts=1, horizon=None).update()
    pairs, noise = [], []
    for a, b in zip(short.decisions, full.decisions, strict=True):
        base_a = next(o for o in a.options if o.action == b.options[0].action)
        for oa, ob in zip(sorted(a.options, key=lambda o: str(o.action)),
                          sorted(b.options, key=lambda o: str(o.action)), strict=True):
            if ob.action != b.options[0].action:
                pairs.append((oa.p_win - base_a.p_win, ob.p_win - b.options[0].p_win))
                noise.append(ob.loss_se ** 2 + oa.loss_se ** 2)
    diffs = [100 * (x - y) for x, y in pairs]
    ses = [math.sqrt(statistics.mean(noise))]
    agree = sum(a.best.action == b.best.action for a, b in zip(short.decisions, full.decisions,
                                                                strict=True))
    print(f"bias: {len(short.decisions)} decisions, {len(diffs)} option differences; "
          f"truncated (horizon {args.horizon}) minus to the end: mean {statistics.mean(diffs):+.2f}"
          f", sd {statistics.stdev(diffs):.2f} points (the two estimates' own noise: sd "
          f"{ses[0]:.2f}); the same best choice in {agree} of "
          f"{len(short.decisions)}")
    lucks = [(a.luck, b.luck) for a, b in zip(short.chances, full.chances, strict=True)]
    d = [x - y for x, y in lucks]
    print(f"  luck of {len(lucks)} rolls/cards: truncated minus to the end: mean "
          f"{statistics.mean(d):+.2f}, sd {statistics.stdev(d):.2f} points; correlation "
          f"{statistics.correlation([x for x, _ in lucks], [y for _, y in lucks]):.2f}")


def _calibration_game(g: int) -> list[tuple[int, float, list[float]]]:
    """Every turn's position of a strong-bot game (seed 1000 + g) as the differences A - B of
    the model's terms (X/1000, V/1000, R/100), labelled with the game's result for A."""
    from ugentopoly_widget.engine.strong.worth import rent_exposure

    bot = StrongBot()
    game = Game("classic", players=["A", "B"], seed=1000 + g)
    bots = [make_bot("strong", 7 * g), make_bot("strong", 7 * g + 1)]
    samples = []
    while not game.is_over and game.turn_number < 1000:
        play_game(game, bots, until_turn=game.turn_number + 1)
        if game.is_over:
            break
        e = game._engine
        now = position_of(e)
        w = bot.worth(e)
        xs = w.values(e, now.owner, now.cash, now.cards)
        vs = game.valuations()
        rs = [rent_exposure(e, w.f, k)[0] for k in range(2)]
        samples.append([(xs[0] - xs[1]) / 1000, (vs[0] - vs[1]) / 1000, (rs[0] - rs[1]) / 100])
    if not game.is_over:
        return []
    y = 1.0 if game.winners == [0] else 0.0 if game.winners == [1] else 0.5
    return [(g, y, row) for row in samples]


def case_calibrate(args: argparse.Namespace) -> None:
    """The judge's model at the horizon (rollouts/analysis/evaluate.py) fitted by maximum
    likelihood (Newton's method) to every turn's position of `--games` strong-bot games, with
    and without its rent term; the last fifth of the games left out of a second fit."""
    from multiprocessing import Pool

    import numpy as np

    from ugentopoly_widget.rollouts.analysis.evaluate import RENT_WEIGHT

    with Pool(args.workers) as pool:
        parts = pool.map(_calibration_game, range(args.games), chunksize=4)
    rows = [r for part in parts for r in part]
    games = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    terms = np.array([r[2] for r in rows])

    def fit(f: np.ndarray, y: np.ndarray) -> np.ndarray:
        w = np.zeros(f.shape[1])
        for _ in range(30):
            p = 1 / (1 + np.exp(-f @ w))
            h = f.T @ (f * (p * (1 - p))[:, None]) + 1e-9 * np.eye(f.shape[1])
            w += np.linalg.solve(h, f.T @ (y - p))
        return w

    def loss(f: np.ndarray, w: np.ndarray, y: np.ndarray) -> float:
        p = np.clip(1 / (1 + np.exp(-f @ w)), 1e-9, 1 - 1e-9)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))

    train = games < int(0.8 * args.games)
    print(f"calibration: {len(rows)} positions of {args.games} games (a coin: 0.693)")
    for name, cols in (("X, V", [0, 1]), ("X, V, R", [0, 1, 2])):
        f = terms[:, cols]
        w = fit(f, y)
        held = fit(f[train], y[train])
        p = 1 / (1 + np.exp(-f @ w))
        tenth = np.minimum((p * 10).astype(int), 9)
        won = [f"{y[tenth == b].mean():.2f}" if (tenth == b).any() else "-" for b in range(10)]
        left_out = loss(f[~train], held, y[~train])
        print(f"  {name}: weights {np.round(w, 3).tolist()}, log-loss {loss(f, w, y):.4f}; "
              f"fitted on the first four fifths, on the last: {left_out:.4f}; won by tenths "
              f"of the prediction: {' '.join(won)}")
    used = np.array([WORTH_WEIGHT, VALUE_WEIGHT, RENT_WEIGHT])
    print(f"  in use ({used.tolist()}): log-loss {loss(terms, used, y):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", default="game,rollmap")
    parser.add_argument("--turns", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rollouts", type=int, default=None)
    parser.add_argument("--chance-rollouts", type=int, default=None)
    parser.add_argument("--horizon", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    from ugentopoly_widget.rollouts.analysis import core

    args.rollouts = args.rollouts or core.DEFAULT_ROLLOUTS
    args.horizon = args.horizon or core.DEFAULT_HORIZON
    print(f"compiled engine: {compiled() if callable(compiled) else compiled}")
    cases = {"game": case_game, "rollmap": case_rollmap, "bias": case_bias,
             "calibrate": case_calibrate}
    for name in args.cases.split(","):
        cases[name](args)


if __name__ == "__main__":
    main()
