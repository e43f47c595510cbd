"""TroiKuntza: going out by lay-offs, the card taken this turn included (stacked decks), and
the property that ``legal_actions`` never loses a way of going out by lay-offs."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_troikuntza_turns import new, quick_draw, types

import engine
from engine import IllegalAction
from engine.cards import JOKER, RANKS, SUITS
from engine.troikuntza.game import TroiKuntzaGame
from engine.troikuntza.melds import HIGH_ACE, LOW_ACE, Meld, card_at, layoff_result, make_run

FILLER = ["2C", "2C", "3C", "3C", "4C", "4C", "5C", "5C", "6C", "6C"]
STOCK = ["2D", "3D", "4D", "5D"]


def come_out_then_wait_for(
    hands: dict[int, list[str]], meld: str, seat3_discard: str, round_number: int = 1, **options
) -> TroiKuntzaGame:
    """Seat 0 draws 2D, comes out with ``meld`` and discards 2D; seats 1 and 2 draw and discard,
    seat 3 draws and discards ``seat3_discard``: seat 0 is to take or draw again. The stacked
    deal is played as round ``round_number`` (so as to have that round's contract)."""
    game = new(hands, upcard="KH", stock=STOCK, **options)
    game.state["round"] = round_number
    quick_draw(game)
    game.apply(0, meld)
    game.apply(0, "discard 2d")
    for seat in (1, 2, 3):
        quick_draw(game)
        card = seat3_discard if seat == 3 else game.state["hands"][seat][0]
        game.apply(seat, f"discard {card.lower()}")
    assert game.state["current"] == 0 and game.state["out"][0]
    return game


def troikas_7_and_8(seat3_discard: str = "8D", **options) -> TroiKuntzaGame:
    """Round 1: seat 0 is out with a Troika of 7s (meld 1) and of 8s (meld 2) and holds 7H."""
    hand = ["7S", "7S", "7C", "7C", "7D", "8H", "8H", "8S", "8S", "8C", "7H"]
    meld = "meld 7s 7s 7c 7c 7d | 8h 8h 8s 8s 8c"
    game = come_out_then_wait_for(
        {0: hand, 3: [seat3_discard, *FILLER]}, meld, seat3_discard, **options
    )
    assert game.state["hands"][0] == ["7H"]
    return game


def went_out(events: list[dict]) -> int | None:
    return next(e for e in events if e["type"] == "hand_over")["went_out"]


# -- the examples of the issue ------------------------------------------------------------------


@pytest.mark.parametrize("order", [("layoff 7h 1", "layoff 8d 2"), ("layoff 8d 2", "layoff 7h 1")])
def test_out_player_goes_out_laying_off_his_card_and_the_taken_one_in_any_order(order):
    game = troikas_7_and_8()
    game.apply(0, "take")
    assert game.state["taken"] == "8D"
    assert {"layoff 7h 1", "layoff 8d 2", "discard 7h"} <= set(game.legal_actions(0))
    events = game.apply(0, order[0])
    assert types(events) == ["layoff"]
    last = order[1]
    assert game.legal_actions(0) == [last] + (["discard 7h"] if "7h" in last else [])
    events = game.apply(0, last)
    assert went_out(events) == 0
    assert next(e for e in events if e["type"] == "hand_over")["points"][0] == 0


def test_lay_off_leaving_only_the_taken_card_that_fits_nowhere_is_refused():
    game = troikas_7_and_8(seat3_discard="9D")
    game.apply(0, "take")
    assert game.legal_actions(0) == ["discard 7h"]
    before = game.to_json()
    with pytest.raises(IllegalAction, match="keep only 9D, which you took this turn"):
        game.apply(0, "layoff 7h 1")
    assert game.to_json() == before


def test_discard_to_go_out_still_needs_a_card_to_discard_after_a_lay_off():
    game = troikas_7_and_8(discard_to_go_out=True)
    game.apply(0, "take")
    assert game.legal_actions(0) == ["layoff 8d 2", "discard 7h"]
    with pytest.raises(IllegalAction, match="no card you may discard"):
        game.apply(0, "layoff 7h 1")
    game.apply(0, "layoff 8d 2")
    assert went_out(game.apply(0, "discard 7h")) == 0


def test_run_on_the_table_lay_off_9h_then_the_taken_10h():
    hand = ["5H", "6H", "7H", "8H", "KS", "KS", "KC", "KC", "KD", "KD", "9H"]
    meld = "meld 5h 6h 7h 8h | ks ks kc kc kd kd"
    game = come_out_then_wait_for({0: hand, 3: ["10H", *FILLER]}, meld, "10H", round_number=2)
    assert game.contract == "TR" and game.state["hands"][0] == ["9H"]
    game.apply(0, "take")
    legal = game.legal_actions(0)
    assert "layoff 9h 1" in legal and "layoff 10h 1" not in legal  # 10H fits only after 9H
    game.apply(0, "layoff 9h 1")
    assert game.legal_actions(0) == ["layoff 10h 1"]
    events = game.apply(0, "layoff 10h 1")
    assert went_out(events) == 0
    assert events[0]["cards"] == ["5H", "6H", "7H", "8H", "9H", "10H"]


def test_a_chain_of_lay_offs_on_troikas_and_runs_ends_with_the_taken_card():
    hand = ["5H", "6H", "7H", "8H", "KS", "KS", "KC", "KC", "KD", "9H", "10H"]
    meld = "meld 5h 6h 7h 8h | ks ks kc kc"
    game = come_out_then_wait_for({0: hand, 3: ["JH", *FILLER]}, meld, "JH", round_number=2)
    assert sorted(game.state["hands"][0]) == ["10H", "9H", "KD"]
    game.apply(0, "take")
    for action in ("layoff kd 2", "layoff 9h 1"):
        assert types(game.apply(0, action)) == ["layoff"]
    # Only the taken JH is left after this one: allowed, as JH then fits after 10H.
    assert game.legal_actions(0) == ["layoff 10h 1", "discard 10h"]
    game.apply(0, "layoff 10h 1")
    assert game.legal_actions(0) == ["layoff jh 1"]
    with pytest.raises(IllegalAction, match="took JH from the discard pile"):
        game.apply(0, "discard jh")
    events = game.apply(0, "layoff jh 1")
    assert went_out(events) == 0
    assert game.state["round"] == 3


# -- runs read every way, at the table ----------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "starts", "second"),
    [
        ("meld as 2s 3s 4s | as jk jk jk", [1, 11], ["JK", "JK", "JK", "AS"]),
        ("meld as 2s 3s 4s | jk jk jk as", [1, 11], ["JK", "JK", "JK", "AS"]),
        ("meld 7s 8s 9s 10s | 5s jk 6s jk", [7, 3], ["JK", "JK", "5S", "6S"]),
        ("meld 5s jk 6s jk | 10s 9s 8s 7s", [3, 7], ["7S", "8S", "9S", "10S"]),
    ],
)
def test_round_three_two_spade_runs_are_read_so_that_they_do_not_overlap(meld, starts, second):
    hand = ["AS", "2S", "3S", "4S", "AS", "JK", "JK", "JK", "7S", "8S", "9S"]
    if "5s" in meld:
        hand = ["7S", "8S", "9S", "10S", "5S", "6S", "JK", "JK", "AS", "2S", "3S"]
    game = new({0: hand}, upcard="KH", stock=STOCK)
    game.state["round"] = 3
    quick_draw(game)
    events = game.apply(0, meld)
    assert types(events) == ["meld"] and game.state["out"][0]
    assert [m["start"] for m in game.state["melds"]] == starts
    assert game.state["melds"][1]["cards"] == second


