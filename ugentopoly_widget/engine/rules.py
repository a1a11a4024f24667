"""Rules profiles: named parameters and flags that, with a board file, make a rule set.

The three presets follow ``shared/spec/RULES.md``; any field can be overridden by name when a
game is created (``Game.new("classic", options={"free_parking_pot": True})``).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, Union

from .errors import SetupError

DebtMode = Literal["end_game", "raise_then_bankrupt", "bankrupt_out"]
StreetRent = Literal["course", "classic", "linear_houses"]
Buildings = Literal["none", "classic", "unlimited"]
ParkingKind = Literal["nothing", "pot", "car_park"]
GameMode = Literal["long", "short", "timed"]
RankBy = Literal["money", "net_worth"]


_WITH_OPTIONS: dict[tuple[Any, ...], RulesProfile] = {}


@dataclass(frozen=True)
class RulesProfile:
    """The rules of a game variant as flags (docs/rules.md explains each one);
    ``Game(profile, options={...})`` overrides any of them."""

    name: str
    min_players: int = 2
    max_players: int = 4
    starting_money: int | None = None  # None: the board's `balance`
    salary: int | None = None  # None: the board's `start`
    land_on_start_multiplier: int = 1  # Ugentopoly: 2 (double salary on an exact landing)
    dice_count: int = 2
    dice_sides: int = 6
    doubles_roll_again: bool = True
    max_doubles: int | None = 3  # this many doubles in a row: jail (None: no such rule)
    auto_end_turn: bool = False  # True: the turn passes as soon as nothing is left to decide
    auction_on_decline: bool = False
    buildings: Buildings = "none"
    houses_before_hotel: int = 4
    bank_houses: int | None = 32  # None: unlimited
    bank_hotels: int | None = 12
    house_price_rule: Literal["area", "fifth_of_cost"] = "area"
    offer_house_on_own_land: bool = False  # 22-cell: landing on your own street offers a house
    mortgages: bool = False
    trading: bool = False
    street_rent: StreetRent = "course"
    utility_multipliers: tuple[int, int] = (4, 10)
    parking: ParkingKind = "pot"
    free_parking_pot: bool = True  # taxes and card fines go to the pot; free parking pays it out
    jail_fine: int | None = None  # None: paying to leave jail is not possible
    max_jail_turns: int | None = None  # failed doubles tries before release (None: no limit)
    jail_skip_turns: int = 0  # 22-cell: jail means skipping this many turns, no dice tries
    jail_card_auto: bool = True  # the get-out-of-jail card is used automatically
    card_move_to_jail_tile_jails: bool = False
    income_tax_choice: bool = False  # offer "percent of net worth" on a TAX tile with `percent`
    debt_mode: DebtMode = "end_game"
    end_when_money_reaches_zero: bool = False
    rank_by: RankBy = "money"
    mode: GameMode = "long"
    short_game_deeds: int = 3
    short_game_houses_before_hotel: int = 3
    timed_game_deeds: int = 2
    time_limit_minutes: float | None = None  # timed mode
    turn_limit: int | None = None  # player-turns; stands in for the clock in simulations
    round_limit: int | None = None  # full rounds, then richest wins
    turn_timer_seconds: float | None = None  # classic option: 30 when on

    def with_options(self, **options: Any) -> RulesProfile:
        # Every Game() asks this (simulations make thousands): the checked result of the same
        # typed options is the same frozen profile, so it is kept (True and 1 differ by type).
        try:
            key = (self, tuple(sorted((k, type(v), v) for k, v in options.items())))
            cached = _WITH_OPTIONS.get(key)
        except TypeError:  # an unhashable value: checked (and refused or converted) below
            key, cached = None, None
        if cached is not None:
            return cached
        profile = self._with_options(**options)
        if key is not None:
            if len(_WITH_OPTIONS) >= 256:
                _WITH_OPTIONS.clear()
            _WITH_OPTIONS[key] = profile
        return profile

    def _with_options(self, **options: Any) -> RulesProfile:
        known = {f.name for f in dataclasses.fields(self)} - {"name"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise SetupError(
                f"unknown rules option(s) for profile {self.name!r}: {unknown}"
                + ("; the profile's name is not an option" if "name" in unknown else "")
            )
        if "utility_multipliers" in options and isinstance(options["utility_multipliers"], list):
            options["utility_multipliers"] = tuple(options["utility_multipliers"])
        for key, value in options.items():
            problem = option_problem(key, value)
            if problem:
                raise SetupError(f"invalid rules option {key}: {problem}")
        profile = dataclasses.replace(self, **options)
        profile.validate()
        return profile

    @property
    def effective_houses_before_hotel(self) -> int:
        if self.mode == "short":
            return self.short_game_houses_before_hotel
        return self.houses_before_hotel

    def validate(self) -> None:
        def need(cond: bool, what: str) -> None:
            if not cond:
                raise SetupError(f"invalid rules option: {what}")

        ints = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        for key, value in ints.items():
            if isinstance(value, bool) or key in ("name",):
                continue
            if isinstance(value, int) and not 0 <= value <= 10**9:
                raise SetupError(f"invalid rules option: {key}={value} is out of range")
        need(2 <= self.min_players <= self.max_players <= 8, "2 <= min_players <= max_players <= 8")
        need(1 <= self.dice_count <= 3, "dice_count is 1, 2 or 3")
        need(2 <= self.dice_sides <= 20, "dice_sides between 2 and 20")
        need(self.max_doubles is None or self.max_doubles >= 1, "max_doubles >= 1")
        need(1 <= self.houses_before_hotel <= 10, "houses_before_hotel between 1 and 10")
        need(1 <= self.short_game_houses_before_hotel <= 10, "short_game_houses_before_hotel")
        need(self.max_jail_turns is None or self.max_jail_turns >= 1, "max_jail_turns >= 1")
        need(self.debt_mode in ("end_game", "raise_then_bankrupt", "bankrupt_out"), "debt_mode")
        need(self.street_rent in ("course", "classic", "linear_houses"), "street_rent")
        need(self.buildings in ("none", "classic", "unlimited"), "buildings")
        need(self.parking in ("nothing", "pot", "car_park"), "parking")
        need(self.mode in ("long", "short", "timed"), "mode is long, short or timed")
        need(self.rank_by in ("money", "net_worth"), "rank_by is money or net_worth")
        need(
            isinstance(self.utility_multipliers, tuple)
            and len(self.utility_multipliers) == 2
            and all(isinstance(m, int) and 0 <= m <= 10**6 for m in self.utility_multipliers),
            "utility_multipliers is two integers",
        )
        need(
            self.time_limit_minutes is None or 0 < float(self.time_limit_minutes) <= 10**6,
            "time_limit_minutes > 0",
        )
        need(
            self.turn_timer_seconds is None or 0 < float(self.turn_timer_seconds) <= 10**6,
            "turn_timer_seconds > 0",
        )
        need(self.turn_limit is None or self.turn_limit >= 1, "turn_limit >= 1")
        need(self.round_limit is None or self.round_limit >= 1, "round_limit >= 1")
        if self.mode == "timed":
            need(
                self.time_limit_minutes is not None or self.turn_limit is not None,
                "a timed game needs time_limit_minutes (or turn_limit in simulations)",
            )

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["utility_multipliers"] = list(self.utility_multipliers)
        return data


@functools.cache
def _hints() -> dict[str, Any]:
    return typing.get_type_hints(RulesProfile)


def _fits(value: Any, hint: Any) -> bool:
    """Does `value` fit the type `hint` of a rules option? Options come from code, from the
    lobby and from save files: "30" is not 30 seconds, and True is not 1 jail turn."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        return isinstance(value, str) and value in typing.get_args(hint)
    if origin in (Union, types.UnionType):
        return any(_fits(value, arm) for arm in typing.get_args(hint))
    if origin is tuple:
        arms = typing.get_args(hint)
        return (isinstance(value, tuple) and len(value) == len(arms)
                and all(_fits(v, arm) for v, arm in zip(value, arms, strict=True)))
    if hint is type(None):
        return value is None
    if hint is bool or hint is str:
        return isinstance(value, hint)
    if isinstance(value, bool):
        return False
    if hint is int:
        return isinstance(value, int)
    return isinstance(value, (int, float)) and math.isfinite(value)  # float


