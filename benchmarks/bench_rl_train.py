"""The training recipe's figures (docs/rl.md, "Training an agent"), one command each.

    python benchmarks/bench_rl_train.py recipe                 # MaskablePPO vs heuristic, 30 min
    python benchmarks/bench_rl_train.py recipe --cpu-minutes 30   # the budget in CPU time
    python benchmarks/bench_rl_train.py scratch --cpu-minutes 10  # no imitation: the comparison
    python benchmarks/bench_rl_train.py selfplay --cpu-minutes 20 # self-play through PettingZoo
    python benchmarks/bench_rl_train.py truncation             # Ugentopoly: episodes truncated
    python benchmarks/bench_rl_train.py mapping --games 400    # the teachers through the encoding
    python benchmarks/bench_rl_train.py evaluate --load agent.zip --sampled  # a saved model

Needs torch, stable-baselines3 and sb3-contrib (not dependencies of the project: see
docs/rl.md for the CPU-only install). Run it under ``nice`` on a shared machine. Every stage
prints its wall time, its CPU time (this process and its children) and the load average, so a
budget spent on a busy machine can be read in CPU time. The learning curve is printed as it
goes; the end prints the win rates with 95 % intervals over ``--games`` games per opponent
(``--sampled``: also with the policy sampled, as in training). ``--save PATH`` keeps the
model.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def header(args: argparse.Namespace) -> None:
    import torch

    from ugentopoly_widget.engine import compiled

    print(f"python {sys.version.split()[0]}, torch {torch.__version__}, engine "
          f"{'compiled' if compiled else 'pure'}, {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}, nice {os.nice(0)}", flush=True)
    print(json.dumps({k: v for k, v in vars(args).items() if k != "func"}), flush=True)


def budget(args: argparse.Namespace) -> dict[str, Any]:
    """The stopping budget: the first of the limits given (30 wall minutes if none)."""
    limits = {"cpu_minutes": args.cpu_minutes, "steps": args.steps, "minutes": args.minutes}
    given = {k: v for k, v in limits.items() if v is not None}
    return given or {"minutes": 30.0}


def final(model: Any, args: argparse.Namespace, started: tuple[float, float] | None,
          extra: dict[str, Any] | None = None) -> None:
    """The win rates over ``--games`` games against each bot, the model playing its most
    likely action; with ``--sampled`` also sampling its policy (as it plays in training)."""
    from ugentopoly_widget.rl import evaluate
    from ugentopoly_widget.rl.sb3 import cpu_seconds

    if started is not None:
        wall, cpu = time.time() - started[0], cpu_seconds() - started[1]
        print(f"training: {wall / 60:.1f} min wall, {cpu / 60:.1f} min CPU, load average "
              f"{os.getloadavg()[0]:.2f} now", flush=True)
    plays = [("most likely action", True)] + ([("sampled", False)] if args.sampled else [])
    for label, deterministic in plays:
        print(f"evaluation, {label}:", flush=True)
        opponents = ("heuristic", "strong", "random", "uniform") if deterministic else (
            "heuristic", "strong")
        for name in opponents:
            result = evaluate(model, "classic", name, games=args.games, seed=10**6,
                              deterministic=deterministic)
            print(f"  {result}", flush=True)
    if extra:
        print(json.dumps(extra), flush=True)
    if args.save:
        model.save(args.save)
        print(f"saved to {args.save}")


def evaluate_saved(args: argparse.Namespace) -> None:
    """A saved model (``--load``) through the final evaluations."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # as in training: more threads only spin on a small, busy machine
    header(args)
    final(MaskablePPO.load(args.load), args, None)


def recipe(args: argparse.Namespace, imitation_games: int) -> None:
    from ugentopoly_widget.rl.sb3 import cpu_seconds, train

    header(args)
    started = (time.time(), cpu_seconds())
    settings = {} if args.learning_rate is None else {"ppo": {"learning_rate": args.learning_rate}}
    if args.imitation_epochs is not None:
        settings["imitation_epochs"] = args.imitation_epochs
    if args.imitation_games is not None and imitation_games:
        imitation_games = args.imitation_games
    run = train("classic", args.against, imitation_games=imitation_games, teacher=args.teacher,
                log_every=args.log_every, eval_every=args.eval_every,
                eval_games=args.eval_games, eval_opponents=args.eval_against.split(","),
                seed=args.seed, **budget(args), **settings)
    final(run.model, args, started, {**run.imitation, "kept_steps": run.kept_steps})


def selfplay(args: argparse.Namespace) -> None:
    from ugentopoly_widget.rl.sb3 import cpu_seconds, train

    header(args)
    started = (time.time(), cpu_seconds())
    run = train("classic", "self", imitation_games=args.imitation_games or 0,
                log_every=args.log_every, eval_every=args.eval_every,
                eval_games=args.eval_games, eval_opponents=args.eval_against.split(","),
                seed=args.seed, **budget(args))
    final(run.model, args, started, run.imitation)


