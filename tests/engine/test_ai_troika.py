"""Troika AI heuristics: one test per behaviour the ``normal`` level promises (and ``hard``)."""

from __future__ import annotations

from typing import Any

from conftest import act, stacked_game

from engine.ai import make_player
from engine.troika.ai.hard import TroikaHard
from engine.troika.ai.normal import TroikaNormal, evaluate, play_policy
from engine.troika.cards import CARD, CODES, DECK_32, SUIT_INDEX


def cards(*codes: str) -> list[int]:
    return [CARD[c] for c in codes]


def policy(
    hand: list[str],
    trick: list[str],
    seat: int,
    trump: str | None = "D",
    unseen: list[str] | None = None,
    declarer_team: int | None = 0,
) -> str:
    """``normal``'s card for ``seat`` holding ``hand`` after ``trick`` (played by the seats
    before him). ``unseen``: cards still out (default: everything not in hand or trick)."""
    mine = cards(*hand)
    played = cards(*trick)
    if unseen is None:
        out = {c for c in DECK_32 if c not in mine and c not in played}
    else:
        out = set(cards(*unseen))
    t = SUIT_INDEX[trump] if trump else None
    return CODES[play_policy(mine, played, seat, t, False, out, declarer_team)]


def test_gives_5h_to_the_partners_sure_trick() -> None:
    # Seat 3 plays last; the partner (seat 1) holds the trick with the ace of hearts.
    assert policy(["5H", "8H", "KC"], ["9H", "AH", "10H"], seat=3) == "5H"


def test_keeps_5h_back_when_an_opponent_wins_the_trick() -> None:
    assert policy(["5H", "8H", "KC"], ["AH", "9H", "10H"], seat=3) == "8H"


def test_dumps_3s_on_the_opponents_trick() -> None:
    assert policy(["3S", "10S", "KC"], ["AS", "8S", "9S"], seat=3) == "3S"


def test_never_gives_3s_to_the_partner() -> None:
    assert policy(["3S", "10S", "KC"], ["8S", "AS", "9S"], seat=3) == "10S"


def test_wins_as_cheaply_as_possible() -> None:
    # Void in clubs with two trumps (diamonds): the lower trump wins just as well.
    assert policy(["9D", "AD", "8H"], ["KC", "8C", "9C"], seat=3) == "9D"


def test_does_not_win_a_trick_holding_3s() -> None:
    assert policy(["AS", "8S", "KC"], ["KS", "3S", "QS"], seat=3) == "8S"


def test_second_seat_plays_low_when_it_cannot_win_safely() -> None:
    # KH led; our QH cannot win and AH is still out: play the low heart.
    assert policy(["QH", "8H", "AC"], ["KH"], seat=1) == "8H"


def test_cashes_a_master_card_when_leading() -> None:
    hand = ["AC", "8C", "9H", "10S"]
    assert policy(hand, [], seat=0, trump="D", declarer_team=1) == "AC"


def test_declarers_pull_trumps_with_the_top_trump() -> None:
    hand = ["AD", "KD", "QD", "JD", "8C", "9H"]
    unseen = ["10D", "9D", "KC", "AH", "QS"]
    assert policy(hand, [], seat=0, trump="D", unseen=unseen, declarer_team=0) == "AD"


def test_never_leads_5h_while_other_cards_are_there() -> None:
    assert policy(["5H", "9C", "8S"], [], seat=2, trump="D", declarer_team=1) != "5H"


def test_a_long_strong_trump_suit_is_worth_more_than_a_weak_one() -> None:
    hand = cards("AS", "KS", "QS", "JS", "10S", "8H", "9C", "8D")
    assert evaluate(hand, DECK_32, SUIT_INDEX["S"], False) > evaluate(
        hand, DECK_32, SUIT_INDEX["H"], False
    )


# -- decisions from real views ----------------------------------------------------------------

STRONG = ["AS", "KS", "QS", "JS", "10S", "AH", "AC", "AD"]
WEAK = ["8S", "9S", "8H", "9H", "8C", "9C", "8D", "7D"]


