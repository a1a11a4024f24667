"""Games that make the widget publish every kind of payload of the contract, recorded as they
go over its comm (tests/test_contract.py validates them against the schema).

Seeded playouts of every profile (bots for everyone, one action at a time: every state is
published), then positions set up by hand for what a playout reaches rarely: a trade with a
mortgaged property and a jail card, the income tax choice, the jail fine with a card, debt and
bankruptcy, game over, a housing-shortage auction, the lobby and its setup, timers, heat
layers, dice stats, Roll once, the win bar, trade advice, presentation mode, a play_bots
batch, a language switch and the log's messages.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from typing import Any

from helpers import act, custom_board, roll

from ugentopoly_widget import Game, UgentopolyWidget, load_bundled
from ugentopoly_widget.engine.bots import make_bot
from ugentopoly_widget.engine.rules import PROFILES

Payload = tuple[str, str, Any]  # (what: "trait" | "message", trait name or "", value)


class Recorder:
    """What widgets send over their comm: trait updates and custom messages, as JSON."""

    def __init__(self, traits: set[str]) -> None:
        self.traits = traits
        self.payloads: list[Payload] = []

    def add_trait(self, name: str, value: Any) -> None:
        if name not in self.traits:
            return
        if name == "state" and isinstance(value, str):  # the state goes as JSON text
            self.payloads.append(("trait", name, json.loads(value)))
        else:
            self.payloads.append(("trait", name, json.loads(json.dumps(value))))

    def watch(self, w: UgentopolyWidget) -> UgentopolyWidget:
        """Record every trait as a view opened now gets it, then whatever is sent."""
        for name, value in w.get_state().items():
            self.add_trait(name, value)

        def send(data: Any = None, buffers: Any = None, **_: Any) -> None:
            if data.get("method") == "update":
                for name, value in data["state"].items():
                    self.add_trait(name, value)
            elif data.get("method") == "custom":
                self.payloads.append(("message", "", json.loads(json.dumps(data["content"]))))

        w.comm.send = send
        return w


def request(w: UgentopolyWidget, content: dict[str, Any]) -> None:
    """A request as from a view (seq added), which must be accepted."""
    before = w.error.get("n")
    w._on_msg(w, {**content, "seq": w.state["seq"]})
    assert w.error.get("n") in (before, None), w.error  # (a new game clears the error)


def playouts(rec: Recorder, max_actions: int = 700) -> None:
    """Every profile with smart bots and with random ones (they decline, bid, mortgage and go
    bankrupt), on little money so that games end."""
    for profile in PROFILES:
        for seed, kind in ((1, "heuristic"), (2, "random")):
            w = rec.watch(UgentopolyWidget(profile, players=["Ann", "Bob", "Cleo"], seed=seed,
                                           turn_pause=0, options={"starting_money": 400}))
            bots = [make_bot(kind, seed=seed * 10 + k) for k in range(3)]
            for _ in range(max_actions):
                game = w.game
                if game.is_over:
                    break
                w.apply(bots[game.decision.player].choose(game))


def lobby_and_setup(rec: Recorder) -> None:
    w = rec.watch(UgentopolyWidget.open_lobby("classic", board=load_bundled("classic")))
    w._on_msg(w, {"type": "setup", "profile": "nope", "players": [], "seq": w.state["seq"]})
    assert w.error  # a refusal in the lobby
    request(w, {"type": "setup", "profile": "classic", "board": "custom", "seed": 3,
                "options": {"mode": "timed", "time_limit_minutes": 30, "turn_timer_seconds": 20,
                            "starting_money": 1200, "auction_on_decline": True,
                            "free_parking_pot": True, "rank_by_net_worth": True},
                "players": [{"name": "Ann", "token": "car", "colour": "#ff0000",
                             "seat": "person"},
                            {"name": "Bob", "token": "dog", "colour": "#0000ff",
                             "seat": "random"}]})
    w.game.testing.script_dice((1, 2))
    w.roll()  # a timer and the clock in the state
    request(w, {"type": "setup", "profile": "cell22", "seq": 0,
                "players": [{"name": "A", "token": "hat", "colour": "#123456"},
                            {"name": "B", "token": "cat", "colour": "#654321"}]})


def trade_and_mortgage(rec: Recorder) -> None:
    """Ann offers Bob cash, a jail card and a mortgaged street for his station; Bob accepts and
    decides about the mortgage he received; then the trade advice on another offer."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={1: "Ann", 3: "Ann", 5: "Bob"}, mortgaged=[1],
                         cards={"Ann": ["CHANCE"]}, positions={"Ann": 0, "Bob": 10})
    w = rec.watch(UgentopolyWidget.from_game(game, turn_pause=0))
    card = w.game.players[0].jail_cards[0].id
    w.propose_trade(1, give={"properties": [1], "cash": 20, "cards": [card]},
                    get={"properties": [5]})
    w.accept()  # Bob: a mortgaged property to lift now or keep
    assert w.game.decision.kind == "mortgaged", w.game.decision
    w.keep(1)
    offer = {"player": 0, "partner": 1, "give": {"cash": 100}, "get": {"properties": [1]}}
    w.advise_trade(offer, rollouts=12, fair=True, wait=True)  # working, quick, done
    w._on_msg(w, {"type": "trade_advice", "seq": w.state["seq"],
                  "offer": {"player": 0, "partner": 1, "give": {"cash": 10**7}, "get": {}}})