def truncation(args: argparse.Namespace) -> None:
    """Ugentopoly with the training defaults: the share of episodes truncated, with and
    without the round limit: 200 episodes of the uniform policy against the heuristic bot,
    then a short MaskablePPO run (the learner's own training games)."""
    from ugentopoly_widget.rl import SingleAgentEnv, UniformPolicy
    from ugentopoly_widget.rl.sb3 import train

    header(args)
    for label, options in (("training defaults", None),
                           ("no round limit", {"round_limit": None})):
        # the uniform masked policy (an untrained network's play), no learner: 200 episodes
        env = SingleAgentEnv("ugentopoly", opponents="heuristic",
                             **({} if options is None else {"options": options}))
        policy, truncated = UniformPolicy(args.seed), 0
        for episode in range(200):
            env.reset(seed=args.seed + episode)
            done = False
            while not done:
                _, _, terminated, ended, _ = env.step(policy.pick(env.action_masks()))
                done = terminated or ended
            truncated += ended
        print(f"Ugentopoly, {label}, uniform policy: {truncated} of 200 episodes truncated",
              flush=True)
    for label, options in (("training defaults", None),
                           ("no round limit", {"round_limit": None})):
        kwargs = {} if options is None else {"env_kwargs": {"options": options}}
        run = train("ugentopoly", "heuristic", steps=args.steps or 20_000, imitation_games=0,
                    log_every=10**9, seed=args.seed, verbose=False, **kwargs)
        row = run.curve[-1]
        share = row["truncated"] / max(1, row["episodes"])
        print(f"Ugentopoly, {label}: {row['truncated']} of {row['episodes']} training episodes "
              f"truncated ({share:.1%}), {row['steps']} steps, {row['cpu_s']:.0f} s CPU",
              flush=True)


def mapping(args: argparse.Namespace) -> None:
    """How well each teacher's play goes through the encoding (``nearest_index``): the share
    of its decisions mapped exactly, what the others are, and its wins against the heuristic
    bot when it plays through the encoding, as it does for the demonstrations. NumPy only."""
    from collections import Counter

    from ugentopoly_widget.engine.bots import make_bot
    from ugentopoly_widget.rl import SingleAgentEnv
    from ugentopoly_widget.rl.imitation import nearest_index
    from ugentopoly_widget.simulation.stats import wilson

    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    for teacher in dict.fromkeys(("heuristic", args.teacher)):
        envs = [SingleAgentEnv("classic", seat, "heuristic") for seat in range(2)]
        exact, other, wins = 0, Counter[str](), 0
        for k in range(args.games):
            env, bot = envs[k % 2], make_bot(teacher, args.seed + k)
            env.reset(seed=args.seed + k)
            done, info = False, {}
            while not done:
                mask, codec = env.action_masks(), env.match.codec
                action = bot.choose(env.game)
                index = codec.index_of(action)
                nearest = nearest_index(codec, env.game, action, mask)
                if index is not None and mask[index]:
                    exact += 1
                else:  # what it became: a bid level, a trade band, or another action
                    became = codec.names[nearest].split(":")[0]
                    other[f"{type(action).__name__} as {became}"] += 1
                _, _, terminated, truncated, info = env.step(nearest)
                done = terminated or truncated
            wins += info["result"] == "win"
        total = exact + sum(other.values())
        low, high = wilson(wins, args.games)
        print(f"{teacher} through the encoding vs heuristic: {total} decisions, "
              f"{exact / total:.1%} mapped exactly, not exactly: "
              + ", ".join(f"{name} {n / total:.1%}" for name, n in other.most_common())
              + f"; won {wins} of {args.games} ({wins / args.games:.1%}, 95 % interval "
              f"{low:.1%}-{high:.1%})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["recipe", "scratch", "selfplay", "truncation",
                                                 "mapping", "evaluate"])
    parser.add_argument("--minutes", type=float,
                        help="wall-time budget (30 if no budget is given)")
    parser.add_argument("--cpu-minutes", type=float, help="CPU-time budget")
    parser.add_argument("--steps", type=int,
                        help="learner steps (with several budgets, the first reached stops)")
    parser.add_argument("--against", default="heuristic",
                        help="the training opponents (recipe, scratch: try 'curriculum')")
    parser.add_argument("--imitation-games", type=int,
                        help="recipe: the teacher's games (default: the recipe's); selfplay: "
                        "imitate the teacher first over this many games (default 0)")
    parser.add_argument("--imitation-epochs", type=int, help="recipe: passes over them")
    parser.add_argument("--learning-rate", type=float, help="recipe: PPO's (default: recipe's)")
    parser.add_argument("--teacher", default="strong",
                        help="recipe, mapping: the bot imitated before PPO (a name of "
                        "engine.bots.BOTS)")
    parser.add_argument("--games", type=int, default=400, help="evaluation games per opponent")
    parser.add_argument("--log-every", type=int, default=50_000)
    parser.add_argument("--eval-every", type=int, default=200_000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--eval-against", default="heuristic,random",
                        help="the learning curve's evaluation opponents (comma-separated)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="save the trained model here (.zip)")
    parser.add_argument("--load", help="evaluate: the saved model (.zip)")
    parser.add_argument("--sampled", action="store_true",
                        help="also evaluate the policy sampled (as it plays in training)")
    args = parser.parse_args()
    if args.what == "recipe":
        from ugentopoly_widget.rl.sb3 import IMITATION_GAMES

        recipe(args, IMITATION_GAMES)
    elif args.what == "scratch":
        recipe(args, 0)
    elif args.what == "selfplay":
        selfplay(args)
    elif args.what == "mapping":
        mapping(args)
    elif args.what == "evaluate":
        if not args.load:
            parser.error("evaluate needs --load PATH")
        evaluate_saved(args)
    else:
        truncation(args)


if __name__ == "__main__":
    main()
