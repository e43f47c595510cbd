"""2-Player Troeven: invariants over random complete games of both versions (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import IllegalAction
from engine.troeven.cards import CODE, PLAY_ACTION, POINTS, TOTAL_POINTS

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


def hidden_from(game: engine.Game, seat: int | None) -> set[str]:
    """The codes ``seat`` (None: a spectator) must not see now."""
    s = game.state
    hidden = set(s["undealt"])
    if "up" in s:
        hidden |= {c for c in s["down"][0] + s["down"][1] if c >= 0}
    else:
        hidden |= set(s["stock"])
        for other in (0, 1):
            if other != seat:
                hidden |= set(s["hands"][other])
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
    for seat in (0, 1, None):
        view = game.view(seat)
        assert not strings(view) & hidden_from(game, seat), f"view of {seat} leaks a card"


def check_events(game: engine.Game, events: list[dict]) -> None:
    """Public events show no card hidden from anybody; private ones only their seat's cards."""
    everybody = hidden_from(game, 0) | hidden_from(game, 1)
    for event in events:
        if event["type"] in ("play", "trick"):
            continue  # played cards are public by nature (and may belong to the deal just over)
        seat = event.get("private_to")
        hidden = everybody if seat is None else hidden_from(game, seat)
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


def check_illegal_refused(game: engine.Game, seat: int, legal: list[str]) -> None:
    before = game.to_json()
    unlisted = [a for a in PLAY_ACTION if a not in legal]
    for action in unlisted[:: max(1, len(unlisted) // 3)]:
        with pytest.raises(IllegalAction):
            game.apply(seat, action)
        assert game.to_json() == before
    with pytest.raises(IllegalAction):
        game.apply(1 - seat, legal[0])
    assert game.to_json() == before
    assert game.legal_actions(1 - seat) == []


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
        legal = game.legal_actions(seat)
        assert legal, "a seat to act always has a move"
        check_illegal_refused(game, seat, legal)
        for action in legal:  # every listed action is accepted
            engine.load(game.to_json()).apply(seat, action)
        action = rng.choice(legal)
        twin = engine.load(game.to_json())
        assert twin == game
        events = game.apply(seat, action)
        assert twin.apply(seat, action) == events and twin == game  # loaded game continues alike
        deals += sum(e["type"] == "hand_over" for e in events)
        check_state(game)
        check_events(game, events)
    assert game.is_over()
    result = game.result()
    assert result["winners"] and result["scores"][result["winners"][0]] == 0
    assert deals == result["hands_played"] >= 7


@pytest.mark.parametrize("version", VERSIONS)
@settings(max_examples=5, deadline=None)
@given(options=options_strategy, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_replay_from_seed_and_actions_is_identical(version, options, seed, choices):
    opts = {**options, "version": version}
    game = engine.new_game("troeven", 2, opts, seed=seed)
    rng = random.Random(choices)
    log: list[tuple[int, str, list[dict]]] = []
    while not game.is_over():
        (seat,) = game.to_act()
        action = rng.choice(game.legal_actions(seat))
        log.append((seat, action, game.apply(seat, action)))
    replay = engine.new_game("troeven", 2, opts, seed=seed)
    for seat, action, events in log:
        assert replay.apply(seat, action) == events
    assert replay == game
    assert engine.load(game.to_json()) == game
