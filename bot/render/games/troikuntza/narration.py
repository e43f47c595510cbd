"""TroiKuntza: one narrator per event kind (``NARRATORS``), each telling one event."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, _, _n
from bot.render.games._words import game_over_line, names_and, said, whom
from bot.render.games.cards import pretty, pretty_list
from bot.render.games.troikuntza.words import contract_words, hand_text
from bot.render.narration import Narrators
from bot.render.presenter import Event, Seating

NARRATORS = Narrators("troikuntza")


def _card_shown(card: Any) -> str:
    """An event's card as shown, or ``the discard`` when the event names none."""
    return pretty(str(card)) if card else _("the discard")


@NARRATORS.on("deal")
def tell_deal(event: Event, seating: Seating) -> str | None:
    return said(
        seating,
        event.get("dealer"),
        N_("**Round {number} — {contract}**: you deal; {card} is turned up."),
        N_("**Round {number} — {contract}**: {name} deals; {card} is turned up."),
        number=event.get("round"),
        contract=contract_words(event.get("contract")),
        card=pretty(str(event.get("upcard"))),
    )


@NARRATORS.on("hand")
def tell_hand(event: Event, seating: Seating) -> str | None:
    return _("Your cards: {cards}", cards=hand_text(list(event.get("cards") or [])))


@NARRATORS.on("take")
def tell_take(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    card = event.get("card")
    shown = _card_shown(card)
    return said(seating, seat, N_("You take {card}."), N_("{name} takes {card}."), card=shown)


@NARRATORS.on("decline")
def tell_decline(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    card = event.get("card")
    shown = _card_shown(card)
    if not event.get("waiting"):
        return None  # the draw (or the May I) that follows tells it
    return said(
        seating,
        seat,
        N_("You pass on {card} and wait for the May I calls."),
        N_("{name} passes on {card} and waits for the May I calls."),
        card=shown,
    )


@NARRATORS.on("draw")
def tell_draw(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    return said(seating, seat, N_("You draw from the stock."), N_("{name} draws from the stock."))


@NARRATORS.on("drawn")
def tell_drawn(event: Event, seating: Seating) -> str | None:
    card = event.get("card")
    shown = _card_shown(card)
    return _("You drew {card}.", card=shown)


@NARRATORS.on("mayi_call")
def tell_mayi_call(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    return said(seating, seat, N_("You call **May I**!"), N_("{name} calls **May I**!"))


@NARRATORS.on("mayi_void")
def tell_mayi_void(event: Event, seating: Seating) -> str | None:
    return said(
        seating,
        event.get("by"),
        N_("You take the discard: the May I of {names} is void."),
        N_("{name} takes the discard: the May I of {names} is void."),
        names=names_and([whom(seating, s) for s in event.get("seats") or []]),
    )


@NARRATORS.on("mayi")
def tell_mayi(event: Event, seating: Seating) -> str | None:
    card = event.get("card")
    shown = _card_shown(card)
    return _mayi_line(event, seating, shown)


@NARRATORS.on("penalty")
def tell_penalty(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    return said(
        seating,
        seat,
        N_("You take a penalty card from the stock."),
        N_("{name} takes a penalty card from the stock."),
    )


@NARRATORS.on("penalty_card")
def tell_penalty_card(event: Event, seating: Seating) -> str | None:
    card = event.get("card")
    shown = _card_shown(card)
    return _("Your penalty card: {card}.", card=shown)


@NARRATORS.on("exposed")
def tell_exposed(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    card = event.get("card")
    shown = _card_shown(card)
    if not card:
        return said(
            seating,
            seat,
            N_("The discard pile is empty: you draw."),
            N_("The discard pile is empty: {name} draws."),
        )
    return said(
        seating,
        seat,
        N_("{card} comes up: you may take it or draw."),
        N_("{card} comes up: {name} may take it or draw."),
        card=shown,
    )


@NARRATORS.on("reshuffle")
def tell_reshuffle(event: Event, seating: Seating) -> str | None:
    return _n(
        "The discards ({n} card) are shuffled into a new stock.",
        "The discards ({n} cards) are shuffled into a new stock.",
        int(event.get("cards") or 0),
    )


@NARRATORS.on("meld")
def tell_meld(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    melds = [
        f"`{m.get('number')}` {pretty_list(list(m.get('cards') or []))}"
        for m in event.get("melds") or []
    ]
    return said(
        seating,
        seat,
        N_("You come out: {melds}"),
        N_("{name} comes out: {melds}"),
        melds=" · ".join(melds),
    )


@NARRATORS.on("layoff")
def tell_layoff(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    card = event.get("card")
    shown = _card_shown(card)
    facts = {"card": shown, "meld": event.get("meld")}
    if event.get("bumped"):
        return said(
            seating,
            seat,
            N_("You lay off {card} on meld {meld} (the joker moves to the end)."),
            N_("{name} lays off {card} on meld {meld} (the joker moves to the end)."),
            **facts,
        )
    return said(
        seating,
        seat,
        N_("You lay off {card} on meld {meld}."),
        N_("{name} lays off {card} on meld {meld}."),
        **facts,
    )


@NARRATORS.on("discard")
def tell_discard(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    card = event.get("card")
    shown = _card_shown(card)
    return said(seating, seat, N_("You discard {card}."), N_("{name} discards {card}."), card=shown)


@NARRATORS.on("out")
def tell_out(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    return said(seating, seat, N_("**You go out!**"), N_("**{name} goes out!**"))


@NARRATORS.on("hand_over")
def tell_hand_over(event: Event, seating: Seating) -> str | None:
    number = event.get("round")
    if event.get("reason") == "out" and event.get("went_out") is not None:
        return said(
            seating,
            event.get("went_out"),
            N_("**Round {number} over**: you went out."),
            N_("**Round {number} over**: {name} went out."),
            number=number,
        )
    return _("**Round {number} over**: the stock ran out; everyone scores his hand.", number=number)


@NARRATORS.on("game_over")
def tell_game_over(event: Event, seating: Seating) -> str | None:
    return game_over_line([seating.who(w) for w in event.get("winners") or []])


def _mayi_line(event: Event, seating: Seating, shown: str) -> str:
    """``Ann gets 7♥️ by May I (1 of 3 May I's used); Bob called too, further from the
    turn.``"""
    seat = event.get("seat")
    used, limit = event.get("used"), seating.options.get("mayi_limit")
    line = said(
        seating,
        seat,
        N_("You get {card} by May I"),
        N_("{name} gets {card} by May I"),
        card=shown,
    )
    if used and limit:
        line += " (" + _("{used} of {limit} May I's used", used=used, limit=limit) + ")"
    elif used:
        line += " (" + _("May I number {used} this round", used=used) + ")"
    void = [whom(seating, s) for s in event.get("void") or []]
    if void:
        # i18n: after "Ann gets 7♥️ by May I": others who called May I for the same card.
        line += "; " + _("{names} called too, further from the turn", names=names_and(void))
    return line + "."
