"""Troeven's 32 cards as small ints, with every lookup precomputed.

Card ``c`` is ``suit * 8 + rank`` with suits in display order S H D C and ranks A K Q J 10 9 8 7
(index 0 = Ace). So within a suit a *lower* int is a *higher* card, and sorting ints sorts a hand
for display (by suit, high to low). The state stores these ints; views and events show codes.
"""

from __future__ import annotations

from engine.cards import SUIT_NAMES, SUITS, parse_card
from engine.errors import IllegalAction

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
RANK_POINTS = (4, 3, 2, 1, 0, 0, 0, 0)
NO_CARD = -1  # an empty slot (layout position) in the state

CARD_COUNT = 32
ALL_CARDS = tuple(range(CARD_COUNT))
CODE: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
SUIT: tuple[int, ...] = tuple(c // 8 for c in ALL_CARDS)
POINTS: tuple[int, ...] = tuple(RANK_POINTS[c % 8] for c in ALL_CARDS)
TOTAL_POINTS = sum(POINTS)  # 40
#: ``"play as"`` -> 0: the exact normalized action string for each card (fast path of parsing).
PLAY_ACTION: tuple[str, ...] = tuple(f"play {code.lower()}" for code in CODE)
CARD_OF_PLAY_ACTION: dict[str, int] = {a: c for c, a in enumerate(PLAY_ACTION)}
CARD_OF_CODE: dict[str, int] = {code: c for c, code in enumerate(CODE)}

SUIT_LETTER: tuple[str, ...] = SUITS
SUIT_INDEX: dict[str, int] = {s: i for i, s in enumerate(SUITS)}
SUIT_NAME: tuple[str, ...] = tuple(SUIT_NAMES[s] for s in SUITS)
TRUMP_ACTIONS: list[str] = [f"trump {s.lower()}" for s in SUITS]


def card_of(text: str) -> int:
    """A typed card (any spelling ``engine.cards.parse_card`` accepts) -> its int.

    Raises ``IllegalAction`` for text that is not a card, or a card not in Troeven's deck (a 5).
    """
    code = parse_card(text)
    if code not in CARD_OF_CODE:
        raise IllegalAction("troeven.not_in_deck", card=code)
    return CARD_OF_CODE[code]


def codes(cards: list[int]) -> list[str]:
    """Ints -> codes, sorted for display (empty slots skipped)."""
    return [CODE[c] for c in sorted(cards) if c >= 0]


def code_or_none(card: int) -> str | None:
    """A layout slot's code; None for an empty slot."""
    return None if card < 0 else CODE[card]
