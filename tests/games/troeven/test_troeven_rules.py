"""2-Player Troeven: one test per rule of docs/rules/troeven.md, for both versions.

Games use ``first_dealer=1``: seat 1 deals, seat 0 is the non-dealer (trump caller, first leader).
Situations are built with a stacked ``deck``; only the obligations once the stock is gone and the
last trick of a deal are set up by writing the state directly (8 tricks of play would bury what
the test checks).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

import pytest

import engine
from engine import IllegalAction
from engine.troeven import GAME_CLASS
from engine.troeven.cards import CARD_OF_CODE, CODE, NO_CARD, POINTS, TOTAL_POINTS

CALLER, DEALER = 0, 1
ALL_CODES = list(CODE)


def _fill(given: Sequence[Sequence[str]], sizes: Sequence[int]) -> list[list[str]]:
    """Complete each group of cards to its size with the cards no group names (in deck order)."""
    named = [c for group in given for c in group]
    assert len(named) == len(set(named)), "a card is named twice"
    spare = iter(c for c in ALL_CODES if c not in named)
    return [
        list(g) + [next(spare) for _ in range(n - len(g))]
        for g, n in zip(given, sizes, strict=True)
    ]


def layout_deck(
    caller_up: Sequence[str] = (),
    caller_down: Sequence[str] = (),
    dealer_up: Sequence[str] = (),
    dealer_down: Sequence[str] = (),
) -> list[str]:
    """A stacked deck giving each player these face-up / face-down cards, positions 1-8."""
    cu, cd, du, dd = _fill([caller_up, caller_down, dealer_up, dealer_down], [8, 8, 8, 8])
    caller_seq, dealer_seq = cd + cu, dd + du
    return [card for pair in zip(caller_seq, dealer_seq, strict=True) for card in pair]


def stock_deck(
    caller: Sequence[str] = (), dealer: Sequence[str] = (), stock: Sequence[str] = ()
) -> list[str]:
    """A stacked deck giving each player this hand and this stock (first card drawn first)."""
    c, d, s = _fill([caller, dealer, stock], [8, 8, 16])
    return [card for pair in zip(c, d, strict=True) for card in pair] + s


def new(
    version: str, deck: list[str] | None = None, strict: bool = False, seed: int = 1
) -> engine.Game:
    options = {"version": version, "strict_follow": strict, "first_dealer": DEALER}
    return engine.new_game("troeven", 2, options, seed=seed, deck=deck)


def started(version: str, deck: list[str], strict: bool = False, trump: str = "s") -> engine.Game:
    game = new(version, deck, strict)
    game.apply(CALLER, f"trump {trump}")
    return game


def plays(game: engine.Game, seat: int) -> set[str]:
    """The cards ``seat`` may play now, as codes."""
    return {a.split()[1].upper() for a in game.legal_actions(seat)}


def ints(codes: Iterable[str]) -> list[int]:
    return [CARD_OF_CODE[c] for c in codes]


# -- deck and card values ---------------------------------------------------------------------
def test_deck_is_32_cards_ace_to_seven_worth_40_points():
    assert len(CODE) == 32 and len(set(CODE)) == 32
    assert {c[:-1] for c in CODE} == {"A", "K", "Q", "J", "10", "9", "8", "7"}
    assert TOTAL_POINTS == 40
    assert [POINTS[CARD_OF_CODE[c]] for c in ("AH", "KH", "QH", "JH", "10H", "7H")] == [
        4,
        3,
        2,
        1,
        0,
        0,
    ]


def test_stacked_deck_must_hold_each_card_once():
    deck = stock_deck()
    with pytest.raises(IllegalAction, match="missing: 7C"):
        new("stock", deck[:-1] + ["AS"])
    with pytest.raises(IllegalAction, match="not in Troeven's deck"):
        new("stock", deck[:-1] + ["5C"])


def test_game_is_for_exactly_two_players():
    with pytest.raises(IllegalAction, match="2 players"):
        engine.new_game("troeven", 3)


# -- the deal ---------------------------------------------------------------------------------
@pytest.mark.parametrize("first", [0, 1])
def test_first_dealer_option_sets_the_dealer(first):
    game = engine.new_game("troeven", 2, {"first_dealer": first}, seed=5)
    assert game.view(None)["dealer"] == first
    assert game.to_act() == [1 - first]


def test_first_dealer_random_comes_from_the_seed():
    dealers = {engine.new_game("troeven", 2, seed=s).state["dealer"] for s in range(40)}
    assert dealers == {0, 1}
    for s in range(5):
        a, b = engine.new_game("troeven", 2, seed=s), engine.new_game("troeven", 2, seed=s)
        assert a == b


def test_layout_deck_maps_to_face_down_then_face_up_positions():
    deck = [f"{r}{s}" for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7")]
    game = new("layout", deck)
    st = game.state
    # caller (seat 0) receives deck[0::2], dealer deck[1::2]; cards 1-8 face down, 9-16 face up
    assert st["down"][CALLER] == ints(deck[0:16:2])
    assert st["down"][DEALER] == ints(deck[1:16:2])
    assert st["up"][CALLER] == ints(deck[16:24:2]) + [NO_CARD] * 4
    assert st["up"][DEALER] == [NO_CARD] * 8
    game.apply(CALLER, "trump h")
    assert st["up"][CALLER] == ints(deck[16:32:2])
    assert st["up"][DEALER] == ints(deck[17:32:2])


def test_layout_caller_sees_only_his_first_four_face_up_cards_before_naming_trumps():
    deck = layout_deck(caller_up=["AS", "KH", "QD", "JC", "7S", "7H", "7D", "7C"])
    game = new("layout", deck)
    view = game.view(CALLER)
    assert sorted(view["hand"]) == sorted(["AS", "KH", "QD", "JC"])
    assert [p["up"] for p in view["layout"][CALLER]] == ["AS", "KH", "QD", "JC"] + [None] * 4
    assert view["hand_sizes"] == [4, 0]
    # face up, so the dealer sees the same four cards; the dealer has no face-up card yet
    assert view["layout"] == game.view(DEALER)["layout"] == game.view(None)["layout"]
    assert game.view(DEALER)["hand"] == []


def test_layout_deal_completes_to_eight_face_up_cards_each_after_trumps():
    game = started("layout", layout_deck())
    view = game.view(None)
    assert view["hand_sizes"] == [8, 8]
    assert view["face_down_counts"] == [8, 8]
    assert all(p["up"] and p["face_down"] for seat in view["layout"] for p in seat)


def test_stock_deck_maps_to_hands_and_stock():
    deck = [f"{r}{s}" for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7")]
    game = new("stock", deck)
    st = game.state
    assert st["hands"][CALLER] == ints(deck[0:8:2])  # his first 4 cards only
    assert st["hands"][DEALER] == []
    game.apply(CALLER, "trump c")
    assert st["hands"][CALLER] == ints(deck[0:16:2])
    assert st["hands"][DEALER] == ints(deck[1:16:2])
    assert st["stock"] == ints(deck[16:])


def test_stock_caller_names_trumps_holding_four_cards_then_both_get_eight():
    deck = stock_deck(caller=["AS", "KH", "QD", "JC", "7S", "7H", "7D", "7C"])
    game = new("stock", deck)
    assert game.view(CALLER)["hand"] == ["AS", "KH", "QD", "JC"]
    assert game.view(DEALER)["hand"] == []
    events = game.apply(CALLER, "trump h")
    view = game.view(None)
    assert view["hand_sizes"] == [8, 8] and view["stock_size"] == 16
    cards = [e for e in events if e["type"] == "cards"]
    assert [(e["seat"], e["private_to"], len(e["cards"])) for e in cards] == [
        (0, 0, 4),
        (1, 1, 8),
    ]


@pytest.mark.parametrize("version", ["layout", "stock"])
def test_only_the_non_dealer_names_trumps_any_suit(version):
    game = new(version)
    assert game.to_act() == [CALLER]
    assert game.legal_actions(DEALER) == []
    assert game.legal_actions(CALLER) == ["trump s", "trump h", "trump d", "trump c"]
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(DEALER, "trump s")
    with pytest.raises(IllegalAction, match="First name trumps"):
        game.apply(CALLER, game.view(CALLER)["hand"][0].join(["play ", ""]))
    events = game.apply(CALLER, "trump Diamonds")
    assert events[0] == {"type": "trump", "seat": 0, "suit": "D", "name": "diamonds"}
    assert game.view(DEALER)["trump"] == "D"


def test_trumps_may_be_a_suit_not_among_the_callers_four_cards():
    game = new("layout", layout_deck(caller_up=["AS", "KS", "QS", "JS"]))
    game.apply(CALLER, "trump c")
    assert game.view(None)["trump"] == "C"


@pytest.mark.parametrize("version", ["layout", "stock"])
def test_dealer_alternates_each_deal(version):
    game = new(version)
    dealers = [game.view(None)["dealer"]]
    while not game.is_over() and len(dealers) < 4:
        seat = game.to_act()[0]
        events = game.apply(seat, game.legal_actions(seat)[0])
        if any(e["type"] == "deal" for e in events):
            dealers.append(game.view(None)["dealer"])
            assert game.to_act() == [1 - dealers[-1]]  # the new non-dealer names trumps
    assert dealers == [1, 0, 1, 0]


# -- play -------------------------------------------------------------------------------------
@pytest.mark.parametrize("version", ["layout", "stock"])
def test_non_dealer_leads_first_trick_and_trick_winner_leads_next(version):
    if version == "layout":
        deck = layout_deck(caller_up=["7S", "AD"], dealer_up=["AS", "KD"])
    else:
        deck = stock_deck(caller=["7S", "AD"], dealer=["AS", "KD"])
    game = started(version, deck, trump="h")
    assert game.to_act() == [CALLER]
    game.apply(CALLER, "play 7s")
    events = game.apply(DEALER, "play as")
    trick = next(e for e in events if e["type"] == "trick")
    assert trick["winner"] == DEALER and trick["points"] == 4
    assert game.to_act() == [DEALER]


@pytest.mark.parametrize(
    "lead,follow,winner",
    [
        ("KS", "AS", DEALER),  # highest card of the suit led
        ("AS", "KS", CALLER),
        ("AS", "7H", DEALER),  # a trump beats any card of another suit
        ("7H", "AH", DEALER),  # highest trump
        ("AD", "AC", CALLER),  # off-suit, non-trump card never wins
        ("7D", "AS", CALLER),
    ],
)
@pytest.mark.parametrize("version", ["layout", "stock"])
def test_trick_goes_to_highest_trump_else_highest_card_of_suit_led(version, lead, follow, winner):
    # the dealer holds no other card of the suit led, so every follow here is allowed
    dealer = [follow] + [c for c in CODE if c[-1] != lead[-1] and c not in (lead, follow)][:7]
    if version == "layout":
        deck = layout_deck(caller_up=[lead], dealer_up=dealer)
    else:
        deck = stock_deck(caller=[lead], dealer=dealer)
    game = started(version, deck, trump="h")
    game.apply(CALLER, f"play {lead}")
    assert follow in plays(game, DEALER)
    events = game.apply(DEALER, f"play {follow}")
    trick = next(e for e in events if e["type"] == "trick")
    assert trick["winner"] == winner
    assert trick["cards"] == [lead, follow]
    assert game.view(None)["tricks_won"][winner] == 1


def test_card_codes_are_case_insensitive_and_accept_t_and_symbols():
    for text in ("play 10h", "PLAY TH", "play 10♥", "Play  t♥"):
        game = started("stock", stock_deck(caller=["10H"]))
        events = game.apply(CALLER, text)
        assert events[0]["card"] == "10H"


def test_play_refuses_cards_outside_the_deck_and_other_words():
    game = started("stock", stock_deck(caller=["10H"]))
    with pytest.raises(IllegalAction, match="not in Troeven's deck"):
        game.apply(CALLER, "play 5h")
    with pytest.raises(IllegalAction, match="Trumps are already named: spades"):
        game.apply(CALLER, "trump h")
    with pytest.raises(IllegalAction, match="play <card>"):
        game.apply(CALLER, "bid 7")


@pytest.mark.parametrize("version", ["layout", "stock"])
def test_sixteen_tricks_in_a_deal(version):
    game = new(version, seed=11)
    tricks = 0
    while True:
        seat = game.to_act()[0]
        events = game.apply(seat, game.legal_actions(seat)[-1])
        tricks += sum(e["type"] == "trick" for e in events)
        if any(e["type"] == "hand_over" for e in events):
            break
    assert tricks == 16


# -- layout: face-up and face-down cards ------------------------------------------------------
def test_layout_only_face_up_cards_can_be_played():
    deck = layout_deck(caller_up=["AS"], caller_down=["KS"])
    game = started("layout", deck)
    assert "KS" not in plays(game, CALLER)
    before = game.to_json()
    with pytest.raises(IllegalAction, match="KS is not one of your face-up cards"):
        game.apply(CALLER, "play ks")
    assert game.to_json() == before


def test_layout_card_under_a_played_card_turns_face_up_at_once_for_both():
    deck = layout_deck(caller_up=["AS"], caller_down=["KS"], dealer_up=["7S"])
    game = started("layout", deck)
    assert "KS" not in json.dumps(game.view(DEALER))
    events = game.apply(CALLER, "play as")
    assert events[1] == {"type": "turn_up", "seat": CALLER, "position": 1, "card": "KS"}
    assert "private_to" not in events[1]
    for seat in (CALLER, DEALER, None):
        assert game.view(seat)["layout"][CALLER][0] == {"up": "KS", "face_down": False}
    game.apply(DEALER, "play 7s")
    assert "KS" in plays(game, CALLER)  # the turned-up card is now playable
    game.apply(CALLER, "play ks")
    assert game.view(None)["layout"][CALLER][0] == {"up": None, "face_down": False}


def test_layout_face_down_cards_are_in_nobodys_view_until_turned_up():
    game = started("layout", layout_deck(), trump="d")
    down = {CODE[c] for seat in (0, 1) for c in game.state["down"][seat]}
    for seat in (CALLER, DEALER, None):
        view = game.view(seat)
        assert not _strings(view) & down
        assert all(p["face_down"] for p in view["layout"][0] + view["layout"][1])
    # before trumps, the dealer's and the caller's face-up cards still to come are hidden too
    fresh = new("layout", layout_deck())
    undealt = {CODE[c] for c in fresh.state["undealt"]}
    for seat in (CALLER, DEALER, None):
        assert not _strings(fresh.view(seat)) & (down | undealt)


def _strings(value: object) -> set[str]:
    """Every string in a view (values and keys), to look for card codes exactly."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for k, v in value.items() for s in _strings(k) | _strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return set()


