"""Save files from anyone: edited, mistyped, deeply nested, and saves that fail half-way
(issue 6, items 9-12)."""

from __future__ import annotations

import copy
import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import fixtures_dir
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ugentopoly_widget import Game, SaveFileError
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot


def played(profile: str = "classic", actions: int = 60, seed: int = 5, **kw: Any) -> Game:
    game = Game(profile, players=3, seed=seed, **kw)
    bots = [HeuristicBot(seed=1), RandomBot(seed=2), HeuristicBot(seed=3)]
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(bots[game.decision.player or 0].choose(game))
    return game


def payload_of(game: Game) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(game.to_json())
    return result


def refused(payload: dict[str, Any] | str, *words: str) -> SaveFileError:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    with pytest.raises(SaveFileError) as info:
        Game.from_json(text)
    message = str(info.value)
    for word in words:
        assert word in message, message
    return info.value


# ---------------------------------------------------------------- item 9: the digest


def test_a_cash_injection_with_a_recomputed_state_digest_is_refused() -> None:
    """The old digest covered the replayed state only: an editor could add a testing step and
    recompute it with Game.digest()."""
    game = played("classic")
    payload = payload_of(game)
    payload["record"]["injections"].append(
        {"at": len(payload["record"]["actions"]), "op": "cash", "args": [0, 999_999]})
    forged = Game.replay(payload["record"])
    assert forged.players[0].cash == 999_999
    payload["digest"] = forged.digest()
    refused(payload, "damaged or edited")


def _owned_street_without_rent_paid(game: Game) -> int:
    owned = [t.position for t in game.board.tiles
             if t.kind.value == "STREET" and game.owner(t.position) is not None]
    paid = {e.data.get("position") for e in game.events if e.kind == "rent"}
    return next(pos for pos in owned if pos not in paid)


def test_edits_that_do_not_change_the_state_yet_are_refused() -> None:
    """Rents of owned lots, a card's amount, rule multipliers, the elapsed time: none of them
    changes the state reached so far, so the old digest did not see them."""
    board = fixtures_dir() / "ugentopoly.xml"
    game = played("ugentopoly", actions=40, board=board)
    good = payload_of(game)
    Game.from_json(json.dumps(good))  # the unedited file loads

    pos = _owned_street_without_rent_paid(game)
    tile_id = game.board.tiles[pos].id
    edited = copy.deepcopy(good)
    xml = edited["record"]["board"]["xml"]
    start = xml.index(f'id="{tile_id}"')
    rent_at = xml.index('rent0="', start)
    edited["record"]["board"]["xml"] = xml[:rent_at] + 'rent0="999' + xml[rent_at + 7:]
    refused(edited, "damaged or edited")

    edited = copy.deepcopy(good)
    edited["record"]["board"]["xml"] = edited["record"]["board"]["xml"].replace(
        'amount="100"', 'amount="100000"')
    refused(edited, "damaged or edited")

    edited = copy.deepcopy(good)
    edited["record"]["options"]["utility_multipliers"] = [40, 100]
    refused(edited, "damaged or edited")

    edited = copy.deepcopy(good)
    edited["record"]["board"]["names"][""]["tile.street01"] = "Mine"
    refused(edited, "damaged or edited")

    edited = copy.deepcopy(good)
    edited["elapsed_seconds"] = good["elapsed_seconds"] + 3600
    refused(edited, "damaged or edited")


def test_messages_and_docs_say_what_the_digest_protects_against() -> None:
    payload = payload_of(played())
    payload["digest"] = "0" * 64
    message = str(refused(payload, "damaged or edited"))
    assert "tampered" not in message and "by hand" not in message
    doc = SaveFileError.__doc__ or ""
    assert "damage" in doc and "casual edits" in doc and "determined editor" in doc
    engine_doc = (Path(__file__).resolve().parents[1] / "docs" / "engine.md").read_text()
    assert "determined editor" in engine_doc


def test_saves_of_the_older_unchecked_format_are_refused_with_a_reason() -> None:
    payload = payload_of(played())
    payload["version"] = 1
    refused(payload, "version 1")


