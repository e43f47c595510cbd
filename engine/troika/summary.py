"""A readable summary of the Troika rules for a table's options (the bot's `/rules`)."""

from __future__ import annotations

from typing import Any

from engine.troika import bids as B
from engine.troika.spec import SPEC


def _bid_kinds(options: dict[str, Any]) -> str:
    names = {B.TRUMP: "7 (trumps)", B.TRUMP_LOW: "7 low", B.NO: "7 no", B.NO_LOW: "7 no low"}
    return " < ".join(names[k] for k in B.kinds_allowed(options))


def summary(options: dict[str, Any] | None = None) -> str:
    """The rules as they apply with ``options`` (missing options take their defaults)."""
    o = SPEC.resolve(None, options or {})
    lines = [
        "**Troika (Kaiser)** - 4 players in two partnerships; partners sit opposite.",
        (
            "Deck: 34 cards (A-7 in every suit, 5H, 3S); 8 each and 2 to a kitty."
            if o["kitty"]
            else "Deck: 32 cards (A-8 in every suit, 7C, 7D, 5H, 3S); 8 each."
        ),
        "Ranking in every suit: A K Q J 10 9 8 7, then 5H / 3S lowest.",
    ]
    if o["first_dealer"] is None:
        lines.append(
            "First dealer: the first player dealt a Jack face up; the deal then passes left."
        )
    if o["misdeal"]:
        lines.append(
            "Misdeal: a hand with no ace, no K/Q/J and neither 5H nor 3S may be thrown in."
        )
    if o["auction"] == "single":
        auction = (
            "Bidding: one turn each from the dealer's left; pass or bid higher. "
            "The dealer bids last and may equal the high bid to take it."
        )
    else:
        auction = "Bidding: bid higher or pass; a pass drops you out until one bidder is left."
    lines.append(auction)
    lines.append(
        f"Bids: {o['min_bid']} to 12; kinds at the same number, lowest first: {_bid_kinds(o)}."
    )
    if o["stick_dealer"]:
        lines.append("If everyone passes, the dealer must bid.")
    else:
        lines.append("If everyone passes, the hand is thrown in and the deal passes left.")
    if o["trump_lead"]:
        lines.append("Trumps: the suit of the declarer's first lead (trump bids).")
    else:
        lines.append("Trumps: the declarer names any suit (not in a `no` bid).")
    if o["kitty"]:
        lines.append("Kitty: the declarer takes it and discards 2 cards, never 5H or 3S.")
    if o["low"] != "off":
        lines.append("Low contracts: 7 8 9 10 J Q K A high to low; 5H and 3S still lowest.")
    lines += [
        "Play: the declarer leads; follow suit if you can; highest trump, else highest of the "
        "suit led, wins.",
        "Hand points: +1 per trick, the 5H trick +5, the 3S trick -3 (10 in all).",
        "Declarers who make their bid add their points, else lose "
        + ("their bid" if o["set_penalty"] == "bid" else "the points they took")
        + "; doubled for `no` bids.",
    ]
    if o["max_non_bid"] == "off":
        lines.append("Defenders always add their points.")
    else:
        lines.append(
            f"Defenders add their points while below {o['max_non_bid']}; "
            "at or above it only losses count."
        )
    if o["no_trump_increase"]:
        lines.append("The first made `no` contract raises the target and that cut-off by 10.")
    if o["end"] == "points":
        lines.append(f"Game: first team to {o['target']} (the declarers count first).")
    else:
        lines.append(f"Game: {o['rounds']} hands; the higher score wins, a tie plays on.")
    return "\n".join(lines)
