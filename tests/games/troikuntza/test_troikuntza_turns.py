"""TroiKuntza turns: deal, take/draw, coming out, lay-offs, going out, stock, scoring, rounds."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import engine
from engine import IllegalAction
from engine.troikuntza.cards import full_deck
from engine.troikuntza.game import TroiKuntzaGame
from engine.troikuntza.melds import hand_points, make_run

FILLER = ["2C", "3S", "5H", "7D", "9C", "JS", "KH", "4C", "6S", "8H", "10D"]


def stacked(hands: dict[int, list[str]], upcard: str, stock: list[str] = (), players: int = 4):
    """A deck prefix dealing ``hands`` (seat -> 11 cards; others get filler) with dealer = last
    seat, so seat 0 is dealt first and plays first; then the upcard, then the stock top first."""
    pool = Counter(full_deck(2))
    for cards in [*hands.values(), [upcard], list(stock)]:
        pool.subtract(cards)
    spare = iter(sorted(pool.elements(), key=lambda c: (c == "JK", c)))
    full = {}
    for seat in range(players):
        full[seat] = list(hands.get(seat) or [next(spare) for _ in range(11)])
        assert len(full[seat]) == 11
    deck = [full[seat][i] for i in range(11) for seat in range(players)]
    return [*deck, upcard, *stock]


def new(hands, upcard="4S", stock=(), players=4, **options):
    opts = {"first_dealer": players - 1, **options}
    deck = stacked(hands, upcard, stock, players)
    return engine.new_game("troikuntza", players, options=opts, seed=7, deck=deck)


def types(events):
    return [e["type"] for e in events]


def quick_draw(game: TroiKuntzaGame) -> list[dict]:
    """The current player declines the discard and, nobody calling, draws."""
    events = game.apply(game.state["current"], "draw")
    while game.state["phase"] == "draw" and game.state["mayi"]["waiting"]:
        events += game.apply(game.to_act()[0], "pass")
    return events


TT_HAND = ["7H", "7S", "7C", "9D", "9S", "9H", "2C", "4D", "KS", "QD", "8C"]


# -- the deal --------------------------------------------------------------------------------------


def test_deal_eleven_each_upcard_then_stock_and_left_of_dealer_starts():
    game = new({0: TT_HAND}, upcard="5S", stock=["6C", "6D"])
    view = game.view(0)
    assert view["hand_sizes"] == [11, 11, 11, 11]
    assert sorted(view["hand"]) == sorted(TT_HAND)
    assert view["discard_top"] == "5S" and view["dealer"] == 3 and view["current"] == 0
    assert view["stock_size"] == 108 - 44 - 1
    events = quick_draw(game)
    assert {"type": "drawn", "seat": 0, "card": "6C", "private_to": 0} in events


def test_deal_passes_left_each_round_and_contract_follows_the_round():
    game = new({0: TT_HAND})
    game.state["hands"][0] = ["2C"]
    game.state["out"][0] = True
    game.state["phase"] = "play"
    events = game.apply(0, "discard 2c")
    deal = next(e for e in events if e["type"] == "deal")
    assert deal["dealer"] == 0 and deal["round"] == 2 and deal["contract"] == "TR"
    assert game.state["current"] == 1
    private = [e for e in events if e["type"] == "hand"]
    assert [e["private_to"] for e in private] == [0, 1, 2, 3]


@pytest.mark.parametrize("players,decks", [(4, 2), (5, 3), (8, 4), (10, 5)])
def test_decks_auto_is_at_least_two_or_one_per_two_players(players, decks):
    game = engine.new_game("troikuntza", players, seed=1)
    assert game.state["decks"] == decks
    assert game.view(None)["stock_size"] == decks * 54 - players * 11 - 1


def test_decks_option_sets_the_count_and_refuses_too_few():
    assert engine.new_game("troikuntza", 4, {"decks": 3}, seed=1).state["decks"] == 3
    with pytest.raises(IllegalAction, match="too few"):
        engine.new_game("troikuntza", 10, {"decks": 2}, seed=1)


def test_three_players_only_with_allow_three():
    with pytest.raises(IllegalAction, match="4 to 10"):
        engine.new_game("troikuntza", 3, seed=1)
    assert engine.new_game("troikuntza", 3, {"allow_three": True}, seed=1).players == 3
    with pytest.raises(IllegalAction):
        engine.new_game("troikuntza", 11, seed=1)


def test_first_dealer_option_and_random_from_seed():
    assert engine.new_game("troikuntza", 5, {"first_dealer": 2}, seed=1).state["dealer"] == 2
    a = engine.new_game("troikuntza", 5, seed=9).state["dealer"]
    assert a == engine.new_game("troikuntza", 5, seed=9).state["dealer"]
    with pytest.raises(IllegalAction, match="first_dealer"):
        engine.new_game("troikuntza", 4, {"first_dealer": 6}, seed=1)


def test_standard_preset_exists():
    spec = engine.GAMES["troikuntza"]
    assert spec.resolve("standard")["mayi_limit"] == 3
    assert spec.resolve("strict")["natural_majority"] is True


# -- start of turn ---------------------------------------------------------------------------------


def test_take_is_public_and_the_taken_card_cannot_be_discarded():
    game = new({0: TT_HAND}, upcard="5S")
    events = game.apply(0, "take")
    assert {"type": "take", "seat": 0, "card": "5S"} in events
    assert "discard 5s" not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="took 5S"):
        game.apply(0, "discard 5s")


def test_taken_card_may_be_discarded_when_holding_another_copy():
    game = new({0: [*TT_HAND[:10], "5S"]}, upcard="5S")
    game.apply(0, "take")
    assert "discard 5s" in game.legal_actions(0)


def test_draw_is_private_with_a_public_notice():
    game = new({0: TT_HAND}, stock=["QH"])
    events = quick_draw(game)
    drawn = [e for e in events if e.get("card") == "QH"]
    assert drawn and all(e.get("private_to") == 0 for e in drawn)
    assert {"type": "draw", "seat": 0} in events


# -- coming out ------------------------------------------------------------------------------------


def test_come_out_with_the_whole_contract_at_once():
    game = new({0: TT_HAND}, stock=["3C"])
    quick_draw(game)
    events = game.apply(0, "meld 7h 7s 7c | 9d 9s 9h")
    assert types(events) == ["meld"]
    assert [m["number"] for m in events[0]["melds"]] == [1, 2]
    assert game.state["out"][0] and len(game.state["hands"][0]) == 6


def test_come_out_refuses_part_of_the_contract():
    game = new({0: TT_HAND})
    quick_draw(game)
    with pytest.raises(IllegalAction, match="2 Troikas"):
        game.apply(0, "meld 7h 7s 7c")


def test_come_out_refuses_cards_not_held():
    game = new({0: TT_HAND})
    quick_draw(game)
    with pytest.raises(IllegalAction, match="don't hold"):
        game.apply(0, "meld 7h 7s 7d | 9d 9s 9h")


def test_come_out_nothing_else_that_turn_then_discard():
    game = new({0: TT_HAND}, stock=["9C"])
    quick_draw(game)
    game.apply(0, "meld 7h 7s 7c | 9d 9s 9h")
    assert all(a.startswith("discard") for a in game.legal_actions(0))
    with pytest.raises(IllegalAction, match="next turn"):
        game.apply(0, "layoff 9c 2")
    with pytest.raises(IllegalAction, match="already come out"):
        game.apply(0, "meld 2c 2c 2c | 4d 4d 4d")


def test_come_out_discard_cannot_be_a_contract_card():
    game = new({0: TT_HAND})
    quick_draw(game)
    game.apply(0, "meld 7h 7s 7c | 9d 9s 9h")
    with pytest.raises(IllegalAction, match="don't hold 7H"):
        game.apply(0, "discard 7h")


def test_come_out_must_keep_a_discardable_card():
    hand = ["7H", "7S", "7C", "7D", "7H", "9D", "9S", "9H", "9C", "9D", "9S"]
    game = new({0: hand}, upcard="4S")
    game.apply(0, "take")
    with pytest.raises(IllegalAction, match="keep one back"):
        game.apply(0, "meld 7h 7s 7c 7d 7h | 9d 9s 9h 9c 9d 9s")


def test_come_out_natural_majority_option_at_the_table():
    hand = ["7H", "JK", "JK", "9D", "9S", "9H", "2C", "4D", "KS", "QD", "8C"]
    strict = new({0: hand}, natural_majority=True)
    quick_draw(strict)
    with pytest.raises(IllegalAction, match="at least as many natural cards"):
        strict.apply(0, "meld 7h jk jk | 9d 9s 9h")
    relaxed = new({0: hand})
    quick_draw(relaxed)
    relaxed.apply(0, "meld 7h jk jk | 9d 9s 9h")
    assert relaxed.state["out"][0]


def test_come_out_says_which_group_is_not_a_meld():
    game = new({0: TT_HAND})
    quick_draw(game)
    with pytest.raises(IllegalAction, match="`7H 7S 2C` is not a meld"):
        game.apply(0, "meld 7h 7s 2c | 9d 9s 9h")
    with pytest.raises(IllegalAction, match="with `|` between melds"):
        game.apply(0, "meld")


def test_come_out_legal_actions_offer_a_complete_example():
    game = new({0: TT_HAND})
    quick_draw(game)
    melds = [a for a in game.legal_actions(0) if a.startswith("meld")]
    assert melds
    game.apply(0, melds[0])
    assert game.state["out"][0]


def test_meld_suggestions_for_autocomplete_only_when_the_seat_may_come_out():
    game = new({0: TT_HAND})
    assert game.meld_suggestions(0) == []  # not drawn yet
    quick_draw(game)
    suggestions = game.meld_suggestions(0, limit=2)
    assert 1 <= len(suggestions) <= 2 and all(s.startswith("meld ") for s in suggestions)
    assert game.meld_suggestions(1) == []
    game.apply(0, suggestions[0])
    assert game.meld_suggestions(0) == []


def test_come_out_in_each_later_round_uses_that_rounds_contract():
    hand = ["3D", "4D", "5D", "6D", "8S", "9S", "10S", "JS", "KH", "KC", "KD"]
    game = new({0: hand}, stock=["2C"])
    game.state["round"] = 6  # RRT
    quick_draw(game)
    with pytest.raises(IllegalAction, match="2 Runs and 1 Troika"):
        game.apply(0, "meld 3d 4d 5d 6d | kh kc kd")
    game.apply(0, "meld 3d 4d 5d 6d | 8s 9s 10s js | kh kc kd")
    assert [m["kind"] for m in game.state["melds"]] == ["run", "run", "troika"]


def test_round_seven_needs_more_than_twelve_cards():
    hand = ["AD", "2D", "3D", "4D", "8S", "9S", "10S", "JS", "JH", "QH", "KH"]
    game = new({0: hand}, upcard="5C", stock=["AH"])
    game.state["round"] = 7
    quick_draw(game)  # 12 cards, the exact contract: no discard would be left
    assert not [a for a in game.legal_actions(0) if a.startswith("meld")]
    with pytest.raises(IllegalAction, match="keep one back"):
        game.apply(0, "meld ad 2d 3d 4d | 8s 9s 10s js | jh qh kh ah")


# -- lay-offs and going out ------------------------------------------------------------------------


def came_out(**options) -> TroiKuntzaGame:
    """Seat 0 has come out with 7s and 9s and holds 7D, 9C, 2C; it is seat 0's next turn."""
    hand = ["7H", "7S", "7C", "9D", "9S", "9H", "7D", "9C", "2C", "KS", "QD"]
    game = new({0: hand}, stock=["KD", "10C", "10D", "10H", "10S", "JC"], **options)
    quick_draw(game)
    game.apply(0, "meld 7h 7s 7c | 9d 9s 9h")
    game.apply(0, "discard kd")
    for _ in range(3):
        quick_draw(game)
        seat = game.state["current"]
        game.apply(seat, f"discard {game.state['hands'][seat][0].lower()}")
    assert game.state["current"] == 0
    quick_draw(game)
    game.apply(0, "discard qd")
    return game


