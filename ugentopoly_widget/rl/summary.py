"""What an episode's last ``info`` says about the game: the winner, the ranking, net worths.

Not under the key ``"episode"``: Gymnasium's RecordEpisodeStatistics and stable-baselines3's
Monitor write their own statistics there (and the former refuses an info that has it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.game import Game

# Rules options that end a game with a winner (the richest) after so many rounds, by profile,
# when the options name neither a round nor a turn limit (as simulate() does with 500): without
# one most Ugentopoly games never end (no houses: a player goes bankrupt only by bad luck),
# and a truncated episode carries no result to learn from. {"round_limit": None} lifts it.
TRAINING_ROUND_LIMITS: dict[str, int] = {"ugentopoly": 100, "cell22": 200}


def training_options(profile: Any, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """`options` with the profile's round limit added unless they set one (or a turn limit),
    see TRAINING_ROUND_LIMITS; an explicit ``round_limit=None`` stays None."""
    out = dict(options or {})
    name = profile if isinstance(profile, str) else getattr(profile, "name", None)
    if "round_limit" not in out and out.get("turn_limit") is None and out.get("mode") != "timed":
        limit = TRAINING_ROUND_LIMITS.get(str(name))
        if limit is not None:
            out["round_limit"] = limit
    return out


def agent(seat: int) -> str:
    return f"player_{seat}"


def game_summary(game: Game, truncated: bool) -> dict[str, Any]:
    """The game's result as every agent's last info holds it.

    - ``winner``: the agent who won, or None (a truncated episode, or several winners: see
      ``winners``);
    - ``winners``, ``ranking``: agents, the ranking best first (a truncated game is ranked by
      valuation, the bankrupt last in reverse order of going out);
    - ``net_worths``, ``valuations``: by agent (the official net worth; the valuation ranks
      limited games, a mortgaged property at half its price);
    - ``end_reason``: why the game ended (``"bankruptcy"``, ``"round_limit"`` ...) or
      ``"max_turns"`` (truncated); ``turns``: player-turns played; ``actions``: engine actions.
    """
    n = len(game.players)
    valuations = game.valuations()
    if game.is_over:
        data = game.decision.data
        winners = [agent(s) for s in data.get("winners", game.winners)]
        ranking = [agent(s) for s in data.get("ranking", game.ranking)]
        reason = str(data.get("reason", "game_over"))
    else:
        alive = sorted((s for s in range(n) if not game.players[s].bankrupt),
                       key=lambda s: (-valuations[s], s))
        out = sorted((s for s in range(n) if game.players[s].bankrupt),
                     key=lambda s: -(game.players[s].out_order or 0))
        winners, ranking = [], [agent(s) for s in alive + out]
        reason = "max_turns" if truncated else "in_play"
    return {
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "ranking": ranking,
        "net_worths": {agent(s): game.net_worth(s) for s in range(n)},
        "valuations": {agent(s): valuations[s] for s in range(n)},
        "end_reason": reason,
        "turns": game.turn_number,
        "actions": len(game.actions),
    }


def result_of(seat: int, game: Game, truncated: bool) -> str:
    """``"win"``, ``"loss"`` or ``"truncated"`` for `seat` (a shared first place is a win)."""
    if truncated:
        return "truncated"
    if game.is_over and seat in game.winners:
        return "win"
    return "loss"


__all__ = ["game_summary", "result_of", "training_options", "TRAINING_ROUND_LIMITS"]
