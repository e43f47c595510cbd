"""What a seat (or a spectator) sees of a Troika game: never another seat's hand or the kitty."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import IllegalAction
from engine.troika import bids as B
from engine.troika.cards import CODES, SUITS, codes

if TYPE_CHECKING:
    from engine.troika.game import TroikaGame

_KIND_NAME = ("trump", "trump", "no", "no")


def _contract(st: dict[str, Any]) -> dict[str, Any] | None:
    bid = st["contract"]
    if bid is None:
        return None
    return {
        "declarer": st["declarer"],
        "team": st["declarer"] & 1,
        "number": B.number_of(bid),
        "kind": _KIND_NAME[B.kind_of(bid)],
        "low": B.is_low(bid),
        "bid": B.text(bid),
    }


def _seated(cards: list[int], leader: int) -> list[dict[str, Any]]:
    return [{"seat": (leader + i) % 4, "card": CODES[c]} for i, c in enumerate(cards)]


def build_view(game: TroikaGame, seat: int | None) -> dict[str, Any]:
    if seat is not None and seat not in (0, 1, 2, 3):
        raise IllegalAction(f"There is no seat {seat} at this table.")
    st = game.state
    trump = st["trump"]
    last = st["last_trick"]
    view: dict[str, Any] = {
        "game": "troika",
        "seat": seat,
        "players": st["players"],
        "teams": [[0, 2], [1, 3]],
        "team": None if seat is None else seat & 1,
        "phase": st["phase"],
        "dealer": st["dealer"],
        "to_act": game.to_act(),
        "scores": list(st["scores"]),
        "target": st["target"],
        "cut_off": st["cut_off"],
        "hand_number": st["hands_played"] + (0 if st["phase"] == "over" else 1),
        "hand_sizes": [len(h) for h in st["hands"]],
        "bids": [{"seat": s, "bid": "pass" if b == B.PASS else B.text(b)} for s, b in st["bids"]],
        "high_bid": None if st["high"] == B.PASS else B.text(st["high"]),
        "high_bidder": st["high_seat"],
        "contract": _contract(st),
        "trump": None if trump is None else SUITS[trump],
        "trick": [] if st["leader"] is None else _seated(st["trick"], st["leader"]),
        "leader": st["leader"],
        "last_trick": None
        if last is None
        else {"cards": _seated(last["cards"], last["leader"]), "winner": last["winner"]},
        # Every finished trick of this hand (public: players can count the cards).
        "played_tricks": [
            {"cards": _seated(t["cards"], t["leader"]), "winner": t["winner"]}
            for t in st.get("played_tricks", [])
        ],
        "tricks_won": list(st["tricks"]),
        "hand_points": list(st["points"]),
        "kitty_size": len(st["kitty"]),
        "discard_count": len(st["discards"]),
        "dealer_draw": [list(pair) for pair in st["dealer_draw"]],
        "options": dict(st["options"]),
    }
    if seat is not None:
        view["hand"] = codes(st["hands"][seat])  # hands are kept sorted for display
        if seat == st["declarer"]:
            if st["phase"] == "kitty":
                view["kitty"] = codes(st["kitty_taken"])
            if st["discards"]:
                view["discards"] = codes(st["discards"])
    if st["phase"] == "over":
        view["result"] = game.result()
    return view
