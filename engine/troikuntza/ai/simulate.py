"""TroiKuntza determinization: a whole game rebuilt from one seat's view, the hidden cards dealt.

``hard`` evaluates its few candidate actions by playing the rest of the round out with the
``normal`` policy in every seat, over several such deals. The unseen cards (the other hands, the
stock and the covered discards) are every card of the decks minus what the seat sees: its hand,
the melds on the table and the top discard (and the whole pile when the view lists it under
``discard_pile``). The rules are the engine's own, so the playouts cannot drift from them.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.ai.common import View, copy_state
from engine.troikuntza.ai.evaluation import usefulness
from engine.troikuntza.game import TroiKuntzaGame, full_deck
from engine.troikuntza.spec import deck_count


def _meld(item: dict[str, Any]) -> dict[str, Any]:
    meld: dict[str, Any] = {
        "kind": item["kind"],
        "owner": item["owner"],
        "cards": list(item["cards"]),
    }
    if item["kind"] == "run":
        meld["suit"] = item["suit"]
        meld["start"] = item["start"]
    else:
        meld["rank"] = item["rank"]
    return meld


def _developed_hand(pool: list[str], size: int, choices: int, contract: str) -> list[str]:
    """The most developed of ``choices`` hands dealt from the end of ``pool`` (taken out of it).

    A player still short of his contract has kept and taken the cards that help him for
    several turns: a uniformly random hand would make him far slower than he is, and a
    playout would then count on a long round."""
    best: list[str] = []
    best_score = -1.0
    best_at = 0
    start = len(pool)
    for k in range(min(choices, len(pool) // max(1, size))):
        hand = pool[start - (k + 1) * size : start - k * size]
        score = sum(usefulness(c, hand[:i] + hand[i + 1 :], contract) for i, c in enumerate(hand))
        if score > best_score:
            best, best_score = hand, score
            best_at = k
    if not best:
        return [pool.pop() for _ in range(size)]
    del pool[start - (best_at + 1) * size : start - best_at * size]
    return list(best)


def determinize(view: View, rng: random.Random, choices: int = 1) -> TroiKuntzaGame:
    """A game matching ``view`` in everything the seat sees, the rest dealt at random (the
    hands of players not yet out: the most developed of ``choices`` random hands)."""
    n: int = view["players"]
    seat: int = view["seat"]
    options = dict(view["options"])
    decks = deck_count(n, options)
    unseen = Counter(full_deck(decks))
    unseen.subtract(view["hand"])
    for item in view["melds"]:
        unseen.subtract(item["cards"])
    pile: list[str] | None = view.get("discard_pile")
    top = view.get("discard_top")
    if pile is not None:
        unseen.subtract(pile)
    elif top:
        unseen.subtract([top])
    pool = sorted(unseen.elements())  # sorted first: the same view always gives the same deal
    rng.shuffle(pool)
    hands: list[list[str]] = []
    for s in range(n):
        size = min(view["hand_sizes"][s], len(pool))
        if s == seat:
            hands.append(list(view["hand"]))
        elif view["out"][s] or choices <= 1:
            hands.append([pool.pop() for _ in range(size)])
        else:
            hands.append(_developed_hand(pool, size, choices, view["contract"]))
    if pile is None:
        covered = max(0, view["discard_size"] - (1 if top else 0))
        pile = [pool.pop() for _ in range(min(covered, len(pool)))] + ([top] if top else [])
    stock = pool[: view["stock_size"]]
    m = view["mayi"]
    current: int = view["current"]
    state: dict[str, Any] = {
        "players": n,
        "options": options,
        "seed": rng.randrange(1 << 30),
        "rng_counter": 0,
        "decks": decks,
        "round": view["hand_number"],
        "dealer": view["dealer"],
        "scores": list(view["scores"]),
        "history": [list(r) for r in view["round_points"]],
        "phase": view["phase"],
        "hands": hands,
        "stock": stock,
        "discard": pile,
        "melds": [_meld(item) for item in view["melds"]],
        "out": list(view["out"]),
        "mayi_used": list(m["used"]),
        "current": current,
        "taken": view.get("taken"),
        "melded_now": bool(view.get("melded_this_turn")),
        # Not in the view: the seat before the current one made the last discard.
        "discarder": None if view["discard_size"] <= 1 else (current - 1) % n,
        "reshuffles": 0,
        "mayi": {
            "open": bool(m["open"]),
            "eligible": list(m["eligible"]),
            "calls": list(m["calls"]),
            "passed": [s for s in m["answered"] if s not in m["calls"]],
            "waiting": bool(m["waiting"]),
            "exposed": bool(m["exposed"]),
        },
    }
    return TroiKuntzaGame(state)


def copy_game(game: TroiKuntzaGame) -> TroiKuntzaGame:
    return TroiKuntzaGame(copy_state(game.state))
