"""The log text and the narration, made cheaper, say what they said before: render_event
(which derives only the fields its template names) gives exactly the line of the reference
renderer below (which derived every field for every event), for every event kind of seeded
games in every profile, both languages, and for odd events; narrate (which decodes only the
events it uses) gives what the reference narration gives."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import make_bot, play_game
from ugentopoly_widget.engine.records.events import Event
from ugentopoly_widget.engine.render.i18n import (
    LANGUAGES,
    TEMPLATES,
    party_name,
    render_event,
    render_slow,
    word,
)
from ugentopoly_widget.widget.data import MAX_MOVES, narrate


def reference_render(event: Event, game: Game, lang: str = "en") -> str:
    """render_event as it was: every derived field for every event."""
    if lang not in LANGUAGES:
        lang = "en"
    data = event.data
    board = game.board
    fields: dict[str, Any] = dict(data)
    fields["p"] = party_name(event.player, game, lang) if event.player is not None else ""
    pos = data.get("position")
    if isinstance(pos, int) and 0 <= pos < board.size:
        fields["tile"] = board.tile_name(pos, lang)
    else:
        fields.setdefault("tile", "")
    fields["item_name"] = fields["tile"] if data.get("item") != "house" else word("a_house", lang)
    if "end" in data:
        fields["end_name"] = board.tile_name(data["end"], lang)
    if "dice" in data:
        fields["dice"] = "+".join(map(str, data["dice"]))
        fields["dbl"] = word("double", lang) if data.get("double") else ""
    fields["landed_txt"] = word("landed", lang) if data.get("landed") else ""
    fields["payee_name"] = party_name(data.get("payee"), game, lang)
    fields["to_name"] = party_name(data.get("to"), game, lang)
    fields["partner_name"] = party_name(data.get("partner"), game, lang)
    fields["to_pot"] = word("to_pot", lang) if data.get("payee") == "pot" else ""
    reason = data.get("reason")
    if event.kind == "declined":
        fields["reason_txt"] = word("cannot_afford", lang) if reason else ""
    elif event.kind == "went_to_jail":
        fields["reason_txt"] = word(str(reason), lang)
    else:
        fields["reason_txt"] = word(str(reason), lang) if reason else ""
    how = data.get("how")
    if how is not None:
        fields["how_txt"] = word("how_" + how if how in ("doubles", "card") else how, lang)
    if "card" in data:
        fields["card_text"] = board.text(str(data["card"]), lang).replace("\n", " ")
    if event.kind == "card_money":
        fields["money_verb"] = word("receives" if data.get("payee") == event.player else "pays",
                                    lang)
    if event.kind == "built":
        hotel = data.get("hotel")
        fields["what"] = word("hotel" if hotel else "house", lang)
    if event.kind == "game_started":
        fields["names"] = ", ".join(data.get("players", []))
        fields["profile_name"] = word(f"profile_{data.get('profile')}", lang).removeprefix(
            "profile_"
        )
        fields["mode_name"] = word(f"mode_{data.get('mode')}", lang).removeprefix("mode_")
    if event.kind == "game_over":
        fields["winner_names"] = ", ".join(party_name(w, game, lang) for w in data["winners"])
    template = TEMPLATES.get(event.kind)
    if template is None:
        return f"{event.kind} {fields['p']}".strip()
    try:
        return template[lang].format(**fields)
    except (KeyError, IndexError, ValueError):
        return f"{event.kind} {fields['p']}".strip()


def _played(profile: str, seed: int, bot: str, mode: str = "long") -> Game:
    game = Game(profile, players=4, seed=seed, options={"turn_limit": 300, "mode": mode})
    play_game(game, [make_bot(bot, seed=seed * 7 + k) for k in range(4)])
    return game


GAMES = [(profile, seed, bot, mode) for profile in ("classic", "ugentopoly", "cell22")
         for seed, bot, mode in ((1, "heuristic", "long"), (2, "random", "long"),
                                 (3, "heuristic", "short"), (4, "random", "timed"))]


@pytest.mark.parametrize(("profile", "seed", "bot", "mode"), GAMES)
def test_every_line_of_seeded_games_is_the_reference_line(profile: str, seed: int, bot: str,
                                                          mode: str) -> None:
    game = _played(profile, seed, bot, mode)
    for event in game.events:
        for lang in ("en", "nl", "fr"):
            line = reference_render(event, game, lang)
            assert render_event(event, game, lang) == line == render_slow(event, game, lang)


def test_every_kind_and_odd_events_render_as_the_reference() -> None:
    """Each kind with the fields real games gave it, then with each field missing, with odd
    values (a position off the board, no player, a bank or pot party), and unknown kinds."""
    seen: dict[str, Event] = {}
    games = [_played(profile, seed, bot, mode) for profile, seed, bot, mode in GAMES]
    for game in games:
        for event in game.events:
            seen.setdefault(event.kind, event)
    game = games[0]
    # the kinds the seeded games above make, at least (the rest come from the templates)
    assert {"rolled", "moved", "bought", "rent", "card_drawn", "game_over", "game_started",
            "auction_started", "went_to_jail", "left_jail", "built", "mortgaged"} <= set(seen)
    cases: list[Event] = []
    for kind in [*TEMPLATES, "no_such_kind"]:
        base = seen[kind].data if kind in seen else {}
        player = seen[kind].player if kind in seen else 1
        cases.append(Event(kind, player, dict(base)))
        cases.append(Event(kind, None, dict(base)))
        for key in base:
            if kind == "game_over" and key == "winners":
                continue  # the reference raises there (a game_over event always has winners)
            cases.append(Event(kind, player, {k: v for k, v in base.items() if k != key}))
        odd = {"position": 99, "tile": "T", "payee": "pot", "to": "bank", "partner": 2,
               "item": "house", "reason": "doubles", "how": "card", "card": "no-card",
               "dice": [3, 3], "double": True, "landed": True, "hotel": True, "amount": 5,
               "end": 1, "players": ["A", "B"], "profile": "classic", "mode": "short",
               "winners": [0, "bank"], "turn": 3, "min_bid": 1, "houses_left": 2,
               "owed": 9, "paid": 1, "tries": 2, "total": 6, "cards": 3, "owner": 1}
        cases.append(Event(kind, player, {**odd, **base}))
        cases.append(Event(kind, player, {**base, **odd}))
        cases.append(Event(kind, 0, {**odd, "position": True, "how": "fine", "reason": None}))
    for event in cases:
        for lang in ("en", "nl"):
            line = reference_render(event, game, lang)
            assert render_event(event, game, lang) == line == render_slow(event, game, lang)


def reference_narrate(game: Game, events: Sequence[Event], lang: str,
            total: int | None = None) -> dict[str, Any]:
    """The events of the last action(s) in the compact form the view animates (`total`: how
    many events the state brings, when `events` is only their tail)."""
    money: dict[int, int] = {}
    moves: list[list[Any]] = []
    card: dict[str, Any] | None = None
    jailed: list[int] = []
    actor: int | None = None
    turn_passed = False
    dice: list[int] | None = None
    for event in events:
        data = event.data
        kind = event.kind
        if actor is None and event.player is not None and kind not in ("first_player",):
            actor = event.player
        if "amount" in data and "payer" in data:
            amount = data["amount"]
            if isinstance(amount, int):
                payer, payee = data["payer"], data.get("payee")
                if isinstance(payer, int):
                    money[payer] = money.get(payer, 0) - amount
                if isinstance(payee, int):
                    money[payee] = money.get(payee, 0) + amount
        if kind == "moved":
            moves.append([event.player, data.get("start"), data.get("end"), data.get("steps"),
                          data.get("via")])
        elif kind == "rolled":
            dice = list(data.get("dice") or [])
        elif kind == "went_to_jail" and event.player is not None:
            jailed.append(event.player)
        elif kind == "card_drawn":
            card_id = str(data.get("card"))
            card = {"deck": data.get("deck"), "id": card_id, "player": event.player,
                    "text": game.board.text(card_id, lang if lang in ("en", "nl") else "en")}
        elif kind == "turn_ended":
            turn_passed = True
    out: dict[str, Any] = {"actor": actor, "n": len(events) if total is None else total}
    if dice:
        out["dice"] = dice
    if moves:
        out["moves"] = moves[-6:]
    changes = [[p, d] for p, d in sorted(money.items()) if d]
    if changes:
        out["money"] = changes
    if card is not None:
        out["card"] = card
    if jailed:
        out["jail"] = jailed
    if turn_passed and dice:  # the turn ended by itself after a roll (not an "end turn" click)
        out["turn_passed"] = True
    return out


@pytest.mark.parametrize(("profile", "seed", "bot", "mode"), GAMES[::2])
def test_narration_is_the_reference_narration(profile: str, seed: int, bot: str,
                                              mode: str) -> None:
    """Every run of 1 to 40 events of seeded games (and the batch form, with a total)."""
    assert MAX_MOVES == 6
    game = _played(profile, seed, bot, mode)
    events = game.events[:]
    for start in range(0, len(events), 7):
        for size in (1, 3, 9, 40):
            chunk = events[start:start + size]
            for lang in ("en", "nl"):
                assert narrate(game, chunk, lang) == reference_narrate(game, chunk, lang)
            assert narrate(game, chunk, "en", total=99) == reference_narrate(game, chunk, "en",
                                                                            total=99)


def _odd_events(game: Game) -> list[Event]:
    """Every template's kind with odd fields (as in the test above), plus unknown kinds."""
    out: list[Event] = []
    for kind in [*TEMPLATES, "no_such_kind"]:
        out.append(Event(kind, 1, {"position": 99, "tile": "T", "payee": "pot", "to": "bank",
                                   "reason": "doubles", "card": "no-card", "dice": [3, 3],
                                   "winners": [0, "bank", 9], "hotel": True, "amount": 5}))
        out.append(Event(kind, None, {"position": -1, "payee": 1, "reason": None,
                                      "winners": [], "end": 2, "dice": [1, 2]}))
    return out


