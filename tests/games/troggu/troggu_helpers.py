"""Builders for Troggu tests: stacked decks, exact situations, scripted play."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import engine
from engine.troggu.cards import CODES, DECK, parse_card
from engine.troggu.game import TrogguGame
from engine.troggu.spec import DEAL_SIZES


def stack(
    players: int,
    hands: dict[int, list[str]] | None = None,
    tapp: Iterable[str] = (),
    dealer: int = 0,
) -> list[str]:
    """A 62-card deck that deals ``hands`` (partial hands are filled up) and ``tapp``.

    Unnamed cards fill the hands seat by seat (0 first), then the Tapp, in deck order
    (Cups, Coins, Swords, Batons high to low, the Fool, T21 .. T1).
    """
    size, tapp_size = DEAL_SIZES[players]
    hands = hands or {}
    named = [c for h in hands.values() for c in h] + list(tapp)
    assert len(set(named)) == len(named), "a card named twice"
    rest = [c for c in CODES if c not in named]
    full: dict[int, list[str]] = {}
    for seat in range(players):
        hand = list(hands.get(seat, []))
        assert len(hand) <= size
        while len(hand) < size:
            hand.append(rest.pop(0))
        full[seat] = hand
    left = list(tapp)
    while len(left) < tapp_size:
        left.append(rest.pop(0))
    deck = [full[(dealer + 1 + j) % players][r] for r in range(size) for j in range(players)]
    return deck + left


def new(
    players: int,
    hands: dict[int, list[str]] | None = None,
    tapp: Iterable[str] = (),
    dealer: int = 0,
    deals: int = 1,
    seed: int = 1,
) -> TrogguGame:
    deck = stack(players, hands, tapp, dealer)
    game = engine.new_game(
        "troggu", players, {"first_dealer": dealer, "deals": deals}, seed=seed, deck=deck
    )
    assert isinstance(game, TrogguGame)
    return game


def hand(game: engine.Game, seat: int) -> list[str]:
    return [CODES[c] for c in game.state["hands"][seat]]


def ints(cards: Iterable[str]) -> list[int]:
    return [parse_card(c) for c in cards]


def bid_all(game: engine.Game, bids: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """Every seat bids (``pass`` unless told) until the bidding is over."""
    bids = bids or {}
    events: list[dict[str, Any]] = []
    while game.state["phase"] == "bidding":
        seat = game.to_act()[0]
        events += game.apply(seat, bids.get(seat, "pass"))
    return events


def discard_first(game: engine.Game) -> list[dict[str, Any]]:
    """The Tappist discards his first discardable card until the discard is done."""
    events: list[dict[str, Any]] = []
    while game.state["phase"] == "discard":
        seat = game.to_act()[0]
        events += game.apply(seat, game.legal_actions(seat)[0])
    return events


Chooser = Callable[[engine.Game, int, list[str]], str]


def first_legal(game: engine.Game, seat: int, legal: list[str]) -> str:
    return legal[0]


def play_out(game: engine.Game, chooser: Chooser = first_legal) -> list[dict[str, Any]]:
    """Play until the current deal is scored (or the game is over)."""
    events: list[dict[str, Any]] = []
    while not game.is_over():
        seat = game.to_act()[0]
        new_events = game.apply(seat, chooser(game, seat, game.legal_actions(seat)))
        events += new_events
        if any(e["type"] == "hand_over" for e in new_events):
            break
    return events


def situation(
    players: int,
    hands: dict[int, list[str]],
    turn: int,
    trick: Iterable[tuple[int, str]] = (),
    piles: dict[int, list[str]] | None = None,
    fool_held: int | None = None,
    contract: str = "misere",
    declarer: int | None = None,
) -> TrogguGame:
    """A deal in play at an exact point: hands, trick so far, piles; unnamed cards lie in the
    Tapp (set aside, as in a Misère) so that every card is still in exactly one place."""
    game = new(players, dealer=players - 1)
    st = game.state
    piles = piles or {}
    hand_lists = [ints(hands.get(s, [])) for s in range(players)]
    trick_pairs = [[s, parse_card(c)] for s, c in trick]
    pile_lists = [ints(piles.get(s, [])) for s in range(players)]
    used = {c for h in hand_lists for c in h} | {c for _, c in trick_pairs}
    used |= {c for p in pile_lists for c in p}
    size = DEAL_SIZES[players][0]
    st.update(
        {
            "phase": "play",
            "hands": [sorted(h) for h in hand_lists],
            "piles": pile_lists,
            "tapp": [c for c in DECK if c not in used],
            "trick": trick_pairs,
            "turn": turn,
            "fool_held": fool_held,
            "contract": contract,
            "declarer": declarer,
            "trick_number": size - max(len(h) for h in hand_lists) + 1,
        }
    )
    return game
