"""Fuzzing apply(): malformed or illegal actions raise a named error and change nothing."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ugentopoly_widget import Game, IllegalActionError, InvalidActionError
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.actions import ACTION_TYPES
from ugentopoly_widget.engine.bots import HeuristicBot


def game_in_play(profile: str, steps: int) -> Game:
    game = Game(profile, players=3, seed=11, options={"turn_limit": 500})
    bots = [HeuristicBot(seed=k) for k in range(3)]
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(bots[game.decision.player or 0].choose(game))
    return game


GAMES = {
    (profile, steps): game_in_play(profile, steps)
    for profile in ("ugentopoly", "classic", "cell22")
    for steps in (0, 7, 60, 200)
}

numbers = st.one_of(
    st.integers(-3, 45), st.integers(-(10**20), 10**20), st.floats(allow_nan=True),
    st.booleans(), st.none(), st.text(max_size=4),
)
side = st.fixed_dictionaries({
    "properties": st.one_of(st.lists(numbers, max_size=4), numbers),
    "cash": numbers,
    "cards": st.one_of(st.lists(st.text(max_size=14), max_size=2), numbers),
})
action_dicts = st.one_of(
    st.dictionaries(st.sampled_from(["type", "player", "position", "amount", "partner", "area",
                                     "level", "choice", "give", "get", "extra"]),
                    st.one_of(numbers, st.sampled_from(sorted(ACTION_TYPES)), side),
                    max_size=6),
    st.builds(lambda t, p, extra: {"type": t, "player": p, **extra},
              st.sampled_from(sorted(ACTION_TYPES)), numbers,
              st.dictionaries(st.sampled_from(["position", "amount", "choice", "area", "level",
                                               "partner", "give", "get"]),
                              st.one_of(numbers, side, st.sampled_from(["flat", "percent"])),
                              max_size=5)),
)
anything = st.one_of(action_dicts, st.text(max_size=30), numbers,
                     st.lists(numbers, max_size=3))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(sorted(GAMES)), request=anything)
def test_malformed_or_illegal_requests_change_nothing(key: tuple[str, int], request: Any
                                                      ) -> None:
    game = GAMES[key]
    before = game.digest()
    events_before = len(game.events)
    try:
        game.apply(request)
    except (InvalidActionError, IllegalActionError):
        pass
    else:
        # a request that happened to be legal: undo what it did (if it can be undone)
        assert isinstance(request, (dict, str))
        GAMES[key] = game_in_play(*key)
        return
    assert game.digest() == before
    assert len(game.events) == events_before


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(sorted(GAMES)), player=st.integers(-2, 5),
       position=st.integers(-2, 45), amount=st.integers(-5, 5000))
def test_actions_of_the_wrong_player_or_out_of_range_are_refused(
    key: tuple[str, int], player: int, position: int, amount: int
) -> None:
    game = GAMES[key]
    before = game.digest()
    candidates: list[A.Action] = [
        A.Roll(player), A.Buy(player), A.Bid(player, amount), A.Build(player, position),
        A.Sell(player, position), A.Mortgage(player, position), A.Unmortgage(player, position),
        A.EndTurn(player), A.AcceptTrade(player), A.DeclareBankruptcy(player),
        A.ProposeTrade(player, (player + 1) % 3, A.TradeSide(properties=(position,)),
                       A.TradeSide(cash=amount)),
        A.SellDown(player, "brown", 1), A.TimeUp(-1), A.TimerRoll(player),
    ]
    for action in candidates:
        if game.is_legal(action):
            continue
        try:
            game.apply(action)
        except IllegalActionError as error:
            message = str(error)
            assert "refused" in message and "legal now" in message
        else:  # pragma: no cover - is_legal said no
            raise AssertionError(f"{action} was applied although is_legal() said no")
        assert game.digest() == before


def test_illegal_error_names_action_player_and_phase() -> None:
    game = Game("classic", players=["Ann", "Bob"], seed=1)
    other = 1 - game.current_player
    try:
        game.apply(A.Roll(other))
    except IllegalActionError as error:
        assert error.phase == "turn"
        assert error.player == game.players[game.current_player].name
        assert f"{other}:roll" in str(error)
    else:
        raise AssertionError("a roll out of turn was accepted")