# ---------------------------------------------------------------- item 10: every field typed


def _edit(payload: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    edited = copy.deepcopy(payload)
    node = edited
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return edited


FIELD_EDITS: list[tuple[list[Any], Any, str]] = [
    (["record", "board", "names", "", "tile.street01"], 5, "record.board.names"),
    (["record", "options", "turn_timer_seconds"], "30", "record.options.turn_timer_seconds"),
    (["record", "options", "name"], "mine", "record.options.name"),
    (["record", "options", "rank_by"], "luck", "record.options.rank_by"),
    (["record", "options", "max_jail_turns"], True, "record.options.max_jail_turns"),
    (["record", "options", "utility_multipliers"], [4, "10"],
     "record.options.utility_multipliers"),
    (["record", "options", "no_such_rule"], 1, "record.options.no_such_rule"),
    (["record", "players", 0, "name"], 7, "record.players[0].name"),
    (["record", "players", 1, "token"], ["car"], "record.players[1].token"),
    (["record", "players", 2], "Cy", "record.players[2]"),
    (["record", "players"], [], "record.players"),
    (["record", "seed"], "5", "record.seed"),
    (["record", "seed"], 2.5, "record.seed"),
    (["record", "lang"], "fr", "record.lang"),
    (["record", "profile"], 3, "record.profile"),
    (["record", "actions", 0], "roll", "record.actions[0]"),
    (["record", "actions", 1], "1:fly", "record.actions[1]"),
    (["record", "actions", 1], {"type": "fly", "player": 1}, "record.actions[1]"),
    (["checkpoint", "players", 0, "cash"], "100", "checkpoint.players[0].cash"),
    (["checkpoint", "players", 1, "position"], 400, "checkpoint.players[1].position"),
    (["checkpoint", "players", 1, "in_jail"], 0, "checkpoint.players[1].in_jail"),
    (["checkpoint", "players", 2, "jail_cards"], [["CHANCE", "nope"]],
     "checkpoint.players[2].jail_cards[0]"),
    (["checkpoint", "owner", 3], 1.0, "checkpoint.owner[3]"),
    (["checkpoint", "owner", 3], 7, "checkpoint.owner[3]"),
    (["checkpoint", "level"], [0, 0], "checkpoint.level"),
    (["checkpoint", "mortgaged"], [1, 1], "checkpoint.mortgaged"),
    (["checkpoint", "houses_left"], 3, "checkpoint.houses_left"),
    (["checkpoint", "pot"], -5, "checkpoint.pot"),
    (["checkpoint", "decks", "CHANCE", 0], "no-such-card", "checkpoint.decks['CHANCE'][0]"),
    (["checkpoint", "decks", "SURPRISE"], [], "checkpoint.decks"),
    (["checkpoint", "rng", "state", 10], -1, "checkpoint.rng.state[10]"),
    (["checkpoint", "rng", "state", 624], 625, "checkpoint.rng.state[624]"),
    (["checkpoint", "rng", "gauss"], "0.5", "checkpoint.rng.gauss"),
    (["checkpoint", "rng", "drawn"], 10**6, "checkpoint.rng.drawn"),
    (["checkpoint", "scripted", 0], [1, 9], "checkpoint.scripted[0]"),
    (["checkpoint", "forced", "CHANCE"], [], "checkpoint.forced"),
    (["checkpoint", "current"], 3, "checkpoint.current"),
    (["checkpoint", "round"], 0, "checkpoint.round"),
    (["checkpoint", "time_up"], "no", "checkpoint.time_up"),
    (["checkpoint", "applied"], 10**6, "checkpoint.applied"),
    (["checkpoint", "undoable_before"], None, "checkpoint.undoable_before"),
    (["checkpoint", "extra"], 1, "checkpoint: unexpected field 'extra'"),
    (["checkpoint"], [], "checkpoint: expected an object or null"),
    (["record", "injections"], {"at": 0}, "record.injections"),
    (["record", "injections", 0, "op"], [], "record.injections[0].op"),  # found by the fuzz
    (["record", "board", "file"], 5, "record.board.file"),
    (["record", "board", "xml"], None, "record.board.xml"),
    (["record", "board", "extra"], "x", "record.board"),
    (["elapsed_seconds"], "12", "elapsed_seconds"),
    (["elapsed_seconds"], -1, "elapsed_seconds"),
    (["digest"], 42, "digest"),
]


@pytest.mark.parametrize("path,value,field", FIELD_EDITS,
                         ids=[".".join(map(str, p)) for p, _, _ in FIELD_EDITS])
def test_every_field_is_checked_by_type_and_range(path: list[Any], value: Any,
                                                  field: str) -> None:
    board = fixtures_dir() / "ugentopoly.xml"
    game = played("ugentopoly", actions=20, board=board)
    game.testing.set_cash(0, 1234)
    game.testing.script_dice(*[(1, 2)] * 20)
    game.checkpoint_every = 1
    for _ in range(12):  # past a turn boundary: the checkpoint now holds the scripted roll
        game.apply(game.legal_actions()[0])
    game.testing.script_dice((1, 2))
    payload = payload_of(game)
    assert payload["checkpoint"]["scripted"] and payload["checkpoint"]["applied"] > 20
    refused(_edit(payload, path, value), field)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_loaded_save_shows_saves_and_plays(data: st.DataObject) -> None:
    """A determined editor who recomputes the digest still gets either a SaveFileError or a
    game that prints, draws, saves and plays: never a crash later."""
    from ugentopoly_widget.widget import UgentopolyWidget

    game = played("classic", actions=30, seed=1)
    game.testing.script_dice((1, 2))
    payload = payload_of(game)
    leaves: list[list[Any]] = []

    def walk(node: Any, path: list[Any]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, [*path, key])
            leaves.append([*path, "extra"])
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, [*path, index])
        leaves.append(path)

    walk(payload["record"], ["record"])
    walk(payload["checkpoint"], ["checkpoint"])
    path = data.draw(st.sampled_from([p for p in leaves if len(p) > 1]))
    junk = data.draw(st.one_of(
        st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True),
        st.text(max_size=5), st.lists(st.integers(0, 50), max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)))
    edited = _edit(payload, path, junk)
    edited["digest"] = _digest_for(edited)
    try:
        loaded = Game.from_json(json.dumps(edited))
    except SaveFileError:
        return
    str(loaded)
    try:  # the first look at the history replays the record and compares: a forged
        loaded.events  # noqa: B018 - checkpoint is refused then, changing nothing
    except SaveFileError:
        assert loaded.digest() == _loaded_digest(edited)
        return
    loaded._repr_svg_()
    loaded.log("nl")
    Game.from_json(loaded.to_json())
    widget = UgentopolyWidget.from_game(loaded)
    widget.play_bots(turns=2, everyone="random")
    widget.close()


