"""The exact chain: its invariants, the published table, hand-derived cases, bad input."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from helpers import act, new_game, roll, seats

from ugentopoly_widget import Game
from ugentopoly_widget.engine import RulesProfile, get_profile, load_bundled
from ugentopoly_widget.engine.boards.board import Card, CardKind, Deck, Tile, TileKind
from ugentopoly_widget.probability import (
    CyclingDeckError,
    DiceError,
    MissingJailError,
    UnsupportedCardError,
    compare_landings,
    convergence,
    dice_distribution,
    landing_distribution,
    landing_model,
    next_roll_distribution,
    observed_distribution,
    total_variation,
    transition_matrix,
)
from ugentopoly_widget.probability.chain import build_chain

STANDARD = "bundled:classic-standard-decks"
PROFILES = ("ugentopoly", "classic", "cell22")


def percent(df: object, row: int) -> float:
    return round(100 * float(df.probability.iloc[row]), 4)  # type: ignore[attr-defined]


# ---------------------------------------------------------------- dice


def test_dice_two_six_sided_by_hand() -> None:
    d = dice_distribution("classic")
    assert d.table.ways.tolist() == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert d.p_doubles == pytest.approx(1 / 6)
    assert d.p_max_doubles == pytest.approx(1 / 216)
    assert d.mean == pytest.approx(7) and d.variance == pytest.approx(35 / 6)
    assert dice_distribution("cell22").p_max_doubles == 0.0  # no doubles rule


def test_dice_three_dice_doubles_mean_all_equal() -> None:
    d = dice_distribution(get_profile("classic").with_options(dice_count=3, dice_sides=4))
    assert d.table.ways.sum() == 64 and d.p_doubles == pytest.approx(4 / 64)
    one = dice_distribution(get_profile("classic").with_options(dice_count=1))
    assert one.p_doubles == 0.0 and one.table.total.tolist() == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("field,value", [("dice_count", 0), ("dice_count", 4),
                                         ("dice_sides", 1), ("dice_sides", 21)])
def test_dice_out_of_range_is_a_named_error(field: str, value: int) -> None:
    bad = dataclasses.replace(get_profile("classic"), **{field: value})  # skips validate()
    with pytest.raises(DiceError, match=field):
        dice_distribution(bad)
    with pytest.raises(DiceError):
        landing_distribution(load_bundled("classic"), bad)


# ---------------------------------------------------------------- the chain's invariants


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("jail", ["short", "long"])
def test_rows_sum_to_one_and_stationary_is_a_fixed_point(profile: str, jail: str) -> None:
    matrix, states = transition_matrix(profile, jail=jail)  # type: ignore[arg-type]
    assert np.allclose(matrix.sum(axis=1), 1.0, atol=1e-12)
    assert (matrix >= 0).all()
    chain = landing_model(profile, jail=jail)  # type: ignore[arg-type]
    pi = chain.stationary()
    assert np.allclose(pi @ matrix, pi, atol=1e-14) and pi.sum() == pytest.approx(1.0)
    for per in ("roll", "turn"):
        df = landing_distribution(profile, jail=jail, per=per)  # type: ignore[arg-type]
        assert df.probability.sum() == pytest.approx(1.0)
        assert len(df) == load_bundled(profile).size + 1 and df.kind.iloc[-1] == "IN_JAIL"
        assert df.loc[df.kind == "GO_TO_JAIL", "probability"].sum() == 0.0
    assert set(states.columns) >= {"label", "slot", "doubles", "is_roll", "ends_turn"}


def test_classic_state_count() -> None:
    # tile x doubles-in-a-row (0, 1, 2), Go To Jail never a state, one In Jail state
    matrix, _ = transition_matrix("classic", board=STANDARD)
    assert matrix.shape == (118, 118)
    _, long_states = transition_matrix("classic", board=STANDARD, jail="long")
    assert (long_states.kind == "jail").sum() == 3  # 0, 1, 2 failed tries


# ---------------------------------------------------------------- the published table


def test_standard_decks_board_is_bundled_and_plays() -> None:
    board = load_bundled("classic-standard-decks")
    classic = load_bundled("classic")
    assert board.tiles == classic.tiles and board.profile == "classic"
    for kind in ("CHANCE", "CHEST"):
        assert len(board.decks[kind].cards) == 16 and board.decks[kind].draw == "random"
    moving = {CardKind.MOVE, CardKind.MOVEREL, CardKind.NEAREST, CardKind.GO_TO_JAIL}
    assert sum(c.kind in moving for c in board.decks["CHANCE"].cards) == 10
    assert sum(c.kind in moving for c in board.decks["CHEST"].cards) == 2
    assert board.text("card.chest.02", "en").endswith("$200")
    assert "Klassiek" in board.text("board.name", "nl")
    game = Game("classic", board=STANDARD, players=3, seed=2, lang="nl")
    from ugentopoly_widget.engine.bots import HeuristicBot, play_game

    play_game(game, [HeuristicBot(seed=k) for k in range(3)], max_actions=3000)
    assert any(e.kind == "card_drawn" for e in game.events)


# Short jail strategy, per roll, standard 16 + 16 decks drawn with replacement, third double
# to jail without moving: rows checked against the published long-run table (4 decimals, %).
PUBLISHED_SHORT = {
    0: 3.0961, 1: 2.1314, 4: 2.3285, 5: 2.9631, 7: 0.8650, 10: 2.2695, 11: 2.7017,
    19: 3.0852, 20: 2.8836, 22: 1.0480, 24: 3.1858, 25: 3.0659, 30: 0.0, 36: 0.8669,
    39: 2.6260, 40: 3.9500,
}
# The long column of the same table lets a player who leaves jail on doubles roll again.
PUBLISHED_LONG_WITH_ROLL_AGAIN = {0: 2.9143}


def test_published_short_column_rows() -> None:
    df = landing_distribution("classic", board=STANDARD, jail="short", per="roll")
    assert {row: percent(df, row) for row in PUBLISHED_SHORT} == PUBLISHED_SHORT


def test_published_long_column_needs_the_roll_again_variant() -> None:
    df = landing_distribution(
        "classic", board=STANDARD, jail="long", per="roll", jail_doubles_roll_again=True
    )
    rows = PUBLISHED_LONG_WITH_ROLL_AGAIN
    assert {row: percent(df, row) for row in rows} == rows
    official = landing_distribution("classic", board=STANDARD, jail="long", per="roll")
    assert percent(official, 0) != rows[0]  # the official rules give another figure


def test_standard_decks_identities_derived_in_the_docs() -> None:
    """docs/probability.md: a Chance tile keeps 6 of 16 arrivals; GO gets 1/16 of Chance and
    of Community Chest arrivals on top of dice; In Jail is fed by Go To Jail, two cards and
    the third double."""
    chain = landing_model("classic", board=STANDARD)
    m = chain.movement
    pi = chain.stationary()
    arrive = np.zeros(41)  # where rolls arrive by dice, before cards (In Jail: 3rd double)
    for i, state in enumerate(chain.states):
        d0 = max(int(state[2]), 0) if state[0] == "free" else 0  # type: ignore[call-overload]
        start = int(state[1]) if state[0] == "free" else 10  # type: ignore[call-overload]
        for r in m.rolls:
            if r.double and d0 == 2:
                arrive[40] += pi[i] * r.probability
            else:
                arrive[(start + r.total) % 40] += pi[i] * r.probability
    dist = chain.distribution("roll")
    for chance in (7, 22, 36):
        assert dist[chance] == pytest.approx(arrive[chance] * 6 / 16, abs=1e-15)
    chests = arrive[2] + arrive[17] + arrive[33]
    chances = arrive[7] + arrive[22] + arrive[36]
    # "go back 3" from Chance 36 lands on Community Chest 33, which draws again
    assert dist[40] == pytest.approx(arrive[40] + arrive[30] + chances / 16
                                     + (chests + arrive[36] / 16) / 16, abs=1e-15)


def test_cycling_seventeen_card_default_differs_slightly() -> None:
    std = landing_distribution("classic", board=STANDARD).probability.to_numpy()
    seed17 = landing_distribution("classic").probability.to_numpy()
    assert 0.0005 < np.abs(std - seed17).max() < 0.002  # 0.05 to 0.2 percentage points


# ---------------------------------------------------------------- hand-derived boards


def small_board(n: int = 8, jail: int | None = None, gtj: int | None = None,
                cards: tuple[Card, ...] = (), draw: str = "random", chance: int | None = None):
    base = load_bundled("cell22")
    tiles = []
    for pos in range(n):
        kind = TileKind.FREE_PARKING
        if pos == 0:
            kind = TileKind.START
        elif pos == jail:
            kind = TileKind.JAIL
        elif pos == gtj:
            kind = TileKind.GO_TO_JAIL
        elif pos == chance:
            kind = TileKind.CHANCE
        tiles.append(Tile(pos, kind, f"t{pos}"))
    decks = {"CHANCE": Deck("CHANCE", cards, draw)} if cards else {}
    return dataclasses.replace(base, tiles=tuple(tiles), areas={}, decks=decks, source="test")


PLAIN = dataclasses.replace(get_profile("cell22"), dice_count=1, dice_sides=2,
                            max_doubles=None, doubles_roll_again=False)


def test_a_plain_ring_is_uniform() -> None:
    """Every tile has the same inflow (the matrix is doubly stochastic): 1/N each."""
    df = landing_distribution(small_board(8), PLAIN)
    assert np.allclose(df.probability[:8], 1 / 8, atol=1e-15) and df.probability[8] == 0


def test_go_to_jail_on_a_tiny_board_by_hand() -> None:
    """4 tiles, one two-sided die, jail at 1, go-to-jail at 3, a fine paid at once: the
    balance equations solved in docs/probability.md give 1/6, 1/12, 1/3, 0 and In Jail 5/12."""
    rules = dataclasses.replace(PLAIN, jail_skip_turns=0, jail_fine=50)
    df = landing_distribution(small_board(4, jail=1, gtj=3), rules)
    got = [Fraction(p).limit_denominator(1000) for p in df.probability]
    assert got == [Fraction(1, 6), Fraction(1, 12), Fraction(1, 3), 0, Fraction(5, 12)]
    assert np.allclose(df.probability, [1 / 6, 1 / 12, 1 / 3, 0, 5 / 12], atol=1e-15)


def test_skipped_turn_counts_per_turn_not_per_roll() -> None:
    rules = dataclasses.replace(PLAIN, jail_skip_turns=1)
    board = small_board(4, jail=1, gtj=3)
    per_roll = landing_distribution(board, rules, per="roll").probability.tolist()
    assert per_roll == pytest.approx([1 / 6, 1 / 12, 1 / 3, 0, 5 / 12])  # skips are no rolls
    per_turn = landing_distribution(board, rules, per="turn").probability.tolist()
    # every jailing adds a skipped turn that ends on the jail tile (released): docs
    assert per_turn == pytest.approx([2 / 17, 6 / 17, 4 / 17, 0, 5 / 17])


def test_card_chain_back_three_onto_another_card_tile() -> None:
    """Chance at 4 and 6 with one card "back 2": an arrival at 6 moves to 4, draws again
    and moves to 2: a chain of draws resolved exactly."""
    board = small_board(8, chance=4, cards=(Card("c1", CardKind.MOVEREL, "CHANCE",
                                                 relative=-2),))
    board = dataclasses.replace(board, tiles=tuple(
        dataclasses.replace(t, kind=TileKind.CHANCE) if t.position == 6 else t
        for t in board.tiles))
    df = landing_distribution(board, PLAIN)
    assert df.probability[4] == 0 and df.probability[6] == 0 and df.probability[2] > 0.25


# ---------------------------------------------------------------- jail cards


def test_held_jail_cards_exact_equals_the_limit_of_truncated_chains() -> None:
    chain = landing_model("ugentopoly")
    assert chain.movement.track_cards
    exact = chain.distribution()[-1]
    previous = None
    for cap in (8, 16, 32):
        trunc = build_chain(chain.movement, cap)
        jail = trunc.aggregate(trunc.stationary(), "roll")[-1]
        if previous is not None:
            assert abs(jail - exact) < abs(previous - exact)
        previous = jail
    assert previous is not None and abs(previous - exact) < 1e-7


def test_ignoring_jail_cards_and_the_long_variant_change_the_answer() -> None:
    keep = landing_distribution("ugentopoly").probability.iloc[-1]
    ignore = landing_distribution("ugentopoly", jail_card="ignore").probability.iloc[-1]
    assert ignore > keep + 0.01  # without the card a player sits in jail longer
    official = landing_distribution("classic", board=STANDARD, jail="long").probability
    variant = landing_distribution("classic", board=STANDARD, jail="long",
                                   jail_doubles_roll_again=True).probability
    assert 0 < total_variation(official, variant) < 0.01


# ---------------------------------------------------------------- next roll


def test_next_roll_from_go_by_hand() -> None:
    df = next_roll_distribution("classic", board=STANDARD, position=0)
    p = df.probability
    assert p[3] == pytest.approx(2 / 36)  # Baltic: only a 3
    assert p[6] == pytest.approx(5 / 36) and p[8] == pytest.approx(5 / 36)
    # Chance 7: a 7 lands there, 6 of 16 cards keep the token there
    assert p[7] == pytest.approx(6 / 36 * 6 / 16)
    # back 3 from 7 -> Income Tax 4, which also gets a roll of 4
    assert p[4] == pytest.approx(3 / 36 + 6 / 36 / 16)
    # In Jail: Chance 7 "go to jail" (a 7), Community Chest 2 "go to jail" (a 2)
    assert p[40] == pytest.approx(6 / 36 / 16 + 1 / 36 / 16)
    assert p.sum() == pytest.approx(1.0)


def test_next_roll_after_two_doubles_and_in_jail() -> None:
    two = next_roll_distribution("classic", board=STANDARD, position=0, doubles=2)
    # the third double (6 of 36), or a 7 onto Chance and its "go to jail"
    assert two.probability[40] == pytest.approx(6 / 36 + 6 / 36 / 16)
    jailed = next_roll_distribution("classic", board=STANDARD, in_jail=True, jail="long")
    # no double: still in jail; 6+6 leaves to Chance 22, whose "go to jail" sends it back
    assert jailed.probability[40] == pytest.approx(30 / 36 + 1 / 36 / 16)


def test_next_roll_reads_the_game(tmp_path: object) -> None:
    game = new_game("classic", seed=3)
    a, b = seats(game)
    roll(game, 1, 1, player=a)  # a double: a rolls again from Community Chest 2
    p = next_roll_distribution(game)
    assert game.decision.kind == "turn" and game.current_player == a
    fresh = next_roll_distribution("classic", position=2)
    assert np.allclose(p.probability, fresh.probability)  # one double: no jail risk yet
    roll(game, 2, 2, player=a)  # Community Chest 2 -> 6, a second double
    risky = next_roll_distribution(game)
    assert risky.probability.iloc[-1] > 1 / 6  # now a third double goes to jail
    other = next_roll_distribution(game, player=b)  # b on GO, 17-card Community Chest
    assert other.probability[2] == pytest.approx(1 / 36 * 15 / 17)


# ---------------------------------------------------------------- observed and compared


def test_observed_equals_the_hand_count_and_compare_has_z() -> None:
    game = new_game("classic", seed=3)
    a, b = seats(game)
    game.testing.stack_deck("CHANCE", ["card.chance.09"])
    roll(game, 3, 4, player=a)  # Chance -> back 3 -> Income Tax
    act(game, "tax", a, choice="flat")
    act(game, "end_turn", a)
    game.testing.stack_deck("CHANCE", ["card.chance.10"])
    roll(game, 5, 5, player=b)  # Just Visiting, then Chance 22 -> jail
    roll(game, 6, 6, player=b)
    obs = observed_distribution(game)
    assert obs["count"].tolist() == [0] * 4 + [1] + [0] * 5 + [1] + [0] * 29 + [1]
    cmp = compare_landings(game)
    assert cmp["count"].sum() == 3 and np.isfinite(cmp.z).all()
    assert cmp.difference.sum() == pytest.approx(0.0)


def test_total_variation_and_convergence() -> None:
    assert total_variation([0.5, 0.5], [1.0, 0.0]) == 0.5
    with pytest.raises(ValueError):
        total_variation([1.0], [0.5, 0.5])
    game = Game("cell22", players=3, seed=4)
    from ugentopoly_widget.engine.bots import HeuristicBot, play_game

    play_game(game, [HeuristicBot(seed=k) for k in range(3)])
    curve = convergence(game, checkpoints=[10, 100, game.landings().rolls - 1])
    assert curve.rolls.tolist()[:2] == [10, 100]
    assert curve.total_variation.iloc[-1] < curve.total_variation.iloc[0]


# ---------------------------------------------------------------- bad input


def test_no_jail_tile_where_the_rules_need_one() -> None:
    with pytest.raises(MissingJailError, match="3 doubles"):
        landing_distribution(small_board(8), get_profile("classic"))
    jail_card = (Card("c1", CardKind.GO_TO_JAIL, "CHANCE"),)
    with pytest.raises(MissingJailError, match="no JAIL tile"):
        landing_distribution(small_board(8, chance=3, cards=jail_card), PLAIN)
    with pytest.raises(MissingJailError):
        landing_distribution(small_board(8, gtj=5), PLAIN)


def test_cards_the_chain_cannot_model() -> None:
    off = (Card("c1", CardKind.MOVE, "CHANCE", position=99),)
    with pytest.raises(UnsupportedCardError, match="not on the board"):
        landing_distribution(small_board(8, chance=3, cards=off), PLAIN)
    nearest = (Card("c1", CardKind.NEAREST, "CHANCE", target=TileKind.RAILWAY),)
    with pytest.raises(UnsupportedCardError, match="has none"):
        landing_distribution(small_board(8, chance=3, cards=nearest), PLAIN)
    loop = (Card("c1", CardKind.MOVEREL, "CHANCE", relative=0),)
    with pytest.raises(UnsupportedCardError, match="for ever"):
        landing_distribution(small_board(8, chance=3, cards=loop), PLAIN)
    with pytest.raises(CyclingDeckError, match="cycles"):
        landing_distribution("classic", decks="strict")
    with pytest.raises(TypeError, match="unknown assumption"):
        landing_distribution("classic", deck="random")
    with pytest.raises(ValueError, match="jail is"):
        landing_distribution("classic", jail="medium")  # type: ignore[arg-type]


def test_engine_import_does_not_import_numpy_or_pandas() -> None:
    code = ("import sys, ugentopoly_widget as u; u.Game('classic').act('roll');"
            "assert 'numpy' not in sys.modules and 'pandas' not in sys.modules;"
            "u.landing_distribution('classic'); assert 'pandas' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_rules_profile_type_is_accepted_as_rules() -> None:
    assert isinstance(get_profile("classic"), RulesProfile)
    a = landing_distribution(load_bundled("classic"), "classic").probability
    b = landing_distribution(Game("classic")).probability
    assert np.allclose(a, b)


def test_recording_counter_history_matches_its_counts() -> None:
    from ugentopoly_widget.engine import LandingCounter
    from ugentopoly_widget.probability import roll_history

    game = new_game("classic", seed=3)
    a, b = seats(game)
    game.testing.stack_deck("CHANCE", ["card.chance.10"])
    roll(game, 5, 5, player=a)  # Just Visiting, then Chance 22 -> jail
    roll(game, 6, 6, player=a)
    act(game, "end_turn", a)
    roll(game, 1, 2, player=b)  # Baltic Avenue: the roll ends there (a buy decision waits)
    counter = LandingCounter(40, 10, record=True)
    counter.feed(game.events)
    assert counter.history == [10, 40]  # b's roll is not over yet
    assert roll_history(game).tolist() == [10, 40]
    act(game, "decline", b)
    act(game, "pass", a)  # the auction: nobody bids
    act(game, "pass", b)
    act(game, "end_turn", b)
    counter = LandingCounter(40, 10, record=True)
    counter.feed(game.events)
    assert counter.history == [10, 40, 3]
    counts = np.bincount(counter.history, minlength=41)
    landings = counter.landings(include_current=False)
    assert counts.tolist() == [*landings.tiles, landings.in_jail]
    counter.reset()
    assert counter.history == []


def test_overlay_modes_for_the_widget() -> None:
    from ugentopoly_widget.probability import overlay

    game = new_game("classic", seed=3)
    a, _ = seats(game)
    roll(game, 3, 4, player=a)  # Chance: a card is drawn (the deck is not stacked)
    exact = overlay(game, "exact")
    assert exact.value.sum() == pytest.approx(1) and list(exact.columns) == [
        "position", "name", "kind", "area", "value", "count"]
    observed = overlay(game, "observed")
    assert observed["count"].sum() == 1 and observed.value.sum() == pytest.approx(1)
    diff = overlay(game, "difference")
    assert np.allclose(diff.value, observed.value - exact.value)
    nxt = overlay(game, "next")
    assert nxt.value.sum() == pytest.approx(1)
    with pytest.raises(ValueError, match="mode"):
        overlay(game, "heat")  # type: ignore[arg-type]
