"""Troggu trick play: following, trumping, winning tricks, and every Fool situation."""

import pytest
from troggu_helpers import bid_all, ints, new, situation

from engine import IllegalAction
from engine.troggu.cards import FOOL


def _public(events):
    return [e for e in events if "private_to" not in e]


def _refused(game, seat, action, match):
    before = game.to_json()
    with pytest.raises(IllegalAction, match=match):
        game.apply(seat, action)
    assert game.to_json() == before


# -- following, trumping -----------------------------------------------------------------------


def test_must_follow_suit_when_able():
    game = situation(3, {0: ["6-CO"], 1: ["2-CO", "5-CO", "K-SW", "T5"], 2: []}, 1, [(0, "K-CO")])
    assert game.legal_actions(1) == ["play 2-co", "play 5-co"]
    _refused(game, 1, "play k-sw", "must follow suit: you hold coins. Play one of: 2-co, 5-co")
    _refused(game, 1, "play t5", "must follow suit")


def test_void_in_the_led_suit_must_play_a_trump():
    game = situation(3, {0: ["6-CO"], 1: ["K-SW", "T5", "T7"], 2: []}, 1, [(0, "K-CO")])
    assert game.legal_actions(1) == ["play t7", "play t5"]
    _refused(game, 1, "play k-sw", "no coins, so you must play a trump")


def test_void_in_the_led_suit_and_no_trump_may_play_anything():
    game = situation(3, {0: ["6-CO"], 1: ["K-SW", "5-BA"], 2: []}, 1, [(0, "K-CO")])
    assert game.legal_actions(1) == ["play k-sw", "play 5-ba"]


def test_trumps_led_must_play_a_trump_but_need_not_overtrump():
    game = situation(3, {0: ["6-CO"], 1: ["K-SW", "T2", "T20"], 2: []}, 1, [(0, "T10")])
    assert game.legal_actions(1) == ["play t20", "play t2"]
    _refused(game, 1, "play k-sw", "Trumps were led")
    game.apply(1, "play t2")  # under the T10: allowed


def test_leader_may_lead_any_card():
    game = situation(3, {0: ["6-CO", "K-SW", "T3", "FOOL"], 1: [], 2: []}, 0)
    assert game.legal_actions(0) == ["play 6-co", "play k-sw", "play fool", "play t3"]


def test_only_the_player_to_act_may_play():
    game = situation(3, {0: ["6-CO"], 1: ["2-CO"], 2: ["3-CO"]}, 0)
    assert game.legal_actions(1) == []
    _refused(game, 1, "play 2-co", "not your turn")


def test_play_needs_a_card_the_player_holds():
    game = situation(3, {0: ["6-CO", "T4"], 1: ["2-CO"], 2: ["3-CO"]}, 0)
    _refused(game, 0, "play k-ba", "do not hold k-ba")
    _refused(game, 0, "play nonsense", "not a Troggu card")
    _refused(game, 0, "pass", "Now you play a card")


def _trick(game, plays):
    events = []
    for seat, card in plays:
        events += game.apply(seat, f"play {card}")
    return next(e for e in events if e["type"] == "trick")


def test_highest_card_of_the_suit_led_wins_cups_1_beats_2_offsuit_king_loses():
    hands = {0: ["2-CU", "T2"], 1: ["1-CU", "T3"], 2: ["K-SW", "5-BA"]}
    game = situation(3, hands, 0)
    trick = _trick(game, [(0, "2-cu"), (1, "1-cu"), (2, "k-sw")])
    assert trick["seat"] == 1 and game.to_act() == [1]  # the winner leads next


def test_swords_10_beats_9_and_jack_beats_10():
    game = situation(3, {0: ["9-SW", "T2"], 1: ["10-SW", "T3"], 2: ["J-SW", "T4"]}, 0)
    assert _trick(game, [(0, "9-sw"), (1, "10-sw"), (2, "j-sw")])["seat"] == 2
    game = situation(3, {0: ["9-SW", "T2"], 1: ["10-SW", "T3"], 2: ["6-SW", "T4"]}, 0)
    assert _trick(game, [(0, "9-sw"), (1, "10-sw"), (2, "6-sw")])["seat"] == 1