# -- the property --------------------------------------------------------------------------------

NATURALS = [r + s for r in RANKS for s in SUITS]


def _run(suit: str, start: int, length: int, joker_ends: tuple[bool, bool]) -> Meld:
    cards = [card_at(p, suit) for p in range(start, start + length)]
    if joker_ends[0]:
        cards[0] = JOKER
    if joker_ends[1]:
        cards[-1] = JOKER
    meld = make_run(cards, 1)
    assert meld is not None and meld["start"] == start
    return meld


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[Meld], list[str], bool]:
    """Melds on the table, the out player's hand (mostly cards that fit somewhere), and whether
    its last card was taken from the discard pile this turn (then he holds another card too: a
    turn starts with a card in hand)."""
    melds: list[Meld] = []
    near: list[str] = [JOKER]
    for _ in range(draw(st.integers(1, 4))):
        suit = draw(st.sampled_from(SUITS))
        if draw(st.booleans()):
            rank = draw(st.sampled_from(RANKS))
            cards = [rank + s for s in draw(st.lists(st.sampled_from(SUITS), min_size=3))[:3]]
            melds.append({"kind": "troika", "owner": 1, "rank": rank, "cards": cards})
            near += [rank + s for s in SUITS]
            continue
        length = draw(st.integers(4, 6))
        start = draw(st.integers(LOW_ACE, HIGH_ACE - length + 1))
        ends = (draw(st.booleans()), draw(st.booleans()))
        melds.append(_run(suit, start, length, ends))
        for p in [*range(start - 3, start + 1), *range(start + length - 1, start + length + 3)]:
            if LOW_ACE <= p <= HIGH_ACE:
                near.append(card_at(p, suit))
    # Mostly a hand built by laying cards off one after another (so it can all go, in that
    # order at least), the card taken often the last of that chain; sometimes a stray card.
    hand: list[str] = []
    table = list(melds)
    for _ in range(draw(st.integers(1, 4))):
        fitting = lay_offs(near, table)
        if not fitting:
            break
        card, _, table = draw(st.sampled_from(fitting))
        hand.append(card)
    if not hand or draw(st.integers(0, 3)) == 0:
        hand.append(draw(st.sampled_from(NATURALS)))
    took = len(hand) >= 2 and draw(st.booleans())
    if took:
        hand.append(hand.pop(draw(st.sampled_from([len(hand) - 1, 0]))))
    return melds, hand, took


