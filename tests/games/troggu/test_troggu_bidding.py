"""Troggu: the deal, the bidding, the Tapp and its discards, Solo, and the partner call."""

import pytest
from troggu_helpers import bid_all, discard_first, hand, new, stack

import engine
from engine import IllegalAction
from engine.troggu.cards import CODES, parse_card
from engine.troggu.spec import DEAL_SIZES

# -- the deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players,each,tapp", [(3, 18, 8), (4, 13, 10), (5, 11, 7), (6, 9, 8), (7, 8, 6), (8, 7, 6)]
)
def test_deal_sizes_and_tapp_for_each_player_count(players, each, tapp):
    game = engine.new_game("troggu", players, seed=5)
    assert game.view(None)["hand_sizes"] == [each] * players
    assert len(game.state["tapp"]) == tapp == game.view(None)["tapp_size"]
    assert DEAL_SIZES[players] == (each, tapp)


def test_stacked_deck_deals_one_card_at_a_time_from_the_player_after_the_dealer():
    deck = stack(4, dealer=2)
    game = engine.new_game("troggu", 4, {"first_dealer": 2}, seed=0, deck=deck)
    # Card i goes to seat (dealer + 1 + i) % 4: seat 3 gets cards 0, 4, 8, ...
    for seat in range(4):
        dealt = deck[(seat - 3) % 4 : 52 : 4]
        assert sorted(hand(game, seat)) == sorted(dealt)
    assert [CODES[c] for c in game.state["tapp"]] == deck[52:]  # the rest, in order


def test_stacked_deck_must_hold_each_card_once():
    deck = stack(4)
    with pytest.raises(IllegalAction, match="62 cards once"):
        engine.new_game("troggu", 4, seed=0, deck=deck[:-1] + [deck[0]])


def test_deal_passes_to_the_next_seat_each_deal():
    game = engine.new_game("troggu", 3, {"first_dealer": 1, "deals": 3}, seed=2)
    dealers = [game.state["dealer"]]
    while not game.is_over():
        seat = game.to_act()[0]
        for event in game.apply(seat, game.legal_actions(seat)[0]):
            if event["type"] == "deal":
                dealers.append(event["dealer"])
    assert dealers == [1, 2, 0]


def test_first_dealer_random_is_drawn_from_the_seed():
    dealers = {engine.new_game("troggu", 5, seed=s).state["dealer"] for s in range(30)}
    assert len(dealers) > 1
    again = [engine.new_game("troggu", 5, seed=s).state["dealer"] for s in range(30)]
    assert again == [engine.new_game("troggu", 5, seed=s).state["dealer"] for s in range(30)]


def test_first_dealer_must_be_a_seat_at_the_table():
    with pytest.raises(IllegalAction, match="seat from 0 to 3"):
        engine.new_game("troggu", 4, {"first_dealer": 5}, seed=0)


def test_later_deals_are_shuffled_from_the_seed():
    game = new(3, deals=2)
    first = [list(h) for h in game.state["hands"]]
    bid_all(game)
    while game.state["hand_number"] == 1:
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    assert game.state["hands"] != first
    assert sum(len(h) for h in game.state["hands"]) + len(game.state["tapp"]) == 62


# -- bidding -----------------------------------------------------------------------------------


def test_bidding_starts_after_the_dealer_and_each_player_speaks_once():
    game = new(4, dealer=2)
    order = []
    while game.state["phase"] == "bidding":
        seat = game.to_act()[0]
        order.append(seat)
        assert game.legal_actions(seat) == ["pass", "tapp", "solo"]
        game.apply(seat, "pass")
    assert order == [3, 0, 1, 2]


def test_not_your_turn_to_bid():
    game = new(4, dealer=0)
    assert game.legal_actions(2) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(2, "pass")


def test_solo_ends_the_bidding_at_once():
    game = new(5, dealer=0)
    game.apply(1, "pass")
    events = game.apply(2, "solo")
    assert game.state["phase"] == "play"
    assert game.state["contract"] == "solo" and game.state["declarer"] == 2
    assert {"type": "contract", "contract": "solo", "seat": 2, "forced": False} in events
    assert game.state["bids"] == [None, "pass", "solo", None, None]


def test_after_a_tapp_only_pass_or_solo():
    game = new(4, dealer=0)
    game.apply(1, "tapp")
    assert game.legal_actions(2) == ["pass", "solo"]
    before = game.to_json()
    with pytest.raises(IllegalAction, match="after a Tapp only Pass or Solo"):
        game.apply(2, "tapp")
    assert game.to_json() == before


def test_a_later_solo_overrides_a_tapp():
    game = new(4, dealer=0)
    game.apply(1, "tapp")
    game.apply(2, "solo")
    assert game.state["contract"] == "solo" and game.state["declarer"] == 2


