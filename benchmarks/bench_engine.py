"""Engine speed, side by side: compiled build, pure-Python fallback, and any other checkout.

    python benchmarks/bench_engine.py                    # compiled vs pure, every case
    python benchmarks/bench_engine.py --quick            # fewer turns / games
    python benchmarks/bench_engine.py --baseline ../wt-base   # add an old checkout's figures
    python benchmarks/bench_engine.py --cases turns      # only the player-turns/s table
    python benchmarks/bench_engine.py --cases undo,load,memory,widget
    UGENTOPOLY_PURE=1 python benchmarks/bench_engine.py --memory-profile   # memory by line
    python benchmarks/bench_engine.py --cases load      # default load and load-verified

Every figure is measured in a fresh subprocess per variant and case, the variants of one case
one after the other, so ratios hold on a shared, noisy machine (absolute figures drift with the
load of others). Rates use CPU time of the subprocess (time.process_time). Variants:

- ``compiled``: this checkout as installed (the mypyc build where it was compiled);
- ``pure``: the same with ``UGENTOPOLY_PURE=1`` (the .py modules, even where .so files exist);
- ``base``: ``--baseline PATH``, imported through PYTHONPATH (pure Python);
- ``basec``: the same checkout with its own extension modules where it has them (compiled in
  place, e.g. by ``hatch_build.compile_engine``): compiled before / after a change;
- ``gc700``: the compiled build with the collector at Python's default threshold while bots
  play (``engine.bots.GC_YOUNG_THRESHOLD = 700``): what collecting less often is worth.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

TURN_CASES = [
    # name, profile, options, bot kind, players
    ("ugentopoly-random", "ugentopoly", {}, "random", 4),
    ("ugentopoly-heuristic", "ugentopoly", {}, "heuristic", 4),
    ("classic-random", "classic", {}, "random", 4),
    ("classic-heuristic", "classic", {}, "heuristic", 4),
    ("classic-short", "classic", {"mode": "short"}, "heuristic", 4),
    ("classic-timed", "classic", {"mode": "timed", "turn_limit": 400}, "heuristic", 4),
    ("cell22-random", "cell22", {}, "random", 4),
    ("cell22-heuristic", "cell22", {}, "heuristic", 4),
]
OTHER_CASES = ["undo", "load", "load-verified", "memory", "widget-play-bots", "widget-publish",
               "widget-open-loaded"]


# ---------------------------------------------------------------------- workers (subprocess)

def _bots(kind: str, seed: int, players: int) -> list[Any]:
    from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot

    cls = HeuristicBot if kind == "heuristic" else RandomBot
    return [cls(seed=seed * 10 + k) for k in range(players)]


def work_turns(name: str, min_turns: int) -> dict[str, Any]:
    from ugentopoly_widget import Game
    from ugentopoly_widget.engine.bots import play_game

    _, profile, options, kind, players = next(c for c in TURN_CASES if c[0] == name)
    turns = games = actions = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    seed = 0
    while turns < min_turns:
        opts = dict(options)
        opts.setdefault("turn_limit", 2000)
        game = Game(profile, players=players, seed=seed, options=opts)
        actions += play_game(game, _bots(kind, seed, players))
        assert game.is_over
        turns += game.turn_number
        games += 1
        seed += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"value": turns / cpu, "unit": "turns/s", "wall": turns / wall, "games": games,
            "actions/turn": actions / turns}


class PassiveBot:
    """Never buys or bids: a classic game that goes on for 100,000 turns."""

    PREFER = ("decline", "pass", "end_turn", "roll", "tax", "pay_fine", "keep")

    def choose(self, game: Any) -> Any:
        legal = game.legal_actions()
        for kind in self.PREFER:
            for action in legal:
                if action.type == kind:
                    return action
        return legal[0]


def _long_game(turns: int) -> Any:
    """A classic game at a buy decision after `turns` player-turns."""
    from ugentopoly_widget import Game

    game = Game("classic", players=4, seed=5, options={"turn_limit": turns * 2})
    bot = PassiveBot()
    apply = game.apply
    while not (game.turn_number >= turns and game.decision.kind == "buy"):
        apply(bot.choose(game))
    return game


def work_undo(turns: int) -> dict[str, Any]:
    from ugentopoly_widget.engine import actions as A

    game = _long_game(turns)
    player = game.decision.player
    times = []
    for _ in range(5):
        game.apply(A.Decline(player))
        t0 = time.perf_counter()
        game.undo()
        times.append(time.perf_counter() - t0)
        assert game.decision.kind == "buy"
    times.sort()
    return {"value": times[len(times) // 2] * 1000, "unit": "ms", "turns": game.turn_number}


def work_load(turns: int, verify: str) -> dict[str, Any]:
    """Load a save file of a `turns`-turn game: the default load (restores the saved checkpoint,
    replays the actions after it) or ``verify="replay"`` (replays the whole record and compares).
    A checkout without ``verify`` (an older baseline) loads the only way it has: a full replay."""
    import inspect

    from ugentopoly_widget import Game

    game = _long_game(turns)
    text = game.to_json()
    has_verify = "verify" in inspect.signature(Game.from_json).parameters
    kwargs = {"verify": verify} if has_verify else {}
    times, walls = [], []
    for _ in range(3):
        t0, w0 = time.process_time(), time.perf_counter()  # CPU time: the machine is shared
        loaded = Game.from_json(text, **kwargs)
        times.append(time.process_time() - t0)
        walls.append(time.perf_counter() - w0)
    assert loaded.digest() == game.digest()
    return {"value": min(times), "unit": "s", "wall": min(walls), "turns": game.turn_number,
            "actions": len(game.actions), "MB": len(text) / 1e6}


def work_memory(games: int) -> dict[str, Any]:
    import gc
    import tracemalloc

    from ugentopoly_widget import Game
    from ugentopoly_widget.engine.bots import play_game

    Game("classic", players=4, seed=0)  # imports, caches and shared actions made beforehand
    sizes = []
    events = 0
    log_bytes = 0
    tracemalloc.start()
    for seed in range(games):
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        game = Game("classic", players=4, seed=seed, options={"turn_limit": 2000})
        play_game(game, _bots("heuristic", seed, 4))
        gc.collect()
        sizes.append(tracemalloc.get_traced_memory()[0] - before)
        events += len(game.events)
        log_bytes += getattr(game.events, "nbytes", lambda: 0)()  # the compact event log
        del game
    tracemalloc.stop()
    return {"value": sum(sizes) / len(sizes) / 1024, "unit": "KB/game",
            "events/game": events / games, "log bytes/event": round(log_bytes / events, 1)}


def memory_profile(games: int, top: int = 25) -> None:
    """Where a finished classic game's memory goes, by source line (tracemalloc). Run it with
    UGENTOPOLY_PURE=1 to see engine lines: compiled code is charged to its Python caller."""
    import gc
    import tracemalloc

    from ugentopoly_widget import Game
    from ugentopoly_widget.engine.bots import play_game

    Game("classic", players=4, seed=0)
    kept = []
    gc.collect()
    tracemalloc.start(3)
    before = tracemalloc.take_snapshot()
    for seed in range(games):
        game = Game("classic", players=4, seed=seed, options={"turn_limit": 2000})
        play_game(game, _bots("heuristic", seed, 4))
        kept.append(game)
    gc.collect()
    stats = tracemalloc.take_snapshot().compare_to(before, "lineno")
    total = sum(s.size_diff for s in stats)
    print(f"engine: {engine_kind()}; {total / games / 1024:.1f} KB per finished game, "
          f"{sum(len(g.events) for g in kept) / games:.0f} events per game")
    for stat in stats[:top]:
        print(f"{stat.size_diff / games / 1024:8.1f} KB {stat.count_diff / games:8.0f} objects"
              f"  {stat.traceback[0]}")


def work_widget_play_bots(games: int) -> dict[str, Any]:
    """play_bots on a widget against play_game on a bare Game: the same seeded games, the play
    alone timed on each side (construction apart: a widget costs a few ms once, a bare Game
    less, and classic bot games are short, so it is reported beside the ratio)."""
    from ugentopoly_widget import Game, UgentopolyWidget
    from ugentopoly_widget.engine.bots import make_bot, play_game

    bare = widget = bare_new = widget_new = 0.0
    for seed in range(games):
        opts = {"turn_limit": 2000}
        t0 = time.process_time()
        game = Game("classic", players=4, seed=seed, options=opts)
        t1 = time.process_time()
        play_game(game, [make_bot("heuristic", seed=(seed * 31 + k) % 2**32) for k in range(4)])
        t2 = time.process_time()
        bare_new += t1 - t0
        bare += t2 - t1
        t0 = time.process_time()
        w = UgentopolyWidget("classic", players=4, seed=seed, options=opts,
                             seats=["heuristic"] * 4)
        t1 = time.process_time()
        w.play_bots()
        t2 = time.process_time()
        widget_new += t1 - t0
        widget += t2 - t1
        assert w.game.digest() == game.digest()
        w.close()
    return {"value": bare / widget, "unit": "x bare", "bare_s": bare, "widget_s": widget,
            "with construction": round((bare + bare_new) / (widget + widget_new), 3),
            "new Game ms": round(bare_new / games * 1000, 2),
            "new widget ms": round(widget_new / games * 1000, 2)}


def work_widget_publish(actions: int) -> dict[str, Any]:
    from ugentopoly_widget import UgentopolyWidget

    count = 0
    cpu = 0.0
    seed = 0
    while count < actions:
        w = UgentopolyWidget("classic", players=4, seed=seed, options={"turn_limit": 400})
        game = w.game
        bots = _bots("heuristic", seed, 4)
        t0 = time.process_time()
        while not game.is_over and count < actions:
            game.apply(bots[game.decision.player].choose(game))  # the widget publishes each
            count += 1
        cpu += time.process_time() - t0
        w.close()
        seed += 1
    return {"value": cpu / count * 1000, "unit": "ms/action", "actions": count}


def work_widget_open_loaded(turns: int) -> dict[str, Any]:
    """A view over a game just loaded from a save file: the widget made and its first state
    published (and its SVG picture drawn), the load itself apart. A view that read the whole
    history would replay the record before the checkpoint here."""
    from ugentopoly_widget import Game, UgentopolyWidget

    text = _long_game(turns).to_json()
    times = []
    for _ in range(3):
        loaded = Game.from_json(text)
        t0 = time.process_time()
        w = UgentopolyWidget.from_game(loaded)
        w._repr_mimebundle_()
        times.append(time.process_time() - t0)
        lazy = getattr(loaded, "_history", None) is not None
        w.close()
    return {"value": min(times) * 1000, "unit": "ms", "history still unloaded": lazy,
            "turns": loaded.turn_number}


def worker(case: str, quick: bool) -> dict[str, Any]:
    if case.startswith("turns:"):
        return work_turns(case[6:], 20_000 if quick else 100_000)
    if case == "undo":
        return work_undo(20_000 if quick else 100_000)
    if case in ("load", "load-verified"):
        return work_load(20_000 if quick else 100_000,
                         "replay" if case == "load-verified" else "checkpoint")
    if case == "memory":
        return work_memory(5 if quick else 20)
    if case == "widget-play-bots":
        return work_widget_play_bots(3 if quick else 10)
    if case == "widget-publish":
        return work_widget_publish(5_000 if quick else 20_000)
    if case == "widget-open-loaded":
        return work_widget_open_loaded(20_000 if quick else 100_000)
    raise SystemExit(f"unknown case {case}")


def engine_kind() -> str:
    try:
        from ugentopoly_widget.engine import compiled
    except ImportError:
        return "pure (no flag)"
    return "compiled" if compiled else "pure"


# ---------------------------------------------------------------------- the driver

def run_variant(case: str, variant: str, baseline: str | None, quick: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "UGENTOPOLY_PURE")}
    if variant == "pure":
        env["UGENTOPOLY_PURE"] = "1"
    elif variant == "gc700":
        env["UGW_BENCH_GC_YOUNG"] = "700"
    elif variant == "base":
        assert baseline is not None
        env["PYTHONPATH"] = str(Path(baseline).resolve())
        env["UGENTOPOLY_PURE"] = "1"
    elif variant == "basec":
        assert baseline is not None
        env["PYTHONPATH"] = str(Path(baseline).resolve())
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", case]
    if quick:
        cmd.append("--quick")
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        return {"value": float("nan"), "unit": "", "error": res.stderr.strip()[-300:]}
    result: dict[str, Any] = json.loads(res.stdout.strip().splitlines()[-1])
    return result


HIGHER_IS_BETTER = frozenset({"turns/s", "x bare"})
# A ratio of two timings taken in one run: load may slow either side, so its best run is
# luck, not the machine's speed; its median is kept instead.
RATIO_UNITS = frozenset({"x bare"})


def best_of(case: str, variants: list[str], baseline: str | None, quick: bool,
            repeat: int) -> dict[str, dict[str, Any]]:
    """Each variant's best of `repeat` runs, the variants interleaved round by round (the
    best, as timeit does: another tenant's load only ever makes a run slower); for a ratio
    (RATIO_UNITS) the median run."""
    runs: dict[str, list[dict[str, Any]]] = {v: [] for v in variants}
    for _ in range(repeat):
        for v in variants:
            runs[v].append(run_variant(case, v, baseline, quick))
    best: dict[str, dict[str, Any]] = {}
    for v, results in runs.items():
        good = [r for r in results if "error" not in r]
        if not good:
            best[v] = results[-1]
            continue
        unit = good[0].get("unit")
        good.sort(key=lambda r: r["value"], reverse=unit in HIGHER_IS_BETTER)
        best[v] = good[(len(good) - 1) // 2] if unit in RATIO_UNITS else good[0]
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--baseline", help="another checkout to compare (imported pure)")
    parser.add_argument("--cases", default="turns,undo,load,memory,widget",
                        help="comma list of: turns, undo, load, memory, widget, or case names")
    parser.add_argument("--variants", default=None,
                        help="comma list of compiled,pure,base,basec,gc700")
    parser.add_argument("--memory-profile", action="store_true",
                        help="print where a finished game's memory goes, by line, and stop")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run each variant N times, interleaved, and keep its best figure "
                             "(on a shared machine noise only slows a run down); of a "
                             "ratio to the bare engine, the median")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_profile:
        memory_profile(5 if args.quick else 10)
        return
    if args.worker:
        if os.environ.get("UGW_BENCH_GC_YOUNG"):
            from ugentopoly_widget.engine import bots

            bots.GC_YOUNG_THRESHOLD = int(os.environ["UGW_BENCH_GC_YOUNG"])
        result = worker(args.worker, args.quick)
        result["engine"] = engine_kind()
        print(json.dumps(result))
        return
    wanted = args.cases.split(",")
    cases: list[str] = []
    for name in wanted:
        if name == "turns":
            cases += [f"turns:{c[0]}" for c in TURN_CASES]
        elif name == "widget":
            cases += ["widget-play-bots", "widget-publish", "widget-open-loaded"]
        elif name == "load":
            cases += ["load", "load-verified"]
        elif name in OTHER_CASES:
            cases.append(name)
        else:
            cases.append(f"turns:{name}")
    variants = (args.variants.split(",") if args.variants
                else ["compiled", "pure"] + (["base"] if args.baseline else []))
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}; "
          f"variants: {', '.join(variants)}"
          + (f"; best of {args.repeat} runs each (ratios: median)" if args.repeat > 1 else ""))
    head = f"{'case':<24}" + "".join(f"{v:>14}" for v in variants)
    if "base" in variants:
        head += "".join(f"{v + '/base':>16}" for v in variants if v != "base")
    if "basec" in variants and "compiled" in variants:
        head += f"{'compiled/basec':>16}"
    print(head + "   unit")
    for case in cases:
        results = best_of(case, variants, args.baseline, args.quick, max(1, args.repeat))
        unit = next((r["unit"] for r in results.values() if r.get("unit")), "")
        line = f"{case:<24}" + "".join(f"{results[v]['value']:>14,.2f}" for v in variants)
        if "base" in variants:
            base = results["base"]["value"]
            line += "".join(f"{results[v]['value'] / base:>16.2f}" for v in variants
                            if v != "base")
        if "basec" in variants and "compiled" in variants:
            line += f"{results['compiled']['value'] / results['basec']['value']:>16.2f}"
        print(line + f"   {unit}", flush=True)
        for v, r in results.items():
            if "error" in r:
                print(f"    {v}: {r['error']}")
            elif r.get("engine") and r["engine"] != {"compiled": "compiled", "gc700": "compiled",
                                                     "basec": "compiled"}.get(v, r["engine"]):
                print(f"    {v}: ran the {r['engine']} engine")


if __name__ == "__main__":
    main()
