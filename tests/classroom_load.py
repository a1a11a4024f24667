"""The classroom's load test (issue 34), shared by tests/test_classroom_load.py (short, in CI)
and benchmarks/bench_classroom.py (30 devices, 2 minutes; or 30 minutes for memory).

A real server (``python -m ugentopoly_widget classroom`` on 127.0.0.1, a process of its own)
and protocol-level devices (tests/classroom_client.py): a projector, the teacher, up to 8
students who hold the seats and click their seat's legal actions as soon as their view shows
them, and the rest of the class spamming forged requests (another seat's action, stale and
future seqs, teacher requests, a taken seat, a closed vote, malformed requests) at a person's
pace, plus one device flooding. Afterwards: the game's record replayed equals the server's
game; every accepted click is one action of the record and every other request was answered
with a refusal (no action lost or applied twice); click-to-projector latencies; then a class
experiment (every device rolls 20 times) pooled on the projector.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.classroom_client import Device

ROOT = Path(__file__).resolve().parents[1]
PREFERRED = ("roll", "buy", "accept", "pay_fine", "tax", "end_turn", "pass", "reject",
             "decline", "keep", "place", "sell", "mortgage", "sell_down", "bankrupt")


@dataclass
class Server:
    process: subprocess.Popen[str]
    info: dict[str, Any]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.info['port']}"

    def audit(self) -> dict[str, Any]:
        url = f"{self.base}/classroom/audit.json?key={self.info['key']}"
        with urllib.request.urlopen(url, timeout=30) as reply:
            result: dict[str, Any] = json.load(reply)
            return result

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()


def start_server(players: int = 8, *, profile: str = "classic", admit: str = "code",
                 extra: list[str] | None = None, stderr: Any = None) -> Server:
    args = [sys.executable, "-m", "ugentopoly_widget", "classroom", "--host", "127.0.0.1",
            "--port", "0", "--players", str(players), "--profile", profile, "--admit", admit,
            "--info-json", "-", "--bot-delay", "0.05", "--seed", "2024", *(extra or [])]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=stderr or subprocess.DEVNULL,
                               text=True, cwd=ROOT)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("{"):
        process.kill()
        raise RuntimeError(f"the classroom server did not start: {line!r}")
    return Server(process, json.loads(line))


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    """What a hurried student clicks: the decision's main button (never an open trade)."""
    usable = [a for a in legal if a["type"] not in ("propose_trade", "bid")]
    for kind in PREFERRED:
        options = [a for a in usable if a["type"] == kind]
        if options:
            return rng.choice(options)
    return usable[0] if usable else None


@dataclass
class Player:
    device: Device
    seat: int
    rng: random.Random
    think: float = 0.0  # seconds a student looks before clicking
    clicks: list[tuple[int, float]] = field(default_factory=list)  # (seq clicked at, time)
    last_seq: int = -1
    stop: bool = False

    def on_view(self, device: Device, view: dict[str, Any], now: float) -> None:
        mine = view.get("mine") or {}
        if self.stop or not mine.get("my_turn") or view["seq"] == self.last_seq:
            return
        action = choose(mine.get("legal") or [], self.rng)
        if action is None:
            return
        self.last_seq = view["seq"]
        if self.think > 0:
            threading.Timer(self.think, self._click, (device, action, view["seq"])).start()
        else:
            self._click(device, action, view["seq"])

    def _click(self, device: Device, action: dict[str, Any], seq: int) -> None:
        if self.stop or device.closed:
            return
        self.clicks.append((seq, time.perf_counter()))
        device.panel_send({"type": "act", "action": action, "seq": seq})


FORGERIES = ("other_seat", "stale", "future", "teacher", "taken_seat", "vote", "malformed",
             "board_act", "roll")


def forged(kind: str, view: dict[str, Any], seats: int, rng: random.Random) -> tuple[str, Any]:
    """One forged request (for the room view, or for the board: "board")."""
    seq = view.get("seq", 0)
    action = {"type": "roll", "player": rng.randrange(seats)}
    if kind == "other_seat":
        return "panel", {"type": "act", "action": action, "seq": seq}
    if kind == "stale":
        return "panel", {"type": "act", "action": action, "seq": max(0, seq - 1)}
    if kind == "future":
        return "panel", {"type": "act", "action": action, "seq": seq + 1000}
    if kind == "teacher":
        return "panel", {"type": "teacher", "op": rng.choice(["undo", "end", "pause", "start"])}
    if kind == "taken_seat":
        return "panel", {"type": "claim", "seat": rng.randrange(seats)}
    if kind == "vote":
        return "panel", {"type": "vote", "vote": 999, "choice": 0}
    if kind == "malformed":
        return "panel", rng.choice([[1, 2], {"type": "act"}, {"type": 5},
                                    {"type": "act", "action": "roll", "seq": seq}])
    if kind == "roll":
        return "panel", {"type": "roll", "experiment": 999}
    # an act with a made-up seq through the board's comm where the page has one
    return "board", {"type": "act", "action": action, "seq": 10**9}