def test_highest_trump_wins():
    game = situation(3, {0: ["K-CU", "T2"], 1: ["T3", "6-BA"], 2: ["T4", "5-BA"]}, 0)
    trick = _trick(game, [(0, "k-cu"), (1, "t3"), (2, "t4")])
    assert trick["seat"] == 2 and trick["points"] == 5 + 1 + 1
    assert sorted(game.state["piles"][2]) == sorted(ints(["K-CU", "T3", "T4"]))
    assert game.view(0)["last_trick"]["winner"] == 2
    assert game.view(None)["played"] == ["K-CU", "T3", "T4"]  # public, for counting cards


def test_tappist_leads_the_first_trick_and_misere_the_player_after_the_dealer():
    tapp_game = new(4, dealer=0)
    bid_all(tapp_game, {3: "tapp"})
    while tapp_game.state["phase"] == "discard":
        tapp_game.apply(3, tapp_game.legal_actions(3)[0])
    assert tapp_game.to_act() == [3]
    misere = new(4, dealer=2)
    bid_all(misere)
    assert misere.to_act() == [3]


# -- the Fool ------------------------------------------------------------------------------------


def test_fool_as_only_trump_when_void_may_be_played_or_held_back():
    game = situation(3, {0: ["6-CO"], 1: ["FOOL", "K-SW"], 2: ["Q-CO", "5-BA"]}, 1, [(0, "K-CO")])
    assert game.legal_actions(1) == ["play k-sw", "play fool"]


def test_fool_as_only_trump_when_trumps_led_may_be_held_back():
    game = situation(3, {0: ["6-CO"], 1: ["FOOL", "K-SW"], 2: ["T5", "5-BA"]}, 1, [(0, "T10")])
    assert game.legal_actions(1) == ["play k-sw", "play fool"]
    events = game.apply(1, "play k-sw")
    assert game.state["fool_held"] == 1
    assert {"type": "fool_held", "seat": 1, "private_to": 1} in events


def test_fool_with_other_trumps_must_be_trumped_with_no_hold_back():
    game = situation(3, {0: ["6-CO"], 1: ["FOOL", "T3", "K-SW"], 2: []}, 1, [(0, "K-CO")])
    assert game.legal_actions(1) == ["play fool", "play t3"]
    _refused(game, 1, "play k-sw", "must play a trump")


def test_fool_may_not_be_played_when_following_suit():
    game = situation(3, {0: ["6-CO"], 1: ["2-CO", "FOOL"], 2: []}, 1, [(0, "K-CO")])
    assert game.legal_actions(1) == ["play 2-co"]
    _refused(game, 1, "play fool", "must follow suit")


def test_fool_played_normally_wins_as_the_highest_trump():
    game = situation(3, {0: ["6-CO"], 1: ["FOOL", "K-SW"], 2: ["T21", "5-BA"]}, 1, [(0, "T10")])
    game.apply(1, "play fool")
    events = game.apply(2, "play t21")
    trick = next(e for e in events if e["type"] == "trick")
    assert trick["seat"] == 1 and FOOL in game.state["piles"][1]
    assert game.state["fool_held"] is None


def test_fool_never_held_back_wins_the_last_trick_as_usual():
    game = situation(3, {0: ["T21"], 1: ["FOOL"], 2: ["K-CU"]}, 0)
    events = _play_all(game, [(0, "t21"), (1, "fool"), (2, "k-cu")])
    assert next(e for e in events if e["type"] == "trick")["seat"] == 1
    assert not any(e["type"] == "fool_exchange" for e in events)
    assert sorted(game.state["piles"][1]) == sorted(ints(["T21", "FOOL", "K-CU"]))


def _play_all(game, plays):
    events = []
    for seat, card in plays:
        events += game.apply(seat, f"play {card}")
    return events