# -- obligations: layout ----------------------------------------------------------------------
LAYOUT_DEALER_UP = ["KH", "9H", "7S", "AD", "QC", "10C", "8D", "JD"]  # hearts, a trump (S), others


@pytest.mark.parametrize("strict", [False, True])
def test_layout_leader_may_play_any_face_up_card(strict):
    caller_up = ["AH", "7C", "8S", "KD", "JC", "10H", "9S", "QD"]
    game = started("layout", layout_deck(caller_up=caller_up), strict=strict)
    assert plays(game, CALLER) == set(caller_up)


def test_layout_holding_suit_led_must_follow_or_trump():
    game = started("layout", layout_deck(caller_up=["AH"], dealer_up=LAYOUT_DEALER_UP))
    game.apply(CALLER, "play ah")
    assert plays(game, DEALER) == {"KH", "9H", "7S"}
    before = game.to_json()
    with pytest.raises(IllegalAction) as err:
        game.apply(DEALER, "play ad")
    assert str(err.value) == (
        "You must follow suit or play a trump (spades): you hold hearts face up. "
        "Play one of: 7S, KH, 9H."
    )
    assert game.to_json() == before


def test_layout_strict_follow_holding_suit_led_must_follow_suit():
    deck = layout_deck(caller_up=["AH"], dealer_up=LAYOUT_DEALER_UP)
    game = started("layout", deck, strict=True)
    game.apply(CALLER, "play ah")
    assert plays(game, DEALER) == {"KH", "9H"}
    with pytest.raises(IllegalAction, match="You must follow suit: you hold hearts face up"):
        game.apply(DEALER, "play 7s")


