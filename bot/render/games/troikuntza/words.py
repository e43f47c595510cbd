"""TroiKuntza: the game's words and small helpers every surface of its presenter uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import N_, _n
from bot.render.games._words import names_and
from bot.render.games.cards import face, hand_words, pretty
from bot.render.presenter import View

#: Beyond this many melds (or characters) they are shown compactly, one line per player (a
#: run as its span, a Troika as its rank and size): on a phone 30 melds card by card are a
#: long scroll, and the picture shows every card anyway.
MELDS_FULL = 8
MELDS_FULL_TEXT = 1500
_SUIT_ORDER = ("S", "H", "D", "C")


def hand_text(cards: Sequence[str]) -> str:
    """A hand by suit, jokers last: ``3♤ K♤ · 4♥️ 4♥️ · 🃏``."""
    return hand_words(cards, _hand_text)


def _hand_text(cards: Sequence[str]) -> str:
    groups: dict[str, list[str]] = {}
    for code in cards:
        f = face(code)
        groups.setdefault(f.suit if f.family == "french" else "JK", []).append(pretty(code))
    return " · ".join(" ".join(groups[k]) for k in (*_SUIT_ORDER, "JK") if k in groups) or "—"


def contract_words(contract: Any) -> str:
    """``TTR`` -> ``2 Troikas and 1 Run`` in the reader's language (the engine's
    ``describe_contract`` in English)."""
    parts = []
    for kind in dict.fromkeys(str(contract or "")):  # in the contract's order
        n = str(contract).count(kind)
        if kind == "T":
            # i18n: a TroiKuntza meld, the game's own word (3+ cards of one rank).
            parts.append(_n("{n} Troika", "{n} Troikas", n))
        elif kind == "R":
            # i18n: a TroiKuntza meld, the game's own word (4+ cards in sequence in one suit).
            parts.append(_n("{n} Run", "{n} Runs", n))
    return names_and(parts)


#: The labels of the moves that need no card, and the replies to them.
LABELS = {
    "take": N_("Take the discard"),
    "draw": N_("Draw from the stock"),
    # i18n: TroiKuntza's call for the discard out of turn, the game's own words.
    "mayi": N_("May I"),
    "pass": N_("Pass"),
    "close": N_("Close the May I window"),
}
DONE = {
    "take": N_("You took the discard"),
    "draw": N_("You drew from the stock"),
    "mayi": N_("You called May I"),
    "pass": N_("You passed"),
    "close": N_("You closed the May I window"),
}
#: The ends of a run a joker may be laid off at (``layoff jk 2 low``).
ENDS = {"low": N_("low end"), "high": N_("high end")}


def round_number(view: View) -> int:
    return int(view.get("hand_number") or 0)


def fit(text: str, limit: int = 80) -> str:
    """A label within ``limit`` characters; an over-long one ends with a mark."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