def _loaded_digest(payload: dict[str, Any]) -> str:
    """The state digest a load of this payload reaches (what a forger would compute)."""
    from ugentopoly_widget.engine.records import loading
    from ugentopoly_widget.engine.records.savefile import decode_actions

    record = payload["record"]
    if payload["checkpoint"] is None:
        return Game.replay(record).digest()
    game = loading.game_from_record(Game, record, None)
    loading.resume(game, payload["checkpoint"], decode_actions(record["actions"]),
                   loading.injections_of(record))
    return game.digest()


def _digest_for(payload: dict[str, Any]) -> str:
    """The digest a determined editor computes for an edited save (what it loads to)."""
    from ugentopoly_widget.engine.records.savefile import save_digest

    try:
        state = _loaded_digest(payload)
    except (SaveFileError, KeyError, TypeError, IndexError, ValueError, AttributeError):
        state = "0" * 64
    try:
        return save_digest(payload["record"], payload["elapsed_seconds"], state,
                           payload["checkpoint"])
    except (ValueError, TypeError):  # NaN or infinity: not JSON, refused whatever the digest
        return "0" * 64


# ---------------------------------------------------------------- checkpoints (issue 7)


def _consistent(profile: str = "classic", seed: int = 7, actions: int = 250
                ) -> tuple[Game, dict[str, Any]]:
    game = Game(profile, players=3, seed=seed)
    game.checkpoint_every = 4
    bots = [HeuristicBot(seed=1), RandomBot(seed=2), HeuristicBot(seed=3)]
    for _ in range(actions):
        game.apply(bots[game.decision.player or 0].choose(game))
    payload = payload_of(game)
    assert payload["checkpoint"]["applied"] > 0
    return game, payload


