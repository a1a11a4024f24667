"""Start the classroom server: Solara's own Starlette app under uvicorn, in this process, with
the room it serves; its join address, class code and QR code; and :func:`start` for a
teacher's notebook (the server in a process of its own, with a handle to stop it).

Solara is set up before it is imported: no telemetry, no version check, no CDN (its front end
comes from solara-assets), so the server works in a room without internet.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .room import Room

MISSING = ("the classroom needs Solara and segno: pip install 'ugentopoly_widget[classroom]' "
           "(solara and solara-assets 1.58.2, segno)")
DEFAULT_PORT = 8765

_ROOM: Room | None = None
_QR = ""


def current_room() -> Room:
    if _ROOM is None:
        raise RuntimeError("no classroom room: start one with python -m ugentopoly_widget "
                           "classroom")
    return _ROOM


def current_qr() -> str:
    return _QR


def offline_solara() -> None:
    """Solara's settings for a room without internet (read when Solara is first imported)."""
    os.environ.setdefault("SOLARA_TELEMETRY_MIXPANEL_ENABLE", "False")
    os.environ.setdefault("SOLARA_THEME_LOADER", "plain")
    os.environ["SOLARA_APP"] = "ugentopoly_widget.classroom.app"
    os.environ.setdefault("SOLARA_MODE", "production")
    # a closed tab's page is closed by the browser's beacon; a lost one (a phone out of range)
    # is kept this long for its reconnect, then freed (the seat stays with the device)
    os.environ.setdefault("SOLARA_KERNEL_CULL_TIMEOUT", "10m")


def lan_address() -> str:
    """This machine's address on the local network (what a phone in the room can reach),
    read from the host's own interfaces: nothing is sent anywhere."""
    candidates: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidates.append(str(info[4][0]))
    except OSError:
        pass
    if sys.platform.startswith("linux"):
        candidates.extend(_linux_addresses())
    for address in candidates:
        if not address.startswith("127.") and not address.startswith("169.254."):
            return address
    return "127.0.0.1"


def _linux_addresses() -> list[str]:
    import fcntl
    import struct

    out = []
    for _, name in socket.if_nameindex():
        if name == "lo":
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                     struct.pack("256s", name[:15].encode()))
            except OSError:
                continue
        out.append(socket.inet_ntoa(packed[20:24]))
    return out


def _qr(text: str) -> Any:
    """segno's QR code of `text` (medium error correction: a projector's glare is forgiven)."""
    try:
        import segno
    except ImportError:
        raise ImportError(MISSING) from None
    return segno.make(text, error="m")


def qr_svg(text: str) -> str:
    """The QR code of `text` as an SVG document (segno, drawn here)."""
    return str(_qr(text).svg_inline(scale=6, border=2, dark="#000", light="#fff"))


def qr_data_uri(text: str) -> str:
    """The QR code of `text` as a data: URI of its SVG (the projector shows it as an image)."""
    return str(_qr(text).svg_data_uri(scale=6, border=2, dark="#000", light="#fff"))


def qr_text(text: str) -> str:
    """The QR code of `text` in block characters, for a terminal."""
    import io

    out = io.StringIO()
    _qr(text).terminal(out=out, compact=True, border=2)
    return out.getvalue()


@dataclass
class Addresses:
    join: str
    projector: str
    teacher: str
    code: str
    local: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def banner(self, qr: bool = True) -> str:
        lines = [
            "Ugentopoly classroom",
            f"  students join:   {self.join}",
            f"  class code:      {self.code}",
            f"  projector:       {self.projector}",
            f"  teacher (keep this private): {self.teacher}",
        ]
        if qr:
            lines += ["", qr_text(self.join)]
        return "\n".join(lines)


def addresses(room: Room, host: str, port: int) -> Addresses:
    shown = lan_address() if host in ("0.0.0.0", "") else host
    base = f"http://{shown}:{port}"
    return Addresses(join=f"{base}/?code={room.code}", projector=f"{base}/projector",
                     teacher=f"{base}/teacher?key={room.teacher_key}", code=room.code,
                     local=f"http://127.0.0.1:{port}")


