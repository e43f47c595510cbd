"""Trinket's events, as ``TypedDict``s: what ``TrinketGame.apply`` returns, one per kind."""

# No ``from __future__ import annotations``: TypedDict must see its annotations itself.
from typing import Literal, TypedDict


class Play(TypedDict):
    type: Literal["play"]
    seat: int
    card: str


class Trick(TypedDict):
    type: Literal["trick"]
    seat: int  # the winner, who leads next
    cards: list[str]  # in play order


class HandOver(TypedDict):
    type: Literal["hand_over"]
    hand_number: int
    scores: list[int]


class GameOver(TypedDict):
    type: Literal["game_over"]
    scores: list[int]
    winners: list[int]


#: Each event kind's ``TypedDict``, by its ``type``.
EVENTS: dict[str, type] = {
    "play": Play,
    "trick": Trick,
    "hand_over": HandOver,
    "game_over": GameOver,
}