def test_a_tapp_with_everyone_else_passing_is_played():
    game = new(4, dealer=0)
    bid_all(game, {2: "tapp"})
    assert game.state["contract"] == "tapp" and game.state["declarer"] == 2
    assert game.state["phase"] == "discard" and game.to_act() == [2]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_all_pass_with_3_to_6_players_plays_misere(players):
    game = new(players, dealer=1)
    tapp = list(game.state["tapp"])
    events = bid_all(game)
    assert {"type": "contract", "contract": "misere", "seat": None, "forced": False} in events
    assert game.state["phase"] == "play"
    assert game.to_act() == [2 % players]  # the player after the dealer leads
    assert game.state["tapp"] == tapp  # no one takes the Tapp


@pytest.mark.parametrize("players", [7, 8])
def test_all_pass_with_7_or_8_players_forces_the_fool_holder_to_play_tapp(players):
    game = new(players, {4: ["FOOL"]})
    events = bid_all(game)
    assert {"type": "forced_tapp", "seat": 4, "reason": "fool"} in events
    assert game.state["contract"] == "tapp" and game.state["declarer"] == 4
    assert game.state["forced"] is True and game.state["phase"] == "discard"


@pytest.mark.parametrize("players", [7, 8])
def test_all_pass_fool_in_tapp_forces_the_holder_of_t1(players):
    game = new(players, {5: ["T1"]}, tapp=["FOOL"])
    events = bid_all(game)
    assert {"type": "forced_tapp", "seat": 5, "reason": "t1"} in events
    assert game.state["declarer"] == 5


@pytest.mark.parametrize("players", [7, 8])
def test_all_pass_fool_and_t1_in_tapp_plays_misere(players):
    game = new(players, tapp=["FOOL", "T1"])
    bid_all(game)
    assert game.state["contract"] == "misere" and game.state["declarer"] is None


def test_bid_words_other_than_pass_tapp_solo_are_refused():
    game = new(3)
    with pytest.raises(IllegalAction, match="pass, tapp, solo"):
        game.apply(1, "bid 7")


# -- Tapp ----------------------------------------------------------------------------------------

TAPP_4 = ["6-CU", "5-CU", "4-CU", "K-SW", "T21", "T1", "FOOL", "Q-SW", "9-SW", "8-SW"]


def _tapp_game() -> engine.Game:
    game = new(4, {1: ["K-CU", "K-CO", "T5"], 0: ["K-BA"]}, tapp=TAPP_4)
    bid_all(game, {1: "tapp"})
    return game


def test_tappist_takes_the_tapp_into_his_hand_and_discards_as_many_one_per_action():
    game = _tapp_game()
    assert len(hand(game, 1)) == 13 + 10 and game.state["tapp"] == []
    assert game.view(1)["discards_left"] == 10
    for left in range(9, -1, -1):
        card = game.legal_actions(1)[0].split()[1]
        events = game.apply(1, f"discard {card}")
        assert {"type": "discard", "seat": 1, "left": left} in events
        assert events[1]["private_to"] == 1 and events[1]["card"].lower() == card
    assert len(hand(game, 1)) == 13 and len(game.state["piles"][1]) == 10
    assert game.state["phase"] == "play" and game.to_act() == [1]  # the Tappist leads


def test_tapp_cards_are_shown_to_the_tappist_only():
    game = new(4, tapp=TAPP_4)
    events = bid_all(game, {1: "tapp"})
    private = [e for e in events if e["type"] == "tapp_cards"]
    assert private == [
        {"type": "tapp_cards", "seat": 1, "cards": sorted(TAPP_4, key=_key), "private_to": 1}
    ]
    assert sorted(game.view(1)["tapp"]) == sorted(TAPP_4)
    for seat in (None, 0, 2, 3):
        assert "tapp" not in game.view(seat)
        assert "T21" not in str(game.view(seat))


def _key(code: str) -> int:
    return parse_card(code)


@pytest.mark.parametrize("card", ["fool", "t21", "t1", "k-cu", "k-sw"])
def test_five_point_cards_may_not_be_discarded(card):
    game = _tapp_game()
    assert f"discard {card}" not in game.legal_actions(1)
    before = game.to_json()
    with pytest.raises(IllegalAction, match="may not discard"):
        game.apply(1, f"discard {card}")
    assert game.to_json() == before


def test_discard_of_a_card_not_held_is_refused():
    game = _tapp_game()
    with pytest.raises(IllegalAction, match="do not hold"):
        game.apply(1, "discard k-ba")


def test_holder_of_all_four_kings_after_taking_the_tapp_may_discard_kings():
    game = new(4, {1: ["K-CU", "K-CO", "K-BA"]}, tapp=TAPP_4)  # K-SW is in the Tapp
    bid_all(game, {1: "tapp"})
    legal = game.legal_actions(1)
    assert {"discard k-cu", "discard k-co", "discard k-sw", "discard k-ba"} <= set(legal)
    for never in ("fool", "t21", "t1"):
        assert f"discard {never}" not in legal
    for king in ("k-cu", "k-co", "k-sw"):
        game.apply(1, f"discard {king}")
    assert game.view(1)["discards"] == ["K-CU", "K-CO", "K-SW"]


