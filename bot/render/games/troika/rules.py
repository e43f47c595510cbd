"""Troika's ``/rules`` in the reader's language, written for the table's options.

The words of ``engine.troika.summary`` (which stays the engine's English summary for callers
without a language), said here with ``_()``; the facts (which bids, what the options do) are
the engine's. The game's own words stay: Troika (Kaiser), the bids as players type them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _
from engine.troika import bids as B
from engine.troika.spec import SPEC


def _bid_kinds(options: Mapping[str, Any]) -> str:
    names = {
        B.TRUMP: _("7 (trumps)"),
        # i18n: a bid as typed (`bid 7 low`)
        B.TRUMP_LOW: _("7 low"),
        # i18n: a bid as typed (`bid 7 no`: no trump)
        B.NO: _("7 no"),
        # i18n: a bid as typed (`bid 7 no low`)
        B.NO_LOW: _("7 no low"),
    }
    return " < ".join(names[k] for k in B.kinds_allowed(dict(options)))


def rules_text(options: Mapping[str, Any] | None = None) -> str:
    """The rules as they apply with ``options`` (missing options take their defaults)."""
    o = SPEC.resolve(None, dict(options or {}))
    lines = [
        _("**Troika (Kaiser)** - 4 players in two partnerships; partners sit opposite."),
        (
            _("Deck: 34 cards (A-7 in every suit, 5H, 3S); 8 each and 2 to a kitty.")
            if o["kitty"]
            else _("Deck: 32 cards (A-8 in every suit, 7C, 7D, 5H, 3S); 8 each.")
        ),
        _("Ranking in every suit: A K Q J 10 9 8 7, then 5H / 3S lowest."),
    ]
    if o["first_dealer"] is None:
        lines.append(
            _("First dealer: the first player dealt a Jack face up; the deal then passes left.")
        )
    if o["misdeal"]:
        lines.append(
            _("Misdeal: a hand with no ace, no K/Q/J and neither 5H nor 3S may be thrown in.")
        )
    if o["auction"] == "single":
        lines.append(
            _(
                "Bidding: one turn each from the dealer's left; pass or bid higher. "
                "The dealer bids last and may equal the high bid to take it."
            )
        )
    else:
        lines.append(
            _("Bidding: bid higher or pass; a pass drops you out until one bidder is left.")
        )
    lines.append(
        _(
            "Bids: {min} to 12; kinds at the same number, lowest first: {kinds}.",
            min=o["min_bid"],
            kinds=_bid_kinds(o),
        )
    )
    if o["stick_dealer"]:
        lines.append(_("If everyone passes, the dealer must bid."))
    else:
        lines.append(_("If everyone passes, the hand is thrown in and the deal passes left."))
    if o["trump_lead"]:
        lines.append(_("Trumps: the suit of the declarer's first lead (trump bids)."))
    else:
        lines.append(_("Trumps: the declarer names any suit (not in a `no` bid)."))
    if o["kitty"]:
        lines.append(_("Kitty: the declarer takes it and discards 2 cards, never 5H or 3S."))
    if o["low"] != "off":
        lines.append(_("Low contracts: 7 8 9 10 J Q K A high to low; 5H and 3S still lowest."))
    lines.append(
        _(
            "Play: the declarer leads; follow suit if you can; highest trump, else highest of "
            "the suit led, wins."
        )
    )
    lines.append(_("Hand points: +1 per trick, the 5H trick +5, the 3S trick -3 (10 in all)."))
    if o["set_penalty"] == "bid":
        lines.append(
            _(
                "Declarers who make their bid add their points, else lose their bid; doubled "
                "for `no` bids."
            )
        )
    else:
        lines.append(
            _(
                "Declarers who make their bid add their points, else lose the points they "
                "took; doubled for `no` bids."
            )
        )
    if o["max_non_bid"] == "off":
        lines.append(_("Defenders always add their points."))
    else:
        lines.append(
            _(
                "Defenders add their points while below {cut}; at or above it only losses count.",
                cut=o["max_non_bid"],
            )
        )
    if o["no_trump_increase"]:
        lines.append(_("The first made `no` contract raises the target and that cut-off by 10."))
    if o["end"] == "points":
        lines.append(
            _("Game: first team to {target} (the declarers count first).", target=o["target"])
        )
    else:
        lines.append(_("Game: {n} hands; the higher score wins, a tie plays on.", n=o["rounds"]))
    return "\n".join(lines)
