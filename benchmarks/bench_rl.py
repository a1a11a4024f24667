"""Reinforcement-learning environment speed: steps per second with random masked actions.

    python benchmarks/bench_rl.py                  # compiled vs pure engine, every case
    python benchmarks/bench_rl.py --quick          # fewer steps
    python benchmarks/bench_rl.py --repeat 3       # best of 3 runs per variant (shared machine)
    python benchmarks/bench_rl.py --cases aec-raw  # one case
    python benchmarks/bench_rl.py --baseline /work/wt-base   # also time another checkout

A step is one agent's decision: the loop is PettingZoo's own (``last()``, then ``step()`` with
an index drawn uniformly from the mask), so every step builds an observation and a mask; the
dead steps of agents whose episode ended are not counted, and a finished episode is reset.
Every figure comes from a fresh subprocess per variant and case (``compiled``: the engine as
installed; ``pure``: ``UGENTOPOLY_PURE=1``), the variants one after the other; rates use the
subprocess's CPU time. ``engine`` is the bare engine under the same random policy (uniform over
its legal actions, ``Game.apply``): what an environment step costs beyond the game itself.
``--baseline DIR`` adds ``base-compiled`` and ``base-pure``: the same work importing the package
from the checkout DIR (on PYTHONPATH, ahead of this one), to compare a change with the code
before it in one run. DIR needs its own compiled build for ``base-compiled`` (its editable
install's extension modules); without one it reports the pure engine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CASES = [
    # name, what, profile, players
    ("aec-raw", "raw_env", "classic", 4),
    ("aec", "env", "classic", 4),
    ("single", "single", "classic", 4),
    ("engine", "engine", "classic", 4),
    ("aec-raw-ugentopoly", "raw_env", "ugentopoly", 4),
    ("aec-raw-cell22", "raw_env", "cell22", 4),
]
MAX_TURNS = 1000


def work_aec(wrapped: bool, profile: str, players: int, steps: int) -> dict[str, Any]:

    from ugentopoly_widget import rl

    env = (rl.env if wrapped else rl.raw_env)(profile, players=players, max_turns=MAX_TURNS)
    rng = random.Random(1)
    env.reset(seed=1)
    done = episodes = 0
    cpu = time.process_time()
    while done < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
                episodes += 1
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[int(rng.random() * len(legal))]))
        done += 1
    cpu = time.process_time() - cpu
    return {"value": done / cpu, "unit": "steps/s", "episodes": episodes}


def work_single(profile: str, players: int, steps: int) -> dict[str, Any]:

    from ugentopoly_widget import rl

    env = rl.SingleAgentEnv(profile, seat=0, opponents=["heuristic"] * (players - 1),
                            max_turns=MAX_TURNS)
    rng = random.Random(1)
    env.reset(seed=1)
    done = episodes = 0
    cpu = time.process_time()
    while done < steps:
        legal = env.action_masks().nonzero()[0]
        _, _, terminated, truncated, _ = env.step(int(legal[int(rng.random() * len(legal))]))
        done += 1
        if terminated or truncated:
            env.reset()
            episodes += 1
    cpu = time.process_time() - cpu
    return {"value": done / cpu, "unit": "learner steps/s", "episodes": episodes}


def work_engine(profile: str, players: int, steps: int) -> dict[str, Any]:
    from ugentopoly_widget.engine import Game

    rng = random.Random(1)
    done = episodes = 0
    cpu = time.process_time()
    while done < steps:
        game = Game(profile, players=players, seed=episodes)
        while not game.is_over and game.turn_number < MAX_TURNS and done < steps:
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])  # a bid: the minimum raise
            done += 1
        episodes += 1
    cpu = time.process_time() - cpu
    return {"value": done / cpu, "unit": "actions/s", "episodes": episodes}


def worker(case: str, quick: bool) -> dict[str, Any]:
    _, what, profile, players = next(c for c in CASES if c[0] == case)
    steps = 30_000 if quick else 200_000
    if what in ("raw_env", "env"):
        return work_aec(what == "env", profile, players, steps)
    if what == "single":
        return work_single(profile, players, steps // 4)
    return work_engine(profile, players, steps)


def run_variant(case: str, variant: str, quick: bool, baseline: str | None) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in ("UGENTOPOLY_PURE",)}
    if variant.endswith("pure"):
        env["UGENTOPOLY_PURE"] = "1"
    if variant.startswith("base-"):
        assert baseline is not None
        env["PYTHONPATH"] = os.pathsep.join(
            [baseline] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", case]
    if quick:
        cmd.append("--quick")
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        return {"value": float("nan"), "unit": "", "error": res.stderr.strip()[-400:]}
    result: dict[str, Any] = json.loads(res.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cases", default=",".join(c[0] for c in CASES))
    parser.add_argument("--variants", default="compiled,pure")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per variant, interleaved; the best is kept (load only ever "
                             "slows a run down)")
    parser.add_argument("--baseline", metavar="DIR",
                        help="another checkout to time beside this one (base-compiled, base-pure)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        import ugentopoly_widget
        from ugentopoly_widget.engine import compiled

        result = worker(args.worker, args.quick)
        result["engine"] = "compiled" if compiled else "pure"
        result["root"] = str(Path(ugentopoly_widget.__file__).resolve().parent.parent)
        print(json.dumps(result))
        return
    variants = args.variants.split(",")
    baseline = str(Path(args.baseline).resolve()) if args.baseline else None
    if baseline:
        if not (Path(baseline) / "ugentopoly_widget" / "__init__.py").is_file():
            parser.error(f"--baseline {args.baseline}: no ugentopoly_widget package there")
        variants += [f"base-{v}" for v in variants if not v.startswith("base-")]
        print(f"base-*: the checkout {baseline}")
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}; "
          f"random masked actions, max_turns {MAX_TURNS}"
          + (f"; best of {args.repeat} runs" if args.repeat > 1 else ""))
    print(f"{'case':<22}" + "".join(f"{v:>14}" for v in variants) + "   unit")
    for case in args.cases.split(","):
        runs: dict[str, list[dict[str, Any]]] = {v: [] for v in variants}
        for _ in range(max(1, args.repeat)):
            for v in variants:
                runs[v].append(run_variant(case, v, args.quick, baseline))
        best = {v: max(r, key=lambda x: x["value"] if x["value"] == x["value"] else -1)
                for v, r in runs.items()}
        unit = next((r["unit"] for r in best.values() if r.get("unit")), "")
        print(f"{case:<22}" + "".join(f"{best[v]['value']:>14,.0f}" for v in variants)
              + f"   {unit}", flush=True)
        for v, r in best.items():
            if "error" in r:
                print(f"  {v}: {r['error']}")
            elif r.get("engine") != v.removeprefix("base-"):
                print(f"  note: the {v} run used the {r.get('engine')} engine")
            elif v.startswith("base-") and r.get("root") != baseline:
                print(f"  note: the {v} run imported the package from {r.get('root')}")


if __name__ == "__main__":
    main()