def advice_error(rec: Recorder, monkeypatch: Any) -> None:
    """A rating that fails on its worker: the advice says so, with the offer it was for."""
    import ugentopoly_widget.rollouts.trades as trades

    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann", 19: "Bob"})
    w = rec.watch(UgentopolyWidget.from_game(game, turn_pause=0))

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("no rollouts today")

    monkeypatch.setattr(trades, "rating_steps", broken)  # (what the widget runs)
    w.advise_trade({"player": 0, "partner": 1, "give": {"cash": 10}, "get": {}}, wait=True)
    assert w.trade_advice["status"] == "error"


def tax_jail_and_doubles(rec: Recorder) -> None:
    """The income tax choice, doubles that roll again, and the jail fine with a card in hand
    after the third failed try."""
    game = Game("classic", players=["Ann", "Bob"], seed=1,
                options={"income_tax_choice": True, "jail_card_auto": False})
    w = rec.watch(UgentopolyWidget.from_game(game, turn_pause=0))
    g = w.game
    ann = g.current_player
    bob = 1 - ann
    roll(g, 1, 3, player=ann)  # income tax: fixed or percentage
    assert g.decision.kind == "tax"
    act(g, "tax", ann, choice="percent")
    act(g, "end_turn", ann)
    roll(g, 5, 5, player=bob)  # doubles, just visiting: roll again
    assert g.decision.kind == "turn" and w.state["help"]["again"], w.state.get("help")


def jail_fine(rec: Recorder) -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=1, current="Ann",
                         jail=["Ann"], cards={"Ann": ["CHANCE"]},
                         options={"jail_card_auto": False})
    w = rec.watch(UgentopolyWidget.from_game(game, turn_pause=0))
    g = w.game
    for _ in range(3):
        roll(g, 1, 2, player=0)  # no doubles
        if g.decision.kind == "jail_fine":
            break
        if g.decision.player == 0 and g.decision.kind == "post_roll":
            act(g, "end_turn", 0)
        roll(g, 6, 4, player=1)  # Bob: just visiting, then free parking
        act(g, "end_turn", 1)
    assert g.decision.kind == "jail_fine", g.decision


def poll_win_chances(w: UgentopolyWidget) -> None:
    """Take the estimates as they come (a kernel's event loop does it; a script has none):
    waiting, running, done."""
    deadline = time.monotonic() + 120
    while w.win_chances.get("status") != "done" and time.monotonic() < deadline:
        w._apply_pending()
        time.sleep(0.002)


