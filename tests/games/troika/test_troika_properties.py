"""Troika properties over random complete games with random options (hypothesis).

What only Troika has: card conservation over its zones, 10 hand points per hand, the kitty and
the declarer's discards hidden from every other view, every unlisted card play refused, games by
rounds and by points ending when they should. What every game keeps (listed actions accepted,
refusals that change nothing, JSON round trips, same seed same game, no other hand in a view) is
in ``test_contract.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import IllegalAction
from engine.troika.cards import CODES, PLAY_ACTION, deck_for
from tests.engine.play_helpers import assert_card_conservation, play_random, random_step

SPEC = engine.GAMES["troika"]
_FREE = ("end", "target", "rounds", "timer")

# Random players rarely make a bid and scores drift down, so a game to a points target may
# never end: these games end after 1-2 hands (end by points has its own property below).
OPTIONS = st.builds(
    lambda chosen, rounds: {**chosen, "end": "rounds", "rounds": rounds},
    st.fixed_dictionaries(
        {o.name: st.sampled_from(o.values()) for o in SPEC.options if o.name not in _FREE}
    ),
    st.integers(1, 2),
)
SEEDS = st.integers(0, 2**40)
MAX_ACTIONS = 1500


def zones(game: engine.Game) -> list[list[int]]:
    s = game.state
    return [*s["hands"], s["trick"], *s["won"], s["kitty"], s["discards"]]


def hidden_from(game: engine.Game, seat: int | None) -> set[str]:
    """The kitty, and the declarer's discards but from the declarer (other hands: the contract)."""
    s = game.state
    hidden = list(s["kitty"])
    if seat is None or seat != s["declarer"]:
        hidden += s["discards"]
    return {CODES[c] for c in hidden}


def shown_codes(view: dict[str, Any]) -> set[str]:
    # The first-dealer draw is public and comes from its own shuffled deck: not this deal.
    text = json.dumps({k: v for k, v in view.items() if k != "dealer_draw"})
    return {code for code in CODES if f'"{code}"' in text}


def check_step(game: engine.Game) -> None:
    assert_card_conservation(zones(game), deck_for(bool(game.options["kitty"])))
    for seat in (0, 1, 2, 3, None):
        view = game.view(seat)
        leaked = shown_codes(view) & hidden_from(game, seat)
        assert not leaked, f"seat {seat} sees {leaked}"


def check_hand_over(events: list[dict[str, Any]]) -> None:
    for event in events:
        if event["type"] == "hand_over":
            assert sum(event["hand_points"]) == 10
            assert sum(event["tricks"]) == 8


@settings(max_examples=20, deadline=None)
@given(options=OPTIONS, seed=SEEDS, moves_seed=SEEDS)
def test_random_games_keep_cards_points_and_the_kitty_consistent(
    options: dict[str, Any], seed: int, moves_seed: int
) -> None:
    game = engine.new_game("troika", 4, options=options, seed=seed)
    check_step(game)

    def on_step(g: engine.Game, seat: int, action: str, events: list[dict[str, Any]]) -> None:
        check_step(g)
        check_hand_over(events)

    play_random(game, random.Random(moves_seed), MAX_ACTIONS, on_step)
    assert game.is_over() and game.to_act() == []
    result = game.result()
    assert len(result["winners"]) == 2
    assert result["hands"] >= options["rounds"]


@settings(max_examples=10, deadline=None)
@given(options=OPTIONS, seed=SEEDS, moves_seed=SEEDS)
def test_every_unlisted_card_play_is_refused(
    options: dict[str, Any], seed: int, moves_seed: int
) -> None:
    """Troika lists every legal action: any card play it does not list is refused."""
    game = engine.new_game("troika", 4, options=options, seed=seed)
    rng = random.Random(moves_seed)
    for _ in range(MAX_ACTIONS):
        if game.is_over():
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        snapshot = game.to_json()
        for card in range(len(CODES)):
            if PLAY_ACTION[card] not in legal:
                with pytest.raises(IllegalAction):
                    game.apply(seat, PLAY_ACTION[card])
        assert game.to_json() == snapshot
        game.apply(seat, rng.choice(legal))


@settings(max_examples=20, deadline=None)
@given(options=OPTIONS, seed=SEEDS, moves_seed=SEEDS, target=st.integers(10, 20))
def test_points_games_end_exactly_when_a_team_reaches_the_target(
    options: dict[str, Any], seed: int, moves_seed: int, target: int
) -> None:
    options = {**options, "end": "points", "target": target}
    game = engine.new_game("troika", 4, options=options, seed=seed)
    rng = random.Random(moves_seed)
    for _ in range(300):
        events = random_step(game, rng)[2]
        for event in events:
            if event["type"] != "hand_over":
                continue
            scores, team = event["scores"], event["declarer_team"]
            goal = game.state["target"]
            reached = [t for t in (team, 1 - team) if scores[t] >= goal]
            assert game.is_over() == bool(reached)
            if reached:
                assert game.result()["winners"] == [reached[0], reached[0] + 2]
        if game.is_over():
            break


def test_conservation_check_catches_a_lost_or_doubled_card() -> None:
    game = engine.new_game("troika", 4, seed=5)
    deck = deck_for(False)
    assert_card_conservation(zones(game), deck)
    game.state["hands"][0].append(game.state["hands"][1][0])
    with pytest.raises(AssertionError, match="extra"):
        assert_card_conservation(zones(game), deck)
    game.state["hands"][0].pop()
    game.state["hands"][1].pop()
    with pytest.raises(AssertionError, match="missing"):
        assert_card_conservation(zones(game), deck)