def option_problem(key: str, value: Any) -> str | None:
    """What is wrong with one rules option by name and type (None: nothing)."""
    hints = _hints()
    if key == "name" or key not in hints:
        return "there is no such rules option" + ("" if key != "name" else " (the name is not)")
    if isinstance(value, list) and typing.get_origin(hints[key]) is tuple:
        value = tuple(value)  # JSON has lists only
    if not _fits(value, hints[key]):
        return f"expected {_expected(hints[key])}, not {repr(value)[:40]}"
    return None


def _expected(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(map(repr, typing.get_args(hint)))
    if origin in (Union, types.UnionType):
        return " or ".join(_expected(arm) for arm in typing.get_args(hint))
    if origin is tuple:
        return f"a list of {len(typing.get_args(hint))} whole numbers"
    names = {type(None): "None", bool: "true or false", str: "text", int: "a whole number"}
    return names.get(hint, "a finite number")


UGENTOPOLY = RulesProfile(
    name="ugentopoly",
    min_players=2,
    max_players=4,
    land_on_start_multiplier=2,
    auto_end_turn=True,
    buildings="none",
    street_rent="course",
    parking="pot",
    free_parking_pot=True,
    jail_fine=None,
    jail_card_auto=True,
    debt_mode="end_game",
)
"""The Ghent University course game: bonus pot, double salary on START, no houses."""

CLASSIC = RulesProfile(
    name="classic",
    min_players=2,
    max_players=8,
    starting_money=1500,
    salary=200,
    auto_end_turn=False,
    auction_on_decline=True,
    buildings="classic",
    mortgages=True,
    trading=True,
    street_rent="classic",
    parking="nothing",
    free_parking_pot=False,
    jail_fine=50,
    max_jail_turns=3,
    jail_card_auto=False,
    income_tax_choice=True,
    debt_mode="raise_then_bankrupt",
    rank_by="net_worth",
)
"""Classic Monopoly: auctions, houses and hotels, mortgages, trading, bankruptcy."""

CELL22 = RulesProfile(
    name="cell22",
    min_players=2,
    max_players=8,
    doubles_roll_again=False,
    max_doubles=None,
    auto_end_turn=True,
    buildings="unlimited",
    bank_houses=None,
    bank_hotels=None,
    house_price_rule="fifth_of_cost",
    offer_house_on_own_land=True,
    street_rent="linear_houses",
    utility_multipliers=(10, 100),
    parking="car_park",
    free_parking_pot=False,
    jail_fine=None,
    jail_skip_turns=1,
    debt_mode="bankrupt_out",
    rank_by="net_worth",
)
"""The 22-cell variant: car park, unlimited houses, a player out of money is out."""

PROFILES: dict[str, RulesProfile] = {p.name: p for p in (UGENTOPOLY, CLASSIC, CELL22)}
"""The bundled profiles by name."""
ALIASES = {"22": "cell22", "22-cell": "cell22", "cell-22": "cell22", "monopoly": "classic"}


def get_profile(name: str | RulesProfile) -> RulesProfile:
    """The profile called ``name`` (an alias such as ``"monopoly"`` too), or ``name`` itself
    when it is a profile; ``SetupError`` for an unknown name."""
    if isinstance(name, RulesProfile):
        return name
    if not isinstance(name, str):
        raise SetupError(f"profile must be a name or a RulesProfile, not {type(name).__name__}")
    key = ALIASES.get(name.lower(), name.lower())
    try:
        return PROFILES[key]
    except KeyError:
        hint = ""
        if _looks_like_a_path(name):
            hint = (f"; did you mean Game(board={name!r})? The first argument is the rules "
                    f"profile, the board file goes in board=")
        raise SetupError(
            f"unknown profile {name!r}; choose one of {sorted(PROFILES)}{hint}"
        ) from None


def _looks_like_a_path(name: str) -> bool:
    lowered = name.lower()
    return (
        lowered.endswith((".xml", ".properties", ".json"))
        or "/" in name
        or "\\" in name
        or os.path.exists(name)
    )