def win_bar_and_game_over(rec: Recorder) -> None:
    """The win bar from its first estimate, the swing of a purchase, then Ann lands on Bob's
    hotel with too little money: debt, bankruptcy, game over."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=4, current="Ann",
                         owners={"darkblue": "Bob"}, buildings={"darkblue": "hotel"},
                         cash={"Ann": 1500, "Bob": 500})
    w = rec.watch(UgentopolyWidget.from_game(game, turn_pause=0))
    w.show_win_chances(True, budget=72)
    poll_win_chances(w)
    w.game.testing.script_dice((1, 2))
    w.roll()  # Baltic Avenue is for sale
    w.wait_win_chances(timeout=120)
    w.buy()  # a decision without dice: its swing
    w.wait_win_chances(timeout=120)
    w.end_turn()
    w.game.testing.script_dice((6, 4))
    w.roll()
    w.end_turn()
    w.game.testing.place(0, 35)
    w.game.testing.set_cash(0, 30)
    w.game.testing.script_dice((1, 3))
    w.roll()  # Boardwalk with a hotel: debt
    assert w.game.decision.kind == "debt", w.game.decision
    w.mortgage(3)
    w.declare_bankruptcy()
    assert w.game.is_over
    w.wait_win_chances(timeout=120)
    w.show_win_chances(False)


def stand_in(w: UgentopolyWidget) -> UgentopolyWidget:
    """The analysis' stand-in (tests/analysis_fakes.py) in a thread, for the view's requests."""
    w.analysis_engine = "analysis_fakes:step"
    w.roll_map_engine = "analysis_fakes:roll_map_of"
    w.analysis_worker = "thread"
    return w


def analysis_panels(rec: Recorder) -> None:
    """Luck or skill: waiting, a report behind the game (running) and up to date (done) with
    every verdict, a roll and a card; the roll map from Python and from the view (working,
    done, refused), a past position, and an analysis that fails."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=4, current="Ann",
                         positions={"Ann": 0, "Bob": 0})
    w = stand_in(rec.watch(UgentopolyWidget.from_game(game, turn_pause=0)))
    w.show_analysis(True)
    w.wait_analysis(timeout=60)
    w.show_roll_map()
    request(w, {"type": "roll_map"})
    deadline = time.monotonic() + 60
    while w.roll_map.get("status") != "done" and time.monotonic() < deadline:
        time.sleep(0.01)
    for dice in ((1, 2), (3, 3), (3, 1), (1, 1), (2, 3), (1, 3)):
        w.game.testing.script_dice(dice)
        w.roll()
        running = w._an_running
        # Ann declines what she lands on (the auction: both pass), the rest is ended
        while not any(a.type == "roll" for a in w.game.legal_actions()):
            kinds = {a.type for a in w.game.legal_actions()}
            if "decline" in kinds:
                w.buy() if len(w.game.actions) == 1 else w.decline()
            elif "pass" in kinds:
                w.pass_()
            elif "tax" in kinds:
                w.choose_tax("flat")
            else:
                w.end_turn()
            if running is not None:
                running.result(timeout=60)
                w._an_deliver_pending()  # the roll's report, behind the game: "running"
                running = None
            w.wait_analysis(timeout=60)  # every verdict shown in turn
    w.wait_analysis(timeout=60)
    request(w, {"type": "position", "index": 1})
    w.roll_map_engine = "analysis_fakes:failing_roll_map"
    assert any(a.type == "roll" for a in w.game.legal_actions())
    request(w, {"type": "roll_map"})
    deadline = time.monotonic() + 60
    while w.roll_map.get("status") == "working" and time.monotonic() < deadline:
        time.sleep(0.01)
    w.show_analysis(True, engine="analysis_fakes:failing_step")
    w.wait_analysis(timeout=60)
    w.show_analysis(False)


def debts_to_the_bank_and_the_pot(rec: Recorder) -> None:
    for pot in (False, True):
        game = Game.scenario("classic", players=["Ann", "Bob"], seed=4, current="Ann",
                             cash={"Ann": 10}, positions={"Ann": 35},
                             options={"free_parking_pot": pot})
        w = rec.watch(UgentopolyWidget.from_game(game, turn_pause=0))
        w.game.testing.script_dice((1, 2))
        w.roll()  # the luxury tax
        assert w.game.decision.kind == "debt", w.game.decision


def clocks(rec: Recorder) -> None:
    """A turn timer that runs out (the dice are rolled for Ann) and a timed game's end (the
    clock's event has no player)."""
    now = [0.0]
    game = Game("classic", players=["Ann", "Bob"], seed=5, clock=lambda: now[0],
                options={"mode": "timed", "time_limit_minutes": 1, "turn_timer_seconds": 10})
    w = rec.watch(UgentopolyWidget.from_game(game, turn_pause=0))
    now[0] = 11.0
    w.tick()  # the turn timer: a roll for the player
    now[0] = 61.0
    w.tick()  # the game's time is up


