"""The classroom server under a class (issue 34): protocol-level devices against a real
server on 127.0.0.1 (tests/classroom_load.py; the short form runs in CI as
tests/test_classroom_load.py).

    python benchmarks/bench_classroom.py                       # 30 devices, 2 minutes
    python benchmarks/bench_classroom.py --minutes 30 --sample 60 --think 1   # memory, 30 min

(a run longer than 5 minutes goes on after the game is over: the class keeps sending.)

Prints: actions, click-to-projector latency (median, 95th percentile), forged and flooding
requests refused, the record check, the class experiment (30 devices x 20 rolls) and the
server's resident memory over time with its slope. Run under `nice`; give the load average
with the figures (the machine is shared)."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.classroom_load import run_load  # noqa: E402


def slope_kb_per_min(points: list[tuple[float, int]]) -> float:
    """Least-squares slope of RSS over time, from the second sample on (the first is the
    server before the class joined)."""
    pts = points[1:] if len(points) > 3 else points
    if len(pts) < 2:
        return float("nan")
    xs = [t / 60 for t, _ in pts]
    ys = [float(kb) for _, kb in pts]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--devices", type=int, default=30)
    p.add_argument("--seats", type=int, default=8)
    p.add_argument("--minutes", type=float, default=2.0)
    p.add_argument("--sample", type=float, default=10.0, help="seconds between RSS samples")
    p.add_argument("--forge-rate", type=float, default=2.0)
    p.add_argument("--think", type=float, default=0.3,
                   help="seconds a student looks at a decision before clicking")
    args = p.parse_args()
    load = os.getloadavg()
    started = time.monotonic()
    r = run_load(args.devices, args.minutes * 60, args.seats, forge_rate=args.forge_rate,
                 think=args.think, stop_when_over=args.minutes <= 5,
                 sample_every=args.sample)
    a = r.audit
    e = r.experiment
    print(f"python {sys.version.split()[0]}, load average {load[0]:.2f} at start, "
          f"{os.getloadavg()[0]:.2f} at end; {time.monotonic() - started:.0f} s wall")
    print(f"devices {r.devices} (+ projector, teacher), seats {args.seats}, "
          f"{args.minutes:g} min of play: {a['actions']} actions, {r.clicks} clicks, "
          f"turn {a['turn']}{' (game over)' if a['over'] else ''}")
    print(f"record equals the accepted requests: {a['record_matches']}; clicks unanswered: "
          f"{r.unanswered or 'none'}; connections lost: {r.lost or 'none'}")
    print(f"click-to-projector: median {r.median_ms:.1f} ms, 95th percentile {r.p95_ms:.1f} "
          f"ms, max {max(r.latencies_ms, default=float('nan')):.1f} ms over "
          f"{len(r.latencies_ms)} clicks")
    print(f"forged requests: {r.forged_sent} sent, {r.forged_refused} refused; flooding: "
          f"{r.flood_sent} sent, {r.flood_refused} refused")
    if e:
        print(f"experiment: {e['devices']} devices x 20 rolls, n = {e['n']}, projector "
              f"counts == sum of the devices' rolls: {e['counts'] == e['summed']}, on the "
              f"projector {e['seconds_after_last_roll']:.3f} s after the last roll")
    print("server RSS (min: MB): " + ", ".join(f"{t / 60:.1f}: {kb / 1024:.1f}"
                                              for t, kb in r.rss_kb))
    print(f"RSS slope after the class joined: {slope_kb_per_min(r.rss_kb):.1f} kB/min")
    ok = (a["record_matches"] and not r.unanswered and not r.lost
          and r.forged_refused == r.forged_sent
          and r.flood_refused == r.flood_sent)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
