"""2-Player Troeven: the game's words and small helpers every surface of its presenter uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _n
from bot.render.games.cards import face
from bot.render.presenter import View
from engine.troeven.cards import CARD_OF_CODE, POINTS

DEAL_POINTS = 40
TRICKS = 16
#: Marks a face-up card lying on a face-down one.
COVERS = "⁺"


def card_points(cards: list[str]) -> str:
    """A trick's card points (A 4, K 3, Q 2, J 1)."""
    value = sum(POINTS[CARD_OF_CODE[c.upper()]] for c in cards if c.upper() in CARD_OF_CODE)
    return _n("{n} point", "{n} points", value)


def places(view: View, seat: int) -> list[Mapping[str, Any]]:
    layout = view.get("layout")
    if not isinstance(layout, list) or not 0 <= seat < len(layout):
        return []
    return [p for p in layout[seat] if isinstance(p, Mapping)]


def suit_of(code: str) -> str:
    return face(code).suit
