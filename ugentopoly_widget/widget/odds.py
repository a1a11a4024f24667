"""The probability lab's panels in the widget: heat overlay modes, the live dice histogram and
the convergence chart.

Python computes every number with :mod:`ugentopoly_widget.probability` and sends small plain
payloads (one list of floats per board, the mode and its scale) through two traits, ``heat``
and ``stats``; the view only draws them. The payload builders are pure functions of a game, so
tests check the figures without a browser. Where numpy is absent (the browser site) the same
figures come from :mod:`ugentopoly_widget.probability.pure`.
"""

from __future__ import annotations

import importlib.util
import math
from typing import TYPE_CHECKING, Any

from ..engine.records.landings import LandingCounter
from ..probability.dice import totals_table
from . import heatmap
from .requests import RequestError

if TYPE_CHECKING:
    from ..engine.game import Game

PROBABILITY_MODES = ("exact", "observed", "difference", "next")
JAIL_STRATEGIES = ("short", "long")
PER = ("roll", "turn")
CONVERGENCE_POINTS = 48  # log-spaced samples on the convergence chart (the last one is "now")
# numpy's chain where numpy is installed (it is faster on the large Ugentopoly chain's
# variances), else the pure-Python one (the browser site): the same numbers (tests compare).
def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a finder that refuses it, a half-imported module
        return False


USE_NUMPY = _installed("numpy") and _installed("pandas")


def require_numpy(feature: str) -> None:
    """A view's request for a panel that needs numpy (rollouts) where it is absent (the
    browser site): a clear RequestError instead of an internal ModuleNotFoundError."""
    if not USE_NUMPY:
        raise RequestError(f"{feature} needs numpy and pandas (rollouts), which this browser "
                           "site does not have: run the notebook in Jupyter for it")


def check_mode(mode: Any) -> str | None:
    """The overlay mode asked for (None or "off": no overlay); anything else is a ValueError."""
    if mode is None or mode == "off":
        return None
    if not isinstance(mode, str) or mode not in PROBABILITY_MODES:
        raise ValueError(f"the probability overlay is one of {list(PROBABILITY_MODES)} "
                         f"or None/'off', not {mode!r}")
    return mode


def heat_payload(game: Game, mode: str, lang: str = "en", jail: str = "short",
                 per: str = "roll") -> dict[str, Any]:
    """The heat layer of one mode: a share of rolls (or turns, ``per="turn"``) per tile
    (``values``), In Jail apart (``jail``, drawn on the jail tile), the colour of each tile
    (``fills``, None where no roll can end) and the ink that reads on it, on a scale from the
    lowest to the highest share above 0 (``min``/``max``), -m..+m (diverging) for
    ``"difference"`` = observed - exact; ``notes``: why the hottest and coldest tiles are."""
    per = per if mode != "next" else "roll"  # a next roll is one roll
    if USE_NUMPY:
        from ..probability import overlay

        table = overlay(game, mode, jail=jail, lang=lang, per=per)  # type: ignore[arg-type]
        shares = [float(v) for v in table["value"]]
    else:
        from ..probability.pure import overlay_values

        shares = overlay_values(game, mode, jail, per)
    size = game.board.size
    values, in_jail = shares[:size], shares[size]
    diverging = mode == "difference"
    # the tiles' range (In Jail, often far above every tile, would squeeze them together:
    # its colour stops at the top, its label gives the figure)
    low, high = heatmap.scale(values, diverging)
    tile_fills, inks = heatmap.fills(values, low, high, diverging)
    jail_fill = heatmap.fills([in_jail], low, high, diverging)[0][0]
    extra: dict[str, Any] = {}
    if mode == "observed":
        counted = game.landings(per)  # type: ignore[arg-type]
        extra = {"exact": long_run(game, jail, per), "counts": list(counted.tiles)}
    elif mode == "next":
        extra = {"ways": heatmap.dice_ways(game)}
    return {
        "mode": mode, "values": values, "jail": in_jail,
        "jail_position": game.board.jail_position, "min": low, "max": high,
        "fills": tile_fills, "inks": inks, "jail_fill": jail_fill,
        "palette": list(heatmap.DIVERGING if diverging else heatmap.VIRIDIS),
        "unit": "pp" if diverging else "%", "diverging": diverging, "per": per,
        "rolls": game.landings(per).rolls,  # type: ignore[arg-type]
        "player": game.current_player if mode == "next" else None,
        "strategy": jail, "notes": heatmap.notes(game, mode, values, **extra),
    }


