"""2-Player Troeven: invariants over random complete games of both versions (hypothesis).

What only Troeven has: each card in one place, card points and tricks per deal, the undealt,
face-down and stock cards in no view and no event, the scoring of each deal, games that end when a
player reaches 0. What every game keeps (listed actions accepted, refusals that change nothing,
JSON round trips, same seed same game, no other hand in a view, private events private) is in
``test_contract.py``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.troeven.cards import CODE, POINTS, TOTAL_POINTS

VERSIONS = ["layout", "stock"]
MAX_ACTIONS = 20_000  # a random game takes a few hundred; this only stops a runaway loop
options_strategy = st.fixed_dictionaries(
    {
        "strict_follow": st.booleans(),
        "first_dealer": st.sampled_from([None, 0, 1]),
    }
)


def places(game: engine.Game) -> list[int]:
    """Every card the state holds, wherever it is (a card twice appears twice)."""
    s = game.state
    cards = [*s["trick"], *s["won"][0], *s["won"][1], *s["undealt"]]
    if "up" in s:
        for seat in (0, 1):
            cards += [c for c in s["up"][seat] + s["down"][seat] if c >= 0]
    else:
        cards += [*s["hands"][0], *s["hands"][1], *s["stock"]]
    return cards


def hidden_from_all(game: engine.Game) -> set[str]:
    """The codes nobody may see now: undealt, face-down and stock cards (a hand's cards are
    checked by the contract suite)."""
    s = game.state
    hidden = set(s["undealt"])
    if "up" in s:
        hidden |= {c for c in s["down"][0] + s["down"][1] if c >= 0}
    else:
        hidden |= set(s["stock"])
    return {CODE[c] for c in hidden}


def strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {t for k, v in value.items() for t in strings(k) | strings(v)}
    if isinstance(value, list):
        return {t for v in value for t in strings(v)}
    return set()


def check_state(game: engine.Game) -> None:
    s = game.state
    assert sorted(places(game)) == list(range(32))  # each card in exactly one place
    for seat in (0, 1):
        assert s["hand_points"][seat] == sum(POINTS[c] for c in s["won"][seat])
        assert s["tricks_won"][seat] * 2 == len(s["won"][seat])
    hidden = hidden_from_all(game)
    for seat in (0, 1, None):
        view = game.view(seat)
        assert not strings(view) & hidden, f"view of {seat} leaks a card"


def check_events(game: engine.Game, events: list[dict]) -> None:
    """Public events show no card in a hand or hidden from all; private ones (to a seat) no card
    hidden from all."""
    s = game.state
    hands = set() if "up" in s else {CODE[c] for hand in s["hands"] for c in hand}
    for event in events:
        if event["type"] in ("play", "trick"):
            continue  # played cards are public by nature (and may belong to the deal just over)
        hidden = hidden_from_all(game) | (hands if event.get("private_to") is None else set())
        assert not strings(event) & hidden, f"event {event} leaks a card"
        if event["type"] == "hand_over":
            assert sum(event["points"]) == TOTAL_POINTS
            assert sum(event["tricks"]) == 16
            check_scoring(event)


def check_scoring(event: dict) -> None:
    points, dealer = event["points"], event["dealer"]
    if points[0] == points[1]:
        assert event["changes"] == [0, 0]
        return
    winner = 0 if points[0] > points[1] else 1
    expected = [0, 0]
    expected[winner] = -1
    if winner == dealer:
        expected[1 - dealer] = 1
    assert event["winner"] == winner and event["changes"] == expected


@pytest.mark.parametrize("version", VERSIONS)
@settings(max_examples=6, deadline=None)
@given(options=options_strategy, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_complete_games_keep_every_invariant(version, options, seed, choices):
    game = engine.new_game("troeven", 2, {**options, "version": version}, seed=seed)
    rng = random.Random(choices)
    deals = 0
    check_state(game)
    for _ in range(MAX_ACTIONS):
        if game.is_over():
            break
        (seat,) = game.to_act()
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        deals += sum(e["type"] == "hand_over" for e in events)
        check_state(game)
        check_events(game, events)
    assert game.is_over()
    result = game.result()
    assert result["winners"] and result["scores"][result["winners"][0]] == 0
    assert deals == result["hands_played"] >= 7