def test_hold_back_is_private_and_the_held_fool_goes_to_the_last_trick_with_an_exchange():
    hands = {0: ["6-CO"], 1: ["FOOL", "K-SW"], 2: ["Q-CO", "5-BA"]}
    game = situation(3, hands, 1, [(0, "K-CO")], piles={1: ["Q-BA", "7-BA"]})
    events = game.apply(1, "play k-sw")
    assert _public(events) == [{"type": "play", "seat": 1, "card": "K-SW"}]
    assert game.view(1)["fool_held_back"] is True
    for seat in (None, 0, 2):
        assert game.view(seat).get("fool_held_back") in (None, False)
    game.apply(2, "play q-co")  # seat 0's K-CO wins; seat 0 leads the last trick
    assert game.to_act() == [0]
    assert game.legal_actions(1) == []
    events = _play_all(game, [(0, "6-co")])
    assert game.legal_actions(1) == ["play fool"]  # the last trick: the held Fool comes out
    events = _play_all(game, [(1, "fool"), (2, "5-ba")])
    trick = next(e for e in events if e["type"] == "trick")
    assert trick["seat"] == 0  # the held Fool never wins
    assert trick["points"] == 2  # 6-CO and 5-BA: the Fool stays with its holder
    assert {"type": "fool_exchange", "seat": 1, "to": 0, "points": 1} in events
    piles = game.state["piles"]
    assert sorted(piles[1]) == sorted(ints(["Q-BA", "FOOL"]))  # kept the Fool, gave 7-BA
    assert ints(["7-BA"])[0] in piles[0] and FOOL not in piles[0]
    over = next(e for e in events if e["type"] == "hand_over")
    assert over["card_points"][1] == 4 + 5


def test_held_fool_gives_nothing_when_its_holders_pile_is_empty():
    hands = {0: ["6-CO"], 1: ["FOOL"], 2: ["5-BA"]}
    game = situation(3, hands, 0, fool_held=1, piles={0: ["Q-BA"]})
    events = _play_all(game, [(0, "6-co"), (1, "fool"), (2, "5-ba")])
    assert {"type": "fool_exchange", "seat": 1, "to": 0, "points": None} in events
    assert game.state["piles"][1] == [FOOL]


def test_held_fool_cannot_be_played_before_the_last_trick():
    hands = {0: ["6-CO", "T2", "T3"], 1: ["FOOL", "K-SW", "5-BA"], 2: ["Q-CO", "4-CO", "5-CO"]}
    game = situation(3, hands, 1, fool_held=1)
    assert game.legal_actions(1) == ["play k-sw", "play 5-ba"]
    _refused(game, 1, "play fool", "held the Fool back")


def test_held_fool_is_no_longer_a_trump_for_the_duty_to_trump():
    hands = {0: ["6-CO", "T2"], 1: ["FOOL", "K-SW", "5-BA"], 2: ["Q-CO", "4-CO"]}
    game = situation(3, hands, 1, [(0, "K-CO")], fool_held=1)
    assert game.legal_actions(1) == ["play k-sw", "play 5-ba"]


def test_held_fool_led_to_the_last_trick_lets_the_next_card_set_the_suit():
    game = situation(3, {0: ["6-CO"], 1: ["FOOL"], 2: ["Q-BA"]}, 1, fool_held=1)
    game.apply(1, "play fool")
    assert game.view(0)["lead_suit"] is None
    game.apply(2, "play q-ba")
    assert game.view(0)["lead_suit"] == "batons"
    events = game.apply(0, "play 6-co")
    assert next(e for e in events if e["type"] == "trick")["seat"] == 2


def test_hold_back_in_a_stacked_deal_at_the_first_trick():
    coins = ["K-CO", "Q-CO", "N-CO", "J-CO", "1-CO", "2-CO", "3-CO", "4-CO", "5-CO"]
    cups = ["FOOL", "K-CU", "Q-CU", "N-CU", "J-CU", "1-CU", "2-CU", "3-CU", "4-CU"]
    game = new(6, {1: coins, 2: cups}, dealer=0)
    bid_all(game)  # Misère: seat 1 leads
    game.apply(1, "play k-co")
    legal = game.legal_actions(2)
    assert sorted(legal) == sorted(f"play {c.lower()}" for c in cups)  # all 9 cards
    events = game.apply(2, "play 4-cu")
    assert {"type": "fool_held", "seat": 2, "private_to": 2} in events
    assert game.view(2)["fool_held_back"] and not game.view(3)["fool_held_back"]
    assert "FOOL" in game.view(2)["hand"]
    assert all("FOOL" not in str(game.view(s)) for s in (None, 0, 1, 3, 4, 5))


def test_view_hand_lists_codes_suits_first_then_fool_and_trumps_high_to_low():
    hands = {0: ["T1", "FOOL", "6-CU", "K-BA", "T21", "1-CO"], 1: [], 2: []}
    game = situation(3, hands, 0)
    assert game.view(0)["hand"] == ["6-CU", "1-CO", "K-BA", "FOOL", "T21", "T1"]
