"""A view's log as js/src/logfeed.ts keeps it: the pieces each state carries, the whole kept
tail asked for (``{"type": "log"}``) when a piece does not follow on what it has, and the pages
of earlier lines its reader asks for (``{"type": "log", "before": first}``)."""

from __future__ import annotations

from typing import Any

from ugentopoly_widget import UgentopolyWidget


class LogView:
    def __init__(self, widget: UgentopolyWidget) -> None:
        self.widget = widget
        self.first = 0
        self.lines: list[str] = []
        self.epoch: int | None = None
        self.waiting = False
        self.requests = 0
        self.pieces: list[dict[str, Any]] = []
        views: list[LogView] | None = getattr(widget, "_test_log_views", None)
        if views is None:  # custom messages reach every view: fan them out
            views = []
            widget._test_log_views = views  # type: ignore[attr-defined]
            widget.send = lambda content, buffers=None: [  # type: ignore[method-assign]
                v.reply(content) for v in list(views)]
        views.append(self)
        widget.observe(lambda change: self.take(change["new"].get("log")), names="state")
        self.take(widget.state.get("log"))  # opened now: the current state first

    @property
    def next(self) -> int:
        return self.first + len(self.lines)

    def take(self, log: dict[str, Any] | None) -> None:
        if not log:
            return
        self.pieces.append(log)
        if not self.waiting and log["epoch"] == self.epoch and log["total"] == self.next:
            return  # the same piece again (a state with no new lines repeats it)
        if log["base"] is None:
            self.replace(log)
        elif not self.waiting and log["epoch"] == self.epoch and log["base"] == self.next:
            if log["start"] > log["base"]:
                self.replace(log)
            else:
                self.lines.extend(log["lines"])
        elif not self.waiting:
            self.waiting = True
            self.requests += 1
            self.widget._handle_custom_msg({"type": "log"}, [])

    def reply(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "log_lang":  # a language switch: the lines in the new one
            self.pieces.append(msg)
            self.replace(msg)
        elif self.waiting and msg.get("type") == "log":
            self.replace(msg)
        elif msg.get("type") == "log_page":
            self.prepend(msg)

    def earlier(self) -> None:
        """The "earlier lines" button: the lines before the first one shown."""
        self.widget._handle_custom_msg({"type": "log", "before": self.first,
                                        "seq": self.widget.state["seq"]}, [])

    def prepend(self, msg: dict[str, Any]) -> None:
        if msg["epoch"] != self.epoch or self.waiting or not msg["lines"] \
                or msg["start"] + len(msg["lines"]) != self.first:
            return  # a page of another run, or one that does not end where the lines start
        self.lines = list(msg["lines"]) + self.lines
        self.first = msg["start"]

    def replace(self, log: dict[str, Any]) -> None:
        self.epoch = log["epoch"]
        self.first = log["start"]
        self.lines = list(log["lines"])
        self.waiting = False

    def tail(self, keep: int = 100) -> list[str]:
        return self.lines[-keep:] if keep else []
