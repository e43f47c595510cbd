"""What a seat (or a spectator) sees of a TroiKuntza game: never another hand or the stock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from engine.troikuntza import melds as M
from engine.troikuntza.cards import sort_hand
from engine.troikuntza.spec import ROUNDS
from engine.views import CommonView, HandKeys

if TYPE_CHECKING:
    from engine.troikuntza.game import TroiKuntzaGame


class _MeldKeys(TypedDict):
    number: int  # from 1, in the order melds were laid down; `layoff` uses it
    owner: int  # the seat that laid it down
    kind: str  # "troika" or "run"
    cards: list[str]  # in sequence order
    stands_for: list[str]  # run: the card each position stands for; troika: "7*" for a joker


class MeldView(_MeldKeys, total=False):
    rank: str  # a Troika's rank
    suit: str  # a Run's suit letter
    start: int  # a Run's first position: Ace low 1 .. Ace high 14


class MayIView(TypedDict):
    open: bool  # the May I window is open
    card: str | None  # the discard it is about, while open
    eligible: list[int]  # seats that may call it, while open
    calls: list[int]  # seats that called May I (spoken aloud, so public)
    answered: list[int]  # seats that passed or called
    waiting: bool  # the current player drew and waits for the window to close
    exposed: bool  # the top discard was uncovered by a May I: nobody may May I it
    used: list[int]  # May Is used this round, per seat
    limit: int  # the mayi_limit option
    window_seconds: int  # the mayi_window option


class _TroiKuntzaViewKeys(CommonView):
    current: int  # the seat whose turn it is (to_act may also list May I callers)
    options: dict[str, Any]  # the table's options
    rounds: int  # rounds in a game (7)
    round_points: list[list[int]]  # per finished round, the points of each seat
    contract: str  # this round's contract, e.g. "TTR" (T: Troika, R: Run)
    contract_text: str  # the same in words
    min_cards: int  # the fewest cards that meet the contract
    melds: list[MeldView]  # every meld on the table
    out: list[bool]  # per seat: has come out (met the contract) this round
    discard_top: str | None  # the top of the discard pile (the rest is not shown)
    discard_size: int
    stock_size: int
    taken: str | None  # the card taken from the discard pile this turn
    melded_this_turn: bool  # the current player came out this turn
    mayi: MayIView


class TroiKuntzaView(_TroiKuntzaViewKeys, HandKeys, total=False):
    """What a seat (or a spectator) sees of a TroiKuntza game. Phases: ``draw`` (take, draw or
    May I), ``play`` (meld, lay off, discard), ``over``; ``hand`` is sorted by suit, then rank,
    jokers last. Scores are penalty points: the lowest wins."""


def build_view(game: TroiKuntzaGame, seat: int | None) -> TroiKuntzaView:
    st = game.state
    m = st["mayi"]
    melds: list[MeldView] = []
    for number, meld in enumerate(st["melds"], start=1):
        item: MeldView = {
            "number": number,
            "owner": meld["owner"],
            "kind": meld["kind"],
            "cards": list(meld["cards"]),
            "stands_for": M.stands_for(meld),
        }
        if meld["kind"] == "run":
            item["suit"] = meld["suit"]
            item["start"] = meld["start"]
        else:
            item["rank"] = meld["rank"]
        melds.append(item)
    view: TroiKuntzaView = {
        "game": game.name,
        "seat": seat,
        "players": game.players,
        "phase": st["phase"],
        "dealer": st["dealer"],
        "current": st["current"],
        "to_act": game.to_act(),
        "scores": list(st["scores"]),
        "hand_number": st["round"],
        "options": dict(game.options),
        "rounds": ROUNDS,
        "round_points": [list(r) for r in st["history"]],
        "contract": game.contract,
        "contract_text": M.describe_contract(game.contract),
        "min_cards": M.contract_min_cards(game.contract),
        "hand_sizes": [len(h) for h in st["hands"]],
        "melds": melds,
        "out": list(st["out"]),
        "discard_top": st["discard"][-1] if st["discard"] else None,
        "discard_size": len(st["discard"]),
        "stock_size": len(st["stock"]),
        "taken": st["taken"],
        "melded_this_turn": st["melded_now"],
        "mayi": {
            "open": m["open"],
            "card": st["discard"][-1] if st["discard"] and m["open"] else None,
            "eligible": list(m["eligible"]) if m["open"] else [],
            "calls": list(m["calls"]),
            "answered": list(m["passed"]) + list(m["calls"]),
            "waiting": m["waiting"],
            "exposed": m["exposed"],
            "used": list(st["mayi_used"]),
            "limit": int(game.options["mayi_limit"]),
            "window_seconds": int(game.options["mayi_window"]),
        },
    }
    if seat is not None:
        view["hand"] = sort_hand(st["hands"][seat])
    return view