class LiveStats:
    """What the dice and convergence panels count, read incrementally from a game's events:
    the dice totals of every movement roll, and where every roll ended, in order (a recording
    :class:`LandingCounter`). An undo rebuilds the game's event list: counting starts again."""

    def __init__(self) -> None:
        self._events: object = None  # the game's event log read so far (by identity)
        self._read = 0
        self.counter = LandingCounter(1, None, record=True)
        self.totals: dict[int, int] = {}
        self.cached: tuple[tuple[int, int, str], dict[str, Any]] | None = None
        self.jail_strategies: dict[str, Any] | None = None  # a figure of the board: once

    def update(self, game: Game) -> None:
        events = game.events
        if events is not self._events or self._read > len(events):
            self._events, self._read = events, 0
            self.counter = LandingCounter(game.board.size, game.board.jail_position, record=True)
            self.totals = {}
            self.cached = None
            self.jail_strategies = None
        fresh = events[self._read:]
        for event in fresh:  # the same rolls the landing counter counts (no utility rolls)
            if event.kind == "rolled" and "purpose" not in event.data:
                total = int(event.data["total"])
                self.totals[total] = self.totals.get(total, 0) + 1
        self.counter.feed(fresh)
        self._read = len(events)


def stats_payload(game: Game, live: LiveStats, jail: str = "short") -> dict[str, Any]:
    """The dice panel (counts of each total against the exact distribution) and the
    convergence chart (total variation between observed and exact after n rolls, at
    log-spaced n, with the distance a game of n rolls lies off on average)."""
    live.update(game)
    # only a roll changes these figures: the other actions of a turn reuse the last payload
    key = (len(live.counter.history or ()), sum(live.totals.values()), jail)
    if live.cached is not None and live.cached[0] == key:
        return live.cached[1]
    totals, ways, probabilities, _ = totals_table(game.rules)
    dice = {
        "totals": totals,
        "counts": [live.totals.get(t, 0) for t in totals],
        "exact": probabilities,
        "ways": ways,
        "faces": int(game.rules.dice_sides) ** int(game.rules.dice_count),
        "rolls": sum(live.totals.values()),
    }
    rolls, tv, one = _convergence(game, live, jail)
    if live.jail_strategies is None:
        live.jail_strategies = jail_comparison(game)
    payload = {
        "dice": dice,
        "convergence": {
            "rolls": rolls,
            "tv": tv,
            # one / sqrt(n): a straight line of slope -1/2 on the log-log chart
            "expected": [one / math.sqrt(n) for n in rolls],
        },
        "jail_strategies": live.jail_strategies,
        "strategy": jail,
    }
    live.cached = (key, payload)
    return payload


def long_run(game: Game, jail: str, per: str) -> list[float]:
    """The exact long-run shares per roll (or turn), In Jail last: numpy's chain or the pure
    one (the browser site)."""
    if USE_NUMPY:
        from ..probability import landing_model

        chain = landing_model(game, jail=jail)  # type: ignore[arg-type]
        return [float(v) for v in chain.distribution(per)]
    from ..probability.pure import pure_landing_model

    return list(pure_landing_model(game, jail).distribution(per))


def next_roll(game: Game, jail: str) -> list[float]:
    """Where the current player's next roll ends (tiles, In Jail last): numpy's table or the
    pure chain's (the browser site)."""
    if USE_NUMPY:
        from ..probability import next_roll_distribution

        table = next_roll_distribution(game, jail=jail)  # type: ignore[arg-type]
        return [float(p) for p in table["probability"]]
    from ..probability.pure import overlay_values

    return overlay_values(game, "next", jail)