def lay_offs(hand: list[str], melds: list[Meld]) -> list[tuple[str, list[str], list[Meld]]]:
    """Every single lay-off: (card, hand after, melds after)."""
    found = []
    for card in sorted(set(hand)):
        rest = list(hand)
        rest.remove(card)
        for k, meld in enumerate(melds):
            ends = ["low", "high"] if card == JOKER and meld["kind"] == "run" else [None]
            for end in ends:
                result = layoff_result(meld, card, end)
                if result is not None:
                    found.append((card, rest, [*melds[:k], result[0], *melds[k + 1 :]]))
    return found


def can_lay_off_all(hand: list[str], melds: list[Meld], memo: dict | None = None) -> bool:
    """Whether every card of ``hand`` can be laid off, one after the other in some order."""
    if not hand:
        return True
    memo = {} if memo is None else memo
    key = (tuple(sorted(hand)), json.dumps(melds, sort_keys=True))
    if key not in memo:
        memo[key] = any(can_lay_off_all(r, m, memo) for _, r, m in lay_offs(hand, melds))
    return memo[key]


def out_player_to_lay_off(melds: list[Meld], hand: list[str], took: bool) -> TroiKuntzaGame:
    """Seat 0, out on an earlier turn, after taking or drawing: ``hand`` (its last card taken
    from the discard pile when ``took``) and ``melds`` on the table."""
    game = new({})
    state = game.state
    state.update(
        {"phase": "play", "current": 0, "melds": melds, "taken": hand[-1] if took else None}
    )
    state["hands"][0] = list(hand)
    state["out"][0] = True
    state["mayi"]["open"] = False
    return game


@settings(max_examples=300, deadline=None)
@given(table=tables())
def test_legal_lay_offs_keep_every_way_of_going_out_and_never_strand_the_hand(table):
    melds, hand, took = table
    game = out_player_to_lay_off(melds, hand, took)
    legal = game.legal_actions(0)
    assert legal, "an out player after his draw always has a move"
    layoffs = [a for a in legal if a.startswith("layoff ")]
    keeps_going_out = []
    for action in layoffs:
        trial = engine.load(game.to_json())
        events = trial.apply(0, action)
        if any(e["type"] == "hand_over" for e in events):
            assert went_out(events) == 0
            keeps_going_out.append(action)
            continue
        assert trial.legal_actions(0), f"{action} left {trial.state['hands'][0]} with no move"
        if can_lay_off_all(trial.state["hands"][0], trial.state["melds"]):
            keeps_going_out.append(action)
    if can_lay_off_all(hand, melds):
        assert keeps_going_out, (hand, took, legal)
