"""2-Player Troeven: one narrator per event kind (``NARRATORS``), each telling one event."""

from __future__ import annotations

from bot.i18n import N_, _, _n
from bot.render.games._words import said
from bot.render.games.cards import pretty, pretty_list, pretty_suit
from bot.render.narration import Narrators
from bot.render.presenter import Event, Seating

NARRATORS = Narrators("troeven")


@NARRATORS.on("deal")
def tell_deal(event: Event, seating: Seating) -> str | None:
    dealer = event.get("dealer", event.get("seat"))
    caller = event.get("caller")
    number = event.get("hand_number")
    if seating.is_you(dealer):
        line = _("Deal {number}: You deal; {caller} names trumps", number=number,
                 caller=seating.name(caller))  # fmt: skip
    elif seating.is_you(caller):
        line = _("Deal {number}: {dealer} deals; You name trumps", number=number,
                 dealer=seating.name(dealer))  # fmt: skip
    else:
        line = _("Deal {number}: {dealer} deals; {caller} names trumps", number=number,
                 dealer=seating.name(dealer), caller=seating.name(caller))  # fmt: skip
    if event.get("face_up"):
        cards = pretty_list([str(c) for c in event["face_up"]])
        # i18n: after "… names trumps": the face-up cards the caller sees
        line += " " + _("from {cards}", cards=cards)
    return line


@NARRATORS.on("cards")
def tell_cards(event: Event, seating: Seating) -> str | None:
    return _("You get {cards}", cards=pretty_list([str(c) for c in event.get("cards") or []]))


@NARRATORS.on("trump")
def tell_trump(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    suit = pretty_suit(str(event.get("suit")))
    return said(
        seating, seat, N_("You name trumps: {suit}"), N_("{name} names trumps: {suit}"),
        suit=suit,
    )  # fmt: skip


@NARRATORS.on("play")
def tell_play(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    card = pretty(str(event.get("card")))
    return said(seating, seat, N_("You play {card}"), N_("{name} plays {card}"), card=card)


@NARRATORS.on("turn_up")
def tell_turn_up(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    card = pretty(str(event.get("card")))
    return said(
        seating, seat, N_("Your card under it turns up: {card}"),
        N_("{name}'s card under it turns up: {card}"), card=card,
    )  # fmt: skip


@NARRATORS.on("trick")
def tell_trick(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    points = int(event.get("points") or 0)
    value = _n("{n} card point", "{n} card points", points) if points else _("no card points")
    winner = event.get("winner", seat)
    return said(
        seating, winner, N_("You take the trick ({value})"),
        N_("{name} takes the trick ({value})"), value=value,
    )  # fmt: skip


@NARRATORS.on("draw")
def tell_draw(event: Event, seating: Seating) -> str | None:
    owner = event.get("private_to")
    if owner is not None:
        return _("You draw {card}", card=pretty(str(event.get("card"))))
    size = int(event.get("stock_size") or 0)
    if size % 2:  # the trick's winner drew; told once both have drawn
        return None
    return (
        _n(
            "Both draw: {n} card left in the stock",
            "Both draw: {n} cards left in the stock",
            size,
        )  # fmt: skip
        if size
        else _("Both draw the last cards: the stock is empty")
    )


@NARRATORS.on("hand_over")
def tell_hand_over(event: Event, seating: Seating) -> str | None:
    points = list(event.get("points") or [0, 0])
    winner = event.get("winner")
    score = f"{seating.who(0)} {points[0]} – {seating.who(1)} {points[1]}"
    number = event.get("hand_number")
    if winner is None:
        return _("Deal {number}: {score}, a tie: nobody moves", number=number, score=score)
    scores = list(event.get("scores") or [])
    if len(scores) == 2:
        return said(
            seating, winner, N_("Deal {number}: {score}: You go down to {to}"),
            N_("Deal {number}: {score}: {name} goes down to {to}"),
            number=number, score=score, to=scores[winner],
        )  # fmt: skip
    return said(
        seating, winner, N_("Deal {number}: {score}: You go down"),
        N_("Deal {number}: {score}: {name} goes down"), number=number, score=score,
    )  # fmt: skip


@NARRATORS.on("game_over")
def tell_game_over(event: Event, seating: Seating) -> str | None:
    winners = list(event.get("winners") or [])
    if not winners:
        return _("Game over")
    return said(
        seating, winners[0], N_("🏆 You reach 0 and win"),
        N_("🏆 {name} reaches 0 and wins"),
    )  # fmt: skip
