"""The Solara app of the classroom: three pages over the one room of this server process.

- ``/`` (what the QR code opens, ``?code=`` filled in): a student's phone or laptop: join,
  claim a seat, play it, experiments and votes; the board below.
- ``/projector``: the board in Present mode, the join card (address, code, QR) and the
  class charts; no buttons.
- ``/teacher?key=...``: the teacher's controls (the key is checked on the server).

Each visitor's session gets its own widgets (made once per page, for the device its session
cookie names); the room behind them is shared (``server.current_room()``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

import solara
from solara.server import kernel_context

from .server import current_qr, current_room
from .views import RoomBoard, RoomPanel, _presence

PAGE_CSS = """
.ugc-page { max-width: 1100px; margin: 0 auto; padding: 4px; gap: 8px; }
.ugc-projector { display: flex; gap: 12px; align-items: flex-start; height: 100vh;
  padding: 8px; box-sizing: border-box; }
.ugc-projector > .ugc-board { flex: 1 1 auto; min-width: 0; height: calc(100vh - 16px); }
.ugc-projector > .ugc-side { flex: 0 0 25%; max-width: 560px; height: calc(100vh - 16px);
  overflow: auto; }
/* the projector: the board as tall as the screen, type the back of the room can read (tile
   names at least 16 px, prices and % labels at least 15 px at 1920x1080) */
.ugc-projector .ugw-root.ugw-present { --ugw-board-h: calc(100vh - 28px); --ugw-name-floor: 16; }
.ugc-projector .ugw-tile-price { font-size: max(15px, 0.92em); }
.ugc-projector .ugw-heat-label, .ugc-projector .ugw-corner .ugw-heat-label
  { font-size: max(15px, 1em); }
/* in the classroom the teacher starts games and undoes: the board's own buttons for that go */
.ugc-page [data-ugw=new-game], .ugc-page [data-ugw=undo], .ugc-projector [data-ugw=new-game],
.ugc-projector [data-ugw=undo], .ugc-page [data-ugw=bot-controls],
.ugc-projector [data-ugw=bot-controls]
  { display: none !important; }
"""


def _query() -> dict[str, str]:
    router = solara.use_router()
    search = router.search or ""
    return {k: v[0] for k, v in parse_qs(search).items() if v}


def _device() -> tuple[str, Any]:
    return solara.get_session_id(), kernel_context.get_current_context()


@solara.component  # type: ignore[untyped-decorator]
def PlayerPage() -> None:
    query = _query()
    device, context = _device()
    room = current_room()
    connected = solara.use_memo(lambda: _presence(context), [])
    panel = solara.use_memo(
        lambda: RoomPanel(room, device, "player", code=query.get("code"), connected=connected),
        [])
    # the board on demand: the projector shows it to the class, a phone need not draw it
    # (and thirty boards fewer to send on every move)
    show, set_show = solara.use_state(False)
    board = solara.use_ref(None)
    if show and board.current is None:
        board.current = RoomBoard(room, device, connected=connected)
    solara.Style(PAGE_CSS)
    with solara.Column(classes=["ugc-page"]):
        solara.display(panel)
        solara.Button("▦ Board · Spelbord", on_click=lambda: set_show(not show),
                      classes=["ugc-board-toggle"], outlined=True,
                      attributes={"data-ugc": "board-toggle"})
        if show:
            solara.display(board.current)


@solara.component  # type: ignore[untyped-decorator]
def ProjectorPage() -> None:
    device, context = _device()
    room = current_room()

    def make() -> tuple[RoomPanel, RoomBoard]:
        connected = _presence(context)
        panel = RoomPanel(room, device, "projector", qr=current_qr(), connected=connected)
        board = RoomBoard(room, device, presentation=True, connected=connected)
        return panel, board

    panel, board = solara.use_memo(make, [])
    solara.Style(PAGE_CSS)
    with solara.Row(classes=["ugc-projector"]):
        with solara.Column(classes=["ugc-board"]):
            solara.display(board)
        with solara.Column(classes=["ugc-side"]):
            solara.display(panel)


@solara.component  # type: ignore[untyped-decorator]
def TeacherPage() -> None:
    query = _query()
    device, context = _device()
    room = current_room()

    def make() -> tuple[RoomPanel, RoomBoard]:
        if "key" in query:
            room.become_teacher(device, query["key"])
        connected = _presence(context)
        panel = RoomPanel(room, device, "teacher", connected=connected)
        board = RoomBoard(room, device, connected=connected)
        return panel, board

    panel, board = solara.use_memo(make, [])
    solara.Style(PAGE_CSS)
    with solara.Column(classes=["ugc-page"]):
        solara.display(panel)
        solara.display(board)


@solara.component  # type: ignore[untyped-decorator]
def Layout(children: list[Any] = []) -> Any:  # noqa: B006 - Solara's own signature
    """No app bar or navigation: each page is the whole window."""
    return solara.Column(children=children, style={"padding": "0", "gap": "0"})


routes = [
    solara.Route(path="/", component=PlayerPage, label="Play", layout=Layout),
    solara.Route(path="projector", component=ProjectorPage, label="Projector"),
    solara.Route(path="teacher", component=TeacherPage, label="Teacher"),
]

__all__ = ["Layout", "PlayerPage", "ProjectorPage", "TeacherPage", "routes"]
