"""What a seat may do, as tuples made once: the play listings by hand mask, the auction's by
the options that shape it.

``TroikaGame`` lists a seat's legal actions at nearly every move (every driver asks before it
moves): answering with a tuple looked up here, instead of one built from the hand or the bid
list each time, is most of what makes the engine's moves cheap. Tuples are shared and never
changed; ``legal_actions`` hands out list copies of them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import Any

from engine.troika import bids as B
from engine.troika.cards import (
    CODES,
    DISCARD_ACTION,
    FIVE_HEARTS,
    HONOUR,
    PLAY_ACTION,
    SUIT,
    THREE_SPADES,
)

#: ``BIT[card]``: a card's bit in a hand mask (bit ``card``; a suit's cards are consecutive ints,
#: high first: the hand's display order within the suit).
BIT: tuple[int, ...] = tuple(1 << card for card in range(len(CODES)))
#: The masks' bits of the cards that stop a hand from being thrown in (a misdeal: no ace, no
#: K/Q/J, neither 5H nor 3S).
HONOURS: int = sum(BIT[card] for card, honour in enumerate(HONOUR) if honour)

_FIRST = tuple(SUIT.index(suit) for suit in range(4))  # each suit's first card int
_WIDTH = tuple(SUIT.count(suit) for suit in range(4))  # cards per suit in the 34-card deck
#: ``SHIFT[suit]``, ``HELD[suit]``: a suit's part of a hand mask is ``mask >> SHIFT & HELD``.
SHIFT: tuple[int, ...] = _FIRST
HELD: tuple[int, ...] = tuple((1 << width) - 1 for width in _WIDTH)
#: The bits of the cards a kitty exchange may not discard (5H, 3S).
KEPT: int = BIT[FIVE_HEARTS] | BIT[THREE_SPADES]


def _by_part(of: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """``[suit][part]``: the actions ``of[card]`` of that part of a hand, high first."""
    return tuple(
        tuple(
            tuple(of[first + i] for i in range(width) if part >> i & 1)
            for part in range(1 << width)
        )
        for first, width in zip(_FIRST, _WIDTH, strict=True)
    )


#: ``FOLLOW[suit][part]``: the play actions of that part of a hand, high first.
FOLLOW = _by_part(PLAY_ACTION)
#: ``FOLLOW``'s tables one name each (a lead's listing reads all four: no subscript of FOLLOW).
FOLLOW_S, FOLLOW_H, FOLLOW_D, FOLLOW_C = FOLLOW
_DISCARDS = _by_part(DISCARD_ACTION)


#: ``CARDS[suit][part]``: the cards of that part of a hand, high first.
CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(first + i for i in range(width) if part >> i & 1) for part in range(1 << width))
    for first, width in zip(_FIRST, _WIDTH, strict=True)
)


def mask_of(hand: list[int]) -> int:
    """A hand's cards as bits."""
    mask = 0
    for card in hand:
        mask |= BIT[card]
    return mask


def hand_of(mask: int) -> list[int]:
    """The cards of a hand mask in display order (suits S H C D, high first), as
    ``cards.SORT_KEY`` sorts them."""
    cards = CARDS
    return [
        *cards[0][mask & 511],
        *cards[1][mask >> 9 & 511],
        *cards[3][mask >> 26 & 255],
        *cards[2][mask >> 18 & 255],
    ]


def play_listing(mask: int, led: int | None) -> tuple[str, ...]:
    """The play actions of the hand ``mask`` to a trick led in suit ``led`` (None: a lead): the
    cards of the suit led if it holds any, else all, in hand order (suits S H C D)."""
    if led is not None:
        follow = FOLLOW[led][mask >> SHIFT[led] & HELD[led]]
        if follow:
            return follow
    return (
        FOLLOW_S[mask & 511]
        + FOLLOW_H[mask >> 9 & 511]
        + FOLLOW_C[mask >> 26 & 255]
        + FOLLOW_D[mask >> 18 & 255]
    )


def discard_listing(mask: int) -> tuple[str, ...]:
    """The kitty exchange's discards of the hand ``mask``: any card but 5H and 3S, in hand
    order."""
    mask &= ~KEPT
    return (
        _DISCARDS[0][mask & 511]
        + _DISCARDS[1][mask >> 9 & 511]
        + _DISCARDS[3][mask >> 26 & 255]
        + _DISCARDS[2][mask >> 18 & 255]
    )


class Auction:
    """One kind of auction (the options that shape it): the bids it allows and every listing of
    them, made at once and then looked up (``auction_for``: one per kind).

    A listing is ``pass`` if the seat may pass, ``misdeal`` if it may throw its hand in, then
    the bids that equal (the dealer's privilege) or beat the high bid. Its key in
    ``listings``: ``(high + 1) * 8 + may_pass + 2 * may_misdeal + 4 * may_equal``, ``high``
    the high bid (``bids.PASS``: none yet)."""

    __slots__ = (
        "bids",
        "actions",
        "stick_dealer",
        "misdeal",
        "single",
        "listings",
        "dealer",
        "others",
    )

    def __init__(
        self,
        min_bid: int,
        low: str,
        no_trump: bool,
        stick_dealer: bool,
        misdeal: bool,
        auction: str,
    ) -> None:
        options = {"min_bid": min_bid, "low": low, "no_trump": no_trump}
        self.bids, self.actions = B.bid_actions(options)
        self.stick_dealer = stick_dealer
        self.misdeal = misdeal
        self.single = auction == "single"
        self.listings: dict[int, tuple[str, ...]] = {}
        # ``dealer[may_misdeal][high + 1]``, ``others[may_misdeal][high + 1]``: the listings of
        # the dealer and of any other seat, made at once (a few hundred tuples shared by every
        # table of these options): an awaited bidder's listing is then two lookups.
        highs = range(B.PASS, max(self.bids, default=B.PASS) + 1)
        single = 4 * self.single
        self.dealer = tuple(
            tuple(
                self.listing(
                    (high + 1) * 8 + (not stick_dealer) + 2 * misdeal
                    if high == B.PASS
                    else (high + 1) * 8 + 1 + 2 * misdeal + single
                )
                for high in highs
            )
            for misdeal in (0, 1)
        )
        self.others = tuple(
            tuple(self.listing((high + 1) * 8 + 1 + 2 * misdeal) for high in highs)
            for misdeal in (0, 1)
        )

    def listing(self, key: int) -> tuple[str, ...]:
        """The listing of ``key`` (see the class), made once."""
        found = self.listings.get(key)
        if found is None:
            high, flags = divmod(key, 8)
            high -= 1
            bids = self.bids
            start = bisect_left(bids, high) if flags & 4 else bisect_right(bids, high)
            head = ("pass",) * (flags & 1) + ("misdeal",) * (flags >> 1 & 1)
            found = self.listings[key] = head + self.actions[start:]
        return found


@lru_cache(maxsize=64)
def _auction(
    min_bid: int, low: str, no_trump: bool, stick_dealer: bool, misdeal: bool, auction: str
) -> Auction:
    return Auction(min_bid, low, no_trump, stick_dealer, misdeal, auction)


def auction_for(options: dict[str, Any]) -> Auction:
    """The ``Auction`` of a table's options (one per kind, shared)."""
    return _auction(
        options["min_bid"],
        options["low"],
        bool(options["no_trump"]),
        bool(options["stick_dealer"]),
        bool(options["misdeal"]),
        options["auction"],
    )