def test_render_lines_is_render_slow_for_a_batch_of_mixed_shapes() -> None:
    """The batch form (names read once, see logtext) gives each event's own line, also with
    shapes first met mid-batch, hand-made events and an unknown language."""
    from ugentopoly_widget.engine.render.i18n import render_lines

    for profile, seed, bot, mode in GAMES[::3]:
        game = _played(profile, seed, bot, mode)
        events = [*game.events[:], *_odd_events(game)]
        for lang in ("en", "nl", "fr"):
            assert render_lines(events, game, lang) == [render_slow(e, game, lang)
                                                        for e in events]
    assert render_lines([], game, "en") == []


LINES_SCRIPT = r"""
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
import ugentopoly_widget.engine as engine
from test_log_text import GAMES, _odd_events, _played
from ugentopoly_widget.engine.render.i18n import render_lines
from ugentopoly_widget.widget.data import narrate
out = {"compiled": engine.compiled, "lines": {}}
for profile, seed, bot, mode in GAMES:
    game = _played(profile, seed, bot, mode)
    events = [*game.events[:], *_odd_events(game)]
    for lang in ("en", "nl"):
        text = "\n".join(render_lines(events, game, lang))
        out["lines"][f"{profile}/{seed}/{lang}"] = hashlib.sha256(text.encode()).hexdigest()
        story = [narrate(game, events[k:k + size], lang) for k in range(0, len(events), 5)
                 for size in (1, 4, 32)]
        text = json.dumps(story, sort_keys=True)
        out["lines"][f"{profile}/{seed}/{lang}/story"] = hashlib.sha256(text.encode()).hexdigest()
print(json.dumps(out))
"""


