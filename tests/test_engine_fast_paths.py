"""The engine's fast paths give exactly what the plain code would (issue 7)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine import legal as legal_mod
from ugentopoly_widget.engine.bots import HeuristicBot
from ugentopoly_widget.engine.records.events import EventLog, shape
from ugentopoly_widget.engine.state import BLOCK, ChanceSource


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**40 + 7])
def test_chance_draws_are_those_of_random_random(seed: int) -> None:
    """The draws are the very numbers of random(), across several blocks, and leave the
    generator where as many random() calls would."""
    chance, plain = ChanceSource(seed), random.Random(seed)
    drawn = [chance._random() for _ in range(3 * BLOCK + 5)]
    assert drawn == [plain.random() for _ in range(3 * BLOCK + 5)]
    assert chance.rng.getstate() == plain.getstate()
    for _ in range(BLOCK - 5):  # to the end of the fourth block
        chance._random()
        plain.random()
    assert chance.rng.getstate() == plain.getstate()


def test_chance_position_restores_the_same_draws() -> None:
    chance = ChanceSource(99)
    for _ in range(700):
        chance._random()
    where = chance.position()
    ahead = [chance._random() for _ in range(600)]
    again = ChanceSource(5)
    again.restore_position(where)
    assert again.position() == where
    assert [again._random() for _ in range(600)] == ahead


def assert_shuffles_as(chance: ChanceSource, plain: random.Random, size: int) -> None:
    """`chance` shuffles `size` items as `plain` does, and draws what `plain` draws next."""
    mine, theirs = list(range(size)), list(range(size))
    chance.shuffle(mine)
    plain.shuffle(theirs)
    assert mine == theirs
    assert chance.below(1000) == int(plain.random() * 1000)


@pytest.mark.parametrize("drawn", [0, 1, BLOCK - 8, BLOCK - 7])  # 7 .. BLOCK into the block
def test_chance_position_at_every_point_of_a_block(drawn: int) -> None:
    """A position taken anywhere in a block (at its very end too) restores the same draws,
    and a shuffle after the restore skips the rest of the block as it would have."""
    chance = ChanceSource(3)
    for _ in range(BLOCK + 7):
        chance._random()
    for _ in range(drawn):
        chance._random()
    where = chance.position()
    twin = ChanceSource(4)
    twin.restore_position(where)
    assert [twin._random() for _ in range(BLOCK + 3)] == [
        chance._random() for _ in range(BLOCK + 3)
    ]
    assert where[1] == 7 + drawn
    again = ChanceSource(8)
    again.restore_position(where)
    (version, words, gauss), _ = where
    plain = random.Random()
    plain.setstate((version, tuple(words), gauss))
    for _ in range(BLOCK):  # a shuffle continues from the end of the block
        plain.random()
    assert_shuffles_as(again, plain, 30)


def test_event_log_flushes_keep_every_code() -> None:
    """Codes gathered in the tail go to the array in one packed block: every value, negative
    and near the inline limit too, reads back unchanged across many flushes."""
    kind = shape("fast_path_test", "a", "b", "c")
    log = EventLog()
    values = [(k * 1_000_003 % (1 << 29) - (1 << 28), -k, "bank" if k % 2 else None)
              for k in range(2000)]
    for k, v in enumerate(values):
        log.add(kind, k % 4, v)
    assert [e.values for e in log] == values
    assert log[1999].player == 3


def _old_affordable(e: Any, p: Any, legal: tuple[Any, ...], keep: int) -> Any:
    """What the heuristic bot computed from the legal list before it asked directly."""
    best, best_level = None, 1 << 30
    for action in legal:
        if type(action) is A.Build:
            pos = action.position
            if p.cash - e.house_prices[pos] >= keep and e.level[pos] < best_level:
                best, best_level = action, e.level[pos]
    return best


@pytest.mark.parametrize("profile", ["classic", "cell22", "ugentopoly"])
def test_direct_questions_agree_with_the_legal_list(profile: str) -> None:
    """At every own-turn decision of seeded bot games: affordable_build, first_unmortgage,
    has_choices and rolls_only answer what the full legal list says (several reserves for the
    build)."""
    checked = 0
    for seed in range(6):
        game = Game(profile, players=4, seed=seed, options={"turn_limit": 300})
        bots = [HeuristicBot(seed=seed * 10 + k) for k in range(4)]
        e = game._engine
        while not game.is_over:
            d = e.decision
            if d.kind in ("turn", "post_roll"):
                assert d.player is not None
                p = e.players[d.player]
                legal = e.legal_actions()
                for keep in (0, 150, 300, 1000):
                    assert legal_mod.affordable_build(e, p, keep) is _old_affordable(
                        e, p, legal, keep)
                lifts = [a for a in legal if type(a) is A.Unmortgage]
                assert legal_mod.first_unmortgage(e, p) is (lifts[0] if lifts else None)
                assert legal_mod.has_choices(e, d.player) is (len(legal) > 1)
                if d.kind == "turn":
                    rolls = legal is e._roll_only[d.player]
                    assert legal_mod.rolls_only(e, d.player) is rolls
                checked += 1
            game.apply(bots[d.player or 0].choose(game))
    assert checked > 500


def _old_least_useful_mortgage(e: Any, player: int, options: list[Any]) -> Any:
    """The mortgage the bot took first before the engine's tables answered (tile objects)."""
    best, best_rank = options[0], (2, 0)
    for action in options:
        tile = e.tiles[action.position]
        in_group = tile.area is not None and all(
            e.owner[q] == player for q in e.area_lots[tile.area])
        rank = (1 if in_group else 0, tile.cost)
        if rank < best_rank:
            best, best_rank = action, rank
    return best


