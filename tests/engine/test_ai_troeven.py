"""Troeven AI heuristics: trumps from the four cards, winning and ducking, uncovering."""

from __future__ import annotations

from engine.troeven.ai.players import follow_choice, lead_choice, trump_choice
from engine.troeven.cards import CARD_OF_CODE, CODE, SUIT_INDEX


def c(*codes: str) -> list[int]:
    return [CARD_OF_CODE[x] for x in codes]


def test_trumps_are_the_suit_with_most_cards() -> None:
    assert trump_choice(c("7H", "9H", "AS", "8H")) == "trump h"


def test_trumps_between_equal_counts_go_to_the_higher_cards() -> None:
    assert trump_choice(c("AS", "KS", "7H", "8H")) == "trump s"


def follow(legal: list[str], led: str, trump: str = "S", uncover: tuple[str, ...] = ()) -> str:
    card = follow_choice(c(*legal), CARD_OF_CODE[led], SUIT_INDEX[trump], frozenset(c(*uncover)))
    return CODE[card]


def test_wins_a_trick_with_points_with_the_ace() -> None:
    assert follow(["AH", "7H"], "KH") == "AH"


def test_wins_a_pointless_trick_with_the_lowest_card_that_wins() -> None:
    assert follow(["10C", "8C"], "7C") == "8C"


def test_banks_an_ace_on_a_trick_it_wins_anyway() -> None:
    assert follow(["AC", "8C"], "7C") == "AC"


def test_does_not_spend_a_trump_on_a_pointless_trick() -> None:
    assert follow(["7S", "7D"], "8H") == "7D"


def test_ruffs_a_trick_worth_points() -> None:
    assert follow(["7S", "8D"], "AH") == "7S"


def test_throws_the_cheapest_card_when_it_cannot_win() -> None:
    assert follow(["QD", "7D"], "AD", trump="C") == "7D"


def test_prefers_the_card_that_uncovers_a_face_down_card() -> None:
    assert follow(["7D", "8C"], "AH", trump="S", uncover=("8C",)) == "8C"


def test_leads_against_the_known_answers_in_the_layout_version() -> None:
    # The opponent shows only a low club: our ace of hearts takes 4 points safely.
    legal = c("AH", "7C")
    card = lead_choice(legal, SUIT_INDEX["S"], set(), c("8C"), frozenset(), False, False, False)
    assert CODE[card] == "AH"


def test_does_not_lead_an_ace_into_a_known_trump() -> None:
    legal = c("AH", "7C")
    opp = c("7S", "9D")  # void in hearts with a trump: he would ruff the ace
    card = lead_choice(legal, SUIT_INDEX["S"], set(), opp, frozenset(), False, False, False)
    assert CODE[card] == "7C"
