"""Issue 34: class experiments pooled exactly beside the probability lab's distribution, the
table for the lesson after, and class votes with each choice's win chance."""

from __future__ import annotations

import math
import threading

import pytest

from tests.test_classroom_room import T, joined, make_room, seated_game, teacher
from ugentopoly_widget import Game
from ugentopoly_widget.classroom.experiments import exact_distribution
from ugentopoly_widget.probability import dice_distribution, next_roll_distribution


def class_of(n: int) -> tuple[object, list[str]]:
    room, clock = make_room(2)
    teacher(room)
    devices = [f"s{k}" for k in range(n)]
    for k, device in enumerate(devices):
        joined(room, device, f"Student {k}")
    return room, devices


def test_thirty_devices_times_twenty_rolls_pool_exactly() -> None:
    room, devices = class_of(30)
    reply = T(room, "experiment", kind="dice")  # type: ignore[arg-type]
    assert reply["ok"]
    e = room.experiment  # type: ignore[attr-defined]
    assert e is not None and e.count == 20
    for device in devices:
        for _ in range(4):  # one press each, then the rest (5 at a time)
            assert room.request(device, {"type": "roll", "experiment": e.id})["ok"]  # type: ignore
        assert room.request(device, {"type": "roll", "experiment": e.id, "count": 16})["ok"]  # type: ignore
    mine = [e.runs[d].outcomes for d in devices]
    assert all(len(m) == 20 for m in mine)
    summed = [0] * len(e.counts)
    for outcomes in mine:
        for o in outcomes:
            summed[o] += 1
    assert e.counts == summed and e.n == 600
    table = room.experiment_table()  # type: ignore[attr-defined]
    assert len(table) == 600 and set(table.device) == {f"Student {k}" for k in range(30)}
    assert table.groupby("label").size().reindex(e.labels["en"], fill_value=0).tolist() == e.counts
    # the exact distribution is the probability lab's
    exact = dice_distribution(Game("classic", players=2)).table.probability.tolist()
    assert e.exact == pytest.approx(exact, abs=1e-12)
    # a device's share is its own: more is refused, the pool is unchanged
    reply = room.request(devices[0], {"type": "roll", "experiment": e.id})  # type: ignore
    assert not reply["ok"] and "done its 20" in reply["error"]
    assert e.n == 600


def test_each_device_has_its_own_reproducible_stream() -> None:
    room, devices = class_of(3)
    e = room.open_experiment("dice", count=10, seed=42)  # type: ignore[attr-defined]
    for d in devices:
        room.request(d, {"type": "roll", "experiment": e.id, "count": 10})  # type: ignore
    again, devices2 = class_of(3)
    e2 = again.open_experiment("dice", count=10, seed=42)  # type: ignore[attr-defined]
    for d in devices2:
        again.request(d, {"type": "roll", "experiment": e2.id, "count": 10})  # type: ignore
    streams = [e.runs[d].outcomes for d in devices]
    assert streams == [e2.runs[d].outcomes for d in devices2]
    assert streams[0] != streams[1] != streams[2]


def test_bad_experiment_requests_are_refused() -> None:
    room, devices = class_of(2)
    d = devices[0]
    assert "no experiment" in room.request(d, {"type": "roll", "experiment": 1})["error"]  # type: ignore
    e = room.open_experiment("dice", count=5)  # type: ignore[attr-defined]
    for bad, words in [({"experiment": e.id, "count": 6}, "roll 1 to 5"),
                       ({"experiment": e.id, "count": 0}, "roll 1 to 5"),
                       ({"experiment": e.id, "count": True}, "roll 1 to 5"),
                       ({"experiment": 99}, "over")]:
        reply = room.request(d, {"type": "roll", **bad})  # type: ignore
        assert not reply["ok"] and words in reply["error"], bad
    assert e.n == 0
    assert not T(room, "experiment", kind="poker")["ok"]  # type: ignore[arg-type]
    assert not T(room, "experiment", kind="dice", count=1000)["ok"]  # type: ignore[arg-type]
    assert room.experiment is e and e.open  # refused: the open one stays open
    room.close_experiment()  # type: ignore[attr-defined]
    assert "no experiment is open" in room.request(d, {"type": "roll", "experiment": e.id})["error"]  # type: ignore


@pytest.mark.parametrize("kind", ["jail", "turns"])
def test_the_engine_plays_the_trials_and_outcomes_fit_the_board(kind: str) -> None:
    room, devices = class_of(4)
    e = room.open_experiment(kind, count=5, seed=3)  # type: ignore[attr-defined]
    for d in devices:
        assert room.request(d, {"type": "roll", "experiment": e.id, "count": 5})["ok"]  # type: ignore
    size = room.game.board.size  # type: ignore[attr-defined]
    assert len(e.counts) == size + 1 and e.labels["en"][-1] == "In Jail"
    assert e.n == sum(len(r.outcomes) for r in e.runs.values())
    assert e.n == 20 if kind == "jail" else e.n >= 20
    assert sum(e.exact) == pytest.approx(1.0)
    if kind == "jail":  # from jail on the first try: no doubles (5/6) stays in jail
        exact = next_roll_distribution(Game("classic", players=2).board, "classic",
                                       in_jail=True, jail="long").probability.tolist()
        assert e.exact == pytest.approx(exact)
        # 5/6 no doubles, plus doubles onto a card that sends the token back
        assert 5 / 6 <= e.exact[-1] < 5 / 6 + 0.01


