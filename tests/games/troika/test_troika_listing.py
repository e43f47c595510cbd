"""Troika's listing tables (``engine.troika.listing``) answer as the plain rules: the play
listing is ``tricks.playable`` over the hand sorted for display, a hand rebuilt from its bits
is ``sorted_codes``'s order, the kitty discards are every card but 5H and 3S, the auction's
listing is pass / misdeal / the bids that beat (or equal) the high bid; and games of every
preset keep their listings right however they are reached (kept along the moves or made from a
fresh load)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.troika import bids as B
from engine.troika.cards import (
    DECK_34,
    DISCARD_ACTION,
    FIVE_HEARTS,
    PLAY_ACTION,
    SORT_KEY,
    SUIT,
    THREE_SPADES,
)
from engine.troika.listing import auction_for, discard_listing, hand_of, mask_of, play_listing
from engine.troika.tricks import playable


def random_hands(count: int) -> list[list[int]]:
    rng = random.Random(11)
    return [rng.sample(DECK_34, rng.randint(0, 10)) for _ in range(count)]


def test_a_hand_from_its_bits_is_sorted_for_display() -> None:
    for hand in random_hands(500):
        assert hand_of(mask_of(hand)) == sorted(hand, key=SORT_KEY.__getitem__)


def test_play_listing_is_playable_in_hand_order() -> None:
    for hand in random_hands(500):
        shown = sorted(hand, key=SORT_KEY.__getitem__)
        mask = mask_of(hand)
        assert play_listing(mask, None) == tuple(PLAY_ACTION[c] for c in shown)
        for led_card in (0, 9, 18, 26, 33):
            expected = tuple(PLAY_ACTION[c] for c in playable(shown, [led_card]))
            assert play_listing(mask, SUIT[led_card]) == expected


def test_discard_listing_keeps_5h_and_3s() -> None:
    for hand in random_hands(500):
        shown = sorted(hand, key=SORT_KEY.__getitem__)
        kept = (FIVE_HEARTS, THREE_SPADES)
        expected = tuple(DISCARD_ACTION[c] for c in shown if c not in kept)
        assert discard_listing(mask_of(hand)) == expected


@pytest.mark.parametrize("preset", ["standard", "saskatchewan", "online"])
def test_auction_listing_is_the_rules(preset: str) -> None:
    options = engine.GAMES["troika"].resolve(preset, None)
    auction = auction_for(options)
    bids, actions = B.bid_actions(options)
    for high in (B.PASS, *bids):
        for may_pass in (False, True):
            for may_misdeal in (False, True):
                for equal in (False, True):
                    if equal and high == B.PASS:
                        continue
                    key = (high + 1) * 8 + may_pass + 2 * may_misdeal + 4 * equal
                    allowed = [a for b, a in zip(bids, actions, strict=True) if b >= high]
                    if not equal:
                        allowed = [a for b, a in zip(bids, actions, strict=True) if b > high]
                    head = ["pass"] * may_pass + ["misdeal"] * may_misdeal
                    assert auction.listing(key) == tuple(head + allowed)


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("saskatchewan", {}),
        ("online", {}),
        ("standard", {"trump_lead": True, "low": "always", "stick_dealer": False}),
        ("saskatchewan", {"auction": "open", "trump_lead": True}),
    ],
)
def test_listings_kept_along_a_game_are_a_fresh_loads(preset: str, options: dict[str, Any]) -> None:
    """The listing kept move to move (hands as bits updated in place, the next seat's listing
    made by the move) is the one a game loaded from JSON makes from scratch, and a listed move
    gives the same events and state as on that fresh game."""
    rng = random.Random(5)
    for seed in range(4):
        game = engine.new_game("troika", 4, options=options, seed=seed, preset=preset)
        for _ in range(300):
            waiting = game.to_act()
            if not waiting:
                break
            seat = waiting[0]
            legal = game.legal_actions(seat)
            fresh = engine.load(game.to_json())
            assert legal == fresh.legal_actions(seat)
            action = rng.choice(legal)
            assert game.apply(seat, action) == fresh.apply(seat, action)
            assert game.to_json() == fresh.to_json()