@pytest.mark.parametrize("strict", [False, True])
def test_layout_void_in_suit_led_may_play_any_card(strict):
    dealer_up = ["7S", "AD", "QC", "10C", "8D", "JD", "KS", "9C"]
    game = started("layout", layout_deck(caller_up=["AH"], dealer_up=dealer_up), strict=strict)
    game.apply(CALLER, "play ah")
    assert plays(game, DEALER) == set(dealer_up)


@pytest.mark.parametrize("strict", [False, True])
def test_layout_face_down_cards_of_suit_led_do_not_count(strict):
    dealer_up = ["7S", "AD", "QC", "10C", "8D", "JD", "KS", "9C"]
    dealer_down = ["KH", "QH", "JH", "10H", "9H", "8H", "7H"]
    deck = layout_deck(caller_up=["AH"], dealer_up=dealer_up, dealer_down=dealer_down)
    game = started("layout", deck, strict=strict)
    game.apply(CALLER, "play ah")
    assert plays(game, DEALER) == set(dealer_up)


@pytest.mark.parametrize("strict", [False, True])
def test_layout_trumps_led_must_follow_with_trumps(strict):
    dealer_up = ["KS", "9H", "AD"]
    game = started("layout", layout_deck(caller_up=["AS"], dealer_up=dealer_up), strict=strict)
    game.apply(CALLER, "play as")
    assert plays(game, DEALER) == {"KS"}