def test_layoff_on_a_later_turn_onto_own_or_others_melds():
    game = came_out()
    for _ in range(3):
        quick_draw(game)
        seat = game.state["current"]
        game.apply(seat, f"discard {game.state['hands'][seat][0].lower()}")
    quick_draw(game)
    events = game.apply(0, "layoff 7d 1")
    assert events[0]["type"] == "layoff" and events[0]["meld"] == 1
    assert game.state["melds"][0]["cards"][-1] == "7D"
    with pytest.raises(IllegalAction, match="does not fit"):
        game.apply(0, "layoff 2c 2")


def with_run_on_table(game: TroiKuntzaGame, cards: list[str]) -> None:
    """Put a run (meld 3, owned by seat 1) on the table for lay-off tests."""
    meld = make_run(cards, 1)
    assert meld is not None
    game.state["melds"].append(meld)


def test_layoff_bumps_an_end_joker_of_a_run():
    game = came_out()
    play_to_seat0_turn(game)
    with_run_on_table(game, ["JK", "4C", "5C", "6C"])
    game.state["hands"][0] += ["3C"]
    events = game.apply(0, "layoff 3c 3")
    assert events[0]["bumped"] is True
    assert events[0]["cards"] == ["JK", "3C", "4C", "5C", "6C"]
    assert game.view(1)["melds"][2]["stands_for"][0] == "2C"