def _forged(payload: dict[str, Any], edit: Any) -> dict[str, Any]:
    """`edit` applied to the checkpoint, the digest recomputed as a determined editor would."""
    edited = copy.deepcopy(payload)
    edit(edited["checkpoint"])
    edited["digest"] = _digest_for(edited)
    return edited


def test_a_truncated_checkpoint_is_refused() -> None:
    _, payload = _consistent()
    text = json.dumps(payload)
    cut = text.index('"checkpoint"') + 200
    refused(text[:cut], "not a save file")
    refused(_forged(payload, lambda c: c.pop("rng")), "checkpoint: missing field 'rng'")
    refused(_forged(payload, lambda c: c["players"].pop()), "checkpoint.players")
    refused(_forged(payload, lambda c: c["rng"]["state"].pop()), "checkpoint.rng.state")
    refused(_forged(payload, lambda c: c["owner"].pop()), "checkpoint.owner")


def test_cash_that_does_not_add_up_is_refused() -> None:
    _, payload = _consistent()

    def richer(c: dict[str, Any]) -> None:
        c["players"][0]["cash"] += 500

    message = str(refused(_forged(payload, richer), "checkpoint", "add up to"))
    assert "started with" in message


def test_inconsistent_owners_buildings_and_decks_are_refused() -> None:
    game, payload = _consistent()
    street = next(t.position for t in game.board.tiles if t.kind.value == "STREET"
                  and game.owner(t.position) is None)
    corner = 0  # START: never a property

    def owns_start(c: dict[str, Any]) -> None:
        c["owner"][corner] = 0

    def mortgaged_unowned(c: dict[str, Any]) -> None:
        c["mortgaged"] = sorted({*c["mortgaged"], street})

    def house_unowned(c: dict[str, Any]) -> None:
        c["level"][street] = 1
        c["houses_left"] -= 1

    def bankrupt_owner(c: dict[str, Any]) -> None:
        owner = next(o for o in c["owner"] if o >= 0)
        c["players"][owner]["bankrupt"] = True
        c["players"][owner]["out_order"] = 1
        c["out_count"] = 1

    def lost_card(c: dict[str, Any]) -> None:
        c["decks"]["CHANCE"].pop()

    def duplicated_card(c: dict[str, Any]) -> None:
        c["decks"]["CHEST"][0] = c["decks"]["CHEST"][1]

    def stock_from_nowhere(c: dict[str, Any]) -> None:
        c["houses_left"] -= 1

    def out_count(c: dict[str, Any]) -> None:
        c["out_count"] = 1

    refused(_forged(payload, owns_start), "checkpoint.owner[0]", "not a property")
    refused(_forged(payload, mortgaged_unowned), f"position {street} has no owner")
    refused(_forged(payload, house_unowned), f"position {street} has no owner")
    refused(_forged(payload, bankrupt_owner), "bankrupt")
    refused(_forged(payload, lost_card), "checkpoint.decks['CHANCE']", "each once")
    refused(_forged(payload, duplicated_card), "checkpoint.decks['CHEST']", "each once")
    refused(_forged(payload, stock_from_nowhere), "checkpoint.houses_left")
    refused(_forged(payload, out_count), "checkpoint.out_count")


def test_an_edited_checkpoint_without_a_new_digest_is_refused() -> None:
    _, payload = _consistent()
    edited = copy.deepcopy(payload)
    edited["checkpoint"]["players"][0]["cash"] -= 10  # consistent: the money moves
    edited["checkpoint"]["players"][1]["cash"] += 10
    refused(edited, "damaged or edited")
    edited = copy.deepcopy(payload)
    edited["checkpoint"] = None  # dropping it: the digest covers its absence too
    refused(edited, "damaged or edited")