# -- obligations: stock -----------------------------------------------------------------------
STOCK_DEALER = ["KH", "9H", "7S", "AD", "QC", "10C", "8D", "JD"]  # hearts, a trump (S), others


@pytest.mark.parametrize("strict", [False, True])
def test_stock_no_obligation_at_all_while_the_stock_lasts(strict):
    game = started("stock", stock_deck(caller=["AH"], dealer=STOCK_DEALER), strict=strict)
    game.apply(CALLER, "play ah")
    assert plays(game, DEALER) == set(STOCK_DEALER)
    game.apply(DEALER, "play ad")  # neither following suit nor trumping is allowed
    assert game.view(None)["tricks_won"] == [1, 0]


def after_stock(strict: bool, lead: str, follower: list[str], trump: str = "S") -> engine.Game:
    """Stock version, stock gone (trick 9): the caller has led ``lead``, the dealer holds
    ``follower``. Built by writing the state: the other cards sit in the won piles."""
    game = started("stock", stock_deck(), strict=strict, trump=trump.lower())
    st = game.state
    mine = ints(follower)
    lead_card = CARD_OF_CODE[lead]
    others = [c for c in range(32) if c != lead_card and c not in mine]
    caller_hand = others[: len(mine) - 1]
    st["hands"] = [caller_hand, mine]
    st["stock"] = []
    st["won"] = [others[len(mine) - 1 :], []]
    st["tricks_played"] = 16 - len(mine)
    st["trick"] = [lead_card]
    st["turn"], st["leader"] = DEALER, CALLER
    return game