@pytest.mark.parametrize("mode", ["long", "short"])
def test_debt_choice_is_what_the_legal_list_gives(mode: str) -> None:
    """At every debt decision of seeded bot games: the bot's direct answer is what it picked
    from the grouped legal list (a sale, a sell-down, the least useful mortgage), and None only
    where the list holds none of those."""
    checked = 0
    for seed in range(40):
        game = Game("classic", players=4, seed=seed, options={"turn_limit": 400, "mode": mode})
        bots = [HeuristicBot(seed=seed * 10 + k) for k in range(4)]
        e = game._engine
        while not game.is_over:
            d = e.decision
            if d.kind == "debt" and d.player is not None:
                legal = e.legal_actions()
                by_type = legal_mod.grouped(e, legal)
                choice = legal_mod.debt_choice(e, e.players[d.player])
                if choice is None:
                    assert not {A.Sell, A.SellDown, A.Mortgage} & set(by_type)
                else:
                    assert choice is bots[d.player]._raise_money(e, d.player, by_type)
                    if A.Mortgage in by_type and choice in by_type[A.Mortgage]:
                        assert choice is _old_least_useful_mortgage(
                            e, d.player, by_type[A.Mortgage])
                    checked += 1
            game.apply(bots[d.player or 0].choose(game))
    assert checked > 50


@pytest.mark.parametrize("profile", ["classic", "ugentopoly"])
def test_cached_affordable_build_is_what_a_fresh_walk_gives(profile: str) -> None:
    """affordable_build() keeps its answer per player while holdings, stock, keep and the cash
    range stay: at every own-turn decision of seeded games, asked as the bot asks (the same
    keep), the kept answer is the one a walk without the cache gives."""
    hits = 0
    for seed in range(8):
        game = Game(profile, players=4, seed=seed, options={"turn_limit": 400})
        bots = [HeuristicBot(seed=seed * 10 + k) for k in range(4)]
        e = game._engine
        while not game.is_over:
            d = e.decision
            if d.kind in ("turn", "post_roll") and d.player is not None:
                p = e.players[d.player]
                kept = dict(e._afford_cache)
                answer = legal_mod.affordable_build(e, p, 300)
                hits += kept.get(p.index) is e._afford_cache.get(p.index) is not None
                saved = dict(e._afford_cache)
                e._afford_cache.clear()
                assert legal_mod.affordable_build(e, p, 300) is answer
                e._afford_cache.clear()
                e._afford_cache.update(saved)
            game.apply(bots[d.player or 0].choose(game))
    assert profile != "classic" or hits > 50  # the kept answers were used, and checked