def test_solo_sends_the_tapp_unseen_to_the_soloists_pile():
    game = new(4, tapp=TAPP_4)
    before = hand(game, 2)
    events = bid_all(game, {2: "solo"})
    assert hand(game, 2) == before
    assert sorted(game.state["piles"][2]) == sorted(_key(c) for c in TAPP_4)
    assert {"type": "tapp_to_pile", "seat": 2, "count": 10} in events
    assert not any(e["type"] == "tapp_cards" for e in events)
    assert "tapp" not in game.view(2) and "T21" not in str(game.view(2))
    assert game.state["phase"] == "play" and game.to_act() == [2]  # the Soloist leads


# -- calling a partner (7-8 players) ----------------------------------------------------------


def _called(players: int, called: str, hands: dict[int, list[str]] | None = None):
    game = new(players, hands)
    bid_all(game, {1: "tapp"})
    discard_first(game)
    assert game.state["phase"] == "call" and game.to_act() == [1]
    events = game.apply(1, f"call {called}")
    return game, events


@pytest.mark.parametrize("players", [7, 8])
def test_tappist_at_7_or_8_calls_any_trump_but_fool_xxi_and_i_or_none(players):
    game = new(players)
    bid_all(game, {1: "tapp"})
    discard_first(game)
    legal = game.legal_actions(1)
    assert legal[0] == "call none" and len(legal) == 20
    assert {f"call t{n}" for n in range(2, 21)} == set(legal[1:])
    for refused in ("call t21", "call t1", "call fool", "call k-cu"):
        before = game.to_json()
        with pytest.raises(IllegalAction, match="may not call"):
            game.apply(1, refused)
        assert game.to_json() == before


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_no_partner_call_below_7_players(players):
    game = new(players)
    bid_all(game, {1: "tapp"})
    discard_first(game)
    assert game.state["phase"] == "play"


@pytest.mark.parametrize("players", [7, 8])
def test_solo_at_7_or_8_plays_alone_without_a_call(players):
    game = new(players)
    bid_all(game, {1: "solo"})
    assert game.state["phase"] == "play" and game.state["called"] is None


@pytest.mark.parametrize("players", [7, 8])
def test_forced_tappist_calls_a_partner_too(players):
    game = new(players, {3: ["FOOL"]})
    bid_all(game)
    discard_first(game)
    assert game.state["phase"] == "call" and game.to_act() == [3]


@pytest.mark.parametrize("players", [7, 8])
def test_called_partner_stays_secret_until_the_called_card_is_played(players):
    game, events = _called(players, "t12", {5: ["T12", "K-CU"], 1: ["T20"]})
    assert game.state["partner"] == 5
    public = [e for e in events if "private_to" not in e]
    assert public == [{"type": "call", "seat": 1, "card": "T12"}]
    assert [e for e in events if "private_to" in e] == [
        {"type": "partner", "seat": 5, "private_to": 5}
    ]
    assert "5" not in str(public)
    for seat in [None, *range(players)]:
        view = game.view(seat)
        assert view["called"] == "T12"
        if seat == 5:
            assert view["partner"] == 5 and view["partner_known"] is True
        else:
            assert view["partner"] is None and view["partner_known"] is False
    # play until T12 falls; then everyone knows
    revealed = []
    while not revealed:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = "play t12" if "play t12" in legal else legal[-1 if seat == 5 else 0]
        events = game.apply(seat, action)
        for event in events:
            if event["type"] == "play" and event["card"] != "T12":
                assert not any(e["type"] == "partner_revealed" for e in events)
        revealed = [e for e in events if e["type"] == "partner_revealed"]
    assert revealed == [{"type": "partner_revealed", "seat": 5, "tappist": 1}]
    for seat in [None, *range(players)]:
        assert game.view(seat)["partner"] == 5 and game.view(seat)["partner_known"]


@pytest.mark.parametrize("players", [7, 8])
def test_tappist_holding_the_called_card_plays_alone_and_only_he_knows(players):
    game, events = _called(players, "t12", {1: ["T12"]})
    assert game.state["partner"] is None
    assert {"type": "alone", "seat": 1, "private_to": 1} in events
    assert game.view(1)["partner_known"] is True and game.view(1)["partner"] is None
    for seat in [None, 0, 2, 3]:
        assert game.view(seat)["partner_known"] is False


@pytest.mark.parametrize("players", [7, 8])
def test_tappist_who_discarded_the_called_card_plays_alone(players):
    game = new(players, tapp=["T12", "6-CU", "5-CU", "4-CU", "3-CU", "2-CU"])
    bid_all(game, {1: "tapp"})
    game.apply(1, "discard t12")
    discard_first(game)
    events = game.apply(1, "call t12")
    assert game.state["partner"] is None
    assert {"type": "alone", "seat": 1, "private_to": 1} in events


@pytest.mark.parametrize("players", [7, 8])
def test_call_none_plays_alone_and_everyone_knows(players):
    game, events = _called(players, "none")
    assert events == [{"type": "call", "seat": 1, "card": None}]
    assert game.state["partner"] is None
    for seat in [None, *range(players)]:
        assert game.view(seat)["partner_known"] is True
    assert game.to_act() == [1]
