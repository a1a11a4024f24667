"""Money, not just position: what a property earns per opponent roll, and how many opponent
rolls pay back its price and buildings.

Rent is paid where a roll ends, so the expected rent of a tile per opponent roll is the
long-run share of rolls that end there times the rent, with three refinements the chain
gives exactly: a railway reached by a "nearest railway" card pays the card's multiple; a
utility charges the dice total *of the roll that brought the player* (so the totals that
reach it from where players come from, not an average 7); a "nearest utility" card makes
the player roll again and pay that roll times the card's multiplier.

>>> table = group_payback("classic", board="bundled:classic-standard-decks")
>>> table.query("level == 'hotel'").sort_values("payback_rolls").group.iloc[0]
'orange'
"""

from __future__ import annotations

import os
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..engine.boards.board import Board, Tile, TileKind
from ..engine.rules import RulesProfile
from .api import landing_model
from .chain import Chain, build_chain, steps
from .dice import dice_distribution
from .errors import ArgumentError
from .model import NEAREST, Movement


def _arrivals(chain: Chain) -> dict[str, np.ndarray]:
    """Per tile, per roll: P(arrive), E[rent multiplier], E[dice total] and P(arrive by a
    nearest-utility card with a dice multiplier) (times that multiplier)."""
    m: Movement = chain.movement
    if m.track_cards:  # money needs the paths, so the (finely) truncated matrix
        chain = build_chain(m, cap=24)
    pi = chain.stationary()
    size = m.size
    out = {k: np.zeros(size) for k in ("p", "multiplier", "total", "fresh")}
    rolls = 0.0
    for i, state in enumerate(chain.states):
        if pi[i] == 0.0:
            continue
        for _nxt, p, total, landing in steps(m, state, chain.cap):
            if landing is None:
                continue
            w = pi[i] * p
            rolls += w
            if landing.jailed:
                continue
            pos = landing.position
            out["p"][pos] += w
            out["multiplier"][pos] += w * landing.rent_multiplier
            if landing.how == NEAREST and landing.dice_multiplier is not None:
                out["fresh"][pos] += w * landing.dice_multiplier
            else:
                out["total"][pos] += w * total
    return {k: v / rolls for k, v in out.items()}


def _house_price(board: Board, rules: RulesProfile, tile: Tile) -> int:
    if tile.house_price is not None:
        return tile.house_price
    if rules.house_price_rule == "fifth_of_cost":
        return tile.cost // 5
    area = board.areas.get(tile.area or "")
    if area is None or area.house_price is None:
        return tile.cost // 5 if rules.buildings == "unlimited" else 0
    return area.house_price


