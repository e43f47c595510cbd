"""Troika: the deck, the first dealer, the deal, stacked decks and misdeals."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import IllegalAction
from engine.troika.cards import CODES, DECK_32
from tests.engine.play_helpers import act, play_until, stacked_game

DECK32 = [CODES[c] for c in DECK_32]
DECK34 = list(CODES)
# No ace, no court, neither 5H nor 3S: may call a misdeal.
POOR = ["10S", "9S", "8S", "10H", "9H", "8H", "10D", "9D"]


def make(hands: dict[int, list[str]] | None = None, dealer: int = 3, **options: Any) -> engine.Game:
    full = DECK34 if options.get("kitty") else DECK32
    return stacked_game("troika", 4, full, 8, dealer, hands, **options)


def all_cards(game: engine.Game) -> list[str]:
    st = game.state
    return [CODES[c] for hand in st["hands"] for c in hand] + [CODES[c] for c in st["kitty"]]


def test_deck_is_32_cards_a_to_8_plus_7c_7d_5h_3s() -> None:
    game = engine.new_game("troika", 4, seed=3)
    cards = all_cards(game)
    expected = {r + s for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8")}
    expected |= {"7C", "7D", "5H", "3S"}
    assert len(cards) == 32 and set(cards) == expected
    assert game.view(0)["kitty_size"] == 0


def test_kitty_deck_adds_7h_7s_and_deals_two_to_the_kitty() -> None:
    game = engine.new_game("troika", 4, seed=3, options={"kitty": True})
    cards = all_cards(game)
    assert len(cards) == 34 and {"7H", "7S"} <= set(cards)
    assert [len(h) for h in game.state["hands"]] == [8, 8, 8, 8]
    assert game.view(None)["kitty_size"] == 2


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_stacked_deck_is_dealt_one_card_at_a_time_from_left_of_dealer(dealer: int) -> None:
    game = engine.new_game("troika", 4, seed=1, deck=DECK32, options={"first_dealer": dealer})
    for j in range(4):
        seat = (dealer + 1 + j) % 4
        assert set(game.view(seat)["hand"]) == set(DECK32[j:32:4])
    assert game.to_act() == [(dealer + 1) % 4]


def test_stacked_kitty_deck_leaves_the_last_two_cards_in_the_kitty() -> None:
    game = engine.new_game(
        "troika", 4, seed=1, deck=DECK34, options={"kitty": True, "first_dealer": 0}
    )
    assert [CODES[c] for c in game.state["kitty"]] == DECK34[32:]


@pytest.mark.parametrize(
    "deck",
    [DECK32[:-1], DECK32[:-1] + ["AS"], DECK32[:-1] + ["7H"], ["XX"] + DECK32[1:]],
    ids=["short", "duplicate", "card-not-in-deck", "not-a-card"],
)
def test_stacked_deck_must_hold_each_card_once(deck: list[str]) -> None:
    with pytest.raises(IllegalAction):
        engine.new_game("troika", 4, seed=1, deck=deck, options={"first_dealer": 0})


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_first_dealer_option_names_the_dealer(dealer: int) -> None:
    game = engine.new_game("troika", 4, seed=5, options={"first_dealer": dealer})
    assert game.view(None)["dealer"] == dealer


@pytest.mark.parametrize("seed", range(8))
def test_random_first_dealer_is_the_first_player_dealt_a_jack(seed: int) -> None:
    game = engine.new_game("troika", 4, seed=seed)
    draw = game.view(None)["dealer_draw"]
    assert draw[-1][1][0] == "J"
    assert all(card[0] != "J" for _, card in draw[:-1])
    seats = [seat for seat, _ in draw]
    assert all((b - a) % 4 == 1 for a, b in zip(seats, seats[1:], strict=False))
    assert game.view(None)["dealer"] == draw[-1][0]
    assert engine.new_game("troika", 4, seed=seed).view(None)["dealer"] == draw[-1][0]


def test_random_first_dealer_varies_with_the_seed() -> None:
    dealers = {engine.new_game("troika", 4, seed=s).view(None)["dealer"] for s in range(40)}
    assert len(dealers) >= 3


def test_random_first_dealer_does_not_touch_a_stacked_first_deal() -> None:
    game = engine.new_game("troika", 4, seed=11, deck=DECK32)
    dealer = game.view(None)["dealer"]
    assert set(game.view((dealer + 1) % 4)["hand"]) == set(DECK32[0:32:4])


def test_deal_passes_left_and_later_deals_are_shuffled_from_the_seed() -> None:
    def second_deal(seed: int) -> tuple[int, list[list[int]]]:
        game = make(dealer=3, seed=seed)
        play_until(game, random.Random(0), "hand_over")
        return game.state["dealer"], game.state["hands"]

    dealer, hands = second_deal(1)
    assert dealer == 0
    assert second_deal(1) == (dealer, hands)  # same seed, same moves: same shuffle
    assert second_deal(2)[1] != hands


def test_a_new_deal_announces_dealer_and_hand_number() -> None:
    game = make(dealer=3)
    events = play_until(game, random.Random(4), "hand_over")
    deal = [e for e in events if e["type"] == "deal"]
    assert deal and deal[-1]["dealer"] == 0 and deal[-1]["hand_number"] == 2


# -- misdeal ------------------------------------------------------------------------------------
def test_misdeal_is_offered_to_a_hand_without_honours_when_first_asked() -> None:
    game = make({0: POOR})
    assert "misdeal" in game.legal_actions(0)


@pytest.mark.parametrize("honour", ["AC", "KC", "QC", "JC", "5H", "3S"])
def test_misdeal_is_not_offered_to_a_hand_with_an_ace_court_5h_or_3s(honour: str) -> None:
    game = make({0: POOR[:-1] + [honour]})
    assert "misdeal" not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="no ace"):
        game.apply(0, "misdeal")


def test_misdeal_redeals_by_the_same_dealer_from_the_seed() -> None:
    game = make({0: POOR})
    events = game.apply(0, "misdeal")
    assert [e["type"] for e in events] == ["misdeal", "deal"]
    assert sorted(events[0]["cards"]) == sorted(POOR)
    view = game.view(0)
    assert view["dealer"] == 3 and view["phase"] == "bidding" and view["to_act"] == [0]
    assert view["hand_number"] == 1 and view["bids"] == []
    assert sorted(view["hand"]) != sorted(POOR)
    again = make({0: POOR})
    again.apply(0, "misdeal")
    assert again == game


def test_misdeal_may_be_called_by_a_later_bidder_on_his_first_turn() -> None:
    game = make({2: POOR})
    act(game, "bid 7", "pass")
    assert "misdeal" in game.legal_actions(2)
    assert game.apply(2, "misdeal")[0]["type"] == "misdeal"


def test_misdeal_is_not_offered_on_a_second_turn_of_the_open_auction() -> None:
    game = make({0: POOR}, auction="open")
    act(game, "bid 6", "bid 7", "pass", "pass")
    assert game.to_act() == [0]
    assert "misdeal" not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="first time"):
        game.apply(0, "misdeal")


def test_misdeal_option_off_refuses_misdeals() -> None:
    game = make({0: POOR}, misdeal=False)
    assert "misdeal" not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="does not allow"):
        game.apply(0, "misdeal")


def test_saskatchewan_preset_turns_misdeal_off() -> None:
    game = make({0: POOR}, preset="saskatchewan", kitty=True)
    assert "misdeal" not in game.legal_actions(0)


def test_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(IllegalAction, match="no seat 4"):
        make().view(4)


def test_result_before_the_end_has_standings_and_no_winners() -> None:
    result = make().result()
    assert result["winners"] == [] and result["scores"] == [0, 0, 0, 0]


def test_a_wrong_stacked_deck_is_refused_with_what_is_missing_and_doubled() -> None:
    deck = DECK32[:-1] + ["AS"]
    with pytest.raises(IllegalAction, match=f"32 cards once; missing: {DECK32[-1]}; twice: AS"):
        engine.new_game("troika", 4, seed=1, deck=deck, options={"first_dealer": 0})
