"""TroiKuntza properties over random games played by the random AI (hypothesis-driven seeds).

Checked at every step: card conservation (hands + melds + discard pile + stock = the decks),
every meld on the table valid, each view's hand is the seat's and no card shows outside the hand
and the melds but the discard top and the card taken; at each ``hand_over`` the points equal the
hand values. Also: TroiKuntza's own illegal moves (a missing card, an unknown meld) leave the game
unchanged, and complete games last seven rounds. What every game keeps (listed actions
accepted, refusals that change nothing, JSON round trips, same seed same game, private events
private) is in ``test_contract.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import IllegalAction
from engine.ai import make_player
from engine.cards import JOKER, RANKS, SUITS
from engine.troikuntza import is_valid_meld
from engine.troikuntza.cards import full_deck
from engine.troikuntza.game import TroiKuntzaGame
from engine.troikuntza.melds import hand_points

CODES = {r + s for r in RANKS for s in SUITS} | {JOKER}
PRIVATE_TYPES = {"drawn", "penalty_card", "hand"}

options_strategy = st.fixed_dictionaries(
    {
        "natural_majority": st.booleans(),
        "discard_to_go_out": st.booleans(),
        "mayi_window": st.sampled_from([0, 5]),
        "mayi_after_out": st.booleans(),
        "mayi_limit": st.sampled_from([0, 1, 3]),
    }
)


def check_conservation(game: TroiKuntzaGame) -> None:
    state = game.state
    seen: Counter[str] = Counter(state["discard"]) + Counter(state["stock"])
    for hand in state["hands"]:
        seen.update(hand)
    for meld in state["melds"]:
        seen.update(meld["cards"])
    assert seen == Counter(full_deck(state["decks"]))


def card_codes(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value in CODES else []
    if isinstance(value, dict):
        return [c for v in value.values() for c in card_codes(v)]
    if isinstance(value, list):
        return [c for v in value for c in card_codes(v)]
    return []


def check_views(game: TroiKuntzaGame) -> None:
    state = game.state
    for seat in [None, *range(game.players)]:
        view = game.view(seat)
        if seat is None:
            assert "hand" not in view
        else:
            assert Counter(view["hand"]) == Counter(state["hands"][seat])
        rest = {k: v for k, v in view.items() if k not in ("hand", "melds")}
        visible = {view["discard_top"], view["taken"]}
        assert set(card_codes(rest)) <= visible, (seat, card_codes(rest))


def check_events(game: TroiKuntzaGame, events: list[dict[str, Any]], totals: list[int]) -> None:
    for event in events:
        assert "type" in event
        if event["type"] in PRIVATE_TYPES:
            assert event["private_to"] == event["seat"]
        if event["type"] == "hand_over":
            points = [hand_points(h) for h in event["hands"]]
            assert event["points"] == points
            if event["went_out"] is not None:
                assert event["hands"][event["went_out"]] == []
            for s, p in enumerate(points):
                totals[s] += p
            assert event["scores"] == totals
        if event["type"] == "game_over":
            assert event["winners"] == [s for s, v in enumerate(totals) if v == min(totals)]


def illegal_probes(game: TroiKuntzaGame, rng: random.Random) -> list[tuple[int, str]]:
    waiting = game.to_act()
    probes = [(waiting[0], "discard zz"), (waiting[0], "layoff 2c 99"), (waiting[0], "meld 2c")]
    seat = game.state["current"]
    missing = sorted(CODES - set(game.state["hands"][seat]))
    if seat in waiting and missing:
        probes.append((seat, f"discard {rng.choice(missing).lower()}"))
    return probes


def play(
    players: int, options: dict[str, Any], seed: int, max_steps: int, heavy: bool
) -> tuple[TroiKuntzaGame, list[tuple[int, str]]]:
    game = engine.new_game("troikuntza", players, options=options, seed=seed)
    assert isinstance(game, TroiKuntzaGame)
    ais = [make_player("troikuntza", "easy", seed * 31 + s) for s in range(players)]
    rng = random.Random(seed)
    moves: list[tuple[int, str]] = []
    totals = [0] * players
    while not game.is_over() and len(moves) < max_steps:
        seat = rng.choice(game.to_act())
        legal = game.legal_actions(seat)
        if heavy and len(moves) % 7 == 0:
            before = game.to_json()
            for probe_seat, action in illegal_probes(game, rng):
                try:
                    game.apply(probe_seat, action)
                except IllegalAction:
                    pass
                else:  # pragma: no cover - a probe must be illegal
                    raise AssertionError(f"{action!r} by {probe_seat} was accepted")
                assert game.to_json() == before
        action = ais[seat].choose(game.view(seat), legal)
        events = game.apply(seat, action)
        moves.append((seat, action))
        check_events(game, events, totals)
        check_conservation(game)
        assert all(is_valid_meld(m) for m in game.state["melds"])
        if heavy:
            check_views(game)
    return game, moves


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(4, 10),
    options=options_strategy,
)
def test_random_play_keeps_every_invariant(seed, players, options):
    play(players, options, seed, max_steps=250, heavy=True)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4, 6, 8]))
def test_random_complete_games_last_seven_rounds(seed, players):
    options = {"allow_three": players == 3}
    game, _ = play(players, options, seed, max_steps=50_000, heavy=False)
    assert game.is_over()
    assert len(game.result()["rounds"]) == 7
