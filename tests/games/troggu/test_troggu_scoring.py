"""Troggu scoring (Tapp, Solo, partner split, Misère), end of game, options and summary."""

import pytest
from troggu_helpers import bid_all, discard_first, new, play_out, situation

import engine
from engine import IllegalAction
from engine.troggu import GAME_CLASS
from engine.troggu.scoring import contract_payments, misere_payments, multiplier
from engine.troggu.spec import DEAL_SIZES

# -- the rate: >57 / >84 / every trick, and the mirrored losses --------------------------------


@pytest.mark.parametrize(
    "points,tricks,expected",
    [
        (58, 3, 1),  # more than 57: single
        (84, 5, 1),  # 84 is not more than 84
        (85, 5, 2),  # more than 84: double
        (114, 13, 3),  # every trick: triple
        (57, 6, 0),  # exactly 57: nothing
        (56, 4, -1),  # fewer than 57: pays single
        (30, 2, -1),  # 30 is not fewer than 30
        (29, 2, -2),  # fewer than 30 (the others more than 84): pays double
        (12, 0, -3),  # no trick: pays triple
    ],
)
def test_multiplier_thresholds(points, tricks, expected):
    assert multiplier(points, tricks, 13) == expected


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("contract,base", [("tapp", 10), ("solo", 20)])
@pytest.mark.parametrize("multiple", [1, 2, 3, -1, -2, -3])
def test_alone_contract_side_wins_or_pays_the_rate_from_each_other_player(
    players, contract, base, multiple
):
    payments = contract_payments(players, contract, 1, None, multiple)
    others = [p for s, p in enumerate(payments) if s != 1]
    assert others == [-base * multiple] * (players - 1)
    assert payments[1] == base * multiple * (players - 1)
    assert sum(payments) == 0


def test_exactly_57_pays_nothing():
    assert contract_payments(5, "solo", 2, None, multiplier(57, 4, 11)) == [0] * 5


@pytest.mark.parametrize(
    "players,multiple,partner_gets,tappist_gets",
    [(7, 1, 20, 30), (8, 1, 20, 40), (7, -1, -20, -30), (8, -2, -40, -80), (7, 3, 60, 90)],
)
def test_partner_takes_two_opponents_shares_and_the_tappist_the_rest(
    players, multiple, partner_gets, tappist_gets
):
    payments = contract_payments(players, "tapp", 1, 4, multiple)
    assert payments[4] == partner_gets and payments[1] == tappist_gets
    assert [p for s, p in enumerate(payments) if s not in (1, 4)] == [-10 * multiple] * (
        players - 2
    )
    assert sum(payments) == 0


@pytest.mark.parametrize(
    "points,expected",
    [
        ([50, 30, 20, 14], [-30, 10, 10, 10]),  # the most pays 10 to each with fewer
        ([40, 40, 20, 14], [-20, -20, 20, 20]),  # tied for the most: both pay
        ([30, 30, 30], [0, 0, 0]),  # all equal: no payment
    ],
)
def test_misere_payments(points, expected):
    assert misere_payments(points) == expected


# -- whole deals ----------------------------------------------------------------------------------


def _top_trumps(count: int) -> list[str]:
    return ["FOOL", *(f"T{n}" for n in range(21, 21 - (count - 1), -1))]


