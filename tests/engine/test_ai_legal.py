"""Every AI level only ever returns legal actions, in every game and player count, and a seed
always gives the same decision.

The sweeps play many short games (a deal or two each, so the suite stays fast) with a level
chosen per seat, asserting each chosen action is in ``legal_actions``. ``hard`` runs with a
small sample budget here (the bench measures the real one).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from engine.ai import LEVELS, Player, make_player
from engine.ai.common import SeededPlayer
from engine.troeven.ai.players import TroevenHard
from engine.troggu.ai.players import TrogguHard
from engine.troika.ai.hard import TroikaHard
from engine.troikuntza.ai.players import TroiKuntzaHard

Factory = Callable[[str, str, int], Any]


def small_hard(game: str, level: str, seed: int) -> Any:
    """``make_player`` with a tiny search for ``hard``, so the sweeps stay quick. The counts bound
    it, not the wall clock: a search the clock cuts stops where the machine's load decides, and
    the same decision asked twice could differ."""
    if level == "hard" and game == "troika":
        return TroikaHard(seed, samples=2, bid_samples=2, exact_samples=2, budget=math.inf)
    if level == "hard" and game == "troeven":
        return TroevenHard(seed, samples=2, budget=math.inf)
    if level == "hard" and game == "troggu":
        return TrogguHard(seed, samples=2, budget=math.inf)
    if level == "hard" and game == "troikuntza":
        return TroiKuntzaHard(seed, samples=1, discards=2, budget=math.inf)
    return make_player(game, level, seed)


def play_checked(
    game: engine.Game,
    levels: list[str],
    seed: int,
    *,
    hands: int,
    max_actions: int = 6000,
    factory: Factory = small_hard,
) -> int:
    """Play with the AIs until ``hands`` deals are scored or the game ends; every action must be
    legal. Returns the number of AI decisions made."""
    scored = 0
    moves = 0
    while not game.is_over() and scored < hands and moves < max_actions:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        player = factory(game.name, levels[seat], seed * 7919 + moves)
        action = player.choose(game.view(seat), legal)
        assert action in legal, f"{game.name} {levels[seat]} chose {action!r}; legal: {legal}"
        assert not getattr(player, "failures", []), player.failures
        events = game.apply(seat, action)
        scored += sum(1 for e in events if e["type"] == "hand_over")
        moves += 1
    return moves


def test_levels_are_easy_normal_hard() -> None:
    assert LEVELS == ("easy", "normal", "hard")


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown AI level"):
        make_player("troika", "expert", 1)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_game_has_every_level(level: str) -> None:
    for name in engine.GAMES:
        assert hasattr(make_player(name, level, 1), "choose")


TROIKA_OPTIONS: list[tuple[str | None, dict[str, Any]]] = [
    (None, {}),
    ("saskatchewan", {}),
    ("online", {}),
    (None, {"low": "always", "trump_lead": True}),
    (None, {"no_trump": False, "stick_dealer": False, "min_bid": 5}),
]


@pytest.mark.parametrize(("preset", "options"), TROIKA_OPTIONS)
def test_troika_easy_and_normal_only_play_legal_actions(
    preset: str | None, options: dict[str, Any]
) -> None:
    for seed in range(30):
        rng = random.Random(seed)
        levels = [rng.choice(("easy", "normal")) for _ in range(4)]
        game = engine.new_game("troika", 4, options=options, seed=seed, preset=preset)
        assert play_checked(game, levels, seed, hands=2) > 0


@pytest.mark.parametrize(("preset", "options"), TROIKA_OPTIONS[:3])
def test_troika_hard_only_plays_legal_actions(preset: str | None, options: dict[str, Any]) -> None:
    for seed in range(3):
        game = engine.new_game("troika", 4, options=options, seed=seed, preset=preset)
        play_checked(game, ["hard", "normal", "hard", "easy"], seed, hands=1)


def test_troika_normal_plays_whole_games_to_the_end() -> None:
    for seed in range(4):
        game = engine.new_game("troika", 4, seed=seed)
        play_checked(game, ["normal"] * 4, seed, hands=10_000, max_actions=20_000)
        assert game.is_over()


TROEVEN_OPTIONS = [
    {"version": "layout"},
    {"version": "stock"},
    {"version": "layout", "strict_follow": True},
    {"version": "stock", "strict_follow": True},
]


@pytest.mark.parametrize("options", TROEVEN_OPTIONS)
def test_troeven_every_level_only_plays_legal_actions(options: dict[str, Any]) -> None:
    for seed in range(24):
        rng = random.Random(seed)
        levels = [rng.choice(("easy", "normal")) for _ in range(2)]
        game = engine.new_game("troeven", 2, options=options, seed=seed)
        play_checked(game, levels, seed, hands=2)
    for seed in range(2):
        game = engine.new_game("troeven", 2, options=options, seed=seed)
        play_checked(game, ["hard", "normal"], seed, hands=1)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_troggu_every_level_only_plays_legal_actions(players: int) -> None:
    for seed in range(20):
        rng = random.Random(seed)
        levels = [rng.choice(("easy", "normal")) for _ in range(players)]
        game = engine.new_game("troggu", players, options={"deals": 2}, seed=seed)
        play_checked(game, levels, seed, hands=2)
    levels = ["hard", "normal"] * players
    game = engine.new_game("troggu", players, options={"deals": 1}, seed=99)
    play_checked(game, levels[:players], 99, hands=1)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {}),
        (5, {}),
        (6, {}),
        (8, {}),
        (10, {}),
        (3, {"allow_three": True}),
        (4, {"natural_majority": True, "discard_to_go_out": True}),
        (5, {"mayi_window": 0, "mayi_after_out": False, "mayi_limit": 1}),
    ],
)
def test_troikuntza_every_level_only_plays_legal_actions(
    players: int, options: dict[str, Any]
) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        levels = [rng.choice(("easy", "normal", "hard")) for _ in range(players)]
        game = engine.new_game("troikuntza", players, options=options, seed=seed)
        play_checked(game, levels, seed, hands=1, max_actions=3000)


def test_troikuntza_normal_finishes_rounds_by_going_out() -> None:
    game = engine.new_game("troikuntza", 4, seed=5)
    events_seen: list[dict[str, Any]] = []
    moves = 0
    while not game.is_over() and moves < 4000:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = make_player("troikuntza", "normal", moves).choose(game.view(seat), legal)
        events_seen += game.apply(seat, action)
        moves += 1
    reasons = [e.get("reason") for e in events_seen if e["type"] == "hand_over"]
    assert reasons, "no round ended"
    assert any(r != "stock" for r in reasons), f"every round ran out of stock: {reasons}"


# -- determinism --------------------------------------------------------------------------------


def decision_points(name: str, players: int, options: dict[str, Any], seed: int, count: int):
    """``count`` (view, legal) pairs met in a game played by ``normal``, with >1 legal action."""
    game = engine.new_game(name, players, options=options, seed=seed)
    found = []
    moves = 0
    while not game.is_over() and len(found) < count and moves < 3000:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        if len(legal) > 1 and moves % 3 == 0:
            found.append((view, legal))
        game.apply(seat, make_player(name, "normal", moves).choose(view, legal))
        moves += 1
    return found


GAME_SETUPS = [
    ("troika", 4, {}),
    ("troeven", 2, {"version": "layout"}),
    ("troeven", 2, {"version": "stock"}),
    ("troggu", 4, {}),
    ("troggu", 7, {}),
    ("troikuntza", 4, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), GAME_SETUPS)
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_same_seed_same_decision(
    name: str, players: int, options: dict[str, Any], level: str
) -> None:
    points = decision_points(name, players, options, seed=3, count=6 if level == "hard" else 25)
    assert points
    for i, (view, legal) in enumerate(points):
        first = small_hard(name, level, 1000 + i).choose(view, legal)
        again = small_hard(name, level, 1000 + i).choose(view, legal)
        assert first == again
        assert first in legal


def test_the_default_hard_counts_are_deterministic_too() -> None:
    """The default hard player's counts (not the small ones above) bound its work: a seed gives
    one move. Its wall-clock budget is lifted: that safety net cuts where the machine's load
    decides, which a slow test machine would turn into a flaky test."""

    def player() -> Player:
        hard = make_player("troika", "hard", 5)
        hard.budget = math.inf  # type: ignore[attr-defined]
        return hard

    for view, legal in decision_points("troika", 4, {}, seed=8, count=3):
        assert player().choose(view, legal) == player().choose(view, legal)


def test_a_broken_decision_falls_back_to_a_legal_move_and_says_why() -> None:
    player = make_player("troika", "normal", 1)
    legal = ["play 9h", "play ah"]
    assert player.choose({"phase": "play"}, legal) in legal  # a view with nothing in it
    assert player.failures and "KeyError" in player.failures[0]


def test_an_empty_legal_list_is_an_error() -> None:
    with pytest.raises(ValueError):
        SeededPlayer("troika", 1).choose({}, [])
