"""Issue 34: the room's widgets without a server -- the board offers a device only its own
seat's choices (none on the projector) and sends clicks through the room's checks; the room
view answers refusals (a flood once a second); the command line and the QR code."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from tests.test_classroom_room import T, make_room, teacher
from ugentopoly_widget.classroom.views import RoomBoard, RoomPanel

pytest.importorskip("segno")


def panel_request(panel: RoomPanel, content: Any) -> None:
    panel._handle_custom_msg(content, [])


def board_request(board: RoomBoard, content: Any) -> None:
    board._handle_custom_msg(content, [])


def seated() -> tuple[Any, dict[str, RoomPanel], dict[str, RoomBoard]]:
    room, clock = make_room(2, admit="code")
    teacher(room)
    panels, boards = {}, {}
    for k, name in enumerate(("Ann", "Bob")):
        device = f"phone-{k}"
        panels[device] = RoomPanel(room, device, "player")
        boards[device] = RoomBoard(room, device, turn_pause=0)
        panel_request(panels[device], {"type": "join", "code": "abc234", "name": name})
        panel_request(panels[device], {"type": "claim", "seat": k})
    boards["projector"] = RoomBoard(room, "projector", presentation=True, turn_pause=0)
    panels["projector"] = RoomPanel(room, "projector", "projector", qr="data:image/svg+xml,x")
    assert T(room, "start")["ok"]
    return room, panels, boards


def test_the_board_offers_only_the_devices_own_seat() -> None:
    room, panels, boards = seated()
    player = room.game.decision.player
    mine, other = f"phone-{player}", f"phone-{1 - player}"
    assert [a["type"] for a in boards[mine].state["legal"]] == ["roll"] or \
        boards[mine].state["legal"]
    assert boards[other].state["legal"] == [] and boards["projector"].state["legal"] == []
    assert boards["projector"].presentation
    view = panels[mine].view
    assert view["mine"]["my_turn"] and view["mine"]["legal"]
    assert panels[other].view["mine"]["legal"] == []
    assert "teacher" not in view and panels["projector"].view["room"]["code"] == "ABC234"
    # the board's click goes through the room: the wrong seat is refused, the right one plays
    seq = boards[other].state["seq"]
    board_request(boards[other], {"type": "act", "action": {"type": "roll", "player": player},
                                  "seq": seq})
    assert "this device plays seat" in boards[other].error["message"]
    assert room.game.actions == []
    seq = boards[mine].state["seq"]
    shown = boards["projector"].state["seq"]
    board_request(boards[mine], {"type": "act", "action": {"type": "roll", "player": player},
                                 "seq": seq})
    assert len(room.game.actions) == 1 and room.accepted[0].source == mine
    # every view followed: the projector's board and room view show the new state
    assert boards["projector"].state["seq"] > shown
    assert panels["projector"].view["seq"] == room.game_seq
    # the same click again is stale; the teacher's requests from the board are refused
    board_request(boards[mine], {"type": "act", "action": {"type": "roll", "player": player},
                                 "seq": seq})
    assert "stale" in boards[mine].error["message"]
    for content in ({"type": "undo", "seq": boards[mine].state["seq"]},
                    {"type": "bots", "paused": True},
                    {"type": "setup", "profile": "classic", "players": [], "seq": 0}):
        board_request(boards[mine], content)
        assert "the teacher does that" in boards[mine].error["message"]
    boards[mine].set_state({"bot_delay": 3.0, "lang": "nl"})
    assert boards[mine].lang == "nl" and boards[mine].bot_delay != 3.0
    assert len(room.game.actions) == 1


def test_a_bot_takeover_and_a_pause_take_the_buttons_away() -> None:
    room, panels, boards = seated()
    player = room.game.decision.player
    mine = f"phone-{player}"
    assert boards[mine].state["legal"]
    assert T(room, "pause")["ok"]
    assert boards[mine].state["legal"] == [] and panels[mine].view["mine"]["legal"] == []
    assert T(room, "resume")["ok"]
    assert boards[mine].state["legal"]
    assert T(room, "bot", seat=player, level="heuristic")["ok"]
    assert boards[mine].seats[player] == "heuristic"
    assert boards[mine].state["legal"] == []


def test_the_room_view_tells_refusals_and_a_flood_once_a_second() -> None:
    room, panels, boards = seated()
    panel = panels["phone-0"]
    panel_request(panel, {"type": "claim", "seat": 1})
    assert "one seat per device" in panel.error["message"]
    n = panel.error["n"]
    for _ in range(100):
        panel_request(panel, {"type": "lang", "lang": "xx"})
    assert panel.error["n"] - n < 40  # the refusals until the bucket ran dry, then one flood
    assert panel.error["flood"]
    panel.close()
    boards["phone-0"].close()
    import time

    deadline = time.monotonic() + 5
    while any(v.device == "phone-0" for v in room._views) and time.monotonic() < deadline:
        time.sleep(0.01)  # views leave the room from a thread of their own
    assert not any(v.device == "phone-0" for v in room._views)


def test_the_command_line_refuses_bad_settings_with_a_message() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "ugentopoly_widget", "classroom", *args],
                              capture_output=True, text=True, timeout=120)

    out = run("--help")
    assert out.returncode == 0 and "--players" in out.stdout and "--admit" in out.stdout
    out = run("--players", "9", "--port", "0")
    assert out.returncode == 2 and "2 to 8" in out.stderr
    out = run("--players", "Ann,<b>", "--port", "0")
    assert out.returncode == 2 and "not '<'" in out.stderr
    out = run("--code", "!", "--port", "0")
    assert out.returncode == 2 and "class code" in out.stderr
    listed = subprocess.run([sys.executable, "-m", "ugentopoly_widget"], capture_output=True,
                            text=True, timeout=60)
    assert "classroom" in listed.stdout


def test_the_qr_code_and_the_addresses() -> None:
    from ugentopoly_widget.classroom.server import addresses, qr_data_uri, qr_svg, qr_text

    room, _ = make_room(2)
    a = addresses(room, "127.0.0.1", 8765)
    assert a.join == "http://127.0.0.1:8765/?code=ABC234"
    assert a.teacher.endswith(room.teacher_key) and room.teacher_key not in a.join
    assert qr_svg(a.join).startswith("<svg") and qr_data_uri(a.join).startswith(
        "data:image/svg+xml")
    text = qr_text(a.join)
    assert len(text.splitlines()) > 10 and "█" in text
    banner = a.banner(qr=False)
    assert "ABC234" in banner and a.projector in banner
    json.dumps(a.extra)


def test_a_teachers_notebook_starts_and_stops_a_server() -> None:
    from ugentopoly_widget.classroom import start

    server = start("classic", players=["Ann", "Bob"], port=0, host="127.0.0.1", seed=3)
    try:
        assert server.code in server.join_url and "/teacher?key=" in server.teacher_url
        assert server.join_url.startswith("http://127.0.0.1:")
        html = server._repr_html_()
        assert server.code in html and "<svg" in html
        table = server.experiment_table()
        assert list(table.columns)[:3] == ["experiment", "kind", "device"] and len(table) == 0
    finally:
        server.stop()
    assert server.process.poll() is not None


def test_a_private_trade_from_one_phone_reaches_only_its_partner() -> None:
    room, panels, boards = seated()
    player = room.game.decision.player
    assert player is not None
    mine, other = f"phone-{player}", f"phone-{1 - player}"
    room.game.testing.give_property(player, 1)
    room.game.testing.give_property(1 - player, 3)
    panels[mine].room_update()
    panels[other].room_update()
    view = panels[mine].view["mine"]
    assert view["trade"][0]["player"] == 1 - player and 3 in view["trade"][0]["properties"]
    assert 1 in view["give"] and panels[other].view["mine"].get("trade") is None
    offer = {"type": "propose_trade", "player": player, "partner": 1 - player,
             "give": {"properties": [1], "cash": 10, "cards": []},
             "get": {"properties": [3], "cash": 0, "cards": []}}
    # the partner cannot send it in the proposer's name
    panel_request(panels[other], {"type": "act", "action": offer,
                                  "seq": panels[other].view["seq"]})
    assert "this device plays seat" in panels[other].error["message"]
    panel_request(panels[mine], {"type": "act", "action": offer,
                                 "seq": panels[mine].view["seq"]})
    assert room.game.decision.kind == "trade" and room.game.decision.player == 1 - player
    answer = panels[other].view["mine"]
    assert {a["type"] for a in answer["legal"]} == {"accept", "reject"}
    assert panels[other].view["decision"]["offer"]["give"]["properties"] == [1]
    assert panels[mine].view["mine"]["legal"] == []
    accept = next(a for a in answer["legal"] if a["type"] == "accept")
    panel_request(panels[other], {"type": "act", "action": accept,
                                  "seq": panels[other].view["seq"]})
    assert room.game.owner(1) == 1 - player and room.game.owner(3) == player


def test_solara_is_set_up_for_a_room_without_internet() -> None:
    """No telemetry, production mode, Solara's front end from solara-assets (a fresh
    interpreter: importing Solara's server changes ipywidgets for the process)."""
    code = ("from ugentopoly_widget.classroom.server import offline_solara\n"
            "offline_solara()\n"
            "import solara.server.settings as s, solara_assets, pathlib\n"
            "print(s.telemetry.mixpanel_enable, s.main.mode,"
            " pathlib.Path(solara_assets.__file__).parent.is_dir())\n")
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("SOLARA_")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.stdout.split() == ["False", "production", "True"], out.stderr[-500:]
