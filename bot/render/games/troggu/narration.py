"""Troggu: one narrator per event kind (``NARRATORS``), each telling one event."""

from __future__ import annotations

from bot.i18n import N_, _
from bot.render.games._words import cards, game_over_line, points, said
from bot.render.games.cards import pretty, pretty_list
from bot.render.games.troggu.verdict import verdict
from bot.render.games.troggu.words import BIDS, contract_name, trick_pairs
from bot.render.narration import Narrators
from bot.render.presenter import Event, Seating
from engine.troggu.spec import DEAL_SIZES

NARRATORS = Narrators("troggu")


@NARRATORS.on("deal")
def tell_deal(event: Event, seating: Seating) -> str | None:
    return said(
        seating,
        event.get("dealer"),
        N_("**Deal {number}**: you deal."),
        N_("**Deal {number}**: {name} deals."),
        number=event.get("hand_number"),
    )


@NARRATORS.on("bid")
def tell_bid(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    bid = event.get("bid")
    if bid == "pass":
        return said(seating, seat, N_("You pass"), N_("{name} passes"))
    shown = _(BIDS[str(bid)]) if str(bid) in BIDS else str(bid)
    return said(seating, seat, N_("You bid {bid}"), N_("{name} bids {bid}"), bid=shown)


@NARRATORS.on("forced_tapp")
def tell_forced_tapp(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    why = _("the Fool") if event.get("reason") == "fool" else _("trump I")
    return said(
        seating,
        seat,
        # i18n: {card} is "the Fool" or "trump I".
        N_("Everyone passed: you hold {card} and must play a Tapp."),
        N_("Everyone passed: {name} holds {card} and must play a Tapp."),
        card=why,
    )


@NARRATORS.on("contract")
def tell_contract(event: Event, seating: Seating) -> str | None:
    contract, seat = event.get("contract"), event.get("seat")
    if contract == "misere":
        return _("Everyone passed: **Misère**. The most card points pays.")
    name = contract_name(contract)
    return said(
        seating,
        seat,
        N_("You play a **{contract}**."),
        N_("{name} plays a **{contract}**."),
        contract=name,
    )


@NARRATORS.on("take_tapp")
def tell_take_tapp(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    return said(
        seating,
        seat,
        N_("You take the Tapp ({cards}) and will discard as many."),
        N_("{name} takes the Tapp ({cards}) and will discard as many."),
        cards=cards(int(event.get("count") or 0)),
    )


@NARRATORS.on("tapp_cards")
def tell_tapp_cards(event: Event, seating: Seating) -> str | None:
    return _("The Tapp gives you {cards}.", cards=pretty_list(list(event.get("cards") or [])))


@NARRATORS.on("tapp_to_pile")
def tell_tapp_to_pile(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    return said(
        seating,
        seat,
        N_("The Tapp ({cards}) goes unseen to your pile."),
        N_("The Tapp ({cards}) goes unseen to {name}'s pile."),
        cards=cards(int(event.get("count") or 0)),
    )


@NARRATORS.on("discard")
def tell_discard(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    if event.get("left"):
        return None  # one line for the whole discard, when it is done
    size = DEAL_SIZES.get(len(seating.names), (0, 0))[1]
    counted = cards(size) if size else _("the Tapp's cards")
    return said(
        seating,
        seat,
        N_("You have discarded {cards} face down."),
        N_("{name} has discarded {cards} face down."),
        cards=counted,
    )


@NARRATORS.on("discard_card")
def tell_discard_card(event: Event, seating: Seating) -> str | None:
    return _("You discarded {card}.", card=pretty(str(event.get("card"))))


@NARRATORS.on("call")
def tell_call(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    card = event.get("card")
    if card is None:
        return said(seating, seat, N_("You play alone."), N_("{name} plays alone."))
    return said(
        seating,
        seat,
        N_("You call {card}: its holder is the secret partner."),
        N_("{name} calls {card}: its holder is the secret partner."),
        card=pretty(str(card)),
    )


@NARRATORS.on("partner")
def tell_partner(event: Event, seating: Seating) -> str | None:
    return _("You hold the called trump: you are the Tappist's secret partner.")


@NARRATORS.on("alone")
def tell_alone(event: Event, seating: Seating) -> str | None:
    return _("Nobody else holds the trump you called: you play alone (the others don't know).")


@NARRATORS.on("play")
def tell_play(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    card = pretty(str(event.get("card")))
    return said(seating, seat, N_("You play {card}."), N_("{name} plays {card}."), card=card)


@NARRATORS.on("fool_held")
def tell_fool_held(event: Event, seating: Seating) -> str | None:
    return _("You hold the Fool back: it stays in your hand until the last trick and cannot win.")


@NARRATORS.on("partner_revealed")
def tell_partner_revealed(event: Event, seating: Seating) -> str | None:
    seat, tappist = event.get("seat"), event.get("tappist")
    if seat is None:
        return said(
            seating,
            tappist,
            N_("You played the called trump: you play alone."),
            N_("{name} played the called trump: he plays alone."),
        )
    if seating.is_you(seat):
        return _("You are {name}'s partner!", name=seating.name(tappist))
    return said(
        seating,
        tappist,
        N_("{partner} is your partner!"),
        N_("{partner} is {name}'s partner!"),
        partner=seating.name(seat),
    )


@NARRATORS.on("trick")
def tell_trick(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    pairs = trick_pairs(event.get("cards"))
    best = next((c for s, c in pairs if s == seat), None)
    worth = points(int(event.get("points") or 0))
    number = event.get("trick_number")
    if best:
        return said(
            seating,
            seat,
            N_("You win trick {number} with {card} ({points})."),
            N_("{name} wins trick {number} with {card} ({points})."),
            number=number,
            card=pretty(best),
            points=worth,
        )
    return said(
        seating,
        seat,
        N_("You win trick {number} ({points})."),
        N_("{name} wins trick {number} ({points})."),
        number=number,
        points=worth,
    )


@NARRATORS.on("fool_exchange")
def tell_fool_exchange(event: Event, seating: Seating) -> str | None:
    given = event.get("points")
    if given is None:
        swap = _("there was nothing in the pile to give in exchange")
    else:
        swap = said(
            seating,
            event.get("to"),
            # i18n: {points} is "1 point", "3 points": the value of the card given.
            N_("you get a {points} card from that pile instead"),
            N_("{name} gets a {points} card from that pile instead"),
            points=points(int(given)),
        )
    return said(
        seating,
        event.get("seat"),
        # i18n: {swap} says what the trick's winner gets instead of the Fool.
        N_("The held-back Fool goes to your pile; {swap}."),
        N_("The held-back Fool goes to {name}'s pile; {swap}."),
        swap=swap,
    )


@NARRATORS.on("hand_over")
def tell_hand_over(event: Event, seating: Seating) -> str | None:
    return _(
        "**Deal {number} over**: {verdict}",
        number=event.get("hand_number"),
        verdict=verdict(event, seating),
    )


@NARRATORS.on("game_over")
def tell_game_over(event: Event, seating: Seating) -> str | None:
    return game_over_line([seating.who(w) for w in event.get("winners") or []])