def test_a_large_class_lands_from_jail_as_the_exact_distribution_says() -> None:
    """3,000 trials from jail played by the engine against next_roll_distribution: a
    chi-square goodness of fit over the outcomes with enough expected counts."""
    game = Game("classic", players=2, seed=1)
    labels, exact = exact_distribution(game, "jail")
    room, devices = class_of(30)
    e = room.open_experiment("jail", count=100, seed=11)  # type: ignore[attr-defined]
    for d in devices:
        room.request(d, {"type": "roll", "experiment": e.id, "count": 100})  # type: ignore
    n = e.n
    assert n == 3000
    cells = [(c, n * p) for c, p in zip(e.counts, exact, strict=True) if n * p >= 5]
    rest = n - sum(c for c, _ in cells), n - sum(x for _, x in cells)
    chi2 = sum((c - x) ** 2 / x for c, x in cells) + (
        (rest[0] - rest[1]) ** 2 / rest[1] if rest[1] >= 5 else 0)
    df = len(cells) - (0 if rest[1] >= 5 else 1)
    assert chi2 < df + 4 * math.sqrt(2 * df), (chi2, df)  # far beyond the 99.9th percentile


def test_the_band_narrows_as_one_over_root_n() -> None:
    room, devices = class_of(2)
    e = room.open_experiment("dice", count=200, seed=1)  # type: ignore[attr-defined]
    room.request(devices[0], {"type": "roll", "experiment": e.id, "count": 25})  # type: ignore
    wide = [hi - p for (_, hi), p in zip(e.band(), e.exact, strict=True)]
    room.request(devices[0], {"type": "roll", "experiment": e.id, "count": 75})  # type: ignore
    assert e.n == 100
    narrow = [hi - p for (_, hi), p in zip(e.band(), e.exact, strict=True)]
    for w, v, p in zip(wide, narrow, e.exact, strict=True):
        # the upper half-width: 2·sqrt(p(1-p)/n), halved when n is four times larger
        assert v == pytest.approx(2 * math.sqrt(p * (1 - p) / 100), abs=1e-12)
        assert v == pytest.approx(w / 2, rel=1e-9)


# ---------------------------------------------------------------------- votes


def test_a_class_vote_on_the_live_decision_with_its_split_and_swing() -> None:
    room, clock, devices = seated_game(2)
    player = room.game.decision.player
    assert player is not None
    room.game.testing.script_dice((1, 2))  # classic: Baltic? no: 3 = Baltic Avenue (buyable)
    choice = {"type": "roll", "player": player}
    assert room.request(devices[player], {"type": "act", "action": choice,
                                          "seq": room.game_seq})["ok"]
    assert room.game.decision.kind == "buy"
    voters = [f"v{k}" for k in range(5)]
    for k, v in enumerate(voters):
        joined(room, v, f"Voter {k}")
    reply = T(room, "vote")
    assert reply["ok"]
    vote = room.vote
    assert vote is not None
    kinds = [a.type for a in vote.choices]
    assert set(kinds) == {"buy", "decline"}
    buy, decline = kinds.index("buy"), kinds.index("decline")
    for v in voters[:3]:
        assert room.request(v, {"type": "vote", "vote": vote.id, "choice": buy})["ok"]
    for v in voters[3:]:
        assert room.request(v, {"type": "vote", "vote": vote.id, "choice": decline})["ok"]
    assert room.request(voters[0], {"type": "vote", "vote": vote.id, "choice": decline})["ok"]
    assert vote.split()[buy] == 2 and vote.split()[decline] == 3  # a mind changed
    for bad in ({"vote": vote.id, "choice": 7}, {"vote": 99, "choice": 0},
                {"vote": vote.id, "choice": "buy"}):
        assert not room.request(voters[1], {"type": "vote", **bad})["ok"]
    assert vote.split()[buy] == 2
    done = threading.Event()
    room.close_vote = room.close_vote  # the teacher closes: the swing follows in a thread
    original = room._vote_done

    def finished() -> None:
        original()
        done.set()

    room._vote_done = finished  # type: ignore[method-assign]
    assert T(room, "close_vote")["ok"]
    assert done.wait(120), vote.swing_status
    assert vote.swing_status == "done", vote.swing_status
    assert vote.swing is not None and len(vote.swing) == 2
    assert all(0 <= s["p_win"] <= 1 for s in vote.swing)
    assert max(s["points"] for s in vote.swing) == 0
    assert not room.request(voters[1], {"type": "vote", "vote": vote.id, "choice": 0})["ok"]
    assert room.game.decision.kind == "buy"  # the vote advises: the holder still decides