def test_compiled_and_pure_renderers_give_the_same_lines() -> None:
    """logtext runs compiled (or not): the other build, in a subprocess, renders every line of
    the seeded games of every profile (and the odd events) in both languages identically, and
    narrates every run of 1, 4 and 32 of their events identically."""
    import hashlib
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import ugentopoly_widget.engine as engine
    from ugentopoly_widget.engine.render.i18n import render_lines

    assert "story" in LINES_SCRIPT
    env = dict(os.environ)
    pure = env.pop("UGENTOPOLY_PURE", None) == "1"
    if not pure:
        env["UGENTOPOLY_PURE"] = "1"
    res = subprocess.run([sys.executable, "-c", LINES_SCRIPT, str(Path(__file__).parent)],
                         env=env, text=True, capture_output=True, check=True, timeout=900)
    other = json.loads(res.stdout.strip().splitlines()[-1])
    if engine.compiled:
        assert other["compiled"] is False
    mine = {}
    for profile, seed, bot, mode in GAMES:
        game = _played(profile, seed, bot, mode)
        events = [*game.events[:], *_odd_events(game)]
        for lang in ("en", "nl"):
            text = "\n".join(render_lines(events, game, lang))
            mine[f"{profile}/{seed}/{lang}"] = hashlib.sha256(text.encode()).hexdigest()
            story = [narrate(game, events[k:k + size], lang) for k in range(0, len(events), 5)
                     for size in (1, 4, 32)]
            text = json.dumps(story, sort_keys=True)
            mine[f"{profile}/{seed}/{lang}/story"] = hashlib.sha256(text.encode()).hexdigest()
    assert mine == other["lines"]


def test_a_template_with_more_than_plain_fields_takes_the_general_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A template field with a format spec or a conversion (none of the shipped ones has one)
    gets no pieces: its line is the general renderer's (here the fallback line)."""
    from ugentopoly_widget.engine.render import i18n

    game = _played("classic", 1, "heuristic")
    event = next(e for e in game.events if e.kind == "rent")
    for template in ("{p} paid {amount:>5}.", "{p} paid {amount!r}.", "{p} paid {0}."):
        monkeypatch.setitem(i18n.TEMPLATES, "rent", {"en": template, "nl": template})
        monkeypatch.setattr(i18n, "_COMPILED", {})
        monkeypatch.setattr(i18n, "_SHAPES", {})
        assert i18n._pieces("rent", "en", event.keys) is None
        line = i18n.render_event(event, game, "en")
        assert line == render_slow(event, game, "en")
        assert line == f"rent {game.players[event.player or 0].name}"
