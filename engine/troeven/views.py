"""What a seat (or a spectator) sees of a Troeven game: never a face-down card or the other hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from engine.troeven.cards import CODE, SUIT_LETTER, SUIT_NAME, code_or_none, codes
from engine.views import (
    CommonView,
    FinishedTrick,
    HandKeys,
    SeatedCard,
    finished_trick,
    seated_cards,
)

if TYPE_CHECKING:
    from engine.troeven.game import TroevenGame


class LayoutSlot(TypedDict):
    """One of a player's eight layout positions."""

    up: str | None  # the face-up card there (public); None once it is played and nothing is left
    face_down: bool  # a face-down card still lies there (known to nobody, owner included)


class _TroevenViewKeys(CommonView):
    version: str  # "layout" or "stock"
    strict_follow: bool  # the strict_follow option
    caller: int  # the non-dealer, who names trumps
    trump: str | None  # trump suit letter; None until named
    trump_name: str | None  # its name ("hearts")
    leader: int  # who leads (led) the trick in progress
    trick: list[SeatedCard]  # the trick in progress, leader first
    last_trick: FinishedTrick | None
    played_tricks: list[FinishedTrick]  # every finished trick of this deal, in order
    tricks_played: int  # this deal, of 16
    tricks_won: list[int]  # per seat, this deal
    hand_points: list[int]  # card points taken per seat this deal (public: tricks are face up)
    last_hand: dict[str, Any] | None  # the last hand_over event's details
    history: list[dict[str, Any]]  # every finished deal's hand_over details: the score sheet
    winners: list[int]  # the winner once the game is over, else []


class TroevenView(_TroevenViewKeys, HandKeys, total=False):
    """What a seat (or a spectator) sees of a Troeven game. Phases: ``trump``, ``play``,
    ``over``; ``hand`` is the cards the seat may play from (layout: its face-up cards), sorted
    S H D C, high to low."""

    layout: list[list[LayoutSlot]]  # layout version: per seat, positions 1-8
    face_down_counts: list[int]  # layout version: face-down cards left per seat
    stock_size: int  # stock version: cards left to draw


def build_view(game: TroevenGame, seat: int | None) -> TroevenView:
    state = game.state
    trump = state["trump"]
    trick = state["trick"]
    leader = state["leader"]
    last = state["last_trick"]
    view: TroevenView = {
        "game": game.name,
        "seat": seat,
        "players": 2,
        "version": state["options"]["version"],
        "strict_follow": state["options"]["strict_follow"],
        "phase": state["phase"],
        "dealer": state["dealer"],
        "caller": 1 - state["dealer"],
        "to_act": game.to_act(),
        "scores": list(state["scores"]),
        "hand_number": state["hand_number"],
        "trump": None if trump is None else SUIT_LETTER[trump],
        "trump_name": None if trump is None else SUIT_NAME[trump],
        "leader": leader,
        "trick": seated_cards(trick, leader, 2, CODE),
        # Every finished trick of this deal (public: players can count the cards).
        "played_tricks": [finished_trick(t, 2, CODE) for t in state.get("played_tricks", [])],
        "last_trick": None if last is None else finished_trick(last, 2, CODE),
        "tricks_played": state["tricks_played"],
        "tricks_won": list(state["tricks_won"]),
        "hand_points": list(state["hand_points"]),
        "hand_sizes": [len(game.playable(s)) for s in (0, 1)],
        "last_hand": state["last_hand"],
        "history": [dict(row) for row in state.get("history", [])],
        "winners": list(state["winners"]),
    }
    if "up" in state:
        # Face-up cards are public; a face-down card is known to nobody, owner included.
        view["layout"] = [
            [
                {"up": code_or_none(up), "face_down": down >= 0}
                for up, down in zip(state["up"][s], state["down"][s], strict=True)
            ]
            for s in (0, 1)
        ]
        view["face_down_counts"] = [sum(1 for c in state["down"][s] if c >= 0) for s in (0, 1)]
    else:
        view["stock_size"] = len(state["stock"])
    if seat is not None:
        view["hand"] = codes(game.playable(seat))
    return view
