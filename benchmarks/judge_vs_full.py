"""The analysis' charges for the strong bot's own play, checked against rollouts played to the
end: for a strong-vs-strong 2-player classic game, every decision the judge charges (at its
truncated horizon, by default the test's budget) is valued again by ``action_values`` (every
rollout played to the game's end, on the same seeds for every choice), and the two losses are
printed side by side.

    python benchmarks/judge_vs_full.py --seed 11
    python benchmarks/judge_vs_full.py --seed 5 --horizon 8 --rollouts 72 --full 400
    python benchmarks/judge_vs_full.py --seed 11 --horizon none      # the judge played out too

A charge the full rollouts confirm is the bot's mistake; one they do not is the truncated
judge's bias (docs/analysis.md, Limits).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ugentopoly_widget import Game  # noqa: E402
from ugentopoly_widget.engine.actions import action_from_dict  # noqa: E402
from ugentopoly_widget.engine.bots import make_bot, play_game  # noqa: E402
from ugentopoly_widget.rollouts import action_values  # noqa: E402
from ugentopoly_widget.rollouts.analysis import analyse  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=11, help="the game's seed")
    parser.add_argument("--rollouts", type=int, default=72, help="the judge's, per choice")
    parser.add_argument("--horizon", default="8", help="the judge's (none: to the end)")
    parser.add_argument("--full", type=int, default=400, help="rollouts to the end, per choice")
    parser.add_argument("--min-loss", type=float, default=2.0, help="charges checked, points")
    args = parser.parse_args()
    horizon = None if args.horizon == "none" else int(args.horizon)
    game = Game("classic", players=["Ann", "Bob"], seed=args.seed)
    play_game(game, [make_bot("strong", 1), make_bot("strong", 2)], until_turn=1000)
    start = time.time()
    result = analyse(game, rollouts=args.rollouts, chance_rollouts=2, horizon=horizon,
                     executor="processes", workers=2, progress=False)
    print(f"seed {args.seed}: {game.turn_number} turns, judged in {time.time() - start:.0f} s"
          f" (rollouts={args.rollouts}, horizon={horizon})")
    for p in result.players:
        print(f"  {p.name}: skill loss {p.skill_loss:.1f} ± {p.skill_loss_se:.1f}")
    record = game.record()
    confirmed = 0.0
    charged = 0.0
    for row in result.decisions:
        if row.loss < args.min_loss:
            continue
        position = Game.replay(record, upto=row.index)
        chosen = action_from_dict(row.chosen.action)
        best = action_from_dict(row.best.action)
        table = action_values(position, rollouts=args.full, actions=[chosen, best],
                              executor="processes", workers=2)
        p_win = {str(r.action): (r.p_win, r.se) for r in table.itertuples()}
        full = 100 * (p_win[str(best)][0] - p_win[str(chosen)][0])
        se = 100 * max(p_win[str(best)][1], p_win[str(chosen)][1])
        charged += row.loss
        confirmed += max(full, 0.0)
        print(f"  turn {row.turn:>3} {row.kind:<12} {game.players[row.player].name}: "
              f"judged {row.loss:5.1f} ± {row.loss_se:4.1f}, to the end {full:6.1f} (se of a "
              f"choice {se:.1f}) | {row.chosen.description} | best: {row.best.description}")
    print(f"  charged {charged:.1f} points in all; to the end {confirmed:.1f} of them")


if __name__ == "__main__":
    main()
