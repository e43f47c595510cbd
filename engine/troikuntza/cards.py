"""TroiKuntza's cards: codes (``7H``, ``JK``), one 54-card deck per ``decks``, and hand order.

Card points and what a card can stand for in a meld live with the melds (``melds.py``).
"""

from __future__ import annotations

from engine.cards import JOKER, SUITS

_RANK_ORDER = {
    r: i for i, r in enumerate(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
}


def full_deck(decks: int) -> list[str]:
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    one = [r + s for s in SUITS for r in ranks] + [JOKER, JOKER]
    return one * decks


def sort_hand(cards: list[str]) -> list[str]:
    """For display: by suit, then rank, jokers last."""
    return sorted(
        cards, key=lambda c: (5, 0) if c == JOKER else (SUITS.index(c[-1]), _RANK_ORDER[c[:-1]])
    )