def _routes(room: Room) -> list[Any]:
    """The teacher's own routes beside Solara's (each needs the teacher's key):
    GET /classroom/export.csv?key=...: the experiments' table;
    GET /classroom/audit.json?key=...: the room's record check, counts and memory
    (``Room.audit``; the load tests read it)."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route

    from .checks import same_secret

    # plain functions: Starlette runs them in its thread pool. On the event loop they could
    # wait for the room's lock while its holder waits for the loop to send a message.
    def export(request: Request) -> Response:
        key = request.query_params.get("key", "")
        if not same_secret(key, room.teacher_key):
            return PlainTextResponse("wrong teacher key", status_code=403)
        frame = room.experiment_table()
        return PlainTextResponse(frame.to_csv(index=False), media_type="text/csv")

    def audit(request: Request) -> Response:
        key = request.query_params.get("key", "")
        if not same_secret(key, room.teacher_key):
            return PlainTextResponse("wrong teacher key", status_code=403)
        return JSONResponse(room.audit())

    return [Route("/classroom/export.csv", export), Route("/classroom/audit.json", audit)]


class ClassroomServer:
    """The room served by Solara under uvicorn in a thread of this process."""

    def __init__(self, room: Room, host: str = "0.0.0.0", port: int = DEFAULT_PORT) -> None:
        self.room = room
        self.host = host
        self.port = port
        self.server: Any = None
        self.thread: threading.Thread | None = None
        self.driver: Any = None

    def start(self, timeout: float = 60.0) -> ClassroomServer:
        global _ROOM, _QR
        offline_solara()
        # Solara warns on every page load over plain http that its cookie falls back to
        # samesite=lax: that is what a LAN classroom wants (no iframe), not news for the teacher
        warnings.filterwarnings("ignore", message="Cookies with samesite=none require https")
        try:
            import solara.server.starlette as solara_starlette
            import uvicorn
        except ImportError:
            raise ImportError(MISSING) from None
        from .driver import RoomDriver

        if self.port == 0:
            with socket.socket() as s:
                s.bind((self.host if self.host != "0.0.0.0" else "", 0))
                self.port = s.getsockname()[1]
        info = addresses(self.room, self.host, self.port)
        self.room.join_url = info.join
        _ROOM = self.room
        _QR = qr_data_uri(info.join)
        app = solara_starlette.app
        app.router.routes[:] = [r for r in app.router.routes
                                if not getattr(r, "path", "").startswith("/classroom/")]
        app.router.routes[0:0] = _routes(self.room)
        config = uvicorn.Config(app, host=self.host, port=self.port, log_level="warning",
                                ws_max_size=1 << 20, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="classroom-server",
                                       daemon=True)
        self.thread.start()
        self.driver = RoomDriver(self.room).start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the classroom server did not start on port {self.port}")
            time.sleep(0.05)
        return self

    @property
    def addresses(self) -> Addresses:
        return addresses(self.room, self.host, self.port)

    def stop(self) -> None:
        if self.driver is not None:
            self.driver.stop()
        if self.server is not None:
            self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=10)

    def wait(self) -> None:
        """Serve until Ctrl-C."""
        try:
            while self.thread is not None and self.thread.is_alive():
                self.thread.join(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            self.stop()


class NotebookClassroom:
    """A classroom server started from a notebook (a process of its own): its addresses and
    QR code (shown as the cell's output), the experiments' table, and stop()."""

    def __init__(self, process: subprocess.Popen[str], info: dict[str, Any]) -> None:
        self.process = process
        self.info = info
        self.join_url: str = info["join"]
        self.projector_url: str = info["projector"]
        self.teacher_url: str = info["teacher"]
        self.code: str = info["code"]
        self.local_url: str = info["local"]

    def _repr_html_(self) -> str:
        from html import escape

        return (f"<div><p>Students join: <b>{escape(self.join_url)}</b> — class code "
                f"<b style='font-size:1.6em;letter-spacing:.1em'>{escape(self.code)}</b></p>"
                f"<p>Projector: {escape(self.projector_url)}<br>Teacher: "
                f"{escape(self.teacher_url)}</p>{qr_svg(self.join_url)}</div>")

    def __repr__(self) -> str:
        return f"NotebookClassroom(join={self.join_url!r}, code={self.code!r})"

    def experiment_table(self) -> Any:
        """The class experiments' outcomes as a pandas DataFrame (one row per trial)."""
        import io

        import pandas as pd

        url = f"{self.local_url}/classroom/export.csv?key={self.info['key']}"
        with urllib.request.urlopen(url, timeout=10) as reply:  # the local server only
            return pd.read_csv(io.StringIO(reply.read().decode()))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def start(profile: str = "ugentopoly", *, players: int | Sequence[str] = 4,
          port: int = DEFAULT_PORT, host: str = "0.0.0.0", admit: str = "teacher",
          seed: int | None = None, timeout: float = 90.0) -> NotebookClassroom:
    """Start a classroom server from a notebook: ``room = classroom.start("classic",
    players=4)`` shows the join address, code and QR code; ``room.stop()`` ends it.

    The server runs in a process of its own (Solara's server takes over ipywidgets in the
    process it runs in, which would break the notebook's own widgets)."""
    args = [sys.executable, "-m", "ugentopoly_widget", "classroom", "--profile", profile,
            "--port", str(port), "--host", host, "--admit", admit, "--info-json", "-",
            "--no-qr"]
    args += ["--players", str(players) if isinstance(players, int) else ",".join(players)]
    if seed is not None:
        args += ["--seed", str(seed)]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        if line.startswith("{"):
            info = json.loads(line)
            return NotebookClassroom(process, info)
    process.kill()
    error = process.stderr.read() if process.stderr else ""
    raise RuntimeError(f"the classroom server did not start: {error.strip()[-500:]}")


def info_json(server: ClassroomServer) -> str:
    a = server.addresses
    return json.dumps({"join": a.join, "projector": a.projector, "teacher": a.teacher,
                       "code": a.code, "local": a.local, "key": server.room.teacher_key,
                       "port": server.port})


__all__ = ["ClassroomServer", "NotebookClassroom", "current_qr", "current_room", "lan_address",
           "qr_svg", "start"]
