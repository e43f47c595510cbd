"""Troggu ``hard`` bidding: each bid worth trying played out over deals of the unseen cards.

The hidden cards (the other hands and the Tapp) are dealt at random around the seat's own hand,
the bids already made kept, and the deal played to its end by the engine's own rules with
``normal`` in every seat (its bids after ours, its discards and partner call, its play). A bid's
value is the seat's payment for the deal. Every bid is tried on the same deals with the same
seeds, so the differences between bids are far less noisy than the payments themselves.
"""

from __future__ import annotations

import random
from typing import Any

from engine.ai.common import View
from engine.troggu.cards import DECK, parse_card
from engine.troggu.game import TrogguGame

#: A playout longer than this many actions is cut off (a deal has at most ~130).
PLAYOUT_ACTIONS = 400


def rebuild_bidding(view: View, rng: random.Random) -> TrogguGame:
    """A game in the bidding phase matching ``view``, the unseen cards dealt at random; it ends
    with this deal (the payments of this deal are all a bid changes)."""
    n: int = view["players"]
    seat: int = view["seat"]
    mine = [parse_card(c) for c in view["hand"]]
    pool = sorted(set(DECK) - set(mine))
    rng.shuffle(pool)
    hands: list[list[int]] = []
    for s in range(n):
        if s == seat:
            hands.append(sorted(mine))
        else:
            hands.append(sorted(pool.pop() for _ in range(view["hand_sizes"][s])))
    state: dict[str, Any] = {
        "players": n,
        "options": {"deals": view["hand_number"]},
        "seed": rng.randrange(1 << 30),
        "rng_counter": 0,
        "deals": view["hand_number"],
        "hand_number": view["hand_number"],
        "scores": [0] * n,
        "last_hand": None,
        "phase": "bidding",
        "dealer": view["dealer"],
        "hands": hands,
        "tapp": pool,
        "piles": [[] for _ in range(n)],
        "tricks_won": [0] * n,
        "bids": list(view["bids"]),
        "turn": seat,
        "contract": None,
        "declarer": view.get("declarer"),
        "forced": False,
        "taken_tapp": [],
        "discards": [],
        "kings_discardable": False,
        "called": None,
        "partner": None,
        "partner_revealed": False,
        "trick": [],
        "trick_number": 1,
        "last_trick": None,
        "played": [],
        "played_tricks": [],
        "fool_held": None,
    }
    return TrogguGame(state)


def bid_payment(game: TrogguGame, seat: int, bid: str, seed: int) -> float:
    """``seat``'s payment for the deal once it bids ``bid``, ``normal`` playing every seat."""
    from engine.ai.troggu import TrogguNormal

    game.apply(seat, bid)
    for step in range(PLAYOUT_ACTIONS):
        if game.is_over():
            break
        actor = game.to_act()[0]
        legal = game.legal_actions(actor)
        game.apply(actor, TrogguNormal(seed + step).choose(game.view(actor), legal))
    return float(game.state["scores"][seat])


__all__ = ["bid_payment", "rebuild_bidding"]
