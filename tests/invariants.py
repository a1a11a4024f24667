"""Invariants checked after every action of the seeded playouts."""

from __future__ import annotations

from ugentopoly_widget import Game
from ugentopoly_widget.engine.boards.board import TileKind
from ugentopoly_widget.engine.records.events import Event


def money_snapshot(game: Game) -> dict[object, int]:
    snap: dict[object, int] = {i: p.cash for i, p in enumerate(game.players)}
    snap["pot"] = game.pot
    snap["bank"] = game.bank_balance
    return snap


def check_ledger(before: dict[object, int], after: dict[object, int], events: list[Event]
                 ) -> None:
    """Every change of money is explained, to the unit, by the money events of the action."""
    expected = dict(before)
    for event in events:
        data = event.data
        if "payer" in data and "amount" in data:
            amount = data["amount"]
            expected[data["payer"]] = expected[data["payer"]] - amount
            expected[data["payee"]] = expected[data["payee"]] + amount
    assert expected == after, f"books do not balance: expected {expected}, got {after}"


def check_state(game: Game) -> None:
    engine = game._engine
    rules = game.rules
    board = game.board
    assert game.money_total() == game.initial_money
    for i, p in enumerate(game.players):
        assert p.cash >= 0, f"{p.name} has negative cash {p.cash}"
        assert 0 <= p.position < board.size
        if p.bankrupt:
            assert not game.properties_of(i), f"bankrupt {p.name} still owns property"
            assert not p.jail_cards
        if p.in_jail and not p.bankrupt:
            assert p.position == board.jail_position
    # ownership: the owner array and the per-player lists agree; only properties are owned
    for pos, tile in enumerate(board.tiles):
        owner = engine.owner[pos]
        if not tile.is_property:
            assert owner == -1
        if owner >= 0:
            assert pos in engine.owned[owner]
            assert not game.players[owner].bankrupt
        else:
            assert not engine.mortgaged[pos]
            assert engine.level[pos] == 0
    for i, owned in enumerate(engine.owned):
        assert owned == sorted(owned)
        assert all(engine.owner[pos] == i for pos in owned)
    # the per-area counts and the complete groups the engine keeps in step with ownership
    for i in range(len(game.players)):
        counts = [sum(1 for q in lots if engine.owner[q] == i) for lots in engine.area_lot_list]
        assert engine.group_count[i] == counts
        assert engine.complete[i] == [
            ai for ai, n in enumerate(counts) if n == engine.area_sizes[ai]
        ]
    # buildings
    hotel = engine.hotel_level
    houses = hotels = 0
    for pos, tile in enumerate(board.tiles):
        level = engine.level[pos]
        if level == 0:
            continue
        assert tile.kind is TileKind.STREET, f"building on a non-street at {pos}"
        assert not engine.mortgaged[pos], f"building on a mortgaged street at {pos}"
        if rules.buildings == "classic":
            assert level <= hotel
            lots = board.areas[tile.area or ""].positions
            owner = engine.owner[pos]
            assert all(engine.owner[q] == owner for q in lots), "building without the group"
            assert not any(engine.mortgaged[q] for q in lots), "building in a mortgaged group"
            levels = [engine.level[q] for q in lots]
            assert max(levels) - min(levels) <= 1, f"uneven building {levels}"
            if level == hotel:
                hotels += 1
            else:
                houses += level
        else:
            assert rules.buildings == "unlimited"
    if rules.buildings == "classic" and rules.bank_houses is not None:
        assert engine.houses_left >= 0 and engine.hotels_left >= 0
        assert engine.houses_left + houses == rules.bank_houses, "house stock broken"
        assert engine.hotels_left + hotels == rules.bank_hotels, "hotel stock broken"
    # decks: cycling decks hold every card that no player holds, exactly once
    for kind, deck in board.decks.items():
        if deck.draw != "cycle":
            continue
        held = [c.id for p in game.players for c in p.jail_cards if c.deck == kind]
        in_deck = [c.id for c in engine.decks[kind]]
        assert sorted(held + in_deck) == sorted(c.id for c in deck.cards), f"{kind} deck broken"
    # whose decision: a living player, or nobody once the game is over
    decision = game.decision
    if game.is_over:
        assert decision.kind == "game_over" and not game.legal_actions()
    else:
        assert decision.player is not None and not game.players[decision.player].bankrupt
        assert game.legal_actions(), "a decision without legal actions"
        # the cached management actions equal a fresh computation, for every player
        for p in game.players:
            for build, lift in ((True, True), (False, False)):
                cached = engine._manage_actions(p, build=build, unmortgage=lift)
                fresh = tuple(engine._compute_manage(p, build, lift, [0, 1 << 62]))
                assert cached == fresh, f"stale management actions for {p.name}: {cached} {fresh}"
