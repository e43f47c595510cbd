"""What a seat (or a spectator) sees of a Troika game: never another seat's hand or the kitty."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from engine.errors import IllegalAction
from engine.troika import bids as B
from engine.troika.cards import CODES, SUITS, codes
from engine.troika.listing import hand_of
from engine.views import (
    CommonView,
    FinishedTrick,
    HandKeys,
    SeatedCard,
    finished_trick,
    seated_cards,
)

if TYPE_CHECKING:
    from engine.troika.game import TroikaGame


class BidView(TypedDict):
    seat: int
    bid: str  # "pass" or the bid's text, e.g. "7 no low"


class ContractView(TypedDict):
    declarer: int  # the seat that won the auction
    team: int  # the declarer's team (0: seats 0+2, 1: seats 1+3)
    number: int  # hand points bid, 7-12
    kind: str  # "trump" or "no" (no trumps)
    low: bool  # low ranking (7 high .. A low) in every suit
    bid: str  # the bid's text, e.g. "8 no"


class _TroikaViewKeys(CommonView):
    teams: list[list[int]]  # always [[0, 2], [1, 3]]
    team: int | None  # this seat's team; None for a spectator
    target: int  # game score to reach (raised by no_trump_increase)
    cut_off: int | str  # defenders' cut-off score, or "off"
    bids: list[BidView]  # this hand's auction so far, in order
    high_bid: str | None  # the highest bid so far
    high_bidder: int | None  # who made it
    contract: ContractView | None  # once the auction is over
    trump: str | None  # trump suit letter; None before it is named or in a "no" contract
    trick: list[SeatedCard]  # the trick in progress, leader first
    leader: int | None  # who leads (led) the trick in progress
    last_trick: FinishedTrick | None
    played_tricks: list[FinishedTrick]  # every finished trick of this hand, in order
    tricks_won: list[int]  # per team, this hand
    hand_points: list[int]  # per team, this hand (a trick 1, 5H +5, 3S -3)
    kitty_size: int  # cards still in the kitty
    discard_count: int  # cards the declarer has discarded from the kitty exchange
    dealer_draw: list[list[Any]]  # [seat, card] dealt face up to find the first dealer
    history: list[dict[str, Any]]  # one row per scored hand: the score sheet
    options: dict[str, Any]  # the table's options


class TroikaView(_TroikaViewKeys, HandKeys, total=False):
    """What a seat (or a spectator) sees of a Troika game. Phases: ``bidding``, ``trump``,
    ``kitty``, ``play``, ``over``; ``hand`` is sorted S H C D, high to low."""

    kitty: list[str]  # the two kitty cards taken: the declarer, during the exchange only
    discards: list[str]  # the declarer's own kitty discards: the declarer only
    result: dict[str, Any]  # TroikaGame.result(), once the game is over


def _contract(game: TroikaGame) -> ContractView | None:
    bid = game.contract
    if bid is None:
        return None
    declarer = game.declarer
    return {
        "declarer": declarer,
        "team": declarer & 1,
        "number": B.number_of(bid),
        "kind": B.KIND_NAMES[B.kind_of(bid)],
        "low": B.is_low(bid),
        "bid": B.text(bid),
    }


def build_view(game: TroikaGame, seat: int | None) -> TroikaView:
    """What ``seat`` sees, read from the game's attributes (see ``TroikaGame``)."""
    if seat is not None and seat not in (0, 1, 2, 3):
        raise IllegalAction("seat.unknown", seat=seat if isinstance(seat, int) else str(seat))
    trump = game.trump
    last = game.last_trick
    phase = game.phase
    leader = game.leader
    high = game.high
    view: TroikaView = {
        "game": "troika",
        "seat": seat,
        "players": game.players,
        "teams": [[0, 2], [1, 3]],
        "team": None if seat is None else seat & 1,
        "phase": phase,
        "dealer": game.dealer,
        "to_act": game.to_act(),
        "scores": list(game.scores),
        "target": game.target,
        "cut_off": game.cut_off,
        "hand_number": game.hands_played + (0 if phase == "over" else 1),
        "hand_sizes": [mask.bit_count() for mask in game.masks],
        "bids": [{"seat": s, "bid": "pass" if b == B.PASS else B.text(b)} for s, b in game.bids],
        "high_bid": None if high == B.PASS else B.text(high),
        "high_bidder": game.high_seat,
        "contract": _contract(game),
        "trump": None if trump is None else SUITS[trump],
        "trick": [] if leader is None else seated_cards(game.trick, leader, 4, CODES),
        "leader": leader,
        "last_trick": None if last is None else finished_trick(last, 4, CODES),
        # Every finished trick of this hand (public: players can count the cards).
        "played_tricks": [finished_trick(t, 4, CODES) for t in game.played_tricks or ()],
        "tricks_won": list(game.tricks),
        "hand_points": list(game.points),
        "kitty_size": len(game.kitty),
        "discard_count": len(game.discards),
        "dealer_draw": [list(pair) for pair in game.dealer_draw],
        "history": [dict(row) for row in game.history or ()],
        "options": dict(game.options),
    }
    if seat is not None:
        view["hand"] = codes(hand_of(game.masks[seat]))  # display order, by its bits
        if seat == game.declarer:
            if phase == "kitty":
                view["kitty"] = codes(game.kitty_taken)
            if game.discards:
                view["discards"] = codes(game.discards)
    if phase == "over":
        view["result"] = game.result()
    return view
