"""TroiKuntza ``hard``: the shortfall count and the choices it drives."""

from __future__ import annotations

from typing import Any

import engine
from engine.ai.troikuntza import TroiKuntzaHard
from engine.ai.troikuntza_eval import shortfall


def view(hand: list[str], contract: str = "TT", **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "seat": 0,
        "players": 4,
        "hand": hand,
        "contract": contract,
        "out": [False, False, False, False],
        "hand_sizes": [len(hand), 11, 11, 11],
        "melds": [],
        "discard_top": None,
        "mayi": {"card": None, "used": [0, 0, 0, 0], "limit": 3},
        "options": {},
    }
    base.update(extra)
    return base


def choose(v: dict[str, Any], legal: list[str]) -> str:
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
    assert choose(view(hand, discard_top="QC"), ["take", "draw"]) == "take"
    assert choose(view(hand, discard_top="4S"), ["take", "draw"]) == "draw"


def test_discards_the_card_no_plan_needs() -> None:
    hand = ["7H", "7S", "7C", "QH", "QD", "2C", "KS"]
    legal = [f"discard {c.lower()}" for c in hand]
    assert choose(view(hand), legal) in ("discard 2c", "discard ks")
    # As the round nears its end (an opponent out with one card), the King's 10 points go.
    danger = view(hand, out=[False, True, False, False], hand_sizes=[7, 1, 11, 11])
    assert choose(danger, legal) == "discard ks"


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
    assert choose(v, legal) != "discard 9d"


def test_may_i_for_a_card_that_brings_the_hand_nearer_not_for_junk() -> None:
    hand = ["7H", "7S", "QH", "QD", "2C", "9D"]

    def mayi(card: str, **extra: Any) -> dict[str, Any]:
        return view(
            hand, discard_top=card, mayi={"card": card, "used": [0] * 4, "limit": 3}, **extra
        )

    assert choose(mayi("QS"), ["mayi", "pass"]) == "mayi"
    assert choose(mayi("4S"), ["mayi", "pass"]) == "pass"
    # Not when an opponent who is out is about to finish: both cards would count against us.
    late = mayi("QS", out=[False, True, False, False], hand_sizes=[6, 1, 11, 11])
    assert choose(late, ["mayi", "pass"]) == "pass"


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
