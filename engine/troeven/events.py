"""2-Player Troeven's events, as ``TypedDict``s: what ``TroevenGame.apply`` returns, one per kind.

Events are JSON dicts; ``type`` names the kind. Cards are codes (``10H``); layout positions run
1-8. Some kinds differ by version (layout, stock): their keys only one version gives are
``NotRequired``. An event with ``private_to`` is for that seat only.
``tests/engine/test_contract.py`` checks every event the game gives against ``EVENTS``.
"""

# No ``from __future__ import annotations``: TypedDict must see ``NotRequired`` itself (3.11).
from typing import Literal, NotRequired, TypedDict


class Deal(TypedDict):
    type: Literal["deal"]
    seat: int  # the dealer
    dealer: int
    caller: int  # the non-dealer, who names trumps
    hand_number: int
    face_up: NotRequired[list[str]]  # layout: the caller's 4 public cards


class Cards(TypedDict):
    type: Literal["cards"]
    seat: int
    cards: list[str]  # stock: the cards the seat receives
    private_to: int


class Trump(TypedDict):
    type: Literal["trump"]
    seat: int
    suit: str  # S, H, D or C
    name: str  # the suit's name


class DealComplete(TypedDict):
    type: Literal["deal_complete"]
    face_up: NotRequired[list[list[str | None]]]  # layout: per seat and position (None: empty)
    stock_size: NotRequired[int]  # stock: cards left to draw


class Play(TypedDict):
    type: Literal["play"]
    seat: int
    card: str
    position: NotRequired[int]  # layout: the position it was played from


class TurnUp(TypedDict):
    type: Literal["turn_up"]
    seat: int
    position: int
    card: str  # the face-down card now face up


class Trick(TypedDict):
    type: Literal["trick"]
    seat: int  # the winner
    winner: int
    cards: list[str]  # in play order
    leader: int
    points: int  # card points it carries


class Draw(TypedDict):
    type: Literal["draw"]
    seat: int
    card: NotRequired[str]  # to the drawer only (with private_to)
    private_to: NotRequired[int]
    stock_size: NotRequired[int]  # to everybody (without the card)


class HandOver(TypedDict):
    type: Literal["hand_over"]
    seat: int | None  # the deal's winner, None when nobody won it
    hand_number: int
    dealer: int
    caller: int
    trump: str
    points: list[int]  # card points per seat
    tricks: list[int]  # tricks per seat
    winner: int | None
    changes: list[int]
    scores: list[int]


class GameOver(TypedDict):
    type: Literal["game_over"]
    scores: list[int]
    winners: list[int]


#: Every kind of event the game gives, by ``type``.
EVENTS: dict[str, type] = {
    "deal": Deal,
    "cards": Cards,
    "trump": Trump,
    "deal_complete": DealComplete,
    "play": Play,
    "turn_up": TurnUp,
    "trick": Trick,
    "draw": Draw,
    "hand_over": HandOver,
    "game_over": GameOver,
}