def test_layoff_joker_on_a_run_at_the_chosen_end():
    game = came_out()
    play_to_seat0_turn(game)
    with_run_on_table(game, ["4C", "5C", "6C", "7C"])
    game.state["hands"][0] += ["JK", "JK"]
    legal = game.legal_actions(0)
    assert "layoff jk 3 low" in legal and "layoff jk 3 high" in legal
    game.apply(0, "layoff jk 3 low")
    game.apply(0, "layoff JK 3")
    assert game.state["melds"][2]["cards"] == ["JK", "4C", "5C", "6C", "7C", "JK"]
    assert game.state["melds"][2]["start"] == 3
    with pytest.raises(IllegalAction, match="only says where a joker goes"):
        game.apply(0, "layoff 7d 1 low")


def test_layoff_refused_before_coming_out():
    game = new({0: TT_HAND})
    quick_draw(game)
    with pytest.raises(IllegalAction, match="come out first"):
        game.apply(0, "layoff 7h 1")


def play_to_seat0_turn(game: TroiKuntzaGame) -> None:
    while game.state["current"] != 0:
        quick_draw(game)
        seat = game.state["current"]
        game.apply(seat, f"discard {game.state['hands'][seat][0].lower()}")
    quick_draw(game)


def test_going_out_by_laying_off_the_last_card():
    game = came_out()
    play_to_seat0_turn(game)
    game.state["hands"][0] = ["7D"]
    assert "layoff 7d 1" in game.legal_actions(0)
    events = game.apply(0, "layoff 7d 1")
    over = next(e for e in events if e["type"] == "hand_over")
    assert over["went_out"] == 0 and over["reason"] == "out" and over["points"][0] == 0


