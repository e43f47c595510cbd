"""Card codes as players read them: ``10H`` -> ``10♥``, ``K-CU`` -> ``K🏆``.

Display only: parsing and every rule stay in ``engine``. French codes reuse ``engine.cards``;
Troggu's Tarot codes (``K-CU``, ``T21``, ``FOOL``) are formatted here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engine import cards as french

#: Tarot suits: code -> (name, symbol for text).
TAROT_SUITS = {
    "CU": ("cups", "🏆"),
    "CO": ("coins", "🪙"),
    "SW": ("swords", "⚔"),
    "BA": ("batons", "🪄"),
}
#: French suits in message text. Discord draws ♠ and ♣ as black emoji, nearly invisible on the
#: dark theme; the outline ♤ and ♧ are not emoji, so they take the theme's text colour (light on
#: dark, dark on light). Hearts and diamonds stay the red emoji, readable on both.
TEXT_SUITS = {"S": "♤", "H": "♥️", "D": "♦️", "C": "♧"}
_TAROT_SUIT_CARD = re.compile(r"^([A-Z0-9]+)-?(CU|CO|SW|BA)$")
_TRUMP = re.compile(r"^T(\d{1,2})$")


@dataclass(frozen=True)
class Face:
    """What a card shows, for text and pictures.

    ``family`` is ``french``, ``tarot`` (a suited Tarot card), ``trump``, ``fool``, ``joker``
    or ``hidden``/``unknown``; ``red`` says whether it prints in red.
    """

    code: str
    rank: str
    suit: str
    family: str
    red: bool


@lru_cache(maxsize=4096)
def face(code: str) -> Face:
    """What ``code`` shows (remembered: a panel asks for a few dozen faces, a busy bot for
    thousands a second, always among the same few hundred codes)."""
    text = str(code).strip().upper()
    if text == french.JOKER:
        return Face(text, "JK", "", "joker", True)
    if text == "FOOL":
        return Face(text, "Fool", "", "fool", False)
    if text in {"??", "XX", "BACK", "HIDDEN"}:
        return Face(text, "", "", "hidden", False)
    trump = _TRUMP.match(text)
    if trump:
        return Face(text, trump.group(1), "", "trump", False)
    tarot = _TAROT_SUIT_CARD.match(text)
    if tarot and ("-" in text or tarot.group(2) in TAROT_SUITS):
        rank, suit = tarot.group(1), tarot.group(2)
        return Face(text, rank, suit, "tarot", suit in {"CU", "CO"})
    if len(text) >= 2 and text[-1] in french.SUITS and text[:-1] in french.RANKS:
        suit = text[-1]
        return Face(text, text[:-1], suit, "french", suit in {"H", "D"})
    return Face(text, text, "", "unknown", False)


def pretty(code: str) -> str:
    """A card for a message: ``10♥``, ``K🏆``, ``XXI``-style trumps as ``T21``, ``Fool``."""
    f = face(code)
    if f.family == "french":
        return f.rank + TEXT_SUITS[f.suit]
    if f.family == "joker":
        return "🃏"
    if f.family == "tarot":
        return f.rank + TAROT_SUITS[f.suit][1]
    if f.family == "trump":
        return f"T{f.rank}"
    if f.family == "fool":
        return "Fool"
    if f.family == "hidden":
        return "🂠"
    return f.code


def pretty_list(codes: list[str] | tuple[str, ...], empty: str = "—") -> str:
    return " ".join(pretty(c) for c in codes) if codes else empty


def suit_name(code: str) -> str:
    """``H`` -> ``hearts``; Tarot ``CU`` -> ``cups``; anything else as given."""
    key = str(code).strip().upper()
    if key in french.SUIT_NAMES:
        return french.SUIT_NAMES[key]
    if key in TAROT_SUITS:
        return TAROT_SUITS[key][0]
    return str(code)


def pretty_suit(code: str) -> str:
    key = str(code).strip().upper()
    if key in TEXT_SUITS:
        return f"{TEXT_SUITS[key]} {french.SUIT_NAMES[key]}"
    if key in TAROT_SUITS:
        return f"{TAROT_SUITS[key][1]} {TAROT_SUITS[key][0]}"
    return str(code)


def pretty_action(action: str) -> str:
    """An engine action word list, with card codes prettified (``play 5h`` -> ``play 5♥``)."""
    words = action.split()
    out = []
    for word in words:
        f = face(word)
        out.append(pretty(word) if f.family not in {"unknown"} and len(word) >= 2 else word)
    return " ".join(out)