def panels(rec: Recorder) -> None:
    """Heat layers of every mode, dice stats, a custom layer, Roll once, presentation mode,
    seats, a batch of bot turns, the view-writable traits, the log's messages."""
    w = rec.watch(UgentopolyWidget("classic", players=["Ann", "Bob"], seed=7, turn_pause=0))
    for _ in range(4):
        w.play_bots(1, everyone="heuristic")  # a batch, told in one line
    w.show_dice_stats(True)
    for mode in ("exact", "observed", "difference", "next"):
        w.show_probability(mode)
    w.show_probability("exact", per="turn", jail="long")
    w.fan_seconds = 0
    w.roll_once()  # the fan, then where it landed
    w.show_heat(list(range(40)), label="position")
    w.clear_heat()
    w.presentation = True
    w.seats = ["person", "rollout"]
    w.seats = ["random", "heuristic"]
    w.seats = ["person", "person"]
    w.set_state({"bot_delay": 0.3, "paused": True})
    w.set_state({"paused": False, "presentation": False})
    request(w, {"type": "picture"})
    request(w, {"type": "log"})
    w.play_bots(30, everyone="heuristic")
    request(w, {"type": "log", "before": w.state["log"]["start"]})
    w.set_state({"lang": "nl"})  # the log's lines in Dutch: a message
    w._on_msg(w, {"type": "undo", "seq": w.state["seq"] - 1})  # stale: quiet


def housing_shortage(rec: Recorder) -> None:
    """Two builders and one house left: the house goes to auction, the winner places it."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=3, current="Ann",
                         owners={"orange": "Ann", "red": "Bob"},
                         buildings={"orange": 1, "red": 1},
                         options={"bank_houses": 7}, cash={"Ann": 1500, "Bob": 1500})
    w = rec.watch(UgentopolyWidget.from_game(game, turn_pause=0))
    g = w.game
    act(g, "build", 0, position=16)
    while g.decision.kind == "auction":  # Bob wins it: he chooses where the house goes
        kind = "pass" if g.decision.player == 0 else "bid"
        g.apply(next(a for a in g.legal_actions() if a.type == kind))
    assert g.decision.kind == "place_house", g.decision
    act(g, "place", 1, position=g.decision.data["positions"][0])
    # hotels with too few houses in the bank: a group is sold down at once
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=3, current="Ann",
                         owners={"orange": "Ann"}, buildings={"orange": "hotel"},
                         options={"bank_houses": 2})
    w = rec.watch(UgentopolyWidget.from_game(game, turn_pause=0))
    w.sell_down("orange", 0)


def custom_boards(rec: Recorder) -> None:
    """A board file's own break points for a name, and a colour group without a house
    price."""
    game = Game("classic", players=2, seed=1, board=custom_board(
        "classic", ('<area id="brown" color="#8b4513" house="50"/>',
                    '<area id="brown" color="#8b4513"/>')))
    rec.watch(UgentopolyWidget.from_game(game))
    board = load_bundled("ugentopoly")
    names = {lang: dict(table) for lang, table in board.names.items()}
    tile = board.tiles[1]
    for lang in ("en", "nl"):
        name = names[lang][tile.id]
        names[lang][f"{tile.id}.breaks"] = "|".join([name[:3], name[3:]])
    game = Game("ugentopoly", players=2, seed=1, board=dataclasses.replace(board, names=names))
    rec.watch(UgentopolyWidget.from_game(game))


def trade_notes(rec: Recorder) -> None:
    """Advice whose fair cash lies out of reach: Ann gains even paying all she has (nothing),
    or loses even with all Bob's cash (none)."""
    for ann, bob, offer in ((0, 1500, {"give": {}, "get": {"properties": [19]}}),
                            (1500, 0, {"give": {"properties": [16, 18]}, "get": {}})):
        game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                             owners={16: "Ann", 18: "Ann", 19: "Bob"},
                             cash={"Ann": ann, "Bob": bob})
        w = rec.watch(UgentopolyWidget.from_game(game))
        w.advise_trade({"player": 0, "partner": 1, **offer}, rollouts=36, wait=True)


SCENARIOS: list[Callable[..., None]] = [
    playouts, lobby_and_setup, trade_and_mortgage, tax_jail_and_doubles, jail_fine,
    win_bar_and_game_over, debts_to_the_bank_and_the_pot, clocks, panels, housing_shortage,
    custom_boards, trade_notes, analysis_panels,
]