def test_going_out_by_discarding_the_last_card():
    game = came_out()
    play_to_seat0_turn(game)
    game.state["hands"][0] = ["2C"]
    events = game.apply(0, "discard 2c")
    assert "hand_over" in types(events) and events[-1]["type"] != "game_over"


def test_discard_to_go_out_refuses_laying_off_the_last_card():
    game = came_out(discard_to_go_out=True)
    play_to_seat0_turn(game)
    game.state["hands"][0] = ["7D"]
    assert "layoff 7d 1" not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="final discard"):
        game.apply(0, "layoff 7d 1")
    game.state["hands"][0] = ["7D", "2C"]
    game.apply(0, "layoff 7d 1")
    events = game.apply(0, "discard 2c")
    assert next(e for e in events if e["type"] == "hand_over")["went_out"] == 0


def test_round_ends_the_moment_a_hand_is_empty_and_others_score_their_hands():
    game = came_out()
    play_to_seat0_turn(game)
    game.state["hands"][0] = ["2C"]
    others = [list(h) for h in game.state["hands"]]
    events = game.apply(0, "discard 2c")
    over = next(e for e in events if e["type"] == "hand_over")
    assert over["points"] == [0] + [hand_points(h) for h in others[1:]]
    assert over["scores"] == over["points"]
    assert game.state["round"] == 2 and game.state["melds"] == []


# -- stock -----------------------------------------------------------------------------------------


def test_stock_reshuffles_the_discards_under_the_top():
    game = new({0: TT_HAND})
    game.state["stock"] = []
    game.state["discard"] = ["2H", "3H", "4H", "5H"]
    events = quick_draw(game)
    assert {"type": "reshuffle", "cards": 3} in events
    assert game.state["discard"] == ["5H"]
    assert len(game.state["stock"]) == 2 and game.state["hands"][0][-1] in ("2H", "3H", "4H")


def test_stock_exhausted_ends_the_round_and_everyone_scores_his_hand():
    game = new({0: TT_HAND})
    game.state["stock"] = []
    hands = [list(h) for h in game.state["hands"]]
    events = quick_draw(game)
    over = next(e for e in events if e["type"] == "hand_over")
    assert over["reason"] == "stock" and over["went_out"] is None
    assert over["points"] == [hand_points(h) for h in hands]


def test_reshuffles_option_caps_new_stocks_per_round():
    game = new({0: TT_HAND}, reshuffles=0)
    game.state["stock"] = []
    game.state["discard"] = ["2H", "3H", "4H"]
    events = quick_draw(game)
    assert next(e for e in events if e["type"] == "hand_over")["reason"] == "stock"


