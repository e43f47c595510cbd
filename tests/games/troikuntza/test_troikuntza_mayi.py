"""TroiKuntza "May I": the window, priority, penalty card, limit, voiding, the exposed card."""

from __future__ import annotations

import pytest
from test_troikuntza_turns import TT_HAND, new, types

import engine
from engine import IllegalAction
from engine.troikuntza.game import TroiKuntzaGame

STOCK = ["QH", "QS", "QD", "QC", "KH", "KS"]


def start(**options) -> TroiKuntzaGame:
    """Seat 0 to act on the first upcard 5S (over 8S), seats 1-3 may call."""
    game = new({0: TT_HAND}, upcard="5S", stock=STOCK, **options)
    return game


def decline(game: TroiKuntzaGame) -> list[dict]:
    """The current player draws; the table service then closes the window if it is open."""
    events = game.apply(game.state["current"], "draw")
    if game.state["mayi"]["open"]:
        events += game.apply(game.to_act()[0], "close")
    return events


def test_first_upcard_opens_a_window_for_everyone_but_the_current_player():
    game = start()
    assert game.to_act() == [0, 1, 2, 3]
    assert game.legal_actions(1) == ["mayi", "pass"]
    assert game.legal_actions(0) == ["take", "draw"]
    assert game.view(2)["mayi"]["open"] and game.view(2)["mayi"]["eligible"] == [1, 2, 3]


def test_window_opens_with_each_discard_and_the_discarder_may_not_call():
    game = start()
    game.apply(0, "take")
    game.apply(0, "discard 2c")
    assert game.state["current"] == 1
    assert game.to_act() == [1, 2, 3]
    before = game.to_json()
    with pytest.raises(IllegalAction, match="Nobody may May I his own discard"):
        game.apply(0, "mayi")
    assert game.to_json() == before
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(0, "pass")


def test_priority_three_callers_nearest_the_current_players_left_wins():
    game = start()
    game.apply(3, "mayi")
    game.apply(1, "mayi")
    game.apply(2, "mayi")
    events = game.apply(0, "draw")
    mayi = next(e for e in events if e["type"] == "mayi")
    assert mayi["seat"] == 1 and mayi["card"] == "5S" and sorted(mayi["void"]) == [2, 3]
    assert game.state["mayi_used"] == [0, 1, 0, 0]
    hand = game.state["hands"][1]
    assert len(hand) == 13 and "5S" in hand and "QH" in hand  # the discard + the penalty card
    assert {"type": "penalty_card", "seat": 1, "card": "QH", "private_to": 1} in events


def test_priority_counts_from_the_current_players_left_around_the_table():
    game = start()
    game.apply(0, "take")
    game.apply(0, "discard 2c")  # seat 1 to act; seat 0 discarded
    game.apply(2, "pass")
    game.apply(3, "mayi")
    events = game.apply(1, "draw")
    assert next(e for e in events if e["type"] == "mayi")["seat"] == 3


def test_the_newly_exposed_discard_is_for_the_current_player_only():
    game = new({0: TT_HAND}, upcard="5S", stock=STOCK)
    game.state["discard"] = ["8S", "5S"]
    game.apply(2, "mayi")
    events = decline(game)
    assert {"type": "exposed", "seat": 0, "card": "8S"} in events
    assert game.to_act() == [0] and game.state["phase"] == "draw"
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(1, "mayi")
    assert game.apply(0, "take") == [{"type": "take", "seat": 0, "card": "8S"}]


def test_after_a_mayi_the_current_player_may_draw_instead():
    game = start()
    game.apply(1, "mayi")
    decline(game)
    events = game.apply(0, "draw")
    assert "drawn" in types(events) and game.state["phase"] == "play"


def test_take_voids_every_call():
    game = start()
    game.apply(1, "mayi")
    game.apply(3, "mayi")
    events = game.apply(0, "take")
    assert events[0] == {"type": "mayi_void", "seats": [1, 3], "by": 0}
    assert game.state["mayi_used"] == [0, 0, 0, 0]
    assert [len(h) for h in game.state["hands"]] == [12, 11, 11, 11]
    assert game.to_act() == [0]


def test_draw_waits_while_the_window_is_open():
    game = start()
    events = game.apply(0, "draw")
    assert events == [{"type": "decline", "seat": 0, "card": "5S", "waiting": True}]
    assert game.to_act() == [1, 2, 3] and game.legal_actions(0) == []
    assert len(game.state["hands"][0]) == 11


def test_window_closes_by_itself_when_everyone_answered():
    game = start()
    game.apply(1, "pass")
    game.apply(2, "mayi")
    events = game.apply(3, "pass")
    assert events[-1] == {"type": "window_closed", "calls": [2]}
    assert game.to_act() == [0] and not game.view(0)["mayi"]["open"]
    events = game.apply(0, "draw")  # the call made in the window stands
    assert next(e for e in events if e["type"] == "mayi")["seat"] == 2


def test_window_last_answer_resolves_a_waiting_draw():
    game = start()
    game.apply(0, "draw")
    game.apply(1, "pass")
    game.apply(2, "pass")
    events = game.apply(3, "pass")
    assert "drawn" in types(events) and game.state["phase"] == "play"


