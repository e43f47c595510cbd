"""Troggu's deck: 62 cards, the two suit orders, card points, and the card-code parser."""

import pytest

from engine import IllegalAction
from engine.troggu.cards import (
    CODES,
    FOOL,
    PLAY_ACTION,
    POINTS,
    STRENGTH,
    SUIT,
    TRUMP,
    parse_card,
    trump,
)


def test_deck_has_62_cards_in_four_suits_of_ten_21_trumps_and_the_fool():
    assert len(CODES) == len(set(CODES)) == 62
    for suit in range(4):
        assert sum(1 for s in SUIT if s == suit) == 10
    assert sum(1 for s in SUIT if s == TRUMP) == 22
    assert SUIT[FOOL] == TRUMP


def _order(suit: str) -> list[str]:
    cards = [c for c in CODES if c.endswith("-" + suit)]
    return sorted(cards, key=lambda c: -STRENGTH[CODES.index(c)])


def test_cups_and_coins_rank_k_q_n_j_then_1_high_down_to_6():
    for suit in ("CU", "CO"):
        ranks = [c.split("-")[0] for c in _order(suit)]
        assert ranks == ["K", "Q", "N", "J", "1", "2", "3", "4", "5", "6"]


def test_swords_and_batons_rank_k_q_n_j_then_10_high_down_to_5():
    for suit in ("SW", "BA"):
        ranks = [c.split("-")[0] for c in _order(suit)]
        assert ranks == ["K", "Q", "N", "J", "10", "9", "8", "7", "6", "5"]


def test_fool_is_the_highest_trump_then_xxi_down_to_i():
    assert STRENGTH[FOOL] > STRENGTH[trump(21)] > STRENGTH[trump(20)] > STRENGTH[trump(1)]


@pytest.mark.parametrize(
    "code,points",
    [("FOOL", 5), ("T21", 5), ("T1", 5), ("K-CU", 5), ("K-BA", 5), ("Q-CO", 4), ("N-SW", 3)]
    + [("J-BA", 2), ("1-CU", 1), ("10-SW", 1), ("T20", 1), ("T2", 1), ("6-CO", 1)],
)
def test_card_points(code, points):
    assert POINTS[parse_card(code)] == points


def test_card_points_total_114():
    assert sum(POINTS) == 114


@pytest.mark.parametrize(
    "text,code",
    [
        ("K-CU", "K-CU"),
        ("kcu", "K-CU"),
        ("k-cu", "K-CU"),
        ("N-SW", "N-SW"),
        ("nsw", "N-SW"),
        ("1-CO", "1-CO"),
        ("1co", "1-CO"),
        ("10-BA", "10-BA"),
        ("10ba", "10-BA"),
        ("king cups", "K-CU"),
        ("Q-coins", "Q-CO"),
        ("T21", "T21"),
        ("t21", "T21"),
        ("XXI", "T21"),
        ("xii", "T12"),
        ("21", "T21"),
        ("I", "T1"),
        ("FOOL", "FOOL"),
        ("fool", "FOOL"),
        ("Excuse", "FOOL"),
    ],
)
def test_parse_card_accepts_codes_case_insensitive_hyphen_optional(text, code):
    assert CODES[parse_card(text)] == code


@pytest.mark.parametrize("text", ["7-CU", "1-SW", "10-CO", "T22", "T0", "XXII", "AS", "", "K-XX"])
def test_parse_card_refuses_what_is_not_a_troggu_card(text):
    with pytest.raises(IllegalAction, match="not a Troggu card"):
        parse_card(text)


def test_actions_show_codes_in_lower_case():
    assert PLAY_ACTION[parse_card("K-CU")] == "play k-cu"
    assert PLAY_ACTION[parse_card("T21")] == "play t21"
    assert PLAY_ACTION[FOOL] == "play fool"
