"""Troika (Kaiser): the game's words and small helpers every surface of its presenter uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _, _n
from bot.render.games._words import signed
from bot.render.games.cards import pretty
from bot.render.presenter import Seating, View

TEAMS = ((0, 2), (1, 3))
#: A team's hand points minus its tricks tell which point cards it took (5♥️ +5, 3♤ −3).
_POINT_CARDS = {0: (), 5: ("5H",), -3: ("3S",), 2: ("5H", "3S")}
_POINT_VALUE = {"5H": 5, "3S": -3}


def bid_words(bid: str) -> str:
    """An engine bid (``7``, ``7 no``, ``7 no low``, ``8 low``) as players say it."""
    words = str(bid).split()
    if not words:
        return str(bid)
    kind = " ".join(words[1:])
    number = words[0]
    if kind == "":
        return number
    if kind == "no":
        return _("{n} no trump", n=number)
    if kind == "no low":
        return _("{n} no trump low", n=number)
    if kind == "low":
        # i18n: a low contract (7 beats 8 ... beats A)
        return _("{n} low", n=number)
    return str(bid)


def is_no_trump(bid: str) -> bool:
    return "no" in str(bid).split()


def team_name(seating: Seating, team: int) -> str:
    """``Ann & Cid`` (``You & Cid`` for the reader's team, the reader first)."""
    seats = sorted(TEAMS[team], key=lambda seat: not seating.is_you(seat))
    return " & ".join(seating.who(seat) for seat in seats)


def team_of(seat: int) -> int:
    return seat & 1


def options_of(view: View | None, seating: Seating) -> Mapping[str, Any]:
    options = (view or {}).get("options")
    return options if isinstance(options, Mapping) and options else seating.options


def trick_value(cards: list[str]) -> str:
    """A trick's hand points: 1, with 5♥️ +5 and 3♤ −3 (``+1``, ``+6``, ``−2``)."""
    return signed(1 + sum(_POINT_VALUE.get(c.upper(), 0) for c in cards))


def points_detail(points: int, tricks: int) -> str:
    """``3 tricks, 5♥️ +5``: what made a team's hand points."""
    parts = [_n("{n} trick", "{n} tricks", tricks)]
    for card in _POINT_CARDS.get(points - tricks, ()):
        parts.append(f"{pretty(card)} {signed(_POINT_VALUE[card])}")
    return ", ".join(parts)
