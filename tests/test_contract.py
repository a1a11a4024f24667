"""The contract between Python and the view (widget/contract/, its schema and the view's
TypeScript types) against what the widget really sends and accepts.

Every trait update and custom message of seeded playouts of every profile and of positions set
up by hand (tests/contract_scenarios.py) validates against the schema; every field, union
branch and enum value the schema names was seen in one of them (a field Python stopped
sending, or never sends, fails); every request type the handler knows is the schema's, the
requests a view sends are accepted, and requests with a wrong type are refused by both.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import anywidget
import jsonschema
import pytest
from contract_checker import Checker, declared
from contract_scenarios import SCENARIOS, Recorder, advice_error, stand_in

from ugentopoly_widget import Game, UgentopolyWidget
from ugentopoly_widget.widget import contract, data
from ugentopoly_widget.widget.contract_export import (
    SCHEMA_FILE,
    TS_FILE,
    json_schema,
    stale,
    typescript,
)
from ugentopoly_widget.widget.game_widget import FRONT_WRITABLE

SCHEMA = json_schema()
TRAITS = set(SCHEMA["$defs"]["Traits"]["properties"])

# What the schema allows that no scenario shows, and why (each one looked at).
UNSEEN = {
    # no bundled profile has a clock of its own (a game gets one from the lobby's options)
    "LobbyProfile.time_limit_minutes|number", "LobbyProfile.turn_timer_seconds|number",
    # NaN rent figures: a board whose money the probability lab cannot model (none bundled)
    "AdviceSide.rent_before|null", "AdviceSide.rent_after|null",
    "AdviceSide.rent_change|null",
    # no rollout of the position finished within its turn cap
    "WinEstimate.mean_turns|null",
}


@pytest.fixture(scope="module")
def recorded() -> Recorder:
    rec = Recorder(TRAITS)
    for scenario in SCENARIOS:
        scenario(rec)
    with pytest.MonkeyPatch.context() as patch:
        advice_error(rec, patch)
    return rec


@pytest.fixture(scope="module")
def checked(recorded: Recorder) -> Checker:
    checker = Checker(SCHEMA)
    failures = []
    for what, name, value in recorded.payloads:
        node = checker.trait(name) if what == "trait" else {"$ref": "#/$defs/Message"}
        errors = checker.check(value, node, f"Traits.{name}" if name else "")
        if errors:
            failures.append(f"{what} {name}: {errors[0]}")
        elif name:
            checker.seen |= {"Traits", f"Traits.{name}"}
    assert not failures, f"{len(failures)} payloads break the contract:\n" + "\n".join(
        sorted(set(failures))[:20])
    return checker


def test_the_generated_schema_and_typescript_are_up_to_date() -> None:
    """contract.schema.json and js/src/contract.ts say what widget/contract/ says (else: run
    ``python -m ugentopoly_widget.widget.contract_export --write``)."""
    assert stale() == []
    assert json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) == SCHEMA
    assert TS_FILE.read_text(encoding="utf-8") == typescript(SCHEMA)


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_traits_are_the_widgets_synced_traits() -> None:
    """Every sync=True trait of the widget (its own, not anywidget's) is in the contract and
    the reverse; the view may set exactly the traits Python accepts from it."""
    own = set(UgentopolyWidget.class_trait_names(sync=True)) - set(
        anywidget.AnyWidget.class_trait_names(sync=True))
    assert own == TRAITS
    assert set(contract.VIEW_WRITES) == set(FRONT_WRITABLE)
    assert SCHEMA["x-view-writes"] == list(contract.VIEW_WRITES)


def test_every_published_payload_matches_the_schema(checked: Checker,
                                                     recorded: Recorder) -> None:
    kinds = {(what, name) for what, name, _ in recorded.payloads}
    assert {("trait", name) for name in TRAITS} <= kinds  # every trait was sent at least once
    assert len(recorded.payloads) > 3000  # the playouts ran


def test_the_standard_validator_agrees(recorded: Recorder) -> None:
    """A sample of the payloads against jsonschema's own reading of the schema (oneOf means
    exactly one branch; ours takes the first that fits)."""
    validators: dict[str, Any] = {}
    for what, name, value in recorded.payloads[::20]:
        ref = f"#/$defs/Traits/properties/{name}" if what == "trait" else "#/$defs/Message"
        if ref not in validators:
            validators[ref] = jsonschema.Draft202012Validator(
                {"$defs": SCHEMA["$defs"], "$ref": ref})
        validators[ref].validate(value)


def test_every_field_of_the_contract_was_seen(checked: Checker, requests_seen: set[str]
                                              ) -> None:
    """A field, union branch or value the schema names and no payload (or request) used is a
    field Python does not send (any more): drop it from widget/contract/, or add a scenario."""
    unseen = declared(SCHEMA) - checked.seen - requests_seen - UNSEEN
    assert not unseen, "\n".join(sorted(unseen))
    assert not UNSEEN & (checked.seen | requests_seen), "UNSEEN names something now seen"


# ---------------------------------------------------------------------------------- requests


def _widget() -> UgentopolyWidget:
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann", 19: "Bob"}, positions={"Ann": 0, "Bob": 10})
    w = UgentopolyWidget.from_game(game, turn_pause=0)
    w.advice_rollouts = 12
    w.fan_seconds = 0
    stand_in(w)
    return w


LOBBY_FLAGS = {key: True for key in data.LOBBY_FLAGS}
SETUP_PLAYERS = [{"name": "Ann", "token": "car", "colour": "#ff0000", "seat": "person"},
                 {"name": "Bob", "token": "dog", "colour": "#0000ff"}]


def valid_requests(w: UgentopolyWidget) -> list[dict[str, Any]]:
    """What a view sends (js/src: requests.ts and its callers), each field of each type."""
    offer = {"player": 0, "partner": 1, "give": {"properties": [16], "cash": 10, "cards": []},
             "get": {"properties": [19], "cash": 0, "cards": []}}
    return [
        {"type": "roll_map"},  # Ann is about to roll
        {"type": "analysis", "on": True},
        {"type": "position", "index": 0},
        {"type": "analysis", "on": False},
        {"type": "probability", "mode": "exact", "stats": True, "jail": "long", "per": "turn"},
        {"type": "probability", "mode": None},
        {"type": "probability", "mode": "off"},
        {"type": "picture"},
        {"type": "log"},
        {"type": "lang", "lang": "nl"},
        {"type": "bots", "paused": True, "delay": 0.5},
        {"type": "bots"},
        {"type": "win_chances", "on": False, "budget": 100},
        {"type": "trade_advice", "offer": offer},
        {"type": "trade_advice", "offer": {**offer, "give": {"cash": 10}, "get": {}}},
        {"type": "act", "action": {"type": "propose_trade", "player": 0, "partner": 1,
                                   **{k: offer[k] for k in ("give", "get")}}},
        {"type": "act", "action": {"type": "reject", "player": 1}},
        {"type": "tick"},
        {"type": "roll_once"},  # Ann rolls 1 + 2: Baltic Avenue is for sale
        {"type": "act", "action": {"type": "buy", "player": 0}},
        {"type": "undo"},
        {"type": "act", "action": {"type": "decline", "player": 0}},
        {"type": "log", "before": 0},
        {"type": "setup", "profile": "classic", "board": "bundled:classic", "seed": 1,
         "options": {"mode": "short", "starting_money": 900}, "players": SETUP_PLAYERS},
        # what the lobby sends (lobby.ts submit): every flag, the clocks
        {"type": "setup", "profile": "classic", "board": "bundled:classic",
         "options": {"mode": "timed", **LOBBY_FLAGS, "time_limit_minutes": 30,
                     "turn_timer_seconds": None, "starting_money": 1500},
         "players": SETUP_PLAYERS},
        {"type": "setup", "profile": "classic", "board": "bundled:classic",
         "options": {"mode": "long", **LOBBY_FLAGS, "time_limit_minutes": None,
                     "turn_timer_seconds": 30, "starting_money": 1500},
         "players": SETUP_PLAYERS},
        {"type": "setup", "profile": "cell22", "board": None, "seed": None, "options": None,
         "players": SETUP_PLAYERS},
        {"type": "setup", "profile": "ugentopoly", "players": SETUP_PLAYERS},
    ]


@pytest.fixture(scope="module")
def requests_seen() -> set[str]:
    """Sends every valid request to a widget (each must be accepted and validate); returns
    what the schema saw of them."""
    checker = Checker(SCHEMA)
    w = _widget()
    w.game.testing.script_dice((1, 2))
    for content in valid_requests(w):
        full = {**content, "seq": w.state["seq"]} if content["type"] != "tick" else content
        errors = checker.check(full, {"$ref": "#/$defs/Request"})
        assert not errors, (full, errors)
        before = w.error.get("n")
        w._on_msg(w, full)
        assert w.error.get("n") == before, (full, w.error)
    tick = {"type": "tick", "seq": w.state["seq"]}
    assert not checker.check(tick, {"$ref": "#/$defs/Request"})
    return checker.seen


def test_every_request_type_of_the_contract_is_handled() -> None:
    """The handler's request types and keys are the contract's (requests.check_request);
    each type reaches its own branch (none is refused as unknown)."""
    types = set(contract.request_keys())
    schema_types = {SCHEMA["$defs"][ref["$ref"].rsplit("/", 1)[1]]["properties"]["type"]["const"]
                    for ref in SCHEMA["$defs"]["Request"]["oneOf"]}
    assert types == schema_types
    w = _widget()
    for kind in sorted(types):
        before = w.error.get("n")
        w._on_msg(w, {"type": kind})  # accepted, or refused for its missing keys
        if w.error.get("n") != before:
            assert "malformed request" in w.error["message"], (kind, w.error)
    w._on_msg(w, {"type": "nap"})
    assert "unknown request type" in w.error["message"]


WRONG = [
    {"type": "act", "action": "roll"},
    {"type": "act", "action": {"type": "roll", "player": "0"}},
    {"type": "undo", "seq": "3"},
    {"type": "tick", "seq": "soon"},
    {"type": "lang", "lang": "fr"},
    {"type": "bots", "paused": "yes"},
    {"type": "bots", "delay": "fast"},
    {"type": "probability", "mode": "hot"},
    {"type": "probability", "stats": 1},
    {"type": "probability", "jail": "forever"},
    {"type": "probability", "per": 7},
    {"type": "roll_once", "seq": None},
    {"type": "picture", "seq": 1.5},
    {"type": "win_chances", "on": "true"},
    {"type": "win_chances", "on": False, "budget": "1000"},
    {"type": "trade_advice", "offer": [1, 2]},
    {"type": "analysis", "on": "true"},
    {"type": "position", "index": "0"},
    {"type": "roll_map", "seq": "1"},
    {"type": "log", "before": "start"},
    {"type": "setup", "profile": "classic", "players": "Ann"},
    {"type": "setup", "profile": "classic", "players": [{"name": 1, "token": "car",
                                                          "colour": "#fff"}]},
    {"type": "setup", "profile": "classic", "players": SETUP_PLAYERS,
     "options": {"starting_money": "lots"}},
    {"type": "setup", "profile": "classic", "players": SETUP_PLAYERS, "seed": "42"},
    {"type": "nap"},
]


@pytest.mark.parametrize("content", WRONG, ids=lambda c: json.dumps(c)[:60])
def test_a_request_with_a_wrong_type_is_refused_by_both(content: dict[str, Any]) -> None:
    w = _widget()
    full = {"seq": w.state["seq"], **content}
    assert Checker(SCHEMA).check(full, {"$ref": "#/$defs/Request"}), "the schema accepts it"
    before = json.dumps(w.state)
    w._on_msg(w, full)
    assert w.error, "the handler accepts it"
    assert "refused" in w.error["message"], w.error
    assert json.dumps(w.state) == before  # nothing changed


# What a mutated request may carry in one of its fields: null, text, a fraction, a list.
ODD_VALUES: list[Any] = [None, "x", 1.5, [1]]


def _mutations() -> list[dict[str, Any]]:
    """Each valid request with one field changed to each odd value or dropped, and with a
    field it does not have."""
    out: list[dict[str, Any]] = []
    for content in valid_requests(_widget()):
        full = {**content, "seq": 0}
        for key in full:
            out.append({k: v for k, v in full.items() if k != key})
            out.extend({**full, key: value} for value in ODD_VALUES)
        out.append({**full, "extra": 1})
    return out


def test_every_request_the_handler_accepts_is_in_the_schema() -> None:
    """Whenever the handler accepts a mutated request (no refusal), the schema does too (the
    reverse, that the schema's shapes are accepted, is requests_seen). Before the contract,
    a tick, picture or log request with a seq that was not a number was accepted."""
    checker = Checker(SCHEMA)
    accepted_outside = []
    mutations = _mutations()
    for content in mutations:
        w = _widget()
        w.advice_rollouts = 1
        if content.get("seq") == 0:
            content = {**content, "seq": w.state["seq"]}
        sent = copy.deepcopy(content)  # the handler may rewrite what it was given
        before = w.error.get("n")
        w._on_msg(w, content)
        if w.error.get("n") in (before, None) and checker.check(
                sent, {"$ref": "#/$defs/Request"}):
            accepted_outside.append(sent)
    assert len(mutations) > 400
    assert not accepted_outside, accepted_outside