def _convergence(game: Game, live: LiveStats, jail: str) -> tuple[list[int], list[float], float]:
    """The chart's roll counts, total variation at each, and the expected distance after one
    roll (it falls like 1/sqrt(n): solved once, scaled)."""
    if USE_NUMPY:
        from ..probability import convergence, expected_total_variation, landing_model

        chain = landing_model(game, jail=jail)  # type: ignore[arg-type]
        curve = convergence(live.counter, chain.distribution("roll"),
                            checkpoints=CONVERGENCE_POINTS)
        return ([int(n) for n in curve["rolls"]], [float(v) for v in curve["total_variation"]],
                expected_total_variation(chain, 1))
    from ..probability import pure

    pure_chain = pure.pure_landing_model(game, jail)
    history = live.counter.history or []
    rolls = pure.log_points(len(history), CONVERGENCE_POINTS)
    return (rolls, pure.convergence_curve(history, pure_chain.distribution("roll"), rolls),
            pure.expected_total_variation(pure_chain, 1))


def jail_comparison(game: Game, per: str = "roll") -> dict[str, Any]:
    """The long-run shares of the short jail strategy (pay or use a card at once) beside the
    long one (stay and roll for doubles): per colour group, the stations, the utilities and
    In Jail on a board with groups, else per tile. ``groups``: label, colour, positions."""
    from ..engine.boards.board import TileKind

    board = game.board
    short, long = long_run(game, "short", per), long_run(game, "long", per)
    groups: list[dict[str, Any]] = []
    if board.areas:
        for key, area in board.areas.items():
            first = area.positions[0] if area.positions else 0
            groups.append({"key": key, "colour": area.color, "positions": list(area.positions),
                           "label": {lang: board.tile_name(first, lang).replace("\n", " ")
                                     for lang in ("en", "nl")}})
        for kind, glyph in ((TileKind.RAILWAY, "⇌"), (TileKind.UTILITY, "⚡")):
            spots = [t.position for t in board.tiles if t.kind is kind]
            if spots:
                groups.append({"key": kind.value.lower(), "colour": None, "positions": spots,
                               "label": {"en": glyph, "nl": glyph}})
    else:
        for t in board.tiles:
            groups.append({"key": str(t.position), "colour": None, "positions": [t.position],
                           "label": {lang: str(t.position) for lang in ("en", "nl")}})
    groups.append({"key": "in_jail", "colour": None, "positions": [board.size],
                   "label": {"en": "▦ in jail", "nl": "▦ in de cel"}})
    return {
        "groups": groups, "per": per,
        "short": [float(sum(short[k] for k in g["positions"])) for g in groups],
        "long": [float(sum(long[k] for k in g["positions"])) for g in groups],
        # rules where jail leaves no choice
        "same": max(abs(a - b) for a, b in zip(short, long, strict=True)) < 1e-12,
    }


