"""Troika's events, as ``TypedDict``s: what ``TroikaGame.apply`` returns, one per kind.

Events are JSON dicts; ``type`` names the kind. Cards are codes (``5H``), bids their typed text
(``7 no low``). Scores are per team in ``hand_over`` (as in views) and per seat in ``game_over``
(as in ``result()``). An event with ``private_to`` is for that seat only.
``tests/engine/test_contract.py`` checks every event the game gives against ``EVENTS``.
"""

from __future__ import annotations

from typing import Literal, TypedDict


class Deal(TypedDict):
    type: Literal["deal"]
    seat: int  # the dealer
    dealer: int
    hand_number: int


class Bid(TypedDict):
    type: Literal["bid"]
    seat: int
    bid: str  # e.g. "7 no"


class Pass(TypedDict):
    type: Literal["pass"]
    seat: int


class Misdeal(TypedDict):
    type: Literal["misdeal"]
    seat: int
    cards: list[str]  # the thrown-in hand, shown to all: it proves it qualifies


class ThrownIn(TypedDict):
    type: Literal["thrown_in"]
    seat: int  # the dealer
    reason: str  # "all passed"


class Contract(TypedDict):
    type: Literal["contract"]
    seat: int  # the declarer
    contract: str  # the bid's text
    bid: str
    number: int  # hand points bid
    kind: str  # "trump" or "no"
    low: bool


class Trump(TypedDict):
    type: Literal["trump"]
    seat: int
    suit: str  # S, H, D or C


class Kitty(TypedDict):
    type: Literal["kitty"]
    seat: int  # the declarer, who takes it
    count: int


class KittyCards(TypedDict):
    type: Literal["kitty_cards"]
    seat: int
    cards: list[str]
    private_to: int  # the declarer


class Discard(TypedDict):
    type: Literal["discard"]
    seat: int
    card: str
    private_to: int  # the declarer


class Discarded(TypedDict):
    type: Literal["discarded"]
    seat: int
    count: int  # discarded so far
    left: int  # still to discard


class Play(TypedDict):
    type: Literal["play"]
    seat: int
    card: str


class Trick(TypedDict):
    type: Literal["trick"]
    seat: int  # the winner
    cards: list[str]  # in play order
    points: int  # hand points it carries (5H +5, 3S -3, 1 a trick)


class TargetRaised(TypedDict):
    type: Literal["target_raised"]
    target: int
    cut_off: int | str  # the defenders' cut-off; "off" (max_non_bid off): always add


class HandOver(TypedDict):
    type: Literal["hand_over"]
    hand_number: int
    seat: int  # the declarer
    declarer_team: int
    bid: str
    made: bool
    hand_points: list[int]  # per team
    tricks: list[int]  # per team
    changes: list[int]  # score changes per team
    scores: list[int]  # per team
    target: int
    cut_off: int | str  # "off" when defenders always add their points
    raised: bool  # no_trump_increase raised the target in this hand


class GameOver(TypedDict):
    type: Literal["game_over"]
    scores: list[int]  # per seat (its team's)
    team_scores: list[int]
    winners: list[int]  # seats


#: Every kind of event the game gives, by ``type``.
EVENTS: dict[str, type] = {
    "deal": Deal,
    "bid": Bid,
    "pass": Pass,
    "misdeal": Misdeal,
    "thrown_in": ThrownIn,
    "contract": Contract,
    "trump": Trump,
    "kitty": Kitty,
    "kitty_cards": KittyCards,
    "discard": Discard,
    "discarded": Discarded,
    "play": Play,
    "trick": Trick,
    "target_raised": TargetRaised,
    "hand_over": HandOver,
    "game_over": GameOver,
}