def test_close_by_the_table_service_resolves_a_waiting_draw():
    game = start()
    game.apply(0, "draw")
    game.apply(2, "mayi")
    events = game.apply(game.to_act()[0], "close")
    assert types(events)[:2] == ["window_closed", "mayi"]
    assert game.state["mayi_used"][2] == 1
    assert "close" not in game.legal_actions(1)


def test_close_without_a_waiting_draw_only_ends_the_calling():
    game = start()
    game.apply(3, "mayi")
    game.apply(0, "close")
    assert game.to_act() == [0]
    with pytest.raises(IllegalAction, match="No May I window"):
        game.apply(0, "close")
    events = game.apply(0, "draw")
    assert next(e for e in events if e["type"] == "mayi")["seat"] == 3


def test_close_may_come_from_any_seat_to_act_and_may_i_is_typed_either_way():
    game = start()
    game.apply(2, "May I")
    game.apply(0, "draw")
    assert game.to_act() == [1, 3]
    events = game.apply(3, "close")
    assert next(e for e in events if e["type"] == "mayi")["seat"] == 2


def test_mayi_window_zero_draw_resolves_at_once():
    game = start(mayi_window=0)
    game.apply(2, "mayi")
    events = game.apply(0, "draw")
    assert next(e for e in events if e["type"] == "mayi")["seat"] == 2


def test_mayi_limit_per_player_per_round():
    game = start(mayi_limit=1)
    game.apply(1, "mayi")
    decline(game)
    game.apply(0, "draw")
    game.apply(0, "discard 2c")  # seat 1 is now current; next time seat 1 is not eligible
    game.apply(1, "take")
    game.apply(1, f"discard {game.state['hands'][1][0].lower()}")
    game.apply(2, "take")
    game.apply(2, f"discard {game.state['hands'][2][0].lower()}")
    assert game.state["current"] == 3
    assert game.view(0)["mayi"]["eligible"] == [0]  # seat 1 has used his one May I
    assert game.to_act() == [3, 0]
    with pytest.raises(IllegalAction, match=r"You have used your 1 May I this round\."):
        game.apply(1, "mayi")


def test_mayi_limit_resets_each_round():
    game = start(mayi_limit=1)
    game.state["mayi_used"] = [1, 1, 1, 1]
    game.apply(0, "take")
    game.state["hands"][0] = ["2C"]
    game.state["out"][0] = True
    game.apply(0, "discard 2c")
    assert game.state["round"] == 2 and game.state["mayi_used"] == [0, 0, 0, 0]


def test_mayi_limit_zero_means_no_window():
    game = start(mayi_limit=0)
    assert game.to_act() == [0] and not game.state["mayi"]["open"]


def test_voided_calls_do_not_count_toward_the_limit():
    game = start(mayi_limit=1)
    game.apply(1, "mayi")
    game.apply(2, "mayi")
    decline(game)
    assert game.state["mayi_used"] == [0, 1, 0, 0]


def test_mayi_after_out_on_lets_players_who_came_out_call():
    game = start()
    game.state["out"][2] = True
    game.apply(0, "take")
    game.apply(0, "discard 2c")
    assert 2 in game.state["mayi"]["eligible"]


def test_mayi_after_out_off_excludes_players_who_came_out():
    game = start(mayi_after_out=False)
    game.state["out"][2] = True
    game.apply(0, "take")
    game.apply(0, "discard 2c")
    assert game.state["mayi"]["eligible"] == [3]


def test_current_player_cannot_call_mayi():
    game = start()
    with pytest.raises(IllegalAction, match="your turn"):
        game.apply(0, "mayi")


def test_answering_twice_is_refused():
    game = start()
    game.apply(1, "mayi")
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(1, "mayi")


def test_mayi_state_round_trips_through_json():
    game = start()
    game.apply(1, "mayi")
    game.apply(0, "draw")
    assert engine.load(game.to_json()) == game


def test_a_seat_that_may_not_call_is_told_why_not_that_it_is_not_his_turn():
    game = start()
    game.state["mayi_used"][2] = 3
    game._open_window(None)  # the upcard's window, now without seat 2
    assert game.to_act() == [0, 1, 3]
    before = game.to_json()
    with pytest.raises(IllegalAction, match=r"^You have used your 3 May Is this round\.$"):
        game.apply(2, "mayi")
    with pytest.raises(IllegalAction, match="used your 3 May Is"):
        game.apply(2, "may i")
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(2, "pass")  # not a May I: the turn is the reason
    assert game.to_json() == before
    game.apply(0, "take")
    with pytest.raises(IllegalAction, match="used your 3 May Is"):
        game.apply(2, "mayi")  # after the window too: still the better reason


def test_may_i_off_or_over_once_out_says_so():
    game = start(mayi_limit=0)
    with pytest.raises(IllegalAction, match="May I is off at this table"):
        game.apply(1, "mayi")
    game = start(mayi_after_out=False)
    game.state["out"][2] = True
    game._open_window(None)
    with pytest.raises(IllegalAction, match="You have come out this round"):
        game.apply(2, "mayi")
