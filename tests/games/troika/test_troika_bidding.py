"""Troika: the auction (single and open), bid kinds, min_bid, stick-the-dealer, contracts.

The dealer is seat 3 throughout, so seats bid in the order 0, 1, 2, 3.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import IllegalAction
from tests.engine.play_helpers import act


def make(**options: Any) -> engine.Game:
    return engine.new_game("troika", 4, options={"first_dealer": 3, **options}, seed=21)


def bids_of(game: engine.Game, seat: int) -> list[str]:
    return [a for a in game.legal_actions(seat) if a.startswith("bid ")]


def assert_refused(game: engine.Game, seat: int, action: str, match: str) -> None:
    before = game.to_json()
    with pytest.raises(IllegalAction, match=match):
        game.apply(seat, action)
    assert game.to_json() == before


# -- single auction ------------------------------------------------------------------------------
def test_single_auction_gives_each_player_one_turn_starting_left_of_dealer() -> None:
    game = make()
    order = []
    for action in ("bid 6", "pass", "bid 7", "pass"):
        order.append(game.to_act()[0])
        act(game, action)
    assert order == [0, 1, 2, 3]
    assert game.view(None)["contract"]["declarer"] == 2


def test_single_auction_bid_must_beat_the_high_bid() -> None:
    game = make()
    act(game, "bid 7")
    assert_refused(game, 1, "bid 7", "beat")
    assert_refused(game, 1, "bid 6 no", "beat")
    assert bids_of(game, 1)[0] == "bid 7 no"
    act(game, "bid 7 no")
    assert game.view(None)["high_bid"] == "7 no"


def test_dealer_may_equal_the_high_bid_to_take_the_contract() -> None:
    game = make()
    act(game, "bid 8 no", "pass", "pass")
    assert bids_of(game, 3)[0] == "bid 8 no"
    events = act(game, "bid 8 no")
    contract = [e for e in events if e["type"] == "contract"][0]
    assert contract["seat"] == 3 and contract["bid"] == "8 no"


def test_only_the_dealer_may_equal_in_the_single_auction() -> None:
    game = make()
    act(game, "bid 8")
    assert_refused(game, 1, "bid 8", "beat")
    act(game, "pass", "pass")
    assert "bid 8" in game.legal_actions(3)


def test_dealer_who_passes_leaves_the_contract_to_the_high_bidder() -> None:
    game = make()
    act(game, "pass", "bid 9", "pass", "pass")
    contract = game.view(None)["contract"]
    assert contract["declarer"] == 1 and contract["number"] == 9


def test_nothing_beats_12_no_so_later_players_may_only_pass() -> None:
    game = make()
    act(game, "bid 12 no")
    assert game.legal_actions(1) == ["pass"]
    assert_refused(game, 1, "bid 12 no", "Nothing beats it")


# -- open auction --------------------------------------------------------------------------------
def test_open_auction_runs_until_all_but_the_high_bidder_have_passed() -> None:
    game = make(auction="open")
    act(game, "bid 6", "bid 7", "pass", "pass")
    assert game.to_act() == [0]
    act(game, "bid 8")
    assert game.to_act() == [1]  # seats 2 and 3 passed: they are out
    act(game, "pass")
    contract = game.view(None)["contract"]
    assert contract["declarer"] == 0 and contract["bid"] == "8"


def test_open_auction_passed_player_is_never_asked_again() -> None:
    game = make(auction="open")
    act(game, "pass", "bid 6", "bid 7")
    asked = []
    while game.view(None)["phase"] == "bidding":
        seat = game.to_act()[0]
        asked.append(seat)
        legal = game.legal_actions(seat)
        act(game, "pass" if seat == 3 or len(legal) == 1 else legal[1])
    assert 0 not in asked


def test_open_auction_gives_the_dealer_no_privilege_to_equal() -> None:
    game = make(auction="open")
    act(game, "bid 8", "pass", "pass")
    assert "bid 8" not in game.legal_actions(3)
    assert_refused(game, 3, "bid 8", "beat")


def test_open_auction_sticks_the_dealer_when_the_others_pass() -> None:
    game = make(auction="open")
    act(game, "pass", "pass", "pass")
    assert "pass" not in game.legal_actions(3)
    act(game, "bid 6")
    assert game.view(None)["contract"]["declarer"] == 3


# -- all pass ------------------------------------------------------------------------------------
def test_stick_dealer_on_the_dealer_must_bid_any_kind_after_three_passes() -> None:
    game = make()
    act(game, "pass", "pass", "pass")
    legal = game.legal_actions(3)
    assert "pass" not in legal and legal[0] == "bid 6" and "bid 6 no" in legal
    assert_refused(game, 3, "pass", "dealer must bid")
    act(game, "bid 6 no")
    assert game.view(None)["contract"]["kind"] == "no"


def test_stick_dealer_off_all_pass_throws_the_hand_in_and_the_deal_passes_left() -> None:
    game = make(stick_dealer=False)
    hands = game.state["hands"]
    events = act(game, "pass", "pass", "pass", "pass")
    assert [e["type"] for e in events[-2:]] == ["thrown_in", "deal"]
    view = game.view(None)
    assert view["dealer"] == 0 and view["to_act"] == [1] and view["hand_number"] == 1
    assert view["bids"] == [] and game.state["hands"] != hands
    assert not any(e["type"] == "hand_over" for e in events)


# -- bid kinds and numbers -----------------------------------------------------------------------
def test_bid_kinds_rank_trump_then_no_then_no_low_at_each_number() -> None:
    game = make(low="no_trump")
    assert bids_of(game, 0)[:4] == ["bid 6", "bid 6 no", "bid 6 no low", "bid 7"]


def test_low_always_orders_trump_low_no_no_low() -> None:
    game = make(low="always")
    assert bids_of(game, 0)[:5] == ["bid 6", "bid 6 low", "bid 6 no", "bid 6 no low", "bid 7"]


def test_low_off_offers_no_low_bids() -> None:
    game = make(low="off")
    assert bids_of(game, 0)[:3] == ["bid 6", "bid 6 no", "bid 7"]
    assert_refused(game, 0, "bid 7 no low", "does not play")
    assert_refused(game, 0, "bid 7 low", "does not play")


def test_low_no_trump_refuses_a_low_trump_bid() -> None:
    game = make(low="no_trump")
    assert_refused(game, 0, "bid 7 low", "does not play")


def test_no_trump_off_offers_only_trump_bids() -> None:
    game = make(no_trump=False, low="no_trump")
    assert bids_of(game, 0)[:2] == ["bid 6", "bid 7"]
    assert_refused(game, 0, "bid 7 no", "does not play")


def test_no_trump_off_with_low_always_offers_trump_and_low_trump_bids() -> None:
    game = make(no_trump=False, low="always")
    assert bids_of(game, 0)[:3] == ["bid 6", "bid 6 low", "bid 7"]


@pytest.mark.parametrize("min_bid", [5, 6, 7, 8])
def test_min_bid_is_the_lowest_bid(min_bid: int) -> None:
    game = make(min_bid=min_bid)
    assert bids_of(game, 0)[0] == f"bid {min_bid}"
    assert_refused(game, 0, f"bid {min_bid - 1}", f"from {min_bid} to 12")


def test_bids_go_up_to_12() -> None:
    game = make(low="always")
    assert bids_of(game, 0)[-1] == "bid 12 no low"
    assert_refused(game, 0, "bid 13", "to 12")


@pytest.mark.parametrize(
    "typed,shown",
    [("BID 7 No", "7 no"), ("bid 7 nt", "7 no"), ("bid 7 low no", "7 no low"), ("bid  7", "7")],
)
def test_bids_accept_case_and_common_spellings(typed: str, shown: str) -> None:
    game = make(low="no_trump")
    events = game.apply(0, typed)
    assert events == [{"type": "bid", "seat": 0, "bid": shown}]


@pytest.mark.parametrize("typed", ["bid", "bid seven", "bid 7 banana", "play 5h", "double"])
def test_malformed_bids_are_refused_with_a_hint(typed: str) -> None:
    assert_refused(make(), 0, typed, "bid")


def test_not_your_turn_is_refused_and_lists_nothing() -> None:
    game = make()
    assert game.legal_actions(1) == []
    assert_refused(game, 1, "bid 7", "not your turn")


def test_contract_and_bid_history_are_in_the_view() -> None:
    game = make(low="no_trump")
    events = act(game, "bid 6", "pass", "bid 7 no low", "pass")
    assert {"type": "pass", "seat": 1} in events
    view = game.view(0)
    assert view["bids"] == [
        {"seat": 0, "bid": "6"},
        {"seat": 1, "bid": "pass"},
        {"seat": 2, "bid": "7 no low"},
        {"seat": 3, "bid": "pass"},
    ]
    assert view["contract"] == {
        "declarer": 2,
        "team": 0,
        "number": 7,
        "kind": "no",
        "low": True,
        "bid": "7 no low",
    }
    assert view["trump"] is None and view["phase"] == "play" and view["to_act"] == [2]


def test_stick_dealer_off_in_the_open_auction_throws_in_after_four_passes() -> None:
    game = make(stick_dealer=False, auction="open")
    events = act(game, "pass", "pass", "pass", "pass")
    assert events[-2]["type"] == "thrown_in" and game.view(None)["dealer"] == 0


def test_open_auction_ends_at_once_when_the_dealer_bids_after_three_passes() -> None:
    game = make(auction="open", stick_dealer=False)
    act(game, "pass", "pass", "pass", "bid 9 no")
    assert game.view(None)["contract"]["declarer"] == 3


def test_contract_event_names_declarer_number_kind_and_low() -> None:
    game = make(low="always")
    events = act(game, "pass", "bid 8 low", "pass", "pass")
    assert events[-1] == {
        "type": "contract",
        "seat": 1,
        "contract": "8 low",
        "bid": "8 low",
        "number": 8,
        "kind": "trump",
        "low": True,
    }
    assert game.view(None)["phase"] == "trump" and game.to_act() == [1]


def test_a_misdeal_with_extra_words_is_refused_and_changes_nothing() -> None:
    """``misdeal`` is one word (like ``pass``): ``misdeal zz9`` is a typing mistake."""
    for seed in range(500):
        game = engine.new_game("troika", 4, options={"misdeal": True}, seed=seed)
        seat = game.to_act()[0]
        if "misdeal" in game.legal_actions(seat):
            break
    else:
        raise AssertionError("no seed deals a misdeal hand first")
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply(seat, "misdeal zz9 zz9")
    assert game.to_json() == before
    assert game.apply(seat, "misdeal")[0]["type"] == "misdeal"
