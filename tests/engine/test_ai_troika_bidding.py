"""Troika ``hard`` bidding (``engine.troika.ai.bidding``): calls valued over sampled deals."""

from __future__ import annotations

import math
import random
from typing import Any

from conftest import act, stacked_game

from engine.troika import bids as B
from engine.troika.ai.bidding import Auction, BidSearch
from engine.troika.ai.hard import TroikaHard
from engine.troika.cards import CODES, DECK_32

STRONG = ["AS", "KS", "QS", "JS", "10S", "AH", "AC", "AD"]
WEAK = ["8S", "9S", "8H", "9H", "8C", "9C", "8D", "7D"]


def game_with(hands: dict[int, list[str]], **options: Any):
    """Dealer 3 (seat 0 calls first) and ``hands`` dealt; games by rounds, as the bench plays."""
    full = [CODES[c] for c in DECK_32]
    options = {"end": "rounds", "rounds": 6, **options}
    return stacked_game("troika", 4, full, 8, 3, hands, **options)


def hard_call(game, seed: int = 1, bid_samples: int = 48) -> str:
    seat = game.to_act()[0]
    player = TroikaHard(seed, bid_samples=bid_samples, budget=math.inf)
    action = player.choose(game.view(seat), game.legal_actions(seat))
    assert not player.failures, player.failures
    return action


def test_a_clearly_strong_hand_bids() -> None:
    action = hard_call(game_with({0: STRONG}))
    assert action.startswith("bid "), action


def test_a_weak_hand_passes() -> None:
    assert hard_call(game_with({0: WEAK}, misdeal=False)) == "pass"


def test_a_weak_hand_passes_after_an_opponent_bid() -> None:
    game = game_with({1: WEAK}, misdeal=False)
    act(game, "bid 7")
    assert hard_call(game) == "pass"


def test_a_misdeal_hand_is_thrown_in() -> None:
    assert hard_call(game_with({0: WEAK})) == "misdeal"


def test_a_stuck_dealer_bids() -> None:
    game = game_with({3: WEAK}, misdeal=False)
    act(game, "pass", "pass", "pass")
    action = hard_call(game)
    assert action.startswith("bid 6"), action


def test_the_same_seed_gives_the_same_call() -> None:
    hand = ["KS", "JS", "10S", "8S", "9H", "5H", "QD", "9D"]
    game = game_with({0: hand})
    calls = {hard_call(game, seed=7, bid_samples=24) for _ in range(3)}
    assert len(calls) == 1


def test_the_auction_ends_with_the_dealer() -> None:
    # Seat 1 calls with dealer 3: seats 2 and 3 call after him, each once.
    game = game_with({})
    act(game, "pass")
    auction = Auction(game.view(1))
    asked: list[int] = []

    def decide(seat: int, high: int, partner_high: bool, may_pass: bool) -> int | None:
        asked.append(seat)
        return None if may_pass else B.value(6, B.TRUMP)

    # We pass and so does seat 2: the dealer is stuck with the minimum.
    assert auction.finish(B.PASS, decide) == (3, B.value(6, B.TRUMP))
    assert asked == [2, 3]
    asked.clear()
    # We bid: the others pass, the contract is ours.
    assert auction.finish(B.value(7, B.NO), decide) == (1, B.value(7, B.NO))
    assert asked == [2, 3]


def test_the_dealer_may_equal_the_high_bid() -> None:
    game = game_with({})
    act(game, "bid 7", "pass", "pass")
    auction = Auction(game.view(3))
    bids, may_pass = auction.legal(3, auction.high)
    assert may_pass
    assert bids[0] == B.value(7, B.TRUMP)


def test_sampled_deals_fit_the_earlier_calls() -> None:
    # Seat 0 bid 8 no: the deals kept give him a hand ``normal`` would bid with.
    game = game_with({})
    act(game, "bid 8 no")
    search = BidSearch(game.view(1), random.Random(3), 12, math.inf)
    deals = search.sample()
    assert len(deals) >= 6
    hands = [hands for hands, _ in deals]
    assert all(sorted(h[1]) == sorted(search.hand) for h in hands)
    for dealt in hands:
        assert sorted(c for h in dealt for c in h) == sorted(DECK_32)
