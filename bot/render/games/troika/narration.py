"""Troika (Kaiser): one narrator per event kind (``NARRATORS``), each telling one event."""

from __future__ import annotations

from bot.i18n import N_, _, _n
from bot.render.games._words import names_and, said, signed, signed_total
from bot.render.games.cards import pretty, pretty_list, pretty_suit
from bot.render.games.troika.words import bid_words, team_name, team_of
from bot.render.narration import Narrators
from bot.render.presenter import Event, Seating

NARRATORS = Narrators("troika")


@NARRATORS.on("deal")
def tell_deal(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    dealer = event.get("dealer", seat)
    number = event.get("hand_number")
    return said(
        seating, dealer, N_("Hand {number}: You deal"), N_("Hand {number}: {name} deals"),
        number=number,
    )  # fmt: skip


@NARRATORS.on("bid")
def tell_bid(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    bid = bid_words(str(event.get("bid")))
    return said(seating, seat, N_("You bid {bid}"), N_("{name} bids {bid}"), bid=bid)


@NARRATORS.on("pass")
def tell_pass(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    return said(seating, seat, N_("You pass"), N_("{name} passes"))


@NARRATORS.on("misdeal")
def tell_misdeal(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    cards = pretty_list([str(c) for c in event.get("cards") or []])
    return said(
        seating,
        seat,
        N_("You throw the hand in (misdeal): {cards}"),
        N_("{name} throws the hand in (misdeal): {cards}"),
        cards=cards,
    )


@NARRATORS.on("thrown_in")
def tell_thrown_in(event: Event, seating: Seating) -> str | None:
    return _("Everybody passed: the hand is thrown in and the deal passes on")


@NARRATORS.on("contract")
def tell_contract(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    bid = bid_words(str(event.get("bid", event.get("contract"))))
    return said(
        seating, seat, N_("You win the bidding: {bid}"),
        N_("{name} wins the bidding: {bid}"), bid=bid,
    )  # fmt: skip


@NARRATORS.on("trump")
def tell_trump(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    suit = pretty_suit(str(event.get("suit")))
    if seating.options.get("trump_lead"):  # the declarer's first lead fixed them
        return said(
            seating, seat, N_("Your first lead makes {suit} trumps"),
            N_("{name}'s first lead makes {suit} trumps"), suit=suit,
        )  # fmt: skip
    return said(
        seating, seat, N_("You name trumps: {suit}"), N_("{name} names trumps: {suit}"),
        suit=suit,
    )  # fmt: skip


@NARRATORS.on("kitty")
def tell_kitty(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    count = int(event.get("count") or 2)
    if seating.is_you(seat):
        return _n("You take the {n} kitty card", "You take the {n} kitty cards", count)
    return _n(
        "{name} takes the {n} kitty card",
        "{name} takes the {n} kitty cards",
        count,
        name=seating.name(seat),
    )


@NARRATORS.on("kitty_cards")
def tell_kitty_cards(event: Event, seating: Seating) -> str | None:
    cards = pretty_list([str(c) for c in event.get("cards") or []])
    return _("You take {cards}", cards=cards)


@NARRATORS.on("discard")
def tell_discard(event: Event, seating: Seating) -> str | None:
    return _("You discard {card}", card=pretty(str(event.get("card"))))


@NARRATORS.on("discarded")
def tell_discarded(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    left = int(event.get("left") or 0)
    line = said(
        seating, seat, N_("You discard a card face down"),
        N_("{name} discards a card face down"),
    )  # fmt: skip
    # i18n: after "Ann discards a card face down": how many more the declarer discards
    return line + " " + _("({n} to go)", n=left) if left else line


@NARRATORS.on("play")
def tell_play(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    card = pretty(str(event.get("card")))
    return said(seating, seat, N_("You play {card}"), N_("{name} plays {card}"), card=card)


@NARRATORS.on("trick")
def tell_trick(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    value = int(event.get("points") or 0)
    cards = [str(c).upper() for c in event.get("cards") or []]
    special = [pretty(c) for c in ("5H", "3S") if c in cards]
    line = said(
        seating, seat, N_("You take the trick: {value}"), N_("{name} takes the trick: {value}"),
        value=signed(value),
    )  # fmt: skip
    if not special:
        return line
    # i18n: after "Ann takes the trick: +6": the point cards in it ({cards}: 5♥️ and 3♤)
    return line + _(", with {cards}", cards=names_and(special))


@NARRATORS.on("target_raised")
def tell_target_raised(event: Event, seating: Seating) -> str | None:
    cut = event.get("cut_off")
    target = event.get("target")
    if cut not in (None, "off"):
        return _(
            "The no trump raises the target to {target} and the cut-off to {cut}",
            target=target,
            cut=cut,
        )
    return _("The no trump raises the target to {target}", target=target)


@NARRATORS.on("hand_over")
def tell_hand_over(event: Event, seating: Seating) -> str | None:
    team = int(event.get("declarer_team", team_of(int(event.get("seat") or 0))))
    bid = bid_words(str(event.get("bid")))
    points = list(event.get("hand_points") or [0, 0])
    number, name, took = event.get("hand_number"), team_name(seating, team), points[team]
    if event.get("made"):
        return _(
            "Hand {number}: {team} made {bid} (took {took})",
            number=number, team=name, bid=bid, took=took,
        )  # fmt: skip
    return _(
        "Hand {number}: {team} were set by {short} on {bid} (took {took})",
        number=number, team=name, short=_set_by(event), bid=bid, took=took,
    )  # fmt: skip


@NARRATORS.on("game_over")
def tell_game_over(event: Event, seating: Seating) -> str | None:
    scores = list(event.get("team_scores") or [])
    winners = list(event.get("winners") or [])
    if not winners or len(scores) != 2:
        return _("Game over")
    team = team_of(int(winners[0]))
    return _(
        "🏆 {team} win, {score} to {other}",
        team=team_name(seating, team),
        score=signed_total(scores[team]),
        other=signed_total(scores[1 - team]),
    )


def _set_by(event: Event) -> int:
    team = int(event.get("declarer_team", 0))
    number = int(str(event.get("bid", "0")).split()[0])
    return number - int((event.get("hand_points") or [0, 0])[team])
