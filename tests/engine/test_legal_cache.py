"""The engine's hot paths: legal actions computed once per state, the listed-move fast path of
``apply``, and the deal's ``shuffle``; each must answer exactly as the plain computation does."""

from __future__ import annotations

import random

import pytest

import engine
from engine import Game
from engine.game import reseed, seeded_rng, shuffle

#: Per game: a player count and how many random moves to walk (a few rounds of each).
WALKS = {"troika": (4, 400), "troeven": (2, 300), "troggu": (4, 300), "troikuntza": (4, 300)}


@pytest.mark.parametrize("size", [0, 1, 2, 3, 32, 34, 54, 78, 108, 300])
def test_shuffle_draws_as_random_shuffle(size: int) -> None:
    for seed in range(50):
        mine, theirs = list(range(size)), list(range(size))
        shuffle(random.Random(f"{seed}/0"), mine)
        random.Random(f"{seed}/0").shuffle(theirs)
        assert mine == theirs


def test_seeded_rng_is_random_random_of_the_text() -> None:
    for text in ("0/0", "5/3", "123456789012/41", "", "é/1"):
        mine, theirs = seeded_rng(text), random.Random(text)
        assert mine.getstate() == theirs.getstate()
        assert [mine.getrandbits(k) for k in range(1, 40)] == [
            theirs.getrandbits(k) for k in range(1, 40)
        ]
        assert mine.gauss(0, 1) == theirs.gauss(0, 1)


def test_reseed_makes_a_used_generator_random_random_of_the_text() -> None:
    used = seeded_rng("spent")
    used.gauss(0, 1)  # leaves a gauss_next behind
    for text in ("0/0", "5/3", "123456789012/41", "", "é/1"):
        used.shuffle(list(range(40)))
        mine, theirs = reseed(used, text), random.Random(text)
        assert mine is used
        assert mine.getstate() == theirs.getstate()
        assert mine.gauss(0, 1) == theirs.gauss(0, 1)


def fresh(game: Game) -> Game:
    """The same state with nothing computed yet (the plain, uncached path)."""
    return engine.load(game.to_json())


@pytest.mark.parametrize("name", sorted(WALKS))
def test_listed_moves_and_cache_answer_as_a_fresh_game(name: str) -> None:
    """At every step the cached listing is the fresh game's; a listed move (fast path) gives
    the events and state that the same move gives on a fresh game (full checks)."""
    players, steps = WALKS[name]
    rng = random.Random(7)
    for seed in range(3):
        game = engine.new_game(name, players, seed=seed)
        for _ in range(steps):
            waiting = game.to_act()
            if not waiting:
                break
            seat = rng.choice(waiting)
            first = game.legal_actions(seat)  # the listing itself, handed to its first caller
            first.append("xyzzy")
            cached = game.cached_legal_actions(seat)
            assert cached is game.cached_legal_actions(seat)
            assert list(cached) == fresh(game).legal_actions(seat)
            handed = game.legal_actions(seat)
            handed.append("xyzzy")  # a caller's list is its own
            assert "xyzzy" not in game.legal_actions(seat)
            # An empty listing: a May I window only the service closes.
            action = rng.choice(cached) if cached else "close"
            plain = fresh(game)
            assert game.apply(seat, action) == plain.apply(seat, action)
            assert game.to_json() == plain.to_json()


def test_a_refused_move_keeps_a_true_listing() -> None:
    game = engine.new_game("troika", 4, seed=3)
    seat = game.to_act()[0]
    before = game.cached_legal_actions(seat)
    with pytest.raises(engine.IllegalAction):
        game.apply(seat, "play zz")
    assert game.cached_legal_actions(seat) == before == tuple(fresh(game).legal_actions(seat))


def test_state_changed_forgets_the_listing_of_a_state_edited_in_place() -> None:
    game = engine.new_game("troika", 4, seed=3)
    seat = game.to_act()[0]
    game.cached_legal_actions(seat)
    game.state["turn"] = (seat + 1) % 4  # a test setting up a position
    game.state_changed()
    assert game.cached_legal_actions(seat) == ()
    with pytest.raises(engine.IllegalAction):
        game.apply(seat, "pass")
