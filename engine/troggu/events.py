"""Troggu's events, as ``TypedDict``s: what ``TrogguGame.apply`` returns, one per kind.

Events are JSON dicts; ``type`` names the kind. Cards are codes as the game shows them
(``k-cu``, ``t12``, ``fool``). An event with ``private_to`` is for that seat only.
``tests/engine/test_contract.py`` checks every event the game gives against ``EVENTS``.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from engine.views import SeatedCard


class Deal(TypedDict):
    type: Literal["deal"]
    dealer: int
    hand_number: int


class Bid(TypedDict):
    type: Literal["bid"]
    seat: int
    bid: str  # "pass", "tapp" or "solo"


class ForcedTapp(TypedDict):
    type: Literal["forced_tapp"]
    seat: int  # who must play the Tapp
    reason: str  # "fool" or "t1": the card he holds


class ContractEvent(TypedDict):
    type: Literal["contract"]
    contract: str  # "tapp", "solo" or "misere"
    seat: int | None  # the declarer (None: misère, everyone for himself)
    forced: bool


class Call(TypedDict):
    type: Literal["call"]
    seat: int
    card: str | None  # the called trump; None: "call none", he plays alone


class Partner(TypedDict):
    type: Literal["partner"]
    seat: int
    private_to: int  # the called partner learns it


class Alone(TypedDict):
    type: Literal["alone"]
    seat: int
    private_to: int  # he holds or discarded the called card: he alone knows he is alone


class TakeTapp(TypedDict):
    type: Literal["take_tapp"]
    seat: int
    count: int


class TappCards(TypedDict):
    type: Literal["tapp_cards"]
    seat: int
    cards: list[str]
    private_to: int


class TappToPile(TypedDict):
    type: Literal["tapp_to_pile"]
    seat: int
    count: int


class Discard(TypedDict):
    type: Literal["discard"]
    seat: int
    left: int  # still to discard


class DiscardCard(TypedDict):
    type: Literal["discard_card"]
    seat: int
    card: str
    private_to: int


class FoolHeld(TypedDict):
    type: Literal["fool_held"]
    seat: int
    private_to: int


class Play(TypedDict):
    type: Literal["play"]
    seat: int
    card: str


class PartnerRevealed(TypedDict):
    type: Literal["partner_revealed"]
    seat: int
    tappist: int


class FoolExchange(TypedDict):
    type: Literal["fool_exchange"]
    seat: int  # the Fool's owner
    to: int  # who took the trick and gives a card back
    points: int | None


class Trick(TypedDict):
    type: Literal["trick"]
    seat: int  # the winner
    trick_number: int
    cards: list[SeatedCard]
    points: int


class HandOver(TypedDict):
    type: Literal["hand_over"]
    hand_number: int
    dealer: int
    contract: str
    declarer: int | None
    forced: bool
    called: str | None  # the called card
    partner: int | None
    card_points: list[int]  # per seat
    tapp_points: int
    # None in a misere deal: every seat plays for itself, there is no side nor multiple.
    contract_points: int | None
    others_points: int | None
    tricks: list[int]
    multiple: int | None
    payments: list[int]
    scores: list[int]


class GameOver(TypedDict):
    type: Literal["game_over"]
    scores: list[int]
    winners: list[int]


#: Every kind of event the game gives, by ``type``.
EVENTS: dict[str, type] = {
    "deal": Deal,
    "bid": Bid,
    "forced_tapp": ForcedTapp,
    "contract": ContractEvent,
    "call": Call,
    "partner": Partner,
    "alone": Alone,
    "take_tapp": TakeTapp,
    "tapp_cards": TappCards,
    "tapp_to_pile": TappToPile,
    "discard": Discard,
    "discard_card": DiscardCard,
    "fool_held": FoolHeld,
    "play": Play,
    "partner_revealed": PartnerRevealed,
    "fool_exchange": FoolExchange,
    "trick": Trick,
    "hand_over": HandOver,
    "game_over": GameOver,
}
