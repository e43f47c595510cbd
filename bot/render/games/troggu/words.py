"""Troggu: the game's words and small helpers every surface of its presenter uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import N_, _
from bot.render.games.cards import TAROT_SUITS, face, hand_words, pretty
from bot.render.presenter import Seating
from engine.troggu.cards import CODES, POINTS

_POINTS = dict(zip(CODES, POINTS, strict=True))
INDEX = {code: card for card, code in enumerate(CODES)}
# i18n: Troggu's contracts, the game's own words (players usually keep them).
CONTRACT = {"tapp": N_("Tapp"), "solo": N_("Solo"), "misere": N_("Misère")}
BIDS = {"pass": N_("Pass"), "tapp": N_("Tapp"), "solo": N_("Solo")}
SUIT_WORD = {"cups": "CU", "coins": "CO", "swords": "SW", "batons": "BA"}
# i18n: the Tarot suits of Troggu, in a sentence ("No cups: you must play a trump.").
SUIT_NAME = {
    "cups": N_("cups"),
    "coins": N_("coins"),
    "swords": N_("swords"),
    "batons": N_("batons"),
}


#: The legal moves' lines in the private panel, by verb.
MOVE_LINE = {
    "play": N_("Play: {cards}"),
    "discard": N_("Discard: {cards}"),
    "call": N_("Call: {cards}"),
}


def contract_name(contract: Any) -> str:
    """A contract's name (Tapp, Solo, Misère) in the reader's language."""
    known = CONTRACT.get(str(contract))
    return _(known) if known else str(contract)


def suit(lead: str) -> str:
    """A Tarot suit led, with its symbol (``🏆 cups``), or ``trumps``."""
    if lead in SUIT_WORD:
        return f"{TAROT_SUITS[SUIT_WORD[lead]][1]} {_(SUIT_NAME[lead])}"
    return _("trumps")


def card_points(cards: Sequence[str]) -> int:
    return sum(_POINTS.get(str(c).upper(), 0) for c in cards)


def grouped(cards: Sequence[str]) -> str:
    """A hand by suit, trumps last: ``K🏆 3🏆 · 10⚔ · T21 T4 Fool``."""
    return hand_words(cards, _grouped)


def _grouped(cards: Sequence[str]) -> str:
    groups: dict[str, list[str]] = {}
    for code in cards:
        f = face(code)
        key = f.suit if f.family == "tarot" else "trumps"
        groups.setdefault(key, []).append(pretty(code))
    order = ["CU", "CO", "SW", "BA", "trumps"]
    return " · ".join(" ".join(groups[k]) for k in order if k in groups) or "—"


def trick_pairs(items: Any) -> list[tuple[int, str]]:
    return [(int(i["seat"]), str(i["card"])) for i in items or []]


def trick_text(pairs: Sequence[tuple[int, str]], seating: Seating) -> str:
    return " · ".join(f"{seating.who(s)} {pretty(c)}" for s, c in pairs)