def _money(game: Game) -> tuple[Any, ...]:
    e = game._engine
    return ([p.cash for p in e.players], e.bank, e.pot, [ev.to_dict() for ev in e.events])


@pytest.mark.parametrize("stop_at_zero", [False, True])
def test_pay_now_does_what_pay_does(stop_at_zero: bool) -> None:
    """endgame.pay_now(), the generator-free payment, records and moves exactly what
    endgame.pay() does where nobody has to decide, and changes nothing where it declines."""
    from ugentopoly_widget.engine import endgame
    from ugentopoly_widget.engine.state import GameEnds

    options = {"end_when_money_reaches_zero": stop_at_zero}
    cases = [
        (endgame.FINE, "fine", None, {}),
        (endgame.CARD_MONEY, "card_money", "card.x", {"card": "card.x"}),
        (endgame.PLAYERS_MONEY, "players_money", "card.y", {"card": "card.y"}),
    ]
    checked = 0
    for event, kind, card, data in cases:
        for payee in ("bank", "pot", 2):
            for amount in (-5, 0, 1, 50, 1499, 1500, 1501):
                fast = Game("classic", players=4, seed=3, options=options)
                slow = Game("classic", players=4, seed=3, options=options)
                before = _money(fast)
                p_fast, p_slow = fast._engine.players[1], slow._engine.players[1]
                try:
                    done = endgame.pay_now(fast._engine, p_fast, payee, amount, event, card)
                except GameEnds as over:
                    with pytest.raises(GameEnds, match=over.reason):
                        list(endgame.pay(slow._engine, p_slow, payee, amount, kind, **data))
                    assert _money(fast) == _money(slow)
                    checked += 1
                    continue
                if not done:  # the debt rules: pay() must ask somebody
                    assert _money(fast) == before and p_fast.cash < amount
                    continue
                assert list(endgame.pay(slow._engine, p_slow, payee, amount, kind, **data)) == []
                assert _money(fast) == _money(slow)
                checked += 1
    assert checked >= 40


def test_chance_shuffle_is_random_shuffle() -> None:
    """ChanceSource.shuffle is random.Random.shuffle step for step (decks of every length),
    and leaves the generator in the same state."""
    for seed in range(50):
        for n in (0, 1, 2, 3, 16, 17, 33):
            mine, theirs = list(range(n)), list(range(n))
            chance, plain = ChanceSource(seed), random.Random(seed)
            chance.shuffle(mine)
            plain.shuffle(theirs)
            assert mine == theirs
            assert chance.rng.getstate() == plain.getstate()


def test_a_shuffle_after_draws_skips_the_rest_of_the_block() -> None:
    """Draws come from a block of BLOCK; a shuffle after some draws continues the generator
    from the block's end (documented in ChanceSource._sync; every seeded digest rests on it)."""
    from ugentopoly_widget.engine.state import BLOCK

    chance, plain = ChanceSource(7), random.Random(7)
    assert [chance.below(1000) for _ in range(3)] == [int(plain.random() * 1000) for _ in range(3)]
    for _ in range(BLOCK - 3):
        plain.random()
    assert_shuffles_as(chance, plain, 20)


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 7])
def test_heuristic_bot_seeds_its_generator_on_the_first_draw(seed: int) -> None:
    """The bot's generator, made on first use, draws what one made at construction would."""
    bot = HeuristicBot(seed=seed)
    assert bot._rng is None
    plain = random.Random(seed)
    assert [bot.rng.random() for _ in range(5)] == [plain.random() for _ in range(5)]
    assert bot.rng is bot.rng


