"""Troika: naming trumps, trump_lead, the kitty, following suit, trick winners, low ranking.

The dealer is seat 3, so seat 0 bids first; ``contract()`` makes seat 0 the declarer.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import IllegalAction
from engine.troika.cards import CODES, DECK_32
from tests.engine.play_helpers import act, stacked_game

DECK32 = [CODES[c] for c in DECK_32]
DECK34 = list(CODES)

# Every card placed: seat 1 holds spades; seat 2 holds only the 3S in spades; seat 3 is void
# in spades and hearts.
HANDS = {
    0: ["AS", "KS", "QS", "AH", "KH", "AD", "KD", "AC"],
    1: ["JS", "10S", "9S", "8S", "QH", "JH", "QD", "QC"],
    2: ["3S", "10H", "9H", "8H", "5H", "JD", "10D", "KC"],
    3: ["9D", "8D", "7D", "JC", "10C", "9C", "8C", "7C"],
}


def make(hands: dict[int, list[str]] | None = None, **options: Any) -> engine.Game:
    full = DECK34 if options.get("kitty") or options.get("preset") else DECK32
    return stacked_game("troika", 4, full, 8, 3, HANDS if hands is None else hands, **options)


def contract(bid: str = "bid 6", trump: str | None = "d", **options: Any) -> engine.Game:
    """Seat 0 declares ``bid`` (everyone else passes) and names ``trump`` if asked."""
    game = make(**options)
    act(game, bid, "pass", "pass", "pass")
    if trump is not None and game.view(None)["phase"] == "trump":
        act(game, f"trump {trump}")
    return game


def trick(game: engine.Game, *cards: str) -> dict[str, Any]:
    """Play ``cards`` in turn; returns the trick event."""
    events = act(game, *(f"play {c}" for c in cards))
    return [e for e in events if e["type"] == "trick"][0]


def play_cards(legal: list[str]) -> set[str]:
    return {a.split()[1].upper() for a in legal}


# -- trumps --------------------------------------------------------------------------------------
def test_declarer_of_a_trump_bid_names_any_suit() -> None:
    game = make()
    act(game, "bid 6", "pass", "pass", "pass")
    view = game.view(None)
    assert view["phase"] == "trump" and view["to_act"] == [0]
    assert game.legal_actions(0) == ["trump s", "trump h", "trump d", "trump c"]
    events = act(game, "trump Hearts")
    assert events == [{"type": "trump", "seat": 0, "suit": "H"}]
    assert game.view(1)["trump"] == "H" and game.view(1)["phase"] == "play"


def test_trump_naming_refuses_anything_but_a_suit() -> None:
    game = make()
    act(game, "bid 6", "pass", "pass", "pass")
    with pytest.raises(IllegalAction, match="not a suit"):
        game.apply(0, "trump x")
    with pytest.raises(IllegalAction, match="Name trumps"):
        game.apply(0, "play as")


def test_no_trump_contract_names_no_trump_and_goes_to_play() -> None:
    game = contract("bid 6 no")
    view = game.view(None)
    assert view["trump"] is None and view["phase"] == "play" and view["to_act"] == [0]


def test_declarer_leads_the_first_trick() -> None:
    game = make()
    act(game, "pass", "pass", "bid 7", "pass", "trump c")
    assert game.to_act() == [2] and game.view(None)["leader"] == 2


# -- following suit and trick winners ------------------------------------------------------------
def test_must_follow_suit_when_able() -> None:
    game = contract()
    act(game, "play as")
    assert play_cards(game.legal_actions(1)) == {"JS", "10S", "9S", "8S"}
    before = game.to_json()
    with pytest.raises(IllegalAction, match="must follow suit.*JS, 10S, 9S, 8S"):
        game.apply(1, "play qh")
    assert game.to_json() == before


def test_must_follow_with_the_only_card_of_the_suit_led() -> None:
    game = contract()
    act(game, "play as", "play 8s")
    assert game.legal_actions(2) == ["play 3s"]


def test_void_player_may_play_any_card_and_need_not_trump() -> None:
    game = contract()
    act(game, "play as", "play 8s", "play 3s")
    assert play_cards(game.legal_actions(3)) == set(HANDS[3])
    act(game, "play 7c")  # a discard, though holding trumps (diamonds)
    assert game.view(None)["last_trick"]["winner"] == 0


def test_highest_trump_wins_the_trick() -> None:
    game = contract(trump="d")
    event = trick(game, "as", "8s", "3s", "7d")
    assert event["seat"] == 3


def test_without_trump_the_highest_card_of_the_suit_led_wins() -> None:
    game = contract("bid 6 no")
    event = trick(game, "kh", "qh", "10h", "7d")
    assert event["seat"] == 0


def test_ranking_is_a_k_q_j_10_9_8_7_in_every_suit_trumps_included() -> None:
    game = contract(trump="d")
    assert trick(game, "ad", "qd", "jd", "7d")["seat"] == 0


def test_5h_ranks_below_8h() -> None:
    game = contract("bid 6 no")
    act(game, *(f"play {c}" for c in ("kh", "qh", "10h", "7d")))  # seat 0 leads again
    assert trick(game, "ah", "jh", "5h", "7c")["seat"] == 0


def test_winner_of_a_trick_leads_the_next() -> None:
    game = contract(trump="d")
    trick(game, "as", "8s", "3s", "7d")
    assert game.to_act() == [3] and game.view(None)["leader"] == 3


def test_trick_counts_one_point_5h_plus_5_3s_minus_3() -> None:
    game = contract(trump="d")
    assert trick(game, "as", "8s", "3s", "7d")["points"] == -2  # 1 - 3, to seat 3's team
    assert game.view(None)["hand_points"] == [0, -2]
    assert game.view(None)["tricks_won"] == [0, 1]
    game = contract("bid 6 no")
    assert trick(game, "ah", "jh", "5h", "7c")["points"] == 6
    assert game.view(None)["hand_points"] == [6, 0]


def test_trick_and_last_trick_are_shown_with_their_seats() -> None:
    game = contract()
    act(game, "play as", "play 8s")
    assert game.view(None)["trick"] == [{"seat": 0, "card": "AS"}, {"seat": 1, "card": "8S"}]
    act(game, "play 3s", "play 7d")
    view = game.view(None)
    assert view["trick"] == []
    assert view["last_trick"]["winner"] == 3
    assert [p["card"] for p in view["last_trick"]["cards"]] == ["AS", "8S", "3S", "7D"]


@pytest.mark.parametrize("typed", ["play ks", "PLAY Ks", "play k♠", "play  KS"])
def test_cards_are_typed_case_insensitively(typed: str) -> None:
    game = contract()
    assert game.apply(0, typed)[0] == {"type": "play", "seat": 0, "card": "KS"}


@pytest.mark.parametrize(
    "typed,match",
    [("play 8s", "do not hold 8S"), ("play 7h", "7H"), ("play zz", "not a card"), ("pass", "play")],
)
def test_bad_plays_are_refused(typed: str, match: str) -> None:
    game = contract()
    before = game.to_json()
    with pytest.raises(IllegalAction, match=match):
        game.apply(0, typed)
    assert game.to_json() == before


def test_ten_may_be_typed_as_t() -> None:
    game = contract("bid 6 no")
    act(game, "play kh", "play qh")
    assert game.apply(2, "play th")[0]["card"] == "10H"


# -- low ranking ---------------------------------------------------------------------------------
def test_no_low_contract_ranks_7_highest() -> None:
    game = contract("bid 6 no low", low="no_trump")
    assert game.view(None)["contract"]["low"] is True
    assert trick(game, "ad", "qd", "jd", "7d")["seat"] == 3


def test_low_ranking_puts_8_above_ace_and_3s_lowest() -> None:
    game = contract("bid 6 no low", low="no_trump")
    assert trick(game, "as", "8s", "3s", "7d")["seat"] == 1


def test_low_ranking_puts_5h_below_the_ace() -> None:
    hands = {
        0: ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "AS"],
        1: ["KS", "QS", "JS", "10S", "9S", "8S", "3S", "AD"],
        2: ["5H", "KD", "QD", "JD", "10D", "9D", "8D", "7D"],
        3: ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C"],
    }
    game = make(hands, low="no_trump")
    act(game, "bid 6 no low", "pass", "pass", "pass")
    assert trick(game, "ah", "ks", "5h", "ac") == {
        "type": "trick",
        "seat": 0,
        "cards": ["AH", "KS", "5H", "AC"],
        "points": 6,
    }


def test_low_always_makes_a_trump_bid_low_in_every_suit_trumps_too() -> None:
    game = contract("bid 6 low", trump="d", low="always")
    assert game.view(None)["contract"]["low"] is True
    assert game.view(None)["contract"]["kind"] == "trump"
    assert trick(game, "ad", "qd", "jd", "7d")["seat"] == 3


def test_plain_trump_bid_is_not_low_even_with_low_always() -> None:
    game = contract("bid 6", trump="d", low="always")
    assert trick(game, "ad", "qd", "jd", "7d")["seat"] == 0


# -- trump_lead ----------------------------------------------------------------------------------
def test_trump_lead_declarer_names_nothing_and_his_first_lead_makes_trumps() -> None:
    game = make(trump_lead=True)
    act(game, "bid 6", "pass", "pass", "pass")
    assert game.view(None)["phase"] == "play" and game.view(None)["trump"] is None
    events = act(game, "play ac")
    assert events[0] == {"type": "trump", "seat": 0, "suit": "C"}
    assert game.view(2)["trump"] == "C"
    act(game, "play qc", "play kc", "play 7c")
    assert trick(game, "as", "8s", "3s", "jc")["seat"] == 3  # clubs trump spades


def test_trump_lead_leaves_a_no_trump_contract_without_trumps() -> None:
    game = make(trump_lead=True)
    act(game, "bid 6 no", "pass", "pass", "pass")
    events = act(game, "play ac")
    assert all(e["type"] != "trump" for e in events)
    assert game.view(None)["trump"] is None


# -- kitty ---------------------------------------------------------------------------------------
KITTY_HANDS = {0: ["AS", "KS", "5H", "3S", "AH", "KH", "AD", "AC"]}


def kitty_game(**options: Any) -> engine.Game:
    return stacked_game(
        "troika", 4, DECK34, 8, 3, KITTY_HANDS, tail=["7H", "7S"], kitty=True, **options
    )


def test_kitty_is_taken_by_the_declarer_after_naming_trumps() -> None:
    game = kitty_game()
    act(game, "bid 7", "pass", "pass", "pass")
    assert game.view(0)["phase"] == "trump" and len(game.view(0)["hand"]) == 8
    events = act(game, "trump s")
    assert {"type": "kitty", "seat": 0, "count": 2} in events
    private = [e for e in events if e["type"] == "kitty_cards"]
    assert private == [{"type": "kitty_cards", "seat": 0, "cards": ["7H", "7S"], "private_to": 0}]
    view = game.view(0)
    assert view["phase"] == "kitty" and view["kitty"] == ["7H", "7S"]
    assert {"7H", "7S"} <= set(view["hand"]) and len(view["hand"]) == 10
    assert view["kitty_size"] == 0 and view["hand_sizes"][0] == 10
    assert "kitty" not in game.view(1) and "kitty" not in game.view(None)


def test_kitty_discards_any_two_cards_but_never_5h_or_3s() -> None:
    game = kitty_game()
    act(game, "bid 7", "pass", "pass", "pass", "trump s")
    legal = play_cards(game.legal_actions(0))
    assert len(legal) == 8 and not legal & {"5H", "3S"}
    for card in ("5h", "3s"):
        with pytest.raises(IllegalAction, match="may not discard"):
            game.apply(0, f"discard {card}")
    with pytest.raises(IllegalAction, match="do not hold"):
        game.apply(0, "discard qd")
    events = act(game, "discard 7h")
    assert events[0] == {"type": "discard", "seat": 0, "card": "7H", "private_to": 0}
    assert events[1] == {"type": "discarded", "seat": 0, "count": 1, "left": 1}
    assert game.view(0)["phase"] == "kitty" and game.to_act() == [0]
    act(game, "discard as")  # a card of his own hand is fine too
    view = game.view(0)
    assert view["phase"] == "play" and view["to_act"] == [0] and len(view["hand"]) == 8
    assert view["discards"] == ["7H", "AS"] and "kitty" not in view
    assert "discards" not in game.view(2) and game.view(2)["discard_count"] == 2


def test_kitty_of_a_no_trump_contract_is_taken_right_after_the_auction() -> None:
    game = kitty_game()
    act(game, "bid 7 no", "pass", "pass", "pass")
    assert game.view(0)["phase"] == "kitty" and len(game.view(0)["hand"]) == 10


def test_kitty_with_trump_lead_is_taken_after_the_auction() -> None:
    game = kitty_game(trump_lead=True)
    act(game, "bid 7", "pass", "pass", "pass", "discard 7h", "discard 7s")
    assert game.view(0)["trump"] is None
    assert act(game, "play ad")[0] == {"type": "trump", "seat": 0, "suit": "D"}


def test_kitty_phase_refuses_plays() -> None:
    game = kitty_game()
    act(game, "bid 7", "pass", "pass", "pass", "trump s")
    with pytest.raises(IllegalAction, match="discard"):
        game.apply(0, "play as")