@dataclass
class LoadResult:
    devices: int
    seconds: float
    audit: dict[str, Any]
    latencies_ms: list[float]
    clicks: int
    forged_sent: int
    forged_refused: int
    flood_sent: int
    flood_refused: int
    unanswered: list[str]
    lost: list[str]  # connections the server closed
    experiment: dict[str, Any]
    rss_kb: list[tuple[float, int]]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.latencies_ms) if self.latencies_ms else float("nan")

    @property
    def p95_ms(self) -> float:
        if not self.latencies_ms:
            return float("nan")
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def run_load(devices: int = 30, seconds: float = 120.0, seats: int = 8, *,
             think: float = 0.0, forge_rate: float = 2.0, flood_rate: float = 40.0,
             sample_every: float = 10.0, stop_when_over: bool = True,
             experiment: bool = True, seed: int = 1, stderr: Any = None) -> LoadResult:
    """Run the load (bounded: `seconds` of play, then the experiment) and return what the
    checks need. `devices` counts the students' devices (projector and teacher apart)."""
    server = start_server(seats, stderr=stderr)
    opened: list[Device] = []
    try:
        base = server.base
        projector = Device(base, "/projector")
        opened.append(projector)
        seen: list[tuple[int, float]] = []  # projector: (game seq, time first seen)

        def on_projector(_: Device, view: dict[str, Any], now: float) -> None:
            if not seen or view["seq"] != seen[-1][0]:
                seen.append((view["seq"], now))

        projector.on_view = on_projector
        teacher = Device(base, f"/teacher?key={server.info['key']}")
        opened.append(teacher)
        players: list[Player] = []
        others: list[Device] = []
        for k in range(devices):
            d = Device(base, "/?code=" + server.info["code"])
            opened.append(d)
            d.panel_send({"type": "join", "code": server.info["code"], "name": f"Student {k}"})
            d.wait_for(lambda v: v["me"]["role"] == "member")
            if k < seats:
                d.panel_send({"type": "claim", "seat": k})
                d.wait_for(lambda v, k=k: v["me"]["seat"] == k)
                players.append(Player(d, k, random.Random(seed * 1000 + k), think))
            else:
                others.append(d)
        teacher.panel_send({"type": "teacher", "op": "start"})
        projector.wait_for(lambda v: v["room"]["started"], 30)
        for p in players:
            p.device.on_view = p.on_view
            p.on_view(p.device, p.device.panel, time.perf_counter())  # a view already there
        counts = {"forged": 0, "flood": 0}
        lost: list[str] = []
        errors_before = {id(d): d.errors for d in others}
        stop = threading.Event()

        def spam(d: Device, rate: float, key: str, r: random.Random) -> None:
            # bounded: `seconds` at `rate` requests a second
            deadline = time.monotonic() + seconds
            while not stop.is_set() and time.monotonic() < deadline:
                where, content = forged(r.choice(FORGERIES), d.panel, seats, r)
                if d.board_comm is None:
                    where = "panel"
                try:
                    (d.panel_send if where == "panel" else d.board_send)(content)
                except OSError as exc:  # the server closed this device's connection
                    lost.append(f"device {d.panel.get('me', {}).get('number')}: {exc}")
                    d.closed = True
                    return
                counts[key] += 1
                stop.wait(1 / rate)

        flooder = others[-1] if others else None
        threads = [threading.Thread(target=spam, args=(d, forge_rate, "forged",
                                                       random.Random(seed + i)), daemon=True)
                   for i, d in enumerate(others) if d is not flooder]
        if flooder is not None:
            threads.append(threading.Thread(target=spam, args=(flooder, flood_rate, "flood",
                                                               random.Random(seed - 1)),
                                            daemon=True))
        rss: list[tuple[float, int]] = []
        started = time.monotonic()
        for t in threads:
            t.start()
        next_sample = 0.0
        while time.monotonic() - started < seconds:
            if time.monotonic() - started >= next_sample:
                rss.append((time.monotonic() - started, int(server.audit()["rss_kb"])))
                next_sample += sample_every
            if stop_when_over and projector.panel.get("room", {}).get("over"):
                break
            time.sleep(0.2)
        stop.set()
        for p in players:
            p.stop = True
        for t in threads:
            t.join(10)
        spammers = [d for d in others if d is not flooder]

        def answered(ds: list[Device]) -> int:
            return sum(d.errors - errors_before[id(d)] + d.board_errors for d in ds)

        def refused(ds: list[Device], audit: dict[str, Any]) -> int:
            by = audit["refused_by_device"]
            return sum(by.get(str(d.panel["me"]["number"]), 0) for d in ds)

        # the last answers arrive (a busy server works through its queue): bounded wait
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not lost:
            audit = server.audit()
            if answered(spammers) >= counts["forged"] and refused(spammers, audit) >= \
                    counts["forged"] and (flooder is None
                                          or refused([flooder], audit) >= counts["flood"]):
                break
            time.sleep(0.3)
        time.sleep(0.5)
        audit = server.audit()
        # latency: from a click to the projector's first view of the next state
        latencies: list[float] = []
        for p in players:
            for seq, sent in p.clicks:
                after = [at for s, at in seen if s > seq and at >= sent]
                if after:
                    latencies.append(1000 * (after[0] - sent))
        # every forged request was answered with a refusal in that device's view (the board's
        # refusals in its board view)
        # every forged request answered with a refusal in its device's view, and counted as
        # refused by the server; a flood is counted by the server (answered once a second)
        forged_refused = min(answered(spammers), refused(spammers, audit))
        flood_refused = refused([flooder], audit) if flooder is not None else 0
        unanswered = []
        for p in players:
            accepted = audit["sources"].get(f"device:{p.device.panel['me']['number']}", 0)
            if accepted + p.device.errors != len(p.clicks):
                unanswered.append(f"seat {p.seat}: {len(p.clicks)} clicks, {accepted} "
                                  f"accepted, {p.device.errors} refused")
        result_experiment = run_experiment(teacher, projector, players, others) \
            if experiment else {}
        rss.append((time.monotonic() - started, int(server.audit()["rss_kb"])))
        return LoadResult(devices, seconds, audit, latencies,
                          sum(len(p.clicks) for p in players), counts["forged"],
                          forged_refused, counts["flood"], flood_refused, unanswered,
                          lost, result_experiment, rss)
    finally:
        for d in opened:
            d.close()
        server.stop()