def _street_levels(board: Board, rules: RulesProfile, tile: Tile, max_houses: int
                   ) -> list[tuple[str, int, float]]:
    """(level, buildings, rent) for a street under the profile's rent rule."""
    rents = tile.rents
    if rules.street_rent == "linear_houses":
        return [(f"{h} houses" if h != 1 else "1 house", h, float(tile.cost * (2 + h) // 2))
                for h in range(max_houses + 1)]
    levels = [("single", 0, float(rents[0]))]
    if tile.area is not None:
        levels.append(("group", 0, float(rents[0] * 2)))
    if rules.street_rent == "classic" and rules.buildings == "classic" and len(rents) > 1:
        hbh = rules.effective_houses_before_hotel
        for h in range(1, hbh + 1):
            rent = float(rents[min(h, len(rents) - 1)])
            levels.append((f"{h} house{'s' if h > 1 else ''}", h, rent))
        hotel = rents[-1] if len(rents) > 5 else rents[min(hbh + 1, len(rents) - 1)]
        levels.append(("hotel", hbh + 1, float(hotel)))
    return levels


def property_income(
    game_or_board: Any,
    rules: RulesProfile | str | None = None,
    *,
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    max_houses: int = 5,
    per: Literal["roll", "turn"] = "roll",
    lang: str = "en",
    **assumptions: Any,
) -> pd.DataFrame:
    """Expected rent per opponent roll of every property at every building level.

    Columns: position, name, kind, area, level, buildings, rent (what one landing pays; for
    a utility the expected rent of one landing), landing_probability (share of opponent
    rolls that end there), expected_rent (per opponent roll), investment (price + buildings
    at cost) and payback_rolls (investment / expected_rent: opponent rolls to earn it back).
    Railways and utilities: level "n owned". With k opponents, divide payback by k.

    ``per="turn"``: expected_rent per opponent *turn* and payback_turns instead: the
    per-roll figures times the rolls per turn (``attrs["rolls_per_turn"]``), as the
    long-run rent per turn is (rent per roll) x (rolls per turn)."""
    if not isinstance(per, str) or per not in ("roll", "turn"):
        raise ArgumentError(f"per is 'roll' or 'turn', not {per!r}")
    chain = landing_model(game_or_board, rules, jail=jail, board=board, **assumptions)
    m = chain.movement
    the_board, profile = m.board, m.rules
    arr = _arrivals(chain)
    mean_roll = dice_distribution(profile).mean
    railways = the_board.positions_of(TileKind.RAILWAY)
    utilities = the_board.positions_of(TileKind.UTILITY)
    rows: list[dict[str, Any]] = []
    for tile in the_board.tiles:
        if not tile.is_property:
            continue
        pos = tile.position
        base = {"position": pos, "name": the_board.tile_name(pos, lang),
                "kind": tile.kind.value, "area": tile.area,
                "landing_probability": float(arr["p"][pos])}
        if tile.kind is TileKind.STREET:
            price = _house_price(the_board, profile, tile)
            for level, houses, rent in _street_levels(the_board, profile, tile, max_houses):
                expected = rent * arr["p"][pos]
                rows.append({**base, "level": level, "buildings": houses, "rent": rent,
                             "expected_rent": expected,
                             "investment": float(tile.cost + houses * price)})
        elif tile.kind is TileKind.RAILWAY:
            for n in range(1, len(railways) + 1):
                rent = tile.rents[n - 1] if len(tile.rents) >= n else tile.rents[0] << (n - 1)
                expected = rent * arr["multiplier"][pos]
                rows.append({**base, "level": f"{n} owned", "buildings": 0,
                             "rent": float(rent), "expected_rent": expected,
                             "investment": float(tile.cost)})
        else:
            low, high = profile.utility_multipliers
            for n in range(1, len(utilities) + 1):
                mult = low if n <= 1 else high
                expected = mult * arr["total"][pos] + mean_roll * arr["fresh"][pos]
                per_landing = expected / arr["p"][pos] if arr["p"][pos] > 0 else 0.0
                rows.append({**base, "level": f"{n} owned", "buildings": 0,
                             "rent": per_landing, "expected_rent": expected,
                             "investment": float(tile.cost)})
    table: pd.DataFrame = pd.DataFrame(rows, columns=[
        "position", "name", "kind", "area", "level", "buildings", "rent",
        "landing_probability", "expected_rent", "investment"])
    factor = chain.rolls_per_turn() if per == "turn" else 1.0
    table["expected_rent"] = table.expected_rent * factor
    with np.errstate(divide="ignore"):
        table[f"payback_{per}s"] = np.where(table.expected_rent > 0,
                                            table.investment / table.expected_rent, np.inf)
    table.attrs["rolls_per_turn"] = chain.rolls_per_turn()
    return table


def group_payback(
    game_or_board: Any,
    rules: RulesProfile | str | None = None,
    *,
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    per: Literal["roll", "turn"] = "roll",
    lang: str = "en",
    **assumptions: Any,
) -> pd.DataFrame:
    """Per colour group (and all railways, all utilities) and building level: the whole
    group's investment, its expected rent per opponent roll and the payback in opponent
    rolls. Columns: group, level, lots, investment, expected_rent, payback_rolls
    (``per="turn"``: per opponent turn, payback_turns)."""
    income = property_income(game_or_board, rules, jail=jail, board=board, per=per,
                             lang=lang, **assumptions)
    rows: list[dict[str, Any]] = []
    streets = income[(income.kind == "STREET") & income.area.notna()
                     & (income.level != "single")]
    for (area, level), part in streets.groupby(["area", "level"], sort=False):
        rows.append({"group": area, "level": level, "lots": len(part),
                     "investment": part.investment.sum(),
                     "expected_rent": part.expected_rent.sum()})
    for kind, name in (("RAILWAY", "railways"), ("UTILITY", "utilities")):
        part = income[income.kind == kind]
        if part.empty:
            continue
        everything = part[part.level == f"{part.position.nunique()} owned"]
        rows.append({"group": name, "level": "all owned", "lots": len(everything),
                     "investment": everything.investment.sum(),
                     "expected_rent": everything.expected_rent.sum()})
    table: pd.DataFrame = pd.DataFrame(
        rows, columns=["group", "level", "lots", "investment", "expected_rent"])
    with np.errstate(divide="ignore"):
        table[f"payback_{per}s"] = np.where(table.expected_rent > 0,
                                            table.investment / table.expected_rent, np.inf)
    table.attrs["rolls_per_turn"] = income.attrs["rolls_per_turn"]
    return table


__all__ = ["property_income", "group_payback"]