def game_with(hands: dict[int, list[str]], **options: Any):
    full = [CODES[c] for c in DECK_32]
    return stacked_game("troika", 4, full, 8, 3, hands, **options)


def choose(game, level: str = "normal", seed: int = 1) -> str:
    seat = game.to_act()[0]
    return make_player("troika", level, seed).choose(game.view(seat), game.legal_actions(seat))


def test_a_strong_hand_bids() -> None:
    game = game_with({0: STRONG})  # dealer 3: seat 0 bids first
    assert choose(game).startswith("bid")


def test_a_weak_hand_passes() -> None:
    game = game_with({0: WEAK}, misdeal=False)
    assert choose(game) == "pass"


def test_a_misdeal_hand_is_thrown_in() -> None:
    game = game_with({0: WEAK})
    assert choose(game) == "misdeal"


def test_a_stuck_dealer_bids_the_minimum() -> None:
    game = game_with({3: WEAK}, misdeal=False)
    act(game, "pass", "pass", "pass")
    action = choose(game)
    assert action.startswith("bid 6"), action


def test_the_declarer_names_his_long_suit_trumps() -> None:
    game = game_with({0: STRONG})
    act(game, "bid 7", "pass", "pass", "pass")
    assert choose(game) == "trump s"
    assert choose(game, "hard") == "trump s"


def test_kitty_discards_keep_trumps_and_aces() -> None:
    hand = ["AS", "KS", "QS", "JS", "10S", "AH", "8C", "AD"]
    full = [CODES[c] for c in range(len(CODES))]  # the 34-card deck
    game = stacked_game("troika", 4, full, 8, 3, {0: hand}, tail=["9S", "7H"], kitty=True)
    act(game, "bid 7", "pass", "pass", "pass", "trump s")
    first = choose(game)
    assert first in ("discard 8c", "discard 7h"), first


def test_hard_takes_the_last_tricks_a_search_can_see() -> None:
    # The normal policy and the search agree on a forced finish: both legal, hard deterministic.
    game = game_with({0: STRONG})
    act(game, "bid 7", "pass", "pass", "pass", "trump s")
    seat = game.to_act()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    move = TroikaHard(3, samples=8).choose(view, legal)
    assert move in legal
    assert move == TroikaHard(3, samples=8).choose(view, legal)
    assert TroikaNormal(3).choose(view, legal) == "play as"  # pull trumps with the ace


def test_with_trump_lead_the_declarer_leads_his_long_suit_to_make_it_trumps() -> None:
    game = game_with({0: STRONG}, trump_lead=True)
    act(game, "bid 7", "pass", "pass", "pass")
    assert game.view(0)["phase"] == "play"
    assert choose(game) == "play as"
    assert choose(game, "hard").split()[1].endswith("s")


def test_hard_solves_the_last_tricks_within_its_node_count(monkeypatch) -> None:
    # Six tricks left: every deal is solved double-dummy until ``exact_nodes`` are spent, so a
    # node count of 1 stops after the first deal (and the same seed gives the same card).
    from engine.troika.ai import hard as ai

    game = game_with({0: STRONG})
    act(game, "bid 7", "pass", "pass", "pass", "trump s")
    for _ in range(8):  # two tricks played by normal seats
        seat = game.to_act()[0]
        act(game, TroikaNormal(1).choose(game.view(seat), game.legal_actions(seat)))
    seat = game.to_act()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    assert len(view["hand"]) == 6
    solved: list[int] = []
    real = ai.Solver.move_values

    def counting(self, *args):  # type: ignore[no-untyped-def]
        solved.append(1)
        return real(self, *args)

    monkeypatch.setattr(ai.Solver, "move_values", counting)
    move = TroikaHard(5, exact_nodes=1, budget=1e9).choose(view, legal)
    assert move in legal and len(solved) == 1
    solved.clear()
    assert TroikaHard(5, exact_nodes=10**9, budget=1e9).choose(view, legal) in legal
    assert len(solved) == 24  # every deal of ``exact_samples``
