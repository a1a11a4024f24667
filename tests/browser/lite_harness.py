"""The offline harness of the browser-site test (test_lite_site.py): build the site from a clean
checkout, serve it on 127.0.0.1 counting every byte, and open it in chromium with every request
to another host blocked and counted three ways (docs/lite.md):

1. ``context.route("**/*")`` aborts and records any request whose host is not 127.0.0.1;
2. ``--host-resolver-rules`` makes every other host unresolvable inside chromium itself
   (workers and the service worker included, whatever routing misses);
3. chromium's net log (``--log-net-log``) is read afterwards for every request to another host,
   with its initiator: the browser's own background traffic (update checks; initiator "not an
   origin") is listed apart, anything a page or worker of the site asked for fails the test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

LOCAL = "127.0.0.1"
RESOLVER_RULES = f"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE {LOCAL}"


# --------------------------------------------------------------------------- build
def clean_checkout(repo: Path, dest: Path) -> Path:
    """What a fresh clone of the working tree holds: tracked files and new files that git does
    not ignore (no .venv, no built front end, no .lite cache, no dist)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=repo, check=True, capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = repo / rel
        if not src.is_file():  # deleted in the working tree
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
    return dest


def build_site(checkout: Path, out: Path, venv: Path | None, log: Path) -> float:
    """``scripts/lite`` in the checkout; returns its seconds. ``venv``: a build environment
    to reuse (it is remade when lite/build-requirements.txt changed)."""
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH"}}
    env["LITE_OUT"] = str(out)
    if venv is not None:
        env["LITE_VENV"] = str(venv)
    start = time.monotonic()
    with log.open("wb") as fh:
        res = subprocess.run(["bash", "scripts/lite"], cwd=checkout, env=env, stdout=fh,
                             stderr=subprocess.STDOUT, timeout=1200)
    if res.returncode != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-40:])
        raise AssertionError(f"scripts/lite failed ({res.returncode}):\n{tail}")
    return time.monotonic() - start


# --------------------------------------------------------------------------- server
@dataclass
class Served:
    path: str
    status: int
    size: int


class CountingServer:
    """The site on http://127.0.0.1:PORT/ (the standard library's file server, as
    ``python -m http.server``), recording every answer and its size."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.served: list[Served] = []
        lock = threading.Lock()
        served = self.served

        class Handler(SimpleHTTPRequestHandler):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, directory=str(root), **kwargs)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def send_response(self, code: int, message: str | None = None) -> None:
                self._ugw_code = code
                self._ugw_size = 0
                super().send_response(code, message)

            def send_header(self, keyword: str, value: str) -> None:
                if keyword.lower() == "content-length":
                    self._ugw_size = int(value)
                super().send_header(keyword, value)

            def end_headers(self) -> None:
                super().end_headers()
                with lock:
                    served.append(Served(self.path, getattr(self, "_ugw_code", 0),
                                         getattr(self, "_ugw_size", 0)))

        self.httpd = ThreadingHTTPServer((LOCAL, 0), Handler)
        self.url = f"http://{LOCAL}:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def mark(self) -> int:
        return len(self.served)

    def since(self, mark: int) -> list[Served]:
        return self.served[mark:]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


# --------------------------------------------------------------------------- offline checks
@dataclass
class Blocked:
    """Requests that tried to leave 127.0.0.1, per check."""

    routed: list[str] = field(default_factory=list)  # aborted by context.route
    netlog_site: list[dict[str, str]] = field(default_factory=list)  # initiated by the site
    netlog_browser: list[dict[str, str]] = field(default_factory=list)  # chromium's own


def route_local_only(context: Any, blocked: Blocked) -> None:
    def handle(route: Any) -> None:
        url = route.request.url
        if urlsplit(url).hostname == LOCAL:
            route.continue_()
        else:
            blocked.routed.append(url)
            route.abort()

    context.route("**/*", handle)


def read_netlog(path: Path) -> dict[str, Any]:
    text = path.read_text(errors="replace").rstrip()
    try:
        return dict(json.loads(text))
    except json.JSONDecodeError:  # chromium was stopped before it closed the list
        return dict(json.loads(text.rstrip(",") + "]}"))


def netlog_external(path: Path, blocked: Blocked) -> None:
    """Every URL request in the net log to a host other than 127.0.0.1, by its initiator."""
    log = read_netlog(path)
    types = log["constants"]["logEventTypes"]
    wanted = {types[k] for k in ("URL_REQUEST_START_JOB", "REQUEST_ALIVE") if k in types}
    seen: set[tuple[int, str]] = set()
    for event in log.get("events", []):
        params = event.get("params") or {}
        url = params.get("url")
        if event.get("type") not in wanted or not isinstance(url, str):
            continue
        if not url.startswith(("http:", "https:", "ws:", "wss:")):
            continue
        if urlsplit(url).hostname == LOCAL:
            continue
        key = (int(event.get("source", {}).get("id", -1)), url)
        if key in seen:
            continue
        seen.add(key)
        initiator = str(params.get("initiator", "not an origin"))
        entry = {"url": url, "initiator": initiator}
        if initiator.startswith(("http://", "https://")):
            blocked.netlog_site.append(entry)
        else:
            blocked.netlog_browser.append(entry)
