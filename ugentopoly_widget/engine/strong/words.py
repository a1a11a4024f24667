"""The strong bot's reasons in words, English and Dutch: ``explain(game, action, why, lang)``
("rejects: New York Avenue completes Ann's orange group, worth about +46 per opponent roll to
Ann"). Tiles and players by their names in the game; a colour group by the board's own name
for it (``area.<id>`` in the board's .properties files), else its id.

>>> from ugentopoly_widget import Game
>>> from ugentopoly_widget.engine.actions import ProposeTrade, TradeSide
>>> from ugentopoly_widget.engine.strong.bot import StrongBot
>>> game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
...                      owners={16: "Ann", 18: "Ann", 19: "Bob"}, cash=[1500, 1500])
>>> _ = game.apply(ProposeTrade(0, 1, give=TradeSide(cash=300), get=TradeSide(properties=(19,))))
>>> import textwrap
>>> print(textwrap.fill(StrongBot().explain(game), 80))
Bob rejects: New York Avenue completes Ann's orange group, worth about +46 per
opponent roll to Ann.
>>> print(textwrap.fill(StrongBot().explain(game, "nl"), 80))
Bob weigert: New York Avenue vervolledigt de groep oranje van Ann, ongeveer +46
per worp van een tegenstander waard voor Ann.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import actions as A
from ..actions import Action
from .why import Why

if TYPE_CHECKING:
    from ..game import Game

LANGS = ("en", "nl")

# code -> lang -> template. Fields: {tile} {other_tile} {player} {group} {other_group}
# {amount} {value} {value0} (value rounded) {level_word}
PHRASES: dict[str, dict[str, str]] = {
    "reject_completes": {
        "en": "rejects: {tile} completes {player}'s {group} group, worth about +{value0} per "
              "opponent roll to {player}",
        "nl": "weigert: {tile} vervolledigt de groep {group} van {player}, ongeveer +{value0} "
              "per worp van een tegenstander waard voor {player}"},
    "reject_breaks": {
        "en": "rejects: it would break up its own {group} group",
        "nl": "weigert: het zou de eigen groep {group} uit elkaar halen"},
    "reject_value": {
        "en": "rejects: the deal costs it about {value0} by its count of what lots earn and "
              "deny",
        "nl": "weigert: de ruil kost ongeveer {value0} als je telt wat de percelen opbrengen "
              "en anderen ontzeggen"},
    "accept": {
        "en": "accepts: the deal gains it about {value0} by what the lots earn and deny",
        "nl": "aanvaardt: de ruil levert ongeveer {value0} op, geteld naar wat de percelen "
              "opbrengen en anderen ontzeggen"},
    "accept_completes": {
        "en": "accepts: {tile} completes its {group} group",
        "nl": "aanvaardt: {tile} vervolledigt de eigen groep {group}"},
    "accept_swap": {
        "en": "accepts: a group for a group, its {group} for {player}'s {other_group}, about "
              "even or better",
        "nl": "aanvaardt: een groep voor een groep, de eigen groep {group} voor {other_group} "
              "van {player}, ongeveer gelijk of beter"},
    "offer_buy": {
        "en": "offers {player} {amount} for {tile}: it completes its {group} group",
        "nl": "biedt {player} {amount} voor {tile}: dat vervolledigt de eigen groep {group}"},
    "offer_swap": {
        "en": "offers {player} a swap, {other_tile} for {tile}: each completes a group "
              "({group} for itself){cash_txt}",
        "nl": "stelt {player} een ruil voor, {other_tile} voor {tile}: elk vervolledigt een "
              "groep ({group} voor zichzelf){cash_txt}"},
    "buy_completes": {
        "en": "buys {tile}: it completes its {group} group",
        "nl": "koopt {tile}: dat vervolledigt de eigen groep {group}"},
    "buy_blocks": {
        "en": "buys {tile}: it keeps {player} from completing the {group} group",
        "nl": "koopt {tile}: zo krijgt {player} de groep {group} niet rond"},
    "buy_value": {
        "en": "buys {tile}: its rent over the game is worth more than the price",
        "nl": "koopt {tile}: de huur over het spel is meer waard dan de prijs"},
    "decline_value": {
        "en": "does not buy {tile}: at {amount} it is worth less than its price to it",
        "nl": "koopt {tile} niet: voor {amount} is het minder waard dan de prijs"},
    "decline_cash": {
        "en": "does not buy {tile}: it cannot pay {amount}",
        "nl": "koopt {tile} niet: het kan {amount} niet betalen"},
    "keep_cash": {
        "en": "keeps {amount} in cash for the rents and taxes it may have to pay",
        "nl": "houdt {amount} achter de hand voor huur en belasting die kan komen"},
    "mortgage_to_buy": {
        "en": "mortgages {tile} to pay for {other_tile}",
        "nl": "neemt een hypotheek op {tile} om {other_tile} te betalen"},
    "auction_completes": {
        "en": "bids, up to {amount}: {tile} completes its {group} group",
        "nl": "biedt, tot {amount}: {tile} vervolledigt de eigen groep {group}"},
    "auction_blocks": {
        "en": "bids, up to {amount} (above the list price if need be): {tile} keeps {player} "
              "from completing the {group} group",
        "nl": "biedt, tot {amount} (desnoods boven de catalogusprijs): zo krijgt {player} de "
              "groep {group} niet rond"},
    "auction_value": {
        "en": "bids, up to {amount}: what {tile} earns over the game (its mortgage value "
              "alone covers half the price)",
        "nl": "biedt, tot {amount}: wat {tile} over het spel opbrengt (de hypotheekwaarde "
              "alleen dekt al de helft)"},
    "auction_pass": {
        "en": "drops out: above {amount} the lot is worth more to it as cash",
        "nl": "stapt uit: boven {amount} is het geld meer waard dan het perceel"},
    "auction_house": {
        "en": "bids for the house, up to {amount}: houses are short",
        "nl": "biedt op het huis, tot {amount}: er zijn te weinig huizen"},
    "build": {
        "en": "builds {level_word} on {tile}: the best return, +{value1} per opponent roll for "
              "every 100 spent",
        "nl": "bouwt {level_word} op {tile}: het beste rendement, +{value1} per worp van een "
              "tegenstander per 100 uitgegeven"},
    "build_offer": {
        "en": "builds on {tile}: each house adds half the price in rent",
        "nl": "bouwt op {tile}: elk huis voegt de helft van de prijs toe aan de huur"},
    "hold_houses": {
        "en": "keeps four houses on {tile}, no hotel: only {amount} houses are left and a "
              "rival is waiting for them",
        "nl": "houdt vier huizen op {tile}, geen hotel: er zijn nog maar {amount} huizen en "
              "een tegenstander wacht erop"},
    "mortgage_to_build": {
        "en": "mortgages {tile}, a lot outside its groups, to build on {other_tile}",
        "nl": "neemt een hypotheek op {tile}, een perceel buiten de eigen groepen, om op "
              "{other_tile} te bouwen"},
    "lift": {
        "en": "lifts the mortgage on {tile}: cash to spare",
        "nl": "lost de hypotheek op {tile} af: er is geld over"},
    "lift_now": {
        "en": "lifts the mortgage on {tile} at once ({amount})",
        "nl": "lost de hypotheek op {tile} meteen af ({amount})"},
    "keep_mortgage": {
        "en": "keeps {tile} mortgaged and pays the interest ({amount}): cash is worth more "
              "now",
        "nl": "houdt de hypotheek op {tile} en betaalt de rente ({amount}): het geld is nu "
              "meer waard"},
    "raise_mortgage": {
        "en": "mortgages {tile} first: a lot outside whole groups loses the least rent",
        "nl": "neemt eerst een hypotheek op {tile}: een perceel buiten volledige groepen kost "
              "de minste huur"},
    "raise_sell": {
        "en": "sells a house on {tile}: of its buildings, the one that costs the least rent",
        "nl": "verkoopt een huis op {tile}: van de gebouwen kost dat de minste huur"},
    "raise_group_mortgage": {
        "en": "mortgages {tile}, a lot of a whole group, last of all",
        "nl": "neemt als laatste een hypotheek op {tile}, een perceel van een volledige groep"},
    "raise_sell_down": {
        "en": "sells hotels down: nothing else raises money",
        "nl": "verkoopt hotels af: niets anders brengt geld op"},
    "bankrupt": {
        "en": "goes bankrupt: everything it has cannot pay {amount}",
        "nl": "gaat failliet: alles samen kan {amount} niet betalen"},
    "jail_leave_card": {
        "en": "uses its card to leave jail: {amount} lots are still for sale",
        "nl": "gebruikt de kaart om de gevangenis te verlaten: er zijn nog {amount} percelen "
              "te koop"},
    "jail_leave_pay": {
        "en": "pays {other} to leave jail early: {amount} lots are still for sale",
        "nl": "betaalt {other} om vroeg uit de gevangenis te gaan: er zijn nog {amount} "
              "percelen te koop"},
    "jail_stay": {
        "en": "stays in jail (rolls for doubles): {stay_txt}",
        "nl": "blijft in de gevangenis (gooit voor dubbel): {stay_txt}"},
    "jail_roll_cash": {
        "en": "rolls for doubles: it keeps its cash ({amount}) for rent",
        "nl": "gooit voor dubbel: het houdt het geld ({amount}) voor huur"},
    "jail_card_saves": {
        "en": "uses its jail card: it saves the fine of {amount}",
        "nl": "gebruikt de gevangeniskaart: dat spaart de boete van {amount}"},
    "tax_percent": {
        "en": "pays the percentage ({amount}): less than {other}",
        "nl": "betaalt het percentage ({amount}): minder dan {other}"},
    "tax_flat": {
        "en": "pays the fixed tax ({amount}): the percentage would be {other}",
        "nl": "betaalt het vaste bedrag ({amount}): het percentage zou {other} zijn"},
    "place_house": {
        "en": "puts the house on {tile}: it pays most there",
        "nl": "zet het huis op {tile}: daar brengt het het meest op"},
    "rollouts_overrule": {
        "en": "plays each choice out in {amount} quick games: this one wins about {value0} "
              "points more often than the strong bot's",
        "nl": "speelt elke keuze uit in {amount} snelle spelletjes: deze wint ongeveer "
              "{value0} procentpunt vaker dan die van de sterke bot"},
    "nothing": {
        "en": "{verb}: nothing is worth building, lifting or trading first",
        "nl": "{verb}: niets om eerst te bouwen, af te lossen of te ruilen"},
}
EXTRA: dict[str, dict[str, str]] = {
    "stay_all_owned": {"en": "every lot is owned, and each roll out of jail may land on rent",
                       "nl": "alles is verkocht en elke worp buiten de gevangenis kan huur "
                             "kosten"},
    "stay_built": {"en": "the rents in reach cost about {value0} a roll",
                   "nl": "de huur binnen bereik kost ongeveer {value0} per worp"},
    "cash": {"en": ", with {amount} in cash", "nl": ", met {amount} erbij"},
    "roll": {"en": "rolls", "nl": "gooit"},
    "end_turn": {"en": "ends the turn", "nl": "beëindigt de beurt"},
    "levels": {"en": "a house|the 2nd house|the 3rd house|the 4th house|the hotel",
               "nl": "een huis|het 2de huis|het 3de huis|het 4de huis|het hotel"},
}


def group_name(game: Game, area_index: int, lang: str) -> str:
    """A colour group's name: the board's ``area.<id>`` text, else its id."""
    engine = game._engine
    if not 0 <= area_index < len(engine.area_ids):
        return "?"
    aid = engine.area_ids[area_index]
    key = f"area.{aid}"
    text = game.board.text(key, lang)
    return aid if text == key else text


def _tile(game: Game, pos: int, lang: str) -> str:
    return game.board.tile_name(pos, lang) if 0 <= pos < game.board.size else "?"


def _player(game: Game, index: int) -> str:
    return game.players[index].name if 0 <= index < len(game.players) else "?"


def reason(game: Game, why: Why | None, lang: str = "en", action: Action | None = None) -> str:
    """The reason in words (no subject: "rejects: ...")."""
    lang = lang if lang in LANGS else "en"
    if why is None:
        verb = "end_turn" if isinstance(action, A.EndTurn) else "roll"
        return PHRASES["nothing"][lang].format(verb=EXTRA[verb][lang])
    template = PHRASES.get(why.code, {}).get(lang)
    if template is None:
        return why.code
    fields: dict[str, Any] = {
        "tile": _tile(game, why.pos, lang),
        "other_tile": _tile(game, why.other, lang),
        "player": _player(game, why.player),
        "group": group_name(game, why.area, lang),
        "other_group": group_name(game, why.other, lang),
        "amount": why.amount,
        "other": why.other,
        "value0": f"{abs(why.value):.0f}",
        "value1": f"{why.value:.1f}",
    }
    levels = EXTRA["levels"][lang].split("|")
    top = game.hotel_level
    level = why.amount
    fields["level_word"] = (levels[-1] if level >= top and top > 0
                            else levels[min(max(level, 1), 4) - 1])
    fields["cash_txt"] = EXTRA["cash"][lang].format(amount=abs(why.amount)) if why.amount else ""
    fields["stay_txt"] = (EXTRA["stay_all_owned"][lang] if why.amount == 0
                          else EXTRA["stay_built"][lang].format(value0=f"{why.value:.0f}"))
    return template.format(**fields)


def log_reason(game: Game, why: Why, lang: str = "en") -> str:
    """The reason alone, for after the decision's log line ("New York Avenue completes Ann's
    orange group, ..."): what follows the verb of :func:`reason`."""
    text = reason(game, why, lang)
    head, colon, rest = text.partition(": ")
    return rest if colon else text


def explain(game: Game, why: Why | None, lang: str = "en", action: Action | None = None,
            player: int | None = None) -> str:
    """A whole sentence: the player's name, the reason, a full stop."""
    who = player if player is not None else game.decision.player
    name = _player(game, who) if who is not None else "?"
    return f"{name} {reason(game, why, lang, action)}."
