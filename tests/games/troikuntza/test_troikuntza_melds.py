"""TroiKuntza melds: Troikas, Runs (Aces, no wrap, jokers), lay-offs, bumping, contract search."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER
from engine.troikuntza import CONTRACTS, card_points, find_contracts, format_meld_action
from engine.troikuntza.cards import full_deck
from engine.troikuntza.melds import (
    HIGH_ACE,
    LOW_ACE,
    card_at,
    contract_min_cards,
    is_valid_meld,
    layoff_result,
    make_run,
    make_troika,
    match_contract,
    run_layout,
    run_layouts,
    runs_overlap,
    stands_for,
    troika_rank,
)


def run(*cards: str) -> dict:
    meld = make_run(list(cards), 0)
    assert meld is not None, cards
    return meld


# -- Troikas ---------------------------------------------------------------------------------------


def test_troika_is_three_or_more_of_a_rank_any_suits_duplicates_allowed():
    assert troika_rank(["7H", "7S", "7C"]) == "7"
    assert troika_rank(["7H", "7H", "7H", "7D"]) == "7"


def test_troika_needs_three_cards_of_one_rank():
    assert troika_rank(["7H", "7S"]) is None
    assert troika_rank(["7H", "7S", "8C"]) is None


def test_troika_jokers_are_wild_but_a_meld_needs_a_natural_card():
    assert troika_rank(["7H", "JK", "JK"]) == "7"
    assert troika_rank(["JK", "JK", "JK"]) is None


# -- Runs ------------------------------------------------------------------------------------------


def test_run_is_four_or_more_in_suit_sequence():
    assert run_layout(["3H", "4H", "5H", "6H"]) == (3, ["3H", "4H", "5H", "6H"])
    assert run_layout(["3H", "4H", "5H"]) is None
    assert run_layout(["3H", "4H", "5S", "6H"]) is None
    assert run_layout(["3H", "4H", "6H", "7H"]) is None


def test_run_ace_low():
    assert run_layout(["AH", "2H", "3H", "4H"]) == (1, ["AH", "2H", "3H", "4H"])


def test_run_ace_high():
    assert run_layout(["JH", "QH", "KH", "AH"]) == (11, ["JH", "QH", "KH", "AH"])


def test_run_never_wraps():
    assert run_layout(["QH", "KH", "AH", "2H"]) is None
    assert run_layout(["KH", "AH", "2H", "3H"]) is None


def test_run_with_low_ace_cannot_hold_a_king_nor_high_ace_a_two():
    low = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"]
    assert run_layout(low) is not None
    assert run_layout([*low, "KH"]) is None
    assert run_layout(["2H", *low[2:], "KH", "AH"]) is None


def test_run_sorts_cards_typed_out_of_order():
    assert run_layout(["6H", "4H", "3H", "5H"]) == (3, ["3H", "4H", "5H", "6H"])


def test_run_descending_as_typed_is_read_in_sequence():
    assert run_layout(["7H", "6H", "5H", "JK"]) == (4, ["JK", "5H", "6H", "7H"])


def test_run_inner_joker_stands_for_the_gap():
    meld = run("5H", "JK", "7H", "8H")
    assert stands_for(meld) == ["5H", "6H", "7H", "8H"]


def test_run_end_joker_stands_where_it_is_written():
    assert run("JK", "4H", "5H", "6H")["start"] == 3
    assert run("4H", "5H", "6H", "JK")["start"] == 4


def test_run_extra_jokers_go_high_unless_there_is_no_room():
    assert run_layout(["6H", "4H", "JK", "5H"]) == (4, ["4H", "5H", "6H", "JK"])
    assert run_layout(["AH", "KH", "JK", "QH"]) == (11, ["JK", "QH", "KH", "AH"])


def test_run_cannot_hold_two_aces():
    assert run_layout(["AH", "2H", "3H", "AH"]) is None


def test_match_contract_two_same_suit_runs_allowed_when_apart():
    groups = [["3H", "4H", "5H", "6H"], ["7H", "8H", "9H", "10H"]]
    melds = match_contract(groups, "RR", 0, natural_majority=False)
    assert melds is not None and [m["start"] for m in melds] == [3, 7]


def test_match_contract_same_suit_runs_must_not_overlap():
    groups = [["3H", "4H", "5H", "6H"], ["6H", "7H", "8H", "9H"]]
    assert match_contract(groups, "RR", 0, natural_majority=False) is None


def test_match_contract_needs_exactly_the_contract():
    troika = ["7H", "7S", "7C"]
    assert match_contract([troika], "TT", 0, False) is None
    assert match_contract([troika, ["8H", "8S", "8C"], ["9H", "9S", "9C"]], "TT", 0, False) is None
    assert match_contract([troika, ["3H", "4H", "5H", "6H"]], "TT", 0, False) is None
    assert match_contract([troika, ["3H", "4H", "5H", "6H"]], "TR", 0, False) is not None


def test_match_contract_ambiguous_group_is_read_as_the_contract_needs():
    melds = match_contract([["7H", "7S", "7C"], ["7D", "JK", "JK", "JK"]], "TR", 0, False)
    assert melds is not None and [m["kind"] for m in melds] == ["troika", "run"]


# -- every reading of a written group ------------------------------------------------------------


def starts(cards: list[str]) -> list[int]:
    return [start for start, _ in run_layouts(cards)]


def test_run_layouts_reads_the_ace_and_spare_jokers_low_or_high_as_written_first():
    assert starts(["AS", "JK", "JK", "JK"]) == [1, 11]
    assert starts(["JK", "JK", "JK", "AS"]) == [11, 1]
    assert starts(["5S", "JK", "6S", "JK"]) == [5, 4, 3]
    assert starts(["JK", "4H", "5H", "6H"]) == [3, 4]
    assert starts(["QH", "JK", "AH", "JK"]) == [11]  # the Ace high: no room above it
    assert run_layouts(["5S", "JK", "6S", "JK"])[2] == (3, ["JK", "JK", "5S", "6S"])


def distinct_orders(cards: list[str]) -> set[tuple[str, ...]]:
    return set(itertools.permutations(cards))


@pytest.mark.parametrize(
    ("group", "expected"),
    [
        (["AS", "JK", "JK", "JK"], {1, 11}),
        (["5S", "JK", "6S", "JK"], {3, 4, 5}),
        (["AH", "2H", "JK", "4H"], {1}),
        (["JK", "KD", "JK", "AD", "JK"], {10}),
        (["9D", "JK", "JK", "JK", "JK", "KD"], {8, 9}),
    ],
)
def test_every_typed_order_of_a_group_has_the_same_readings(group, expected):
    for order in distinct_orders(group):
        assert set(starts(list(order))) == expected, order


@pytest.mark.parametrize(
    ("first", "second", "second_starts"),
    [
        (["AS", "2S", "3S", "4S"], ["AS", "JK", "JK", "JK"], {11}),  # the second read high
        (["JS", "QS", "KS", "AS"], ["AS", "JK", "JK", "JK"], {1}),  # the second read low
        (["7S", "8S", "9S", "10S"], ["5S", "JK", "6S", "JK"], {3}),  # spare jokers low
        (["2S", "3S", "4S", "5S"], ["7S", "JK", "8S", "JK"], {6, 7}),  # not 5-8
        (["5S", "6S", "7S", "8S"], ["3S", "JK", "10S", "JK"], None),  # no reading apart
    ],
)
def test_overlap_check_tries_every_reading_of_both_groups_in_any_typed_order(
    first, second, second_starts
):
    for a in distinct_orders(first):
        for b in distinct_orders(second):
            for groups in ([list(a), list(b)], [list(b), list(a)]):
                melds = match_contract(groups, "RR", 0, natural_majority=False)
                if second_starts is None:
                    assert melds is None, groups
                    continue
                assert melds is not None, groups
                assert not runs_overlap(melds[0], melds[1])
                assert all(is_valid_meld(m) for m in melds)
                mine = melds[groups.index(list(b))]
                assert mine["start"] in second_starts and Counter(mine["cards"]) == Counter(b)


def model_starts(naturals: list[str], length: int) -> set[int]:
    """An independent model: the starts of the windows where each natural has its own place."""
    found = set()
    for start in range(LOW_ACE, HIGH_ACE - length + 2):
        window = set(range(start, start + length))
        places: list[int] = []
        for card in naturals:
            rank = card[:-1]
            options = (
                [LOW_ACE, HIGH_ACE]
                if rank == "A"
                else [{"J": 11, "Q": 12, "K": 13}.get(rank) or int(rank)]
            )
            places += [p for p in options if p in window][:1] or [0]
        if 0 not in places and len(set(places)) == len(places):
            found.add(start)
    return found


@st.composite
def spade_groups(draw: st.DrawFn) -> list[str]:
    positions = draw(st.lists(st.integers(LOW_ACE, HIGH_ACE - 1), min_size=1, max_size=6))
    naturals = [card_at(p, "S") for p in positions]  # position 1 is the Ace (low or high)
    jokers = draw(st.integers(max(0, 4 - len(naturals)), 4))
    cards = naturals + [JOKER] * jokers
    return draw(st.permutations(cards))


@settings(max_examples=200, deadline=None)
@given(group=spade_groups(), other=spade_groups())
def test_runs_read_every_way_against_a_model_and_overlap_only_if_every_reading_does(group, other):
    naturals = [c for c in group if c != JOKER]
    expected = model_starts(naturals, len(group)) if len(group) <= 12 else set()
    layouts = run_layouts(group)
    assert {start for start, _ in layouts} == expected
    for start, ordered in layouts:
        meld = {"kind": "run", "owner": 0, "suit": "S", "start": start, "cards": ordered}
        assert is_valid_meld(meld) and Counter(ordered) == Counter(group)
    theirs = (
        model_starts([c for c in other if c != JOKER], len(other)) if len(other) <= 12 else set()
    )
    apart = any(s + len(group) - 1 < t or t + len(other) - 1 < s for s in expected for t in theirs)
    assert (match_contract([group, other], "RR", 0, False) is not None) == apart


def test_natural_majority_refuses_more_jokers_than_naturals_when_coming_out():
    groups = [["7H", "JK", "JK"], ["8H", "8S", "8C"]]
    assert match_contract(groups, "TT", 0, natural_majority=False) is not None
    assert match_contract(groups, "TT", 0, natural_majority=True) is None
    even = [["7H", "7S", "JK"], ["8H", "8S", "8C"]]
    assert match_contract(even, "TT", 0, natural_majority=True) is not None


# -- lay-offs and bumping --------------------------------------------------------------------------


def test_layoff_on_troika_takes_its_rank_or_a_joker():
    troika = make_troika(["7H", "7S", "7C"], 1)
    assert troika is not None
    assert layoff_result(troika, "7D")[0]["cards"] == ["7H", "7S", "7C", "7D"]
    assert layoff_result(troika, "JK") is not None
    assert layoff_result(troika, "8D") is None


def test_layoff_extends_a_run_at_either_end_in_suit_only():
    meld = run("4H", "5H", "6H", "7H")
    low, bumped = layoff_result(meld, "3H")
    assert low["start"] == 3 and low["cards"][0] == "3H" and not bumped
    assert layoff_result(meld, "8H")[0]["cards"][-1] == "8H"
    assert layoff_result(meld, "8S") is None
    assert layoff_result(meld, "9H") is None


def test_layoff_ace_goes_at_the_matching_end_only():
    assert layoff_result(run("2H", "3H", "4H", "5H"), "AH")[0]["start"] == 1
    assert layoff_result(run("JH", "QH", "KH", "JK"), "AH") is None  # the joker is the ace
    assert layoff_result(run("10H", "JH", "QH", "KH"), "AH")[0]["cards"][-1] == "AH"


def test_layoff_never_wraps_past_an_ace():
    assert layoff_result(run("JH", "QH", "KH", "AH"), "2H") is None
    assert layoff_result(run("AH", "2H", "3H", "4H"), "KH") is None


def test_layoff_low_ace_run_never_takes_a_king():
    cards = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"]
    assert layoff_result(run(*cards), "KH") is None


def test_layoff_joker_on_run_chooses_its_end():
    meld = run("4H", "5H", "6H", "7H")
    assert layoff_result(meld, "JK")[0]["start"] == 4  # high by default
    assert layoff_result(meld, "JK", "low")[0]["start"] == 3
    assert layoff_result(run("JH", "QH", "KH", "AH"), "JK", "high") is None


def test_bump_low_end_joker_slides_outward():
    meld = run("JK", "4C", "5C", "6C")  # the joker is 3C
    bumped, did_bump = layoff_result(meld, "3C")
    assert did_bump
    assert bumped["start"] == 2 and bumped["cards"] == ["JK", "3C", "4C", "5C", "6C"]
    assert is_valid_meld(bumped)


def test_bump_high_end_joker_slides_outward():
    meld = run("4C", "5C", "6C", "JK")  # the joker is 7C
    bumped, did_bump = layoff_result(meld, "7C")
    assert did_bump and bumped["cards"] == ["4C", "5C", "6C", "7C", "JK"]


def test_bump_inner_joker_cannot_be_replaced():
    assert layoff_result(run("3C", "JK", "5C", "6C"), "4C") is None


def test_bump_not_past_an_ace_end():
    assert layoff_result(run("JK", "2C", "3C", "4C"), "AC") is None  # the joker is the low ace
    assert layoff_result(run("JC", "QC", "KC", "JK"), "AC") is None  # the joker is the high ace


# -- the contract search ---------------------------------------------------------------------------

HANDS = {
    "TT": ["7H", "7S", "7C", "9D", "9S", "JK", "2C", "4D"],
    "TR": ["7H", "7S", "7C", "3D", "4D", "5D", "6D", "KS"],
    "RR": ["3D", "4D", "JK", "6D", "8S", "9S", "10S", "JS", "2C"],
    "TTT": ["7H", "7S", "7C", "9D", "9S", "9H", "KD", "KS", "JK", "2C"],
    "TTR": ["7H", "7S", "7C", "9D", "9S", "9H", "3D", "4D", "5D", "6D", "2C"],
    "RRT": ["3D", "4D", "5D", "6D", "8S", "9S", "10S", "JS", "KH", "KC", "KD", "2C"],
    "RRR": ["AD", "2D", "3D", "4D", "8S", "9S", "10S", "JS", "JH", "QH", "KH", "AH", "5C"],
}


@pytest.mark.parametrize("contract", CONTRACTS)
def test_find_contracts_finds_each_contract(contract):
    hand = HANDS[contract]
    ways = find_contracts(hand, contract)
    assert ways, contract
    for way in ways:
        melds = match_contract(way, contract, 0, natural_majority=False)
        assert melds is not None, way
        used = sum(len(m) for m in way)
        assert contract_min_cards(contract) <= used < len(hand)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_find_contracts_finds_nothing_without_the_contract(contract):
    hand = ["2C", "3S", "5H", "7D", "9C", "JS", "KH", "AD", "4C", "6S", "8H"]
    assert find_contracts(hand, contract) == []


def test_find_contracts_minimum_cards_per_contract():
    assert [contract_min_cards(c) for c in CONTRACTS] == [6, 7, 8, 9, 10, 11, 12]


def test_find_contracts_keeps_a_card_to_discard():
    exact = ["7H", "7S", "7C", "9D", "9S", "9H"]
    assert find_contracts(exact, "TT") == []
    assert find_contracts(exact, "TT", must_discard=False)
    assert find_contracts([*exact, "2C"], "TT", taken="2C") == []
    assert find_contracts([*exact, "2C"], "TT")


def test_find_contracts_a_melded_copy_of_the_taken_card_uses_it_up():
    hand = ["7H", "7S", "7C", "9D", "9S", "9H", "2C", "2C"]
    assert find_contracts(hand, "TT", taken="2C")  # keep one 2C: the other is discardable
    assert find_contracts(["7H", "7S", "7C", "9D", "9S", "9H", "2C"], "TT", taken="2C") == []


def test_find_contracts_extends_melds_with_held_naturals():
    hand = ["7H", "7S", "7C", "7D", "9D", "9S", "9H", "2C"]
    ways = find_contracts(hand, "TT")
    assert sorted(ways[0], key=len) == [["9D", "9H", "9S"], ["7C", "7D", "7H", "7S"]]
    assert format_meld_action(ways[0]).startswith("meld ")


def test_find_contracts_uses_a_joker_when_the_natural_is_needed_elsewhere():
    hand = ["7H", "7S", "7C", "5H", "6H", "8H", "JK", "2C"]
    ways = find_contracts(hand, "TR")
    assert ways and any("JK" in meld for way in ways for meld in way)


def test_find_contracts_two_troikas_of_one_rank():
    hand = ["7H", "7S", "7C", "7H", "7S", "7C", "2C"]
    assert find_contracts(hand, "TT")


def test_find_contracts_same_suit_runs_do_not_overlap():
    hand = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "2C"]
    assert find_contracts(hand, "RR") == []
    assert find_contracts([*hand, "10H"], "RR")


def test_find_contracts_respects_natural_majority():
    hand = ["7H", "JK", "JK", "8H", "8S", "8C", "2C"]
    assert find_contracts(hand, "TT")
    assert find_contracts(hand, "TT", {"natural_majority": True}) == []


def test_find_contracts_caps_its_answer():
    hand = ["7H", "7S", "7C", "7D", "8H", "8S", "8C", "8D", "9H", "9S", "9C", "9D", "JK", "2C"]
    assert len(find_contracts(hand, "TT", limit=4)) == 4


@settings(max_examples=60, deadline=None)
@given(
    cards=st.lists(st.sampled_from(sorted(set(full_deck(1)))), min_size=11, max_size=17),
    contract=st.sampled_from(CONTRACTS),
    natural_majority=st.booleans(),
)
def test_find_contracts_every_answer_is_a_legal_come_out(cards, contract, natural_majority):
    hand = [c for c, n in Counter(cards).items() for _ in range(min(n, 2))]  # two decks
    for way in find_contracts(hand, contract, natural_majority, limit=5):
        assert match_contract(way, contract, 0, natural_majority) is not None
        left = Counter(hand)
        left.subtract(c for meld in way for c in meld)
        assert min(left.values()) >= 0 and sum(left.values()) >= 1


def test_find_contracts_finds_a_contract_whenever_a_known_one_is_held():
    # Seeded: a known contract plus random extra cards is always found.
    rng = random.Random(5)
    deck = full_deck(2)
    known = {
        "TT": ["5H", "5S", "5C", "QD", "QH", "JK"],
        "TR": ["5H", "5S", "JK", "8C", "9C", "10C", "JC"],
        "RR": ["2S", "3S", "4S", "5S", "9D", "JK", "JD", "QD"],
        "RRR": ["AH", "2H", "3H", "4H", "6H", "7H", "8H", "9H", "QC", "KC", "JK", "JK"],
    }
    for contract, cards in known.items():
        for _ in range(20):
            extra = rng.sample(deck, 5)
            assert find_contracts([*cards, *extra], contract, limit=1), (contract, extra)


# -- scoring ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "card,points",
    [("JK", 50), ("AS", 20), ("KH", 10), ("QD", 10), ("JC", 10), ("10S", 10), ("9H", 5), ("2C", 5)],
)
def test_card_points(card, points):
    assert card_points(card) == points
