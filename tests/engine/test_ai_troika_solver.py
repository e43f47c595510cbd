"""The double-dummy solver of Troika's ``hard`` gives the exact minimax hand points.

Checked against a plain minimax (no pruning, no table, every card tried) on small random
positions: whole tricks to play and tricks already begun, trumps and no trumps, high and low.
"""

from __future__ import annotations

import random

import pytest

from engine.troika.ai.solver import Solver, cards_of, mask_of
from engine.troika.cards import DECK_32, FIVE_HEARTS, HIGH, LOW, POINTS, SUIT, THREE_SPADES


def legal_cards(hand: list[int], trick: list[int]) -> list[int]:
    if trick:
        follow = [c for c in hand if SUIT[c] == SUIT[trick[0]]]
        return follow or list(hand)
    return list(hand)


def brute(hands: list[list[int]], trick: list[int], leader: int, team: int, trump, low) -> int:
    """Points ``team`` takes from here, both sides playing perfectly, by exhaustive search."""
    seat = (leader + len(trick)) % 4
    if not trick and not hands[leader]:
        return 0
    values = [
        brute_move(hands, trick, leader, team, trump, low, card)
        for card in legal_cards(hands[seat], trick)
    ]
    return max(values) if seat & 1 == team else min(values)


def brute_move(hands, trick, leader, team, trump, low, card) -> int:
    """The value of the seat to play playing ``card``, by exhaustive search."""
    seat = (leader + len(trick)) % 4
    strength = LOW if low else HIGH

    def key(c: int, led: int) -> int:
        return 200 + strength[c] if SUIT[c] == trump else 100 + strength[c] if SUIT[c] == led else 0

    rest = [list(h) for h in hands]
    rest[seat].remove(card)
    cards = [*trick, card]
    if len(cards) < 4:
        return brute(rest, cards, leader, team, trump, low)
    w = max(range(4), key=lambda i: key(cards[i], SUIT[cards[0]]))
    winner = (leader + w) % 4
    gained = 1 + sum(POINTS[c] for c in cards) if winner & 1 == team else 0
    return gained + brute(rest, [], winner, team, trump, low)


def random_position(rng: random.Random, tricks: int, begun: int):
    deck = list(DECK_32)
    rng.shuffle(deck)
    # The point cards in play more often than chance: they are what the solver must not merge.
    for special in (FIVE_HEARTS, THREE_SPADES):
        deck.remove(special)
        deck.insert(rng.randrange(4 * tricks), special)
    leader = rng.randrange(4)
    hands: list[list[int]] = [deck[i * tricks : (i + 1) * tricks] for i in range(4)]
    trick = []
    for i in range(begun):
        seat = (leader + i) % 4
        card = rng.choice(hands[seat])
        hands[seat].remove(card)
        trick.append(card)
    return hands, trick, leader


@pytest.mark.parametrize("seed", range(24))
def test_the_solver_matches_plain_minimax(seed: int) -> None:
    rng = random.Random(seed)
    tricks = 2 + seed % 2
    begun = seed % 4
    hands, trick, leader = random_position(rng, tricks, begun)
    trump = rng.choice([None, 0, 1, 2, 3])
    low = seed % 5 == 0
    team = rng.randrange(2)
    seat = (leader + len(trick)) % 4
    solver = Solver(trump, low, team)
    masks = [mask_of(h) for h in hands]
    legal = legal_cards(hands[seat], trick)
    values = solver.move_values(masks, trick, leader, legal)
    for card in legal:
        assert values[card] == brute_move(hands, trick, leader, team, trump, low, card), card
    best = max(values.values()) if seat & 1 == team else min(values.values())
    assert (
        solver.value(masks, trick, leader) == best == brute(hands, trick, leader, team, trump, low)
    )


def test_cards_of_and_mask_of_round_trip() -> None:
    cards = [0, 5, 17, 31]
    assert cards_of(mask_of(cards)) == cards


def test_a_search_over_its_node_limit_says_so() -> None:
    rng = random.Random(1)
    hands, trick, leader = random_position(rng, 8, 0)
    solver = Solver(0, False, 0, node_limit=50)
    solver.value([mask_of(h) for h in hands], trick, leader)
    assert solver.exhausted