def run_experiment(teacher: Device, projector: Device, players: list[Player],
                   others: list[Device], rolls: int = 20) -> dict[str, Any]:
    """Every device rolls `rolls` times; the projector's pooled counts against the sum of the
    devices' own outcomes, and how long after the last roll the projector had them all."""
    everyone = [d for d in [p.device for p in players] + others if not d.closed]
    for d in everyone:
        d.on_view = None
    teacher.panel_send({"type": "teacher", "op": "experiment", "kind": "dice", "count": rolls})
    view = projector.wait_for(lambda v: bool(v.get("experiment", {}).get("open")), 10)
    eid = view["experiment"]["id"]
    for d in everyone:
        d.wait_for(lambda v: v.get("experiment", {}).get("id") == eid, 10)
    time.sleep(1.0)  # the flood bucket of the flooder refills
    last = 0.0
    for _ in range(rolls):  # the class rolls together, one roll a press
        for d in everyone:
            d.panel_send({"type": "roll", "experiment": eid})
            last = time.perf_counter()
        time.sleep(0.15)  # a press each 0.15 s per device: the class's pace, under the limit
    total = rolls * len(everyone)
    view = projector.wait_for(lambda v: v["experiment"]["n"] >= total, 10)
    seen_at = projector.view_at
    for d in everyone:
        d.wait_for(lambda v: v["experiment"]["mine"]["trials"] == rolls, 10)
    summed = [0] * len(view["experiment"]["counts"])
    for d in everyone:
        for outcome in d.panel["experiment"]["mine"]["outcomes"]:
            summed[outcome] += 1
    return {"n": view["experiment"]["n"], "counts": view["experiment"]["counts"],
            "summed": summed, "devices": len(everyone),
            "seconds_after_last_roll": max(0.0, seen_at - last)}


__all__ = ["LoadResult", "run_load", "start_server"]
