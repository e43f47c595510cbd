"""French-suited card codes shared by Troika, Troeven and TroiKuntza.

A card code is rank then suit, upper case: ``AS``, ``10H``, ``5H``, ``3S``; the joker is ``JK``.
Input is case-insensitive, accepts ``T`` for 10 and suit symbols; output may add symbols.
"""

from __future__ import annotations

from engine.errors import IllegalAction

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
JOKER = "JK"

_SUIT_WORDS = {
    **{s.lower(): s for s in SUITS},
    **{name: s for s, name in SUIT_NAMES.items()},
    **{name[:-1]: s for s, name in SUIT_NAMES.items()},
    **{sym: s for s, sym in SUIT_SYMBOLS.items()},
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
}


def parse_suit(text: str) -> str:
    """``h``, ``hearts``, ``♥`` -> ``H``."""
    key = text.strip().lower()
    if key in _SUIT_WORDS:
        return _SUIT_WORDS[key]
    raise IllegalAction("card.not_a_suit", text=text)


def parse_card(text: str) -> str:
    """A typed card -> its canonical code; raises ``IllegalAction`` for anything else."""
    raw = text.strip().upper().replace(" ", "")
    if raw in {"JK", "JOKER", "★"}:
        return JOKER
    if len(raw) >= 2:
        rank, suit_text = raw[:-1], raw[-1]
        if rank == "T":
            rank = "10"
        suit = _SUIT_WORDS.get(suit_text.lower())
        if rank in RANKS and suit is not None:
            return rank + suit
    raise IllegalAction("card.not_a_card", text=text)


def suit_of(code: str) -> str:
    return code[-1]


def rank_of(code: str) -> str:
    return code[:-1]


def pretty(code: str) -> str:
    """``10H`` -> ``10♥`` for display."""
    if code == JOKER:
        return "🃏"
    return rank_of(code) + SUIT_SYMBOLS[suit_of(code)]
