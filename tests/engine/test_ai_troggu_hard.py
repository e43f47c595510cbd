"""Troggu ``hard``: its bid by the chance a ``hard`` declarer wins the Tapp, its card play's
determinism per seed."""

from __future__ import annotations

import pytest

import engine
from engine.troggu.ai.bidding import TAPP_CHANCE, tapp_win_chance
from engine.troggu.ai.players import BID_THRESHOLDS, TrogguHard, TrogguNormal, hand_strength
from engine.troggu.cards import CODES, parse_card

BIDS = ["pass", "tapp", "solo"]
#: Nine cards (6 players): the Fool and four high trumps.
STRONG = ["FOOL", "T20", "T18", "T16", "T9", "T4", "6-CU", "5-BA", "5-CO"]
#: No trump, no King: low plain cards only.
WEAK = ["6-CU", "5-CU", "4-CU", "6-CO", "5-SW", "6-SW", "7-SW", "5-BA", "6-BA"]


def bid_view(hand: list[str], players: int) -> dict:
    return {"phase": "bidding", "players": players, "hand": hand, "seat": 0}


def cards(hand: list[str]) -> list[int]:
    return [parse_card(x) for x in hand]


def test_hard_bids_a_tapp_with_a_strong_hand_and_passes_a_weak_one() -> None:
    players = 6
    strong, weak = cards(STRONG), cards(WEAK)
    assert tapp_win_chance(strong, players) > TAPP_CHANCE > tapp_win_chance(weak, players)
    # The strong hand is below normal's Solo threshold: a Tapp, not a Solo.
    assert hand_strength(strong) < BID_THRESHOLDS[players][1]
    assert TrogguHard(1).choose(bid_view(STRONG, players), BIDS) == "tapp"
    assert TrogguHard(1).choose(bid_view(WEAK, players), BIDS) == "pass"
    # After a Tapp only Pass or Solo is left: the weak hand passes.
    assert TrogguHard(1).choose(bid_view(WEAK, players), ["pass", "solo"]) == "pass"


def test_hard_bids_lower_than_normal_where_measured() -> None:
    """Five middling trumps at 6 players: below ``normal``'s threshold, but a ``hard``
    declarer wins such a Tapp more often than not."""
    hand = ["T18", "T16", "T12", "T8", "T6", "6-CU", "5-CU", "6-CO", "5-BA"]
    assert hand_strength(cards(hand)) < BID_THRESHOLDS[6][0]
    assert TrogguNormal(1).choose(bid_view(hand, 6), BIDS) == "pass"
    assert TrogguHard(1).choose(bid_view(hand, 6), BIDS) == "tapp"


def test_the_fool_raises_the_chance_and_other_sizes_have_no_model() -> None:
    hand = cards(WEAK)
    with_fool = [parse_card("FOOL"), *hand[1:]]
    assert tapp_win_chance(with_fool, 6) > tapp_win_chance(hand, 6)
    assert tapp_win_chance(cards(STRONG), 4) is None


@pytest.mark.parametrize("players", [4, 7, 8])
def test_hard_bids_as_normal_without_a_model(players: int) -> None:
    """Table sizes without a model keep ``normal``'s thresholds (and Solo stays ``normal``'s
    everywhere)."""
    deck = engine.new_game("troggu", players, seed=0).state["hands"]
    for hand in deck:
        view = bid_view([CODES[x] for x in hand], players)
        assert TrogguHard(1).choose(view, BIDS) == TrogguNormal(1).choose(view, BIDS)


@pytest.mark.parametrize("players", [6, 8])
def test_hard_plays_the_same_card_for_the_same_seed(players: int) -> None:
    game = engine.new_game("troggu", players, seed=3)
    moves = 0
    checked = 0
    while not game.is_over() and checked < 4:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        if game.state["phase"] == "play" and len(legal) > 1:
            # The counts bound the work; the time budget (a safety net) is lifted so a busy
            # machine cannot cut the search short.
            first = TrogguHard(moves, budget=60).choose(view, legal)
            assert TrogguHard(moves, budget=60).choose(view, legal) == first
            checked += 1
        game.apply(seat, TrogguNormal(moves).choose(view, legal))
        moves += 1
    assert checked == 4
