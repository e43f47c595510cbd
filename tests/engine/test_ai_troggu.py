"""Troggu AI heuristics: bidding from hand strength, discards, partner call, play, the Fool."""

from __future__ import annotations

import pytest

import engine
from engine.ai import make_player
from engine.troggu.ai.players import Info, TrogguNormal, contract_side, hand_strength, play_policy
from engine.troggu.cards import CODES, DECK, FOOL, parse_card
from engine.troggu.scoring import card_points


def c(*codes: str) -> list[int]:
    return [parse_card(x) for x in codes]


STRONG = [
    "FOOL",
    "T21",
    "T20",
    "T19",
    "T18",
    "T17",
    "T16",
    "T15",
    "K-CU",
    "K-CO",
    "K-SW",
    "K-BA",
    "T14",
]
WEAK = [
    "6-CU",
    "5-CU",
    "4-CU",
    "6-CO",
    "5-CO",
    "5-SW",
    "6-SW",
    "7-SW",
    "5-BA",
    "6-BA",
    "T2",
    "T3",
    "4-CO",
]


def bid_view(hand: list[str], players: int = 4) -> dict:
    return {"phase": "bidding", "players": players, "hand": hand, "seat": 0}


def test_hand_strength_orders_strong_average_weak() -> None:
    # The whole deck, cut into hands of 13 and averaged, is an average hand.
    mean = sum(hand_strength(list(DECK[i : i + 13])) for i in range(0, 52, 13)) / 4
    assert 0.8 < mean < 1.3
    assert hand_strength(c(*STRONG)) > 2.0 > 1.0 > hand_strength(c(*WEAK))


def test_a_very_strong_hand_plays_solo() -> None:
    assert TrogguNormal(1).choose(bid_view(STRONG), ["pass", "tapp", "solo"]) == "solo"


def test_a_weak_hand_passes() -> None:
    assert TrogguNormal(1).choose(bid_view(WEAK), ["pass", "tapp", "solo"]) == "pass"


def test_discards_empty_the_shortest_plain_suit_points_first() -> None:
    hand = ["Q-CU", "6-CO", "5-CO", "4-CO", "T5", "T6", "T7"]
    view = {"phase": "discard", "hand": hand, "players": 4, "seat": 0}
    legal = ["discard " + x.lower() for x in hand]
    assert TrogguNormal(1).choose(view, legal) == "discard q-cu"


def test_discards_never_trumps_while_plain_cards_are_left() -> None:
    hand = ["T5", "T6", "6-CO"]
    view = {"phase": "discard", "hand": hand, "players": 4, "seat": 0}
    legal = ["discard t5", "discard t6", "discard 6-co"]
    assert TrogguNormal(1).choose(view, legal) == "discard 6-co"


def test_calls_the_highest_trump_it_does_not_hold() -> None:
    view = {"phase": "call", "hand": ["T20", "T19", "K-CU"], "players": 7, "seat": 0}
    legal = ["call none", *(f"call t{n}" for n in range(2, 21))]
    assert TrogguNormal(1).choose(view, legal) == "call t18"


def policy(
    hand: list[str],
    legal: list[str],
    trick: list[tuple[int, str]],
    seat: int,
    friends: set[int],
    misere: bool = False,
    players: int = 4,
) -> str:
    mine = c(*hand)
    played = [[s, parse_card(x)] for s, x in trick]
    out = {x for x in DECK if x not in mine and x not in [p for _, p in played]}
    return CODES[play_policy(mine, c(*legal), played, seat, None, friends, misere, out, players)]


def test_smears_points_on_the_partners_sure_trick() -> None:
    # Seat 3 plays last; seat 1 (friend) wins with T21.
    hand = ["K-CU", "6-CU"]
    trick = [(0, "5-CU"), (1, "T21"), (2, "4-CU")]
    assert policy(hand, hand, trick, 3, {1, 3}) == "K-CU"


def test_throws_the_cheapest_card_on_an_opponents_trick() -> None:
    hand = ["K-CU", "6-CU"]
    trick = [(0, "5-CU"), (1, "T21"), (2, "4-CU")]
    assert policy(hand, hand, trick, 3, {0, 2, 3}) == "6-CU"


def test_spends_the_fool_only_on_a_trick_worth_it() -> None:
    # Void in cups, the Fool is the only trump: cheap trick -> hold it back.
    hand = ["FOOL", "6-CO", "5-BA"]
    cheap = [(0, "6-CU"), (1, "5-CU"), (2, "4-CU")]
    assert policy(hand, hand, cheap, 3, {3}) != "FOOL"
    rich = [(0, "K-CU"), (1, "Q-CU"), (2, "4-CU")]
    assert policy(hand, hand, rich, 3, {3}) == "FOOL"


def test_misere_ducks_under_the_winning_card() -> None:
    hand = ["K-CU", "Q-CU", "6-CU"]
    trick = [(0, "N-CU")]
    assert policy(hand, hand, trick, 1, {1}, misere=True) == "6-CU"


def test_misere_void_hands_away_the_most_points() -> None:
    hand = ["K-CO", "6-BA"]
    trick = [(0, "N-CU")]
    assert policy(hand, hand, trick, 1, {1}, misere=True) == "K-CO"


def test_fool_constant_is_the_fool() -> None:
    assert CODES[FOOL] == "FOOL"


@pytest.mark.parametrize("players", [4, 8])
def test_hard_counts_the_contract_sides_points_from_the_public_history(players: int) -> None:
    """A defender's ``hard`` plays for the payment steps of the contract side's total: with the
    real hands as its sample, the points it credits that side so far are the side's piles."""
    checked = 0
    for seed in range(40):
        game = engine.new_game("troggu", players, seed=seed)
        moves = 0
        while not game.is_over() and moves < 400:
            st = game.state
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            view = game.view(seat)
            side = [st["declarer"]] + ([st["partner"]] if st["partner"] is not None else [])
            if (
                st["phase"] == "play"
                and st["contract"] == "tapp"
                and view["trick_number"] > 2
                and not view["trick"]
                and seat not in side
                and st["fool_held"] is None
            ):
                info = Info(view)
                found = contract_side(info, [list(h) for h in st["hands"]])
                assert found is not None
                assert found[0] == set(side)
                assert found[1] == sum(card_points(st["piles"][s]) for s in side)
                checked += 1
                break
            game.apply(seat, make_player("troggu", "normal", moves).choose(view, legal))
            moves += 1
        if checked >= 3:
            break
    assert checked >= 3