class ProbabilityPanels:
    """The widget's ``show_probability`` / ``show_dice_stats`` and their view requests (a mixin
    of :class:`UgentopolyWidget`). The panels follow the game: refreshed with every published
    state (once per ``play_bots`` batch), recomputed for a new game, cleared when off."""

    _heat_mode: str | None
    _heat_jail: str
    _heat_per: str
    _show_stats: bool
    _live: LiveStats

    if TYPE_CHECKING:  # provided by the widget (traits and its error reporting)
        _game: Game | None
        heat: Any
        stats: Any
        lang: Any

        def _report(self, message: str) -> None: ...

    def _init_probability(self) -> None:
        self._heat_mode = None
        self._heat_jail = "short"
        self._heat_per = "roll"
        self._show_stats = False
        self._live = LiveStats()

    @property
    def probability_mode(self) -> str | None:
        """The heat overlay mode shown now (None: none, or a custom ``show_heat``)."""
        return self._heat_mode

    @property
    def dice_stats_shown(self) -> bool:
        return self._show_stats

    @property
    def probability_per(self) -> str:
        """What the shares count: ``"roll"`` (every roll) or ``"turn"`` (where turns end)."""
        return self._heat_per

    def show_probability(self, mode: str | None = "exact", *, jail: str = "short",
                         per: str = "roll") -> None:
        """Lay landing probabilities over the board, as a share of rolls per tile (In Jail on
        the jail tile): ``"exact"`` long run, ``"observed"`` in this game so far,
        ``"difference"`` (observed - exact), ``"next"`` (where the current player's next roll
        ends). ``None`` or ``"off"`` hides it. ``jail``: the exact chain's jail strategy
        (``"short"`` or ``"long"``); ``per``: a share of rolls (``"roll"``) or of turns
        (``"turn"``: where turns end; a next roll is always one roll). A bad argument raises
        ValueError and changes nothing.

        >>> w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)
        >>> w.show_probability("exact")
        >>> round(100 * w.heat["values"][24], 2), w.heat["mode"]   # Illinois Avenue
        (3.16, 'exact')
        """
        checked = check_mode(mode)
        if jail not in JAIL_STRATEGIES:
            raise ValueError(f"jail is one of {list(JAIL_STRATEGIES)}, not {jail!r}")
        if per not in PER:
            raise ValueError(f"per is one of {list(PER)}, not {per!r}")
        payload: dict[str, Any] = {}
        if checked is not None and self._game is not None:
            payload = heat_payload(self._game, checked, str(self.lang), jail, per)  # may raise
        self._heat_mode, self._heat_jail, self._heat_per = checked, jail, per
        self.heat = payload

    def show_dice_stats(self, show: bool = True) -> None:
        """Show (or hide) the dice histogram and the convergence chart in the view's Odds tab.

        >>> w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)
        >>> w.game.testing.script_dice((3, 4))
        >>> _ = w.roll()
        >>> w.show_dice_stats(True)
        >>> w.stats["dice"]["counts"][5], w.stats["dice"]["rolls"]   # one 7 so far
        (1, 1)
        """
        if not isinstance(show, bool):
            raise ValueError(f"show_dice_stats takes True or False, not {show!r}")
        payload: dict[str, Any] = {}
        if show and self._game is not None:
            payload = stats_payload(self._game, self._live, self._heat_jail)
        self._show_stats = show
        self.stats = payload

    def _refresh_probability(self) -> None:
        """Bring the panels up to date with the game (called after each published state)."""
        game = self._game
        if game is None or (self._heat_mode is None and not self._show_stats):
            return
        try:
            if self._heat_mode is not None:
                self.heat = heat_payload(game, self._heat_mode, str(self.lang), self._heat_jail,
                                         self._heat_per)
            if self._show_stats:
                self.stats = stats_payload(game, self._live, self._heat_jail)
        except Exception as exc:  # a board the chain cannot model: say so, show nothing
            self._heat_mode, self._show_stats = None, False
            self.heat, self.stats = {}, {}
            self._report(f"probability panels turned off: {type(exc).__name__}: {exc}")

    def _request_probability(self, content: dict[str, Any]) -> None:
        """``{"type": "probability", "mode": ..., "stats": bool, "jail": "short"|"long",
        "per": "roll"|"turn"}`` from the view's Odds tab: all checked before any is applied
        (a jail or per without a mode keeps the mode shown). Its keys are checked already
        (requests.check_request)."""
        mode = self._heat_mode
        if "mode" in content:
            try:
                mode = check_mode(content["mode"])
            except ValueError:
                raise RequestError(
                    f"refused: unknown probability mode {str(content['mode'])[:40]!r}") from None
        if "stats" in content and not isinstance(content["stats"], bool):
            raise RequestError("refused: stats is true or false")
        jail = content.get("jail", self._heat_jail)
        per = content.get("per", self._heat_per)
        if jail not in JAIL_STRATEGIES or per not in PER:
            raise RequestError("refused: jail is short or long, per is roll or turn")
        try:
            if {"mode", "jail", "per"} & set(content):
                self.show_probability(mode, jail=jail, per=per)
            if "stats" in content:
                self.show_dice_stats(content["stats"])
        except ValueError as exc:  # ProbabilityError: a board the chain cannot model
            raise RequestError(f"cannot show the probabilities: {exc}") from None


__all__ = ["PER", "PROBABILITY_MODES", "LiveStats", "ProbabilityPanels", "check_mode",
           "heat_payload", "jail_comparison", "long_run", "next_roll", "require_numpy",
           "stats_payload"]
