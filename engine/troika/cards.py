"""Troika's cards as small ints, with every per-card fact precomputed in tables.

The state stores cards as ints (JSON-native, cheap to compare and filter); views and events
show the codes (``5H``). Index order is fixed for both decks, so an int means the same card in
the 32- and the 34-card deck.
"""

from __future__ import annotations

from engine.cards import parse_card
from engine.errors import IllegalAction

#: Suit letters by suit index.
SUITS = ("S", "H", "D", "C")
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

_RANKS_BY_SUIT = {
    "S": ("A", "K", "Q", "J", "10", "9", "8", "7", "3"),
    "H": ("A", "K", "Q", "J", "10", "9", "8", "7", "5"),
    "D": ("A", "K", "Q", "J", "10", "9", "8", "7"),
    "C": ("A", "K", "Q", "J", "10", "9", "8", "7"),
}

#: Every card code that exists in either deck, by card int.
CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in _RANKS_BY_SUIT[s])
CARD: dict[str, int] = {code: i for i, code in enumerate(CODES)}

FIVE_HEARTS = CARD["5H"]
THREE_SPADES = CARD["3S"]

#: 7H and 7S only belong to the kitty deck (34 cards).
DECK_34: tuple[int, ...] = tuple(range(len(CODES)))
DECK_32: tuple[int, ...] = tuple(c for c in DECK_34 if CODES[c] not in ("7H", "7S"))

SUIT: tuple[int, ...] = tuple(SUIT_INDEX[code[-1]] for code in CODES)
RANK: tuple[str, ...] = tuple(code[:-1] for code in CODES)

_HIGH = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "9": 9, "8": 8, "7": 7, "5": 5, "3": 3}
# Low contracts reverse A..7 (7 highest), but 5H and 3S stay lowest of their suits.
_LOW = {"7": 20, "8": 19, "9": 18, "10": 17, "J": 16, "Q": 15, "K": 14, "A": 13, "5": 1, "3": 1}

#: Strength of a card within its suit, normal and low contracts; higher wins.
HIGH: tuple[int, ...] = tuple(_HIGH[r] for r in RANK)
LOW: tuple[int, ...] = tuple(_LOW[r] for r in RANK)

#: Cards that stop a hand from qualifying for a misdeal (aces, courts, 5H, 3S).
HONOUR: tuple[bool, ...] = tuple(
    r in ("A", "K", "Q", "J") or c in (FIVE_HEARTS, THREE_SPADES) for c, r in enumerate(RANK)
)

#: Trick-point value of each card (5H +5, 3S -3, others 0).
POINTS: tuple[int, ...] = tuple(
    5 if c == FIVE_HEARTS else -3 if c == THREE_SPADES else 0 for c in DECK_34
)

# Display order: black and red suits alternate (S H C D), high cards first.
_SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}
SORT_KEY: tuple[int, ...] = tuple(_SUIT_ORDER[CODES[c][-1]] * 100 - HIGH[c] for c in DECK_34)

#: ``"play 5h"`` and friends, precomputed: legal_actions only looks them up.
PLAY_ACTION: tuple[str, ...] = tuple("play " + code.lower() for code in CODES)
DISCARD_ACTION: tuple[str, ...] = tuple("discard " + code.lower() for code in CODES)
_BY_LOWER: dict[str, int] = {code.lower(): i for i, code in enumerate(CODES)}


def deck_for(kitty: bool) -> tuple[int, ...]:
    return DECK_34 if kitty else DECK_32


def card_of(text: str, deck: tuple[int, ...]) -> int:
    """A typed card (already lower-case, or any form parse_card accepts) -> its int."""
    card = _BY_LOWER.get(text)
    if card is None:
        code = parse_card(text)
        card = CARD.get(code, -1)
    if card not in deck:
        raise IllegalAction("troika.not_in_deck", card=text.upper())
    return card


def codes(cards: list[int]) -> list[str]:
    return [CODES[c] for c in cards]


def sorted_codes(cards: list[int]) -> list[str]:
    """Codes sorted for display: suits S H C D, high to low."""
    return [CODES[c] for c in sorted(cards, key=SORT_KEY.__getitem__)]
