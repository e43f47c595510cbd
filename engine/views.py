"""The view keys every game shares, as ``TypedDict``s.

A view is plain JSON data (``Game.view(seat)``). Each game documents its own view as a
``<Name>View`` in its ``views`` module, built on ``CommonView`` and ``HandKeys``; these are the
pieces they share. The contract tests (``tests/engine/test_contract.py``) check every view against
its game's ``TypedDict``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict


class SeatedCard(TypedDict):
    """A card on the table, with the seat that played it."""

    seat: int
    card: str  # its code, e.g. "10H"


class FinishedTrick(TypedDict):
    """The last trick taken (``last_trick``): its cards in play order and who won it."""

    cards: list[SeatedCard]
    winner: int


class CommonView(TypedDict):
    """The keys of every game's view, spectators' included."""

    game: str  # the game's name, as in engine.GAMES
    seat: int | None  # whose view this is; None: a spectator's
    players: int  # seats at the table, numbered 0..players-1
    phase: str  # where the deal stands; "over" once the game is over
    dealer: int  # the seat that dealt this deal
    to_act: list[int]  # seats whose move is awaited (several during TroiKuntza's May I)
    scores: list[int]  # game scores (per team in Troika, else per seat)
    hand_number: int  # the deal being played, from 1
    hand_sizes: list[int]  # cards each seat holds (or may play from)


class HandKeys(TypedDict, total=False):
    """The key every seat's view has and a spectator's never has."""

    hand: list[str]  # this seat's own cards, as codes


def seated_cards(
    cards: Iterable[int], leader: int, players: int, code: Sequence[str]
) -> list[SeatedCard]:
    """``cards`` in play order from ``leader`` (seats in turn), each with the seat that played it;
    ``code`` maps a card number to its code."""
    return [{"seat": (leader + i) % players, "card": code[c]} for i, c in enumerate(cards)]


def finished_trick(trick: Mapping[str, Any], players: int, code: Sequence[str]) -> FinishedTrick:
    """A stored trick (``cards`` in play order, ``leader``, ``winner``) as a view's trick."""
    return {
        "cards": seated_cards(trick["cards"], trick["leader"], players, code),
        "winner": trick["winner"],
    }