def test_reshuffles_unlimited_reshuffles_whenever_there_are_discards_under_the_top():
    game = new({0: TT_HAND}, reshuffles="unlimited")
    game.state["reshuffles"] = 40
    game.state["stock"] = []
    game.state["discard"] = ["2H", "3H", "4H"]
    events = quick_draw(game)
    assert {"type": "reshuffle", "cards": 2} in events and "hand_over" not in types(events)
    assert game.state["reshuffles"] == 41 and game.state["phase"] == "play"
    game.apply(0, "discard 2c")
    game.state["stock"] = []
    game.state["discard"] = ["2C"]  # nothing under the top: the round ends all the same
    assert next(e for e in quick_draw(game) if e["type"] == "hand_over")["reason"] == "stock"


def test_reshuffles_option_takes_unlimited_as_typed():
    option = next(o for o in TroiKuntzaGame.spec.options if o.name == "reshuffles")
    assert option.default == 2 and option.parse("Unlimited") == "unlimited"
    assert option.parse("3") == 3
    with pytest.raises(IllegalAction, match="0-5, unlimited"):
        option.parse("6")
    text = TroiKuntzaGame.rules_summary({"reshuffles": "unlimited"})
    assert "as often as needed" in text
    assert "at most 2 times a round" in TroiKuntzaGame.rules_summary(None)


# -- the game --------------------------------------------------------------------------------------


def test_seven_rounds_to_a_winner_lowest_total():
    game = engine.new_game("troikuntza", 4, seed=3)
    rng = random.Random(3)
    overs = []
    while not game.is_over():
        seat = rng.choice(game.to_act())
        legal = game.legal_actions(seat)
        best = [a for a in legal if a.split()[0] in ("meld", "layoff")]
        events = game.apply(seat, rng.choice(best or legal))
        overs += [e for e in events if e["type"] == "hand_over"]
    assert [o["round"] for o in overs] == [1, 2, 3, 4, 5, 6, 7]
    assert [o["contract"] for o in overs] == ["TT", "TR", "RR", "TTT", "TTR", "RRT", "RRR"]
    totals = [sum(o["points"][s] for o in overs) for s in range(4)]
    result = game.result()
    assert result["scores"] == totals
    assert result["winners"] == [s for s in range(4) if totals[s] == min(totals)]


def test_ties_share_the_win():
    game = new({0: TT_HAND})
    game.state["round"] = 7
    game.state["scores"] = [10, 0, 10, 30]
    game.state["hands"] = [["2C"], ["KH", "2C"], ["3C"], ["4C"]]
    game.state["stock"] = []
    events = quick_draw(game)
    final = events[-1]
    assert final["type"] == "game_over"
    assert final["scores"] == [15, 15, 15, 35] and final["winners"] == [0, 1, 2]
    assert game.is_over() and game.to_act() == []


# -- errors, views, rules --------------------------------------------------------------------------


def test_illegal_action_leaves_the_game_unchanged_and_says_what_to_do():
    game = new({0: TT_HAND})
    before = game.to_json()
    for seat, action in [(0, "discard 2c"), (1, "take"), (0, "meld 7h"), (2, "draw")]:
        with pytest.raises(IllegalAction):
            game.apply(seat, action)
        assert game.to_json() == before
    with pytest.raises(IllegalAction, match="`take` or `draw`"):
        game.apply(0, "discard 2c")


def test_views_hide_other_hands_and_the_stock():
    game = new({0: TT_HAND})
    view = game.view(1)
    assert "hand" not in game.view(None)
    assert sorted(view["hand"]) == sorted(game.state["hands"][1])
    text = json.dumps(view)
    assert "stock" not in {k for k, v in view.items() if isinstance(v, list)}
    assert json.dumps(sorted(TT_HAND)) not in text
    for key in ("game", "seat", "players", "phase", "dealer", "to_act", "scores", "hand_number"):
        assert key in view


def test_views_number_the_melds():
    game = new({0: TT_HAND})
    quick_draw(game)
    game.apply(0, "meld 7h 7s 7c | 9d 9s 9h")
    melds = game.view(2)["melds"]
    assert [(m["number"], m["owner"], m["kind"]) for m in melds] == [
        (1, 0, "troika"),
        (2, 0, "troika"),
    ]


def test_rules_summary_follows_the_options():
    text = TroiKuntzaGame.rules_summary({"mayi_limit": 2, "natural_majority": True})
    assert "RRR" in text and "2 May Is" in text and "natural" in text
    assert "3 May Is" in TroiKuntzaGame.rules_summary(None)
    assert "unless you go out by laying off" in TroiKuntzaGame.rules_summary(None)
    strict = TroiKuntzaGame.rules_summary({"discard_to_go_out": True})
    assert "unless you go out" not in strict and "after a final discard" in strict