LOW_PIPS = ["6-CU", "5-CU", "4-CU", "3-CU", "6-CO", "5-CO", "4-CO", "3-CO", "5-SW", "5-BA"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_tapp_taking_every_trick_wins_triple_from_each_player(players):
    size, tapp_size = DEAL_SIZES[players]
    game = new(players, {1: _top_trumps(size)}, tapp=LOW_PIPS[:tapp_size])
    bid_all(game, {1: "tapp"})
    discard_first(game)  # the Tapp's low pips go back
    over = next(e for e in play_out(game) if e["type"] == "hand_over")
    assert over["contract"] == "tapp" and over["declarer"] == 1
    assert over["tricks"][1] == size and over["multiple"] == 3
    assert over["contract_points"] + over["others_points"] == 114
    assert over["payments"][1] == 30 * (players - 1)
    assert all(p == -30 for s, p in enumerate(over["payments"]) if s != 1)
    assert over["scores"] == over["payments"] == game.view(None)["scores"]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_solo_taking_every_trick_wins_triple_from_each_player(players):
    size, _ = DEAL_SIZES[players]
    game = new(players, {1: _top_trumps(size)})
    bid_all(game, {1: "solo"})
    over = next(e for e in play_out(game) if e["type"] == "hand_over")
    assert over["contract"] == "solo" and over["multiple"] == 3
    assert over["payments"][1] == 60 * (players - 1)
    assert all(p == -60 for s, p in enumerate(over["payments"]) if s != 1)


@pytest.mark.parametrize("players,tappist_gets", [(7, 90), (8, 120)])
def test_partner_split_when_the_tappist_and_partner_take_every_trick(players, tappist_gets):
    size, _ = DEAL_SIZES[players]
    hands = {1: ["FOOL", "T21", "T19", "T18", "T17", "T16", "T15", "T14"][:size], 3: ["T20"]}
    game = new(players, hands, tapp=LOW_PIPS[:6])
    bid_all(game, {1: "tapp"})
    discard_first(game)
    game.apply(1, "call t20")
    events = play_out(game)
    assert {"type": "partner_revealed", "seat": 3, "tappist": 1} in events
    over = next(e for e in events if e["type"] == "hand_over")
    assert over["partner"] == 3 and over["called"] == "T20" and over["multiple"] == 3
    assert over["payments"][3] == 60 and over["payments"][1] == tappist_gets
    assert all(p == -30 for s, p in enumerate(over["payments"]) if s not in (1, 3))


@pytest.mark.parametrize("players", [7, 8])
def test_partner_split_when_the_contract_is_lost(players):
    low = ["3-CU", "4-CU", "5-CU", "6-CU", "3-CO", "4-CO", "5-CO", "6-CO"][: DEAL_SIZES[players][0]]
    hands = {1: low, 3: ["T2", "2-CU", "2-CO"]}
    game = new(players, hands, tapp=["7-SW", "6-SW", "5-SW", "7-BA", "6-BA", "5-BA"])
    bid_all(game, {1: "tapp"})
    discard_first(game)
    game.apply(1, "call t2")
    over = next(e for e in play_out(game) if e["type"] == "hand_over")
    unit = 10 * over["multiple"]
    assert over["contract_points"] < 57 and unit < 0
    assert over["payments"][3] == 2 * unit and over["payments"][1] == (players - 4) * unit
    assert all(p == -unit for s, p in enumerate(over["payments"]) if s not in (1, 3))


@pytest.mark.parametrize("players", [7, 8])
def test_tappist_alone_at_7_or_8_wins_from_every_other_player(players):
    size, _ = DEAL_SIZES[players]
    game = new(players, {1: _top_trumps(size)}, tapp=LOW_PIPS[:6])
    bid_all(game, {1: "tapp"})
    discard_first(game)
    game.apply(1, "call none")
    over = next(e for e in play_out(game) if e["type"] == "hand_over")
    assert over["partner"] is None and over["payments"][1] == 30 * (players - 1)


def test_misere_deal_most_points_pays_each_player_with_fewer():
    game = situation(3, {0: ["6-CO"], 1: ["5-CO"], 2: ["4-CO"]}, 0)  # 4-CO wins (1 high)
    events = []
    for seat, card in ((0, "6-co"), (1, "5-co"), (2, "4-co")):
        events += game.apply(seat, f"play {card}")
    over = next(e for e in events if e["type"] == "hand_over")
    assert over["contract"] == "misere" and over["card_points"] == [0, 0, 3]
    assert over["tapp_points"] == 111  # the Tapp lies aside and counts for nobody
    assert over["payments"] == [10, 10, -20]
    game_over = events[-1]
    assert game_over == {"type": "game_over", "scores": [10, 10, -20], "winners": [0, 1]}
    assert game.result()["winners"] == [0, 1]  # ties share the win


# -- end of game, options, summary ---------------------------------------------------------------


def _count_deals(game) -> int:
    deals = 0
    while not game.is_over():
        seat = game.to_act()[0]
        events = game.apply(seat, game.legal_actions(seat)[0])
        deals += sum(e["type"] == "hand_over" for e in events)
    return deals


@pytest.mark.parametrize("players", [3, 5, 8])
def test_default_deals_is_one_per_player(players):
    game = engine.new_game("troggu", players, seed=3)
    assert game.options["deals"] == "auto" and game.view(None)["deals"] == players
    assert _count_deals(game) == players
    assert game.result()["deals"] == players


@pytest.mark.parametrize("deals", [1, 2, 7])
def test_deals_option_sets_the_game_length(deals):
    game = engine.new_game("troggu", 4, {"deals": deals}, seed=4)
    assert _count_deals(game) == deals


def test_game_over_names_the_highest_total_as_winner():
    game = engine.new_game("troggu", 4, {"deals": 2}, seed=8)
    _count_deals(game)
    scores = game.result()["scores"]
    assert sum(scores) == 0
    assert game.result()["winners"] == [s for s in range(4) if scores[s] == max(scores)]
    assert game.to_act() == [] and game.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="over"):
        game.apply(0, "pass")


def test_options_schema_deals_first_dealer_timer():
    spec = engine.GAMES["troggu"]
    assert (spec.min_players, spec.max_players) == (3, 8)
    assert [o.name for o in spec.options] == ["deals", "first_dealer", "timer"]
    deals = spec.option("deals")
    assert deals.parse("AUTO") == "auto" and deals.parse("50") == 50
    with pytest.raises(IllegalAction):
        deals.parse(51)
    assert spec.option("first_dealer").parse("7") == 7
    assert spec.option("first_dealer").parse("random") is None


def test_presets_standard_and_quick():
    spec = engine.GAMES["troggu"]
    assert spec.resolve("standard") == spec.defaults()
    assert spec.resolve("quick")["deals"] == 1
    game = engine.new_game("troggu", 3, preset="quick", seed=1)
    assert _count_deals(game) == 1


def test_rules_summary_reads_the_options():
    text = GAME_CLASS.rules_summary({"deals": "auto", "first_dealer": None, "timer": 60})
    for words in ("Tapp", "Solo", "Misère", "hold it back", "114", "one deal per player"):
        assert words in text
    assert "3 deals" in GAME_CLASS.rules_summary({"deals": 3})
    assert "one deal per player" in GAME_CLASS.rules_summary()