def test_stock_gone_holding_suit_led_must_follow_or_trump():
    game = after_stock(False, "AH", STOCK_DEALER)
    assert plays(game, DEALER) == {"KH", "9H", "7S"}
    with pytest.raises(IllegalAction) as err:
        game.apply(DEALER, "play qc")
    assert str(err.value) == (
        "You must follow suit or play a trump (spades): you hold hearts. Play one of: 7S, KH, 9H."
    )


def test_stock_gone_strict_follow_holding_suit_led_must_follow_suit():
    game = after_stock(True, "AH", STOCK_DEALER)
    assert plays(game, DEALER) == {"KH", "9H"}
    with pytest.raises(IllegalAction, match="You must follow suit: you hold hearts"):
        game.apply(DEALER, "play 7s")


@pytest.mark.parametrize("strict", [False, True])
def test_stock_gone_void_in_suit_led_must_trump_if_able(strict):
    follower = ["7S", "KS", "AD", "QC", "10C", "8D", "JD", "9C"]
    game = after_stock(strict, "AH", follower)
    assert plays(game, DEALER) == {"7S", "KS"}
    before = game.to_json()
    with pytest.raises(IllegalAction) as err:
        game.apply(DEALER, "play ad")
    assert str(err.value) == (
        "You have no hearts, so you must play a trump (spades). Play one of: KS, 7S."
    )
    assert game.to_json() == before


