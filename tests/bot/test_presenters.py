"""Every game has a presenter and an AI for each level, and every event its engine emits in
random complete games, at every player count, is told by its presenter (no fallback line):
each kind by its own function in the presenter's ``narrators`` table, or declared quiet."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from bot.render.presenter import PRESENTERS, Presenter, Seating, Section, presenter_for
from engine import ai

GAMES = sorted(engine.GAMES)


def player_counts(name: str) -> list[int]:
    spec = engine.GAMES[name]
    low, high = spec.min_players, spec.max_players
    if spec.player_range is not None:
        low = min(low, spec.player_range({**spec.defaults(), **_widest(spec)})[0])
    return list(range(low, high + 1))


def _widest(spec: engine.GameSpec) -> dict[str, Any]:
    """Options that widen the player range (any on/off option turned on)."""
    return {o.name: True for o in spec.options if o.is_bool}


def random_game(name: str, players: int, seed: int) -> Iterator[tuple[engine.Game, dict[str, Any]]]:
    """A random complete game: yields (game after the move, event) for every event. One move in
    five is a random legal one, the others the normal AI's (wholly random bidding never ends
    some games: contracts are set for ever); after 2,000 moves the AI finishes alone."""
    spec = engine.GAMES[name]
    try:
        game = engine.new_game(name, players, seed=seed)
    except engine.IllegalAction:  # a player count some option allows
        game = engine.new_game(name, players, options=_widest(spec), seed=seed)
    rng = random.Random(seed)
    for step in range(20_000):
        if game.is_over():
            return
        awaited = game.to_act()
        movers = [s for s in awaited if game.legal_actions(s)]
        if movers:
            seat = rng.choice(movers)
            legal = game.legal_actions(seat)
            if step < 2000 and rng.random() < 0.2:  # then the AI alone finishes the game
                action = rng.choice(legal)
            else:
                action = ai.make_player(name, "normal", rng.randrange(2**31)).choose(
                    game.view(seat), legal
                )
        else:
            window = game.timed_window()
            assert window is not None, "someone is awaited but nobody may act"
            seat, action = awaited[0], window.action
        for event in game.apply(seat, action):
            yield game, event
    raise AssertionError(f"{name} with {players} players did not end")


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_presenter_and_an_ai_per_level(name: str) -> None:
    presenter = presenter_for(name)
    assert isinstance(presenter, Presenter) and presenter.game == name
    spec = engine.GAMES[name]
    declared = ai.PLAYERS.get(name, {})
    assert set(ai.LEVELS) <= set(declared), f"{name} lacks AI levels"
    game = engine.new_game(name, spec.default_players or spec.min_players, seed=1)
    seat = game.to_act()[0]
    legal = game.legal_actions(seat)
    for level in ai.LEVELS:
        assert ai.make_player(name, level, 3).choose(game.view(seat), legal) in legal


def test_presenters_are_found_by_subclass() -> None:
    presenter_for(GAMES[0])
    assert set(GAMES) <= set(PRESENTERS)


@pytest.mark.parametrize("name", GAMES)
def test_every_event_kind_is_told_by_the_presenter(name: str) -> None:
    presenter = presenter_for(name)
    kinds: set[str] = set()
    for players in player_counts(name):
        names = tuple(f"p{s}" for s in range(players))
        public = Seating(names)
        for seed in range(3 if players < 6 else 1):
            for _game, event in random_game(name, players, seed):
                kind = str(event["type"])
                kinds.add(kind)
                owner = event.get("private_to")
                if owner is None:
                    told = presenter.narrate(event, public)
                    for seat in range(players):
                        presenter.narrate(event, public.for_seat(seat))
                else:
                    assert presenter.narrate(event, public) is None, "private told in public"
                    told = presenter.narrate(event, public.for_seat(owner))
                if told is not None:
                    assert told.strip() and "{" not in told and "_" not in told, told
                    assert len(told) <= 1024
                if kind == "hand_over":
                    summary = presenter.summary(event, public)
                    assert summary and all(isinstance(s, Section) for s in summary)
                    assert sum(len(s.text) for s in summary) <= 3000
    assert {"hand_over", "game_over"} <= kinds or "game_over" in kinds
    # Told by the game's table of narrators, one function per kind (or quiet), not a fallback.
    assert presenter.narrators is not None and presenter.narrators.game == name
    untold = kinds - presenter.narrators.kinds - presenter.quiet
    assert not untold, f"{name}: event kinds with no narrator: {sorted(untold)}"
