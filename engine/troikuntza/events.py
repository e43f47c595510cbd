"""TroiKuntza's events, as ``TypedDict``s: what ``TroiKuntzaGame.apply`` returns, one per kind.

Events are JSON dicts; ``type`` names the kind. Cards are codes (``7H``, ``JK``); contracts their
codes (``TTR``: 2 Troikas and 1 Run). An event with ``private_to`` is for that seat only.
``tests/engine/test_contract.py`` checks every event the game gives against ``EVENTS``.
"""

# No ``from __future__ import annotations``: TypedDict must see ``NotRequired`` itself (3.11).
from typing import Literal, NotRequired, TypedDict


class Deal(TypedDict):
    type: Literal["deal"]
    round: int  # 1-7
    contract: str
    dealer: int
    upcard: str  # the first card of the discard pile


class Hand(TypedDict):
    type: Literal["hand"]
    seat: int
    cards: list[str]
    private_to: int


class Take(TypedDict):
    type: Literal["take"]
    seat: int
    card: str  # the top discard


class Draw(TypedDict):
    type: Literal["draw"]
    seat: int


class Drawn(TypedDict):
    type: Literal["drawn"]
    seat: int
    card: str
    private_to: int


class Reshuffle(TypedDict):
    type: Literal["reshuffle"]
    cards: int  # discards shuffled into the new stock


class Decline(TypedDict):
    type: Literal["decline"]
    seat: int  # the player whose turn it is leaves the discard
    card: str
    waiting: NotRequired[bool]  # the May I window is still open: its answer is awaited


class MayICall(TypedDict):
    type: Literal["mayi_call"]
    seat: int


class MayIPass(TypedDict):
    type: Literal["mayi_pass"]
    seat: int


class MayIVoid(TypedDict):
    type: Literal["mayi_void"]
    seats: list[int]  # whose calls the current player's take cancelled
    by: int


class WindowClosed(TypedDict):
    type: Literal["window_closed"]
    calls: list[int]  # the seats that called May I


class MayI(TypedDict):
    type: Literal["mayi"]
    seat: int  # who gets the discard
    card: str
    void: list[int]  # the other callers
    used: int  # May Is he has completed this round


class Penalty(TypedDict):
    type: Literal["penalty"]
    seat: int  # he takes a penalty card from the stock


class PenaltyCard(TypedDict):
    type: Literal["penalty_card"]
    seat: int
    card: str
    private_to: int


class Exposed(TypedDict):
    type: Literal["exposed"]
    seat: int
    card: str | None  # the discard now on top for the current player (None: the pile is empty)


class Discard(TypedDict):
    type: Literal["discard"]
    seat: int
    card: str


class MeldLaid(TypedDict):
    number: int  # meld numbers run from 1 over the table
    kind: str  # "troika" or "run"
    cards: list[str]


class Meld(TypedDict):
    type: Literal["meld"]
    seat: int
    contract: str
    melds: list[MeldLaid]


class Layoff(TypedDict):
    type: Literal["layoff"]
    seat: int
    card: str
    meld: int  # its number
    bumped: bool  # it bumped a joker on a run (``engine.troikuntza.melds``)
    cards: list[str]  # the meld after the lay-off


class Out(TypedDict):
    type: Literal["out"]
    seat: int


class HandOver(TypedDict):
    type: Literal["hand_over"]
    round: int
    contract: str
    reason: str  # "out" or "stock"
    went_out: int | None
    points: list[int]  # points each seat takes this round
    hands: list[list[str]]  # the cards left in each hand
    scores: list[int]


class GameOver(TypedDict):
    type: Literal["game_over"]
    scores: list[int]
    winners: list[int]


#: Every kind of event the game gives, by ``type``.
EVENTS: dict[str, type] = {
    "deal": Deal,
    "hand": Hand,
    "take": Take,
    "draw": Draw,
    "drawn": Drawn,
    "reshuffle": Reshuffle,
    "decline": Decline,
    "mayi_call": MayICall,
    "mayi_pass": MayIPass,
    "mayi_void": MayIVoid,
    "window_closed": WindowClosed,
    "mayi": MayI,
    "penalty": Penalty,
    "penalty_card": PenaltyCard,
    "exposed": Exposed,
    "discard": Discard,
    "meld": Meld,
    "layoff": Layoff,
    "out": Out,
    "hand_over": HandOver,
    "game_over": GameOver,
}
