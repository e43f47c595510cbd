"""TroiKuntza AI: ``normal``'s heuristics (take or draw, May I, coming out, lay-offs, safe
discards) and ``hard``'s shortfall count and the choices it drives."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import engine
from engine.ai import make_player
from engine.troikuntza.ai.evaluation import shortfall, usefulness
from engine.troikuntza.ai.players import TroiKuntzaHard, TroiKuntzaNormal, fits_table
from engine.troikuntza.ai.simulate import determinize
from engine.troikuntza.game import full_deck


def view(hand: list[str], contract: str = "TT", **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "seat": 0,
        "hand": hand,
        "contract": contract,
        "out": [False, False, False, False],
        "melds": [],
        "discard_top": None,
        "mayi": {"card": None, "used": [0, 0, 0, 0], "limit": 3},
        "options": {},
    }
    base.update(extra)
    return base


def choose(v: dict[str, Any], legal: list[str]) -> str:
    return TroiKuntzaNormal(1).choose(v, legal)


def test_a_card_pairing_a_rank_is_useful_for_troikas() -> None:
    assert usefulness("7H", ["7S", "2C"], "TT") > usefulness("9H", ["7S", "2C"], "TT")


def test_a_card_next_to_its_suit_is_useful_for_runs() -> None:
    assert usefulness("5H", ["4H", "6H", "KC"], "RR") > usefulness("5C", ["4H", "6H", "KC"], "RR")


def test_takes_a_joker() -> None:
    v = view(["2C", "5D", "9S", "KH"], discard_top="JK")
    assert choose(v, ["take", "draw"]) == "take"


def test_takes_the_card_that_makes_the_contract() -> None:
    hand = ["7H", "7S", "QH", "QD", "QC", "2C", "9D"]
    v = view(hand, discard_top="7C")
    assert choose(v, ["take", "draw"]) == "take"


def test_draws_when_the_discard_is_useless() -> None:
    v = view(["7H", "7S", "QH", "QD", "2C", "9D"], discard_top="4S")
    assert choose(v, ["take", "draw"]) == "draw"


def test_may_i_for_a_joker_but_not_for_junk() -> None:
    hand = ["7H", "7S", "QH", "QD", "2C", "9D"]
    joker = view(hand, discard_top="JK", mayi={"card": "JK", "used": [0] * 4, "limit": 3})
    assert choose(joker, ["mayi", "pass"]) == "mayi"
    junk = view(hand, discard_top="4S", mayi={"card": "4S", "used": [0] * 4, "limit": 3})
    assert choose(junk, ["mayi", "pass"]) == "pass"


def test_comes_out_with_the_longest_way() -> None:
    legal = ["meld 7h 7s 7c | qh qd qc", "meld 7h 7s 7c 7d | qh qd qc", "discard 2c"]
    assert choose(view(["7H"]), legal) == "meld 7h 7s 7c 7d | qh qd qc"


def test_lays_off_naturals_before_jokers() -> None:
    legal = ["layoff jk 1", "layoff 7d 1", "discard 2c"]
    assert choose(view(["7D", "JK", "2C"]), legal) == "layoff 7d 1"


def test_discards_a_useless_high_card_not_a_pair() -> None:
    hand = ["7H", "7S", "KD", "4C"]
    legal = ["discard 7h", "discard 7s", "discard kd", "discard 4c"]
    assert choose(view(hand), legal) == "discard kd"


def test_never_discards_a_joker_while_another_card_may_go() -> None:
    hand = ["JK", "AD", "7S"]
    legal = ["discard jk", "discard ad", "discard 7s"]
    assert choose(view(hand), legal) != "discard jk"


def test_a_card_fits_a_troika_on_the_table() -> None:
    meld = {
        "number": 1,
        "owner": 2,
        "kind": "troika",
        "cards": ["9H", "9S", "9C"],
        "stands_for": ["9H", "9S", "9C"],
        "rank": "9",
    }
    assert fits_table("9D", view([], melds=[meld]))
    assert not fits_table("8D", view([], melds=[meld]))


def test_a_card_fits_a_run_end_on_the_table() -> None:
    meld = {
        "number": 1,
        "owner": 2,
        "kind": "run",
        "cards": ["4H", "5H", "6H", "7H"],
        "stands_for": ["4H", "5H", "6H", "7H"],
        "suit": "H",
    }
    assert fits_table("8H", view([], melds=[meld]))
    assert fits_table("3H", view([], melds=[meld]))
    assert not fits_table("9H", view([], melds=[meld]))


@pytest.mark.parametrize("players", [3, 4, 6])
def test_a_rebuilt_game_shows_the_seat_its_own_view(players: int) -> None:
    """``hard``'s playouts start from a game rebuilt from the view alone: the seat must see
    exactly what it saw, with every card of the decks somewhere."""
    options = {"allow_three": True} if players == 3 else {}
    game = engine.new_game("troikuntza", players, options=options, seed=players)
    for move in range(300):
        if game.is_over():
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        if move % 7 == 0:
            twin = determinize(view, random.Random(move), choices=3)
            assert twin.view(seat) == view
            st = twin.state
            cards = Counter(c for h in st["hands"] for c in h)
            cards.update(st["stock"])
            cards.update(st["discard"])
            cards.update(c for m in st["melds"] for c in m["cards"])
            assert cards == Counter(full_deck(st["decks"]))
        game.apply(seat, make_player("troikuntza", "normal", move).choose(view, legal))


# -- hard ---------------------------------------------------------------------------------------


def choose_hard(v: dict[str, Any], legal: list[str]) -> str:
    player = TroiKuntzaHard(1)
    action = player.choose(v, legal)
    assert player.failures == []
    return action


def test_shortfall_counts_the_cards_a_contract_lacks() -> None:
    assert shortfall(["7H", "7S", "7C", "QH", "QD", "QC"], "TT") == 0
    assert shortfall(["7H", "7S", "QH", "QD", "QC", "2C"], "TT") == 1
    assert shortfall(["7H", "7S", "QH", "QD", "2C", "9D"], "TT") == 2
    # A joker fills any gap.
    assert shortfall(["7H", "7S", "QH", "QD", "JK", "9D"], "TT") == 1


def test_shortfall_runs_need_their_own_cards_and_may_not_overlap() -> None:
    assert shortfall(["3H", "4H", "5H", "6H", "8H", "9H", "10H", "JH"], "RR") == 0
    assert shortfall(["3H", "4H", "5H", "6H", "8H", "9H", "10H", "KC"], "RR") == 1
    # One run of 3-6 cannot count twice for two runs.
    assert shortfall(["3H", "4H", "5H", "6H"], "RR") == 4
    # A card serves one meld: 7H in the run leaves the Troika of 7s one short.
    assert shortfall(["4H", "5H", "6H", "7H", "7S", "7C"], "TR") == 1
    assert shortfall(["4H", "5H", "6H", "7H", "7S", "7C", "7D"], "TR") == 0


def test_shortfall_plays_the_ace_high_or_low() -> None:
    assert shortfall(["JS", "QS", "KS", "AS"], "TR") == 3
    assert shortfall(["AS", "2S", "3S", "4S", "5D", "5C", "5H"], "TR") == 0


def test_takes_a_discard_that_brings_the_hand_nearer_and_draws_otherwise() -> None:
    hand = ["7H", "7S", "QH", "QD", "2C", "9D", "KS"]
    assert choose_hard(view(hand, discard_top="QC"), ["take", "draw"]) == "take"
    assert choose_hard(view(hand, discard_top="4S"), ["take", "draw"]) == "draw"


def test_discards_the_card_no_plan_needs() -> None:
    hand = ["7H", "7S", "7C", "QH", "QD", "2C", "KS"]
    legal = [f"discard {c.lower()}" for c in hand]
    assert choose_hard(view(hand), legal) in ("discard 2c", "discard ks")
    # As the round nears its end (an opponent out with one card), the King's 10 points go.
    danger = view(hand, out=[False, True, False, False], hand_sizes=[7, 1, 11, 11])
    assert choose_hard(danger, legal) == "discard ks"


def test_does_not_hand_the_next_player_who_is_out_a_lay_off() -> None:
    meld = {
        "number": 1,
        "owner": 1,
        "kind": "troika",
        "cards": ["9H", "9S", "9C"],
        "stands_for": ["9H", "9S", "9C"],
        "rank": "9",
    }
    hand = ["7H", "7S", "7C", "9D", "8D", "QC"]
    v = view(hand, melds=[meld], out=[False, True, False, False], hand_sizes=[6, 4, 11, 11])
    legal = [f"discard {c.lower()}" for c in hand]
    assert choose_hard(v, legal) != "discard 9d"


def test_may_i_for_a_card_that_brings_the_hand_nearer_not_for_junk() -> None:
    hand = ["7H", "7S", "QH", "QD", "2C", "9D"]

    def mayi(card: str, **extra: Any) -> dict[str, Any]:
        return view(
            hand, discard_top=card, mayi={"card": card, "used": [0] * 4, "limit": 3}, **extra
        )

    assert choose_hard(mayi("QS"), ["mayi", "pass"]) == "mayi"
    assert choose_hard(mayi("4S"), ["mayi", "pass"]) == "pass"
    # Not when an opponent who is out is about to finish: both cards would count against us.
    late = mayi("QS", out=[False, True, False, False], hand_sizes=[6, 1, 11, 11])
    assert choose_hard(late, ["mayi", "pass"]) == "pass"


def test_plays_whole_games_legally_and_deterministically() -> None:
    def run() -> list[str]:
        game = engine.new_game("troikuntza", 4, seed=11)
        actions = []
        for move in range(400):
            if game.is_over():
                break
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            player = TroiKuntzaHard(move)
            action = player.choose(game.view(seat), legal)
            assert player.failures == []
            actions.append(action)
            game.apply(seat, action)
        return actions

    assert run() == run()