def _walk_one_short(e: Any, player: int) -> list[int]:
    """The lots the heuristic bot's trade offer walked every area for, before they were kept."""
    out = []
    for lots in e.area_lot_list:
        missing = [q for q in lots if e.owner[q] != player]
        if len(lots) >= 2 and len(missing) == 1:
            out.append(missing[0])
    return out


@pytest.mark.parametrize("profile", ["classic", "ugentopoly", "cell22"])
def test_lots_one_short_is_what_a_walk_of_every_area_gives(profile: str) -> None:
    """legal.lots_one_short() keeps its answer per player while the holdings stay: at every
    decision of seeded bot games, and after undo (which restores a checkpoint), every
    player's kept answer is what a walk of every area gives."""
    hits = 0
    for seed in range(6):
        game = Game(profile, players=4, seed=seed, options={"turn_limit": 300})
        bots = [HeuristicBot(seed=seed * 10 + k) for k in range(4)]
        e = game._engine
        step = 0
        while not game.is_over:
            for player in range(4):
                kept = e._short_cache.get(player)
                answer = legal_mod.lots_one_short(e, player)
                hits += kept is not None and kept[1] is answer
                assert answer == _walk_one_short(e, player)
            d = e.decision
            game.apply(bots[d.player or 0].choose(game))
            step += 1
            if step % 97 == 0 and game.can_undo():
                game.undo()
                e = game._engine
    assert hits > 500


def _snapshot(game: Game) -> tuple[Any, ...]:
    e = game._engine
    return (e.describe_state(), [ev.to_dict() for ev in e.events])


@pytest.mark.parametrize("options", [{}, {"bank_houses": 7, "bank_hotels": 2}])
def test_manage_now_does_what_the_manage_flow_does(options: dict[str, Any]) -> None:
    """deals.manage_now(), the generator-free management action, changes and records exactly
    what the manage() flow does where nobody has to decide, and declines (changing nothing)
    where the flow stops for a decision: a house auction in a housing shortage, a trade."""
    from ugentopoly_widget.engine import deals

    done = 0
    declined: dict[str, int] = {}
    simple = (A.Roll, A.EndTurn, A.PayFine, A.UseJailCard, A.DeclareBankruptcy)
    for seed in range(12):
        game = Game("classic", players=4, seed=seed, options={"turn_limit": 300, **options})
        bots = [HeuristicBot(seed=seed * 10 + k) for k in range(4)]
        e = game._engine
        while not game.is_over and done < 40 * (seed + 1):
            d = e.decision
            choice = bots[d.player or 0].choose(game)
            if d.kind in ("turn", "post_roll", "debt") and d.player is not None:
                i = d.player
                offer = A.ProposeTrade(i, (i + 1) % 4, A.TradeSide(cash=1), A.TradeSide())
                asked = {*e.legal_actions(), choice}
                if e.trade_problem(offer) is None and done % 8 == 0:
                    asked.add(offer)
                for action in asked:
                    if isinstance(action, simple):
                        continue
                    fast, slow = game.copy(), game.copy()
                    before = _snapshot(fast)
                    if deals.manage_now(fast._engine, fast._engine.players[i], action):
                        assert list(deals.manage(slow._engine, slow._engine.players[i],
                                                 action)) == []
                        assert _snapshot(fast) == _snapshot(slow)
                        done += 1
                    else:
                        assert _snapshot(fast) == before
                        flow = deals.manage(slow._engine, slow._engine.players[i], action)
                        kind = next(flow).kind
                        declined[kind] = declined.get(kind, 0) + 1
            game.apply(choice)
    # (a house auction in a shortage: tests/test_rules_classic_buildings.py goes through it)
    assert done > 300 and declined.get("trade", 0) > 5


def test_land_flow_of_a_tile_with_nothing_to_do_is_empty() -> None:
    """landing.land_flow() hands back the tile's own flow; on a tile where landing does
    nothing (start, jail) an empty one."""
    from ugentopoly_widget.engine import landing

    game = Game("classic", players=2, seed=1)
    e = game._engine
    p = e.players[0]
    for pos in (0, e.jail):
        p.position = pos
        assert list(landing.land_flow(e, p, 1, None)) == []
