"""Issue 34's load test, short form for CI: a real classroom server on 127.0.0.1 and 12
protocol-level devices (4 seat holders clicking their seat's legal actions as fast as their
views allow, 7 devices forging requests at a person's pace, one flooding) for 20 s, then a
class experiment (every device rolls 20 times). The full form (30 devices, 2 minutes, and
30 minutes for memory): benchmarks/bench_classroom.py.

Checked: the game's record replays to the server's game (same digest, invariants hold); the
record is exactly the accepted requests, and every click was either one action of it or
answered with a refusal (none lost, none applied twice); every forged request refused; the
projector followed every click; the pooled histogram is the sum of the devices' rolls. Speed
is printed, not asserted (CI's 2 cores are shared)."""

from __future__ import annotations

from tests.conftest import skip_without_classroom_extra
from tests.invariants import check_state
from ugentopoly_widget import Game

skip_without_classroom_extra()

from tests.classroom_load import run_load  # noqa: E402


def test_a_class_plays_forges_and_floods_and_nothing_is_lost() -> None:
    result = run_load(devices=12, seconds=20, seats=4, forge_rate=2.0, flood_rate=40.0)
    audit = result.audit
    assert audit["record_matches"], "the record is not the sequence of accepted requests"
    replayed = Game.replay(audit["record"])
    assert replayed.digest() == audit["digest"]
    check_state(replayed)
    assert result.clicks >= 20 and audit["actions"] >= 20, audit["actions"]
    # every click is an action of the record or came back refused; nothing else happened
    assert result.unanswered == [] and result.lost == []
    people = sum(n for source, n in audit["sources"].items() if source.startswith("device:"))
    assert people == audit["actions"] - sum(n for s, n in audit["sources"].items()
                                            if not s.startswith("device:"))
    assert result.forged_sent >= 100
    assert result.forged_refused == result.forged_sent
    assert result.flood_refused == result.flood_sent
    # the projector saw the state after every accepted click
    assert len(result.latencies_ms) >= people - 1
    e = result.experiment
    assert e["n"] == 20 * 12 and e["counts"] == e["summed"]
    print(f"\nclassroom load: {result.clicks} clicks, {audit['actions']} actions, "
          f"click-to-projector median {result.median_ms:.1f} ms, p95 {result.p95_ms:.1f} ms; "
          f"{result.forged_sent} forged and {result.flood_sent} flooding requests refused; "
          f"experiment pooled {e['seconds_after_last_roll']:.2f} s after the last roll; "
          f"server RSS {result.rss_kb[0][1] / 1024:.0f} -> {result.rss_kb[-1][1] / 1024:.0f} MB")
