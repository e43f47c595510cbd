"""Troika: scoring a hand (made, set, no-trump doubling, set_penalty, the defenders' cut-off,
no_trump_increase) and the end of the game (by points, declarers first; by rounds, ties on).
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.troika.cards import CODES, DECK_32
from engine.troika.scoring import HandScore, points_winner, rounds_winner, score_hand
from engine.troika.spec import SPEC
from tests.engine.play_helpers import act, stacked_game

DECK32 = [CODES[c] for c in DECK_32]

# Each seat holds one whole suit, so whoever leads wins every trick: 8 + 5 - 3 = 10 points.
SUITED = {
    0: ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "3S"],
    1: ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "5H"],
    2: ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D"],
    3: ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C"],
}


def score(
    bid: int = 7,
    no_trump: bool = False,
    took: int = 8,
    scores: tuple[int, int] = (0, 0),
    increased: bool = False,
    **options: Any,
) -> HandScore:
    """Team 0 declared ``bid`` and took ``took`` of the 10 hand points."""
    resolved = SPEC.resolve(None, options)
    return score_hand(
        declarer_team=0,
        bid_number=bid,
        no_trump=no_trump,
        points=[took, 10 - took],
        scores=list(scores),
        target=resolved["target"],
        cut_off=resolved["max_non_bid"],
        increased=increased,
        options=resolved,
    )


# -- the declaring team --------------------------------------------------------------------------
def test_made_bid_adds_the_points_taken() -> None:
    assert score(bid=7, took=8).changes == (8, 2)
    assert score(bid=7, took=8).made


def test_exactly_the_bid_is_made() -> None:
    assert score(bid=7, took=7).made and score(bid=7, took=7).changes[0] == 7


def test_failed_bid_subtracts_the_bid() -> None:
    result = score(bid=9, took=7)
    assert not result.made and result.changes == (-9, 3)


def test_no_trump_contract_doubles_a_made_bid_but_not_the_defenders() -> None:
    assert score(bid=7, no_trump=True, took=8).changes == (16, 2)


def test_no_trump_contract_doubles_a_failed_bid() -> None:
    assert score(bid=7, no_trump=True, took=5).changes == (-14, 5)


@pytest.mark.parametrize(
    "took,no_trump,change",
    [(4, False, -4), (4, True, -8), (-3, False, -3), (-3, True, -6), (0, False, 0)],
)
def test_set_penalty_points_subtracts_the_size_of_the_points_taken(
    took: int, no_trump: bool, change: int
) -> None:
    result = score(bid=8, no_trump=no_trump, took=took, set_penalty="points")
    assert result.changes[0] == change


def test_set_penalty_points_still_adds_a_made_bid() -> None:
    assert score(bid=6, took=9, set_penalty="points").changes[0] == 9


# -- the defending team --------------------------------------------------------------------------
def test_defenders_below_the_cut_off_add_their_points() -> None:
    assert score(took=6, scores=(0, 44)).changes[1] == 4


def test_defenders_at_the_cut_off_add_nothing_positive() -> None:
    assert score(took=6, scores=(0, 45)).changes[1] == 0


def test_defenders_at_the_cut_off_still_lose_negative_points() -> None:
    assert score(bid=7, took=13, scores=(0, 50)).changes[1] == -3


def test_defenders_below_the_cut_off_may_lose_points() -> None:
    assert score(bid=7, took=12, scores=(0, 10)).changes[1] == -2


@pytest.mark.parametrize("cut_off", [30, 35, 45, 47, 50, 55, 56, 60])
def test_max_non_bid_sets_the_cut_off(cut_off: int) -> None:
    assert score(took=6, scores=(0, cut_off - 1), max_non_bid=cut_off).changes[1] == 4
    assert score(took=6, scores=(0, cut_off), max_non_bid=cut_off).changes[1] == 0


def test_max_non_bid_off_always_adds() -> None:
    assert score(took=6, scores=(0, 200), max_non_bid="off").changes[1] == 4


# -- no_trump_increase ---------------------------------------------------------------------------
def test_no_trump_increase_raises_target_and_cut_off_by_10_on_a_made_no() -> None:
    result = score(no_trump=True, took=8, no_trump_increase=True)
    assert result.raised and result.target == 62 and result.cut_off == 55


def test_no_trump_increase_happens_once_per_game() -> None:
    result = score(no_trump=True, took=8, increased=True, no_trump_increase=True)
    assert not result.raised and result.target == 52 and result.cut_off == 45


@pytest.mark.parametrize("no_trump,took", [(False, 8), (True, 5)], ids=["trump-bid", "set"])
def test_no_trump_increase_needs_a_made_no_trump_contract(no_trump: bool, took: int) -> None:
    assert not score(no_trump=no_trump, took=took, no_trump_increase=True).raised


def test_no_trump_increase_off_never_raises() -> None:
    assert not score(no_trump=True, took=8).raised


def test_raised_cut_off_already_applies_to_the_defenders_of_that_hand() -> None:
    result = score(no_trump=True, took=7, scores=(0, 50), no_trump_increase=True)
    assert result.changes[1] == 3  # 50 < the raised 55


def test_no_trump_increase_keeps_a_cut_off_of_off() -> None:
    result = score(no_trump=True, took=8, no_trump_increase=True, max_non_bid="off")
    assert result.target == 62 and result.cut_off == "off"


# -- end of game ---------------------------------------------------------------------------------
def test_points_end_counts_the_declarers_first() -> None:
    assert points_winner(1, [60, 55], 52) == 1
    assert points_winner(0, [60, 55], 52) == 0


def test_points_end_defenders_win_when_only_they_reach_the_target() -> None:
    assert points_winner(0, [40, 52], 52) == 1
    assert points_winner(0, [40, 51], 52) is None


def test_rounds_end_after_the_last_hand_unless_tied() -> None:
    assert rounds_winner([10, 5], 3, 4) is None
    assert rounds_winner([10, 5], 4, 4) == 0
    assert rounds_winner([5, 10], 4, 4) == 1
    assert rounds_winner([7, 7], 4, 4) is None
    assert rounds_winner([7, 9], 5, 4) == 1


# -- whole hands through the game ----------------------------------------------------------------
def suited_game(bid: str, scores: tuple[int, int] = (0, 0), **options: Any) -> engine.Game:
    """Seat 0 declares ``bid`` (spades trumps) and is about to take all 8 tricks."""
    game = stacked_game("troika", 4, DECK32, 8, 3, SUITED, **options)
    act(game, bid, "pass", "pass", "pass")
    if game.view(None)["phase"] == "trump":
        act(game, "trump s")
    game.state["scores"] = list(scores)  # a game in progress
    return game


def play_out(game: engine.Game) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for k in range(8):
        events += act(game, *(f"play {SUITED[seat][k]}" for seat in range(4)))
    return events


def test_hand_over_reports_the_hand_and_team_scores() -> None:
    game = suited_game("bid 6 no")
    events = play_out(game)
    over = [e for e in events if e["type"] == "hand_over"][0]
    assert over == {
        "type": "hand_over",
        "hand_number": 1,
        "seat": 0,
        "declarer_team": 0,
        "bid": "6 no",
        "made": True,
        "hand_points": [10, 0],
        "tricks": [8, 0],
        "changes": [20, 0],
        "scores": [20, 0],
        "target": 52,
        "cut_off": 45,
        "raised": False,
    }
    view = game.view(1)
    assert view["scores"] == [20, 0] and view["hand_number"] == 2 and view["dealer"] == 0


def test_failed_no_trump_bid_loses_double_the_bid_in_a_game() -> None:
    game = suited_game("bid 11 no")
    play_out(game)
    assert game.view(None)["scores"] == [-22, 0]


def test_set_penalty_points_in_a_game_loses_double_the_points_taken() -> None:
    game = suited_game("bid 11 no", set_penalty="points")
    play_out(game)
    assert game.view(None)["scores"] == [-20, 0]


def test_reaching_the_target_ends_the_game_with_team_results() -> None:
    game = suited_game("bid 6", scores=(45, 10))
    events = play_out(game)
    assert events[-1] == {
        "type": "game_over",
        "scores": [55, 10, 55, 10],
        "team_scores": [55, 10],
        "winners": [0, 2],
    }
    assert game.is_over() and game.to_act() == [] and game.legal_actions(0) == []
    assert game.result() == {
        "scores": [55, 10, 55, 10],
        "team_scores": [55, 10],
        "teams": [[0, 2], [1, 3]],
        "winners": [0, 2],
        "hands": 1,
    }
    assert game.view(0)["phase"] == "over" and game.view(0)["result"]["winners"] == [0, 2]


def test_declarers_reaching_the_target_win_even_if_defenders_reached_it() -> None:
    game = suited_game("bid 6", scores=(45, 60))
    play_out(game)
    assert game.result()["winners"] == [0, 2]


def test_defenders_win_if_only_they_reached_the_target() -> None:
    game = suited_game("bid 12", scores=(0, 52))
    play_out(game)
    assert game.result()["winners"] == [1, 3] and game.result()["team_scores"] == [-12, 52]


@pytest.mark.parametrize("target", [30, 100])
def test_target_option_sets_the_points_needed(target: int) -> None:
    game = suited_game("bid 6", scores=(25, 0), target=target)
    play_out(game)
    assert game.is_over() is (target == 30)


def test_no_trump_increase_raises_the_target_in_the_same_hand() -> None:
    game = suited_game("bid 6 no", scores=(40, 0), no_trump_increase=True)
    events = play_out(game)
    assert {"type": "target_raised", "target": 62, "cut_off": 55} in events
    assert not game.is_over()  # 60 would have won at 52
    view = game.view(None)
    assert view["target"] == 62 and view["cut_off"] == 55 and view["scores"] == [60, 0]


def test_rounds_end_stops_after_the_last_hand() -> None:
    game = suited_game("bid 6", end="rounds", rounds=1)
    play_out(game)
    assert game.is_over() and game.result()["winners"] == [0, 2]


def test_rounds_end_plays_on_after_a_tie() -> None:
    game = suited_game("bid 12", scores=(12, 0), end="rounds", rounds=1)
    play_out(game)  # 12 - 12 = 0: tied with the defenders' 0
    assert not game.is_over()
    assert game.view(None)["phase"] == "bidding" and game.view(None)["hand_number"] == 2


def test_rounds_end_ignores_the_points_target() -> None:
    game = suited_game("bid 6", scores=(100, 0), end="rounds", rounds=3)
    play_out(game)
    assert not game.is_over()
