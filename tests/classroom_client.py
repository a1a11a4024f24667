"""A protocol-level device for the classroom server (issue 34's load tests): it speaks what a
browser's page speaks to Solara over the kernel websocket (Jupyter messages: open Solara's
control comm, run a page, receive the widgets' comm_open and update messages, send a widget's
custom messages), without drawing anything. Loopback only; every loop is bounded.

``Device(base, "/projector")`` opens a page like a browser tab with its own session cookie;
``device.panel`` / ``device.board_state`` are the page's RoomPanel's view and RoomBoard's state
as last received (a phone's page has no board until its student opens it);
``device.panel_send(content)`` clicks in the room view, ``device.board_send`` in the board.
Each view update is stamped with ``time.perf_counter()`` on arrival.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlparse

import websocket  # websocket-client (jupyter_server's dependency)

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _message(msg_type: str, content: dict[str, Any], session: str) -> str:
    return json.dumps({
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "",
                   "session": session, "date": datetime.now(timezone.utc).isoformat(),
                   "version": "5.3"},
        "parent_header": {}, "metadata": {}, "content": content, "channel": "shell",
        "buffers": [],
    })


class Device:
    """One simulated phone, laptop or projector on one page of the classroom server."""

    def __init__(self, base: str, path: str = "/", *, session: str | None = None,
                 on_view: Callable[[Device, dict[str, Any], float], None] | None = None,
                 timeout: float = 60.0) -> None:
        host = urlparse(base).hostname
        if host not in LOCAL_HOSTS:  # a load test never leaves this machine
            raise ValueError(f"the test client talks to loopback only, not {host!r}")
        self.session = session or uuid.uuid4().hex  # the session cookie: the device's id
        self.kernel = uuid.uuid4().hex
        self.page = uuid.uuid4().hex
        self.on_view = on_view
        self.panel_comm: str | None = None
        self.board_comm: str | None = None
        self.panel: dict[str, Any] = {}
        self.board: dict[str, Any] = {}
        self.board_state: dict[str, Any] = {}
        self.errors = 0  # refusals received in the room view
        self.error_messages: list[str] = []
        self.board_errors = 0
        self.view_at = 0.0
        self.closed = False
        self._send_lock = threading.Lock()
        self._ready = threading.Event()
        # a phone's page shows the board only on demand; the projector's and teacher's always
        self.expect_board = path.split("?")[0] not in ("", "/")
        url = (f"ws://{urlparse(base).netloc}/jupyter/api/kernels/{self.kernel}/channels"
               f"?session_id={self.page}")
        self.ws = websocket.create_connection(
            url, header=[f"Cookie: solara-session-id={self.session}"], timeout=timeout)
        self._reader = threading.Thread(target=self._read, name=f"device-{self.session[:6]}",
                                        daemon=True)
        self._reader.start()
        control = uuid.uuid4().hex
        self._send("comm_open", {"comm_id": control, "target_name": "solara.control",
                                 "data": {}})
        self._send("comm_msg", {"comm_id": control, "data": {
            "method": "run", "args": {"path": path, "appName": "__default__"}}})
        if not self._ready.wait(timeout):
            self.close()
            raise TimeoutError(f"the page {path} did not open in {timeout} s")

    # ------------------------------------------------------------------ sending

    def _send(self, msg_type: str, content: dict[str, Any]) -> None:
        with self._send_lock:
            self.ws.send(_message(msg_type, content, self.page))

    def _custom(self, comm: str | None, content: dict[str, Any]) -> None:
        if comm is None:
            raise RuntimeError("that view is not on this page")
        self._send("comm_msg", {"comm_id": comm, "data": {"method": "custom",
                                                          "content": content}})

    def panel_send(self, content: dict[str, Any]) -> None:
        self._custom(self.panel_comm, content)

    def board_send(self, content: dict[str, Any]) -> None:
        self._custom(self.board_comm, content)

    # ------------------------------------------------------------------ receiving

    def _read(self) -> None:
        while not self.closed:
            try:
                raw = self.ws.recv()
            except Exception:
                break
            if not isinstance(raw, str) or not raw:
                continue  # a binary frame (widgets with buffers: not ours)
            try:
                msg = json.loads(raw)
            except ValueError:
                continue
            kind = msg.get("header", {}).get("msg_type")
            content = msg.get("content", {})
            if kind == "comm_open":
                self._opened(content)
            elif kind == "comm_msg":
                data = content.get("data", {})
                if data.get("method") == "update":
                    self._update(content.get("comm_id"), data.get("state", {}))

    def _opened(self, content: dict[str, Any]) -> None:
        state = content.get("data", {}).get("state", {})
        if state.get("_model_name") != "AnyModel":
            return
        comm = content.get("comm_id")
        if "page" in state and "view" in state:
            self.panel_comm = comm
        elif "board_data" in state:
            self.board_comm = comm
        self._update(comm, state)

    def _update(self, comm: str | None, state: dict[str, Any]) -> None:
        now = time.perf_counter()
        if comm is not None and comm == self.panel_comm:
            if "error" in state:
                error = state["error"] or {}
                if error.get("message"):
                    self.errors += 1
                    self.error_messages.append(str(error["message"]))
                    del self.error_messages[:-200]
            if "view" in state:
                self.panel = state["view"]
                self.view_at = now
                if self.on_view is not None:
                    self.on_view(self, self.panel, now)
        elif comm is not None and comm == self.board_comm:
            if "state" in state:
                value = state["state"]
                self.board_state = json.loads(value) if isinstance(value, str) else value
            if "error" in state and (state["error"] or {}).get("message"):
                self.board_errors += 1
        if self.panel_comm and self.panel and (self.board_comm or not self.expect_board):
            self._ready.set()

    def wait_for(self, check: Callable[[dict[str, Any]], bool], timeout: float = 10.0
                 ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            view = self.panel
            if view and check(view):
                return view
            time.sleep(0.01)
        raise TimeoutError(f"the room view never matched (last: {json.dumps(self.panel)[:400]})")

    def close(self) -> None:
        self.closed = True
        try:
            self.ws.close()
        except Exception:
            pass


__all__ = ["Device"]