def test_a_consistent_forgery_is_caught_when_the_history_is_replayed() -> None:
    """A determined editor who moves money between players and recomputes the digest passes
    the default load (the digest has no key); the full verification refuses the file, and so
    does the first look at the history, which leaves the loaded game as it was."""
    _, payload = _consistent()

    def move_money(c: dict[str, Any]) -> None:
        c["players"][0]["cash"] -= 10
        c["players"][1]["cash"] += 10

    forged = json.dumps(_forged(payload, move_money))
    with pytest.raises(SaveFileError, match=r"checkpoint\.players differs"):
        Game.from_json(forged, verify="replay")
    loaded = Game.from_json(forged)
    before = loaded.digest()
    with pytest.raises(SaveFileError, match="does not match its record"):
        loaded.events  # noqa: B018 - reading the history is what checks it
    assert loaded.digest() == before and loaded._history is not None
    with pytest.raises(SaveFileError, match="does not match its record"):
        loaded.log()


def test_a_checkpoint_from_another_game_is_refused() -> None:
    _, payload = _consistent()
    _, other = _consistent(seed=8)
    pasted = copy.deepcopy(payload)
    pasted["checkpoint"] = other["checkpoint"]
    message = str(refused(pasted))  # the actions after it do not fit, or the digest differs
    assert "does not replay" in message or "damaged or edited" in message, message
    # with the digest recomputed: the actions after it do not fit, or the full check refuses
    pasted["digest"] = _digest_for(pasted)
    with pytest.raises(SaveFileError):
        Game.from_json(json.dumps(pasted), verify="replay")
    # a checkpoint of a longer game: more actions applied than the record has
    _, longer = _consistent(actions=500)
    pasted = copy.deepcopy(payload)
    pasted["checkpoint"] = longer["checkpoint"]
    pasted["digest"] = _digest_for(pasted)
    refused(pasted, "checkpoint.applied")


# ---------------------------------------------------------------- item 11: nesting


@pytest.mark.parametrize("text", [
    "[" * 100_000,
    '{"format": "ugentopoly-save", "version": 2, "record": ' + "[" * 50_000 + "]" * 50_000 + "}",
    "{" + '"a":{' * 50_000 + "}" * 50_001,
])
def test_deep_nesting_is_a_save_file_error(text: str) -> None:
    with pytest.raises(SaveFileError):
        Game.from_json(text)


# ---------------------------------------------------------------- item 12: saving is atomic


def test_a_failed_save_keeps_the_previous_save(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    game = played("classic", actions=20)
    game.save(path)
    before = path.read_bytes()
    played_on = played("classic", actions=60)

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError):
        played_on.save(path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert Game.load(path).digest() == game.digest()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary left


def test_a_save_that_fails_before_writing_keeps_the_previous_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    game = played("classic", actions=20)
    game.save(path)
    before = path.read_bytes()

    def broken(self: Game) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Game, "to_json", broken)
    with pytest.raises(OSError):
        game.save(path)
    monkeypatch.undo()
    assert path.read_bytes() == before


def test_saving_replaces_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("x" * 1_000_000)  # a longer older file: nothing of it may remain
    game = played("classic", actions=20)
    game.save(path)
    assert Game.load(path).digest() == game.digest()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_undo_gives_a_timed_game_no_extra_time() -> None:
    now = [1000.0]
    game = Game("classic", players=2, seed=1, clock=lambda: now[0],
                options={"mode": "timed", "time_limit_minutes": 10, "turn_timer_seconds": 30})
    p = game.current_player
    game.testing.place(p, 36)
    game.testing.script_dice((1, 2))
    game.apply(A.Roll(p))  # Boardwalk: a decision that can be undone
    now[0] += 120
    game.apply(A.Decline(p))
    left, timer = game.time_remaining(), game._engine.turn_started_at
    game.undo()  # rebuilt from the record at a later clock
    assert game.time_remaining() == left == 480
    assert game._engine.turn_started_at == timer