@pytest.mark.parametrize("strict", [False, True])
def test_stock_gone_void_without_trumps_may_play_any_card(strict):
    follower = ["AD", "QC", "10C", "8D", "JD", "9C"]
    game = after_stock(strict, "AH", follower)
    assert plays(game, DEALER) == set(follower)


@pytest.mark.parametrize("strict", [False, True])
def test_stock_gone_trumps_led_must_follow_with_trumps(strict):
    game = after_stock(strict, "AS", ["KS", "9H", "AD"])
    assert plays(game, DEALER) == {"KS"}


def test_stock_obligations_start_with_the_ninth_trick_in_real_play():
    game = started("stock", stock_deck(), trump="h")
    while game.view(None)["stock_size"]:
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    assert game.view(None)["tricks_played"] == 8 and game.view(None)["trick"] == []
    leader = game.to_act()[0]
    game.apply(leader, game.legal_actions(leader)[0])
    follower = 1 - leader
    led = game.state["trick"][0]
    hand = game.state["hands"][follower]
    same = {CODE[c] for c in hand if c // 8 == led // 8}
    hearts = {CODE[c] for c in hand if c // 8 == 1}
    expected = same | hearts if same else hearts or {CODE[c] for c in hand}
    assert plays(game, follower) == expected


# -- drawing from the stock -------------------------------------------------------------------
def test_stock_winner_draws_first_then_loser_privately():
    stock = ["QS", "JS", "10S", "9S"]
    deck = stock_deck(caller=["7D", "AH"], dealer=["AD", "7H"], stock=stock)
    game = started("stock", deck, trump="c")
    game.apply(CALLER, "play 7d")
    events = game.apply(DEALER, "play ad")  # the dealer wins: he draws first
    draws = [e for e in events if e["type"] == "draw"]
    assert draws == [
        {"type": "draw", "seat": DEALER, "card": "QS", "private_to": DEALER},
        {"type": "draw", "seat": DEALER, "stock_size": 15},
        {"type": "draw", "seat": CALLER, "card": "JS", "private_to": CALLER},
        {"type": "draw", "seat": CALLER, "stock_size": 14},
    ]
    assert "QS" in game.view(DEALER)["hand"] and "JS" in game.view(CALLER)["hand"]
    game.apply(DEALER, "play 7h")
    events = game.apply(CALLER, "play ah")  # now the caller wins and draws first
    assert [e["card"] for e in events if e["type"] == "draw" and "card" in e] == ["10S", "9S"]
    assert [e["seat"] for e in events if e["type"] == "draw" and "card" in e] == [CALLER, DEALER]


def test_stock_runs_out_after_trick_eight_and_hands_then_shrink():
    game = started("stock", stock_deck(), trump="h")
    sizes = []
    while game.view(None)["tricks_played"] < 16 and game.view(None)["hand_number"] == 1:
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
        view = game.view(None)
        if not view["trick"] and view["hand_number"] == 1:
            sizes.append((view["tricks_played"], view["stock_size"], view["hand_sizes"]))
    assert sizes[7] == (8, 0, [8, 8])
    assert sizes[8] == (9, 0, [7, 7])
    assert all(stock == 16 - 2 * n for n, stock, _ in sizes[:8])


# -- scoring ----------------------------------------------------------------------------------
def last_trick(version: str, points_before: list[int], scores: list[int]) -> engine.Game:
    """The last trick of a deal: the caller leads AH and wins it (4 points) over the dealer's
    7H. The other cards sit in the won piles; hand points before the trick are as given."""
    game = started(version, layout_deck() if version == "layout" else stock_deck(), trump="c")
    st = game.state
    ah, h7 = CARD_OF_CODE["AH"], CARD_OF_CODE["7H"]
    rest = [c for c in range(32) if c not in (ah, h7)]
    if version == "layout":
        st["up"] = [[ah] + [NO_CARD] * 7, [h7] + [NO_CARD] * 7]
        st["down"] = [[NO_CARD] * 8, [NO_CARD] * 8]
    else:
        st["hands"], st["stock"] = [[ah], [h7]], []
    st["won"] = [rest[:15], rest[15:]]
    st["hand_points"] = list(points_before)
    st["tricks_played"] = 15
    st["scores"] = list(scores)
    return game


def finish(game: engine.Game) -> dict:
    game.apply(CALLER, "play ah")
    events = game.apply(DEALER, "play 7h")
    return next(e for e in events if e["type"] == "hand_over")


@pytest.mark.parametrize("version", ["layout", "stock"])
def test_scores_start_at_seven(version):
    assert new(version).view(None)["scores"] == [7, 7]


@pytest.mark.parametrize("version", ["layout", "stock"])
def test_caller_winning_the_deal_goes_down_one(version):
    over = finish(last_trick(version, [18, 18], [7, 7]))
    assert over["points"] == [22, 18] and over["winner"] == CALLER
    assert over["changes"] == [-1, 0] and over["scores"] == [6, 7]


@pytest.mark.parametrize("version", ["layout", "stock"])
def test_dealer_winning_the_deal_goes_down_one_and_caller_goes_up_one(version):
    over = finish(last_trick(version, [10, 26], [7, 7]))
    assert over["points"] == [14, 26] and over["winner"] == DEALER
    assert over["changes"] == [1, -1] and over["scores"] == [8, 6]  # may rise above 7


@pytest.mark.parametrize("version", ["layout", "stock"])
def test_twenty_twenty_changes_nothing(version):
    over = finish(last_trick(version, [16, 20], [5, 3]))
    assert over["points"] == [20, 20] and over["winner"] is None
    assert over["changes"] == [0, 0] and over["scores"] == [5, 3]


@pytest.mark.parametrize("version", ["layout", "stock"])
def test_next_deal_follows_at_once_with_the_other_dealer(version):
    game = last_trick(version, [18, 18], [7, 7])
    game.apply(CALLER, "play ah")
    events = game.apply(DEALER, "play 7h")
    types = [e["type"] for e in events]
    assert types.index("hand_over") < types.index("deal")
    view = game.view(None)
    assert view["hand_number"] == 2 and view["dealer"] == CALLER and view["phase"] == "trump"
    assert game.to_act() == [DEALER]
    assert view["last_hand"]["scores"] == [6, 7]
    deal = events[types.index("deal")]
    assert deal["dealer"] == CALLER and deal["hand_number"] == 2
    if version == "layout":  # the new caller's 4 face-up cards are public
        first_row = [p["up"] for p in game.view(CALLER)["layout"][DEALER][:4]]
        assert deal["face_up"] == first_row and None not in first_row
    else:  # the new caller's 4 cards are told to him alone
        (cards,) = [e for e in events if e["type"] == "cards"]
        assert cards["private_to"] == DEALER and cards["cards"] == game.view(DEALER)["hand"]
        assert "face_up" not in deal


@pytest.mark.parametrize("version", ["layout", "stock"])
def test_first_player_to_reach_zero_wins_the_game(version):
    game = last_trick(version, [18, 18], [1, 4])
    game.apply(CALLER, "play ah")
    events = game.apply(DEALER, "play 7h")
    assert events[-1] == {"type": "game_over", "scores": [0, 4], "winners": [CALLER]}
    assert game.is_over() and game.to_act() == [] and game.legal_actions(DEALER) == []
    assert game.result()["winners"] == [CALLER] and game.result()["scores"] == [0, 4]
    assert game.view(None)["phase"] == "over"
    with pytest.raises(IllegalAction, match="over"):
        game.apply(DEALER, "trump s")


def test_dealer_reaching_zero_wins_even_as_the_caller_goes_up():
    game = last_trick("stock", [10, 26], [7, 1])
    game.apply(CALLER, "play ah")
    events = game.apply(DEALER, "play 7h")
    assert events[-1] == {"type": "game_over", "scores": [8, 0], "winners": [DEALER]}


# -- views, events, options -------------------------------------------------------------------
@pytest.mark.parametrize("version", ["layout", "stock"])
def test_view_has_the_common_keys(version):
    game = started(version, layout_deck() if version == "layout" else stock_deck())
    for seat in (CALLER, DEALER, None):
        view = game.view(seat)
        for key in ("game", "seat", "players", "phase", "dealer", "to_act", "scores"):
            assert key in view
        assert view["seat"] == seat and view["hand_number"] == 1 and view["trump"] == "S"
        assert ("hand" in view) == (seat is not None)


def test_stock_view_hides_the_opponents_hand_and_the_stock():
    game = started("stock", stock_deck(caller=["AS"], dealer=["KH"], stock=["QD"]))
    st = game.state
    stock = {CODE[c] for c in st["stock"]}
    hands = [{CODE[c] for c in h} for h in st["hands"]]
    assert not _strings(game.view(CALLER)) & (stock | hands[DEALER])
    assert not _strings(game.view(DEALER)) & (stock | hands[CALLER])
    assert not _strings(game.view(None)) & (stock | hands[0] | hands[1])
    assert set(game.view(CALLER)["hand"]) == hands[CALLER]
    assert game.view(CALLER)["hand"] == sorted(game.view(CALLER)["hand"], key=CODE.index)


def test_options_presets_and_rules_summary():
    spec = engine.GAMES["troeven"]
    assert spec.resolve() == {
        "version": "layout",
        "strict_follow": False,
        "first_dealer": None,
        "timer": 60,
    }
    assert spec.resolve("standard")["version"] == "layout"
    assert spec.resolve("stock")["version"] == "stock"
    assert spec.resolve("classic")["strict_follow"] is True
    assert spec.resolve(None, {"first_dealer": "random"})["first_dealer"] is None
    layout = GAME_CLASS.rules_summary(spec.resolve())
    stock = GAME_CLASS.rules_summary(spec.resolve("stock", {"strict_follow": "on"}))
    assert "face-down" in layout and "follow suit or play a trump" in layout
    assert "stock" in stock and "must follow suit if you can" in stock
    assert "none while the stock lasts" in stock
    assert GAME_CLASS.rules_summary() == layout
