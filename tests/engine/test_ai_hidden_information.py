"""An AI cannot see hidden information: it decides from ``view(seat)`` and the legal list only.

Proof by construction: at many decision points, the cards the seat cannot see (the other hands,
the kitty, the Tapp, the stock, face-down cards) are shuffled among their hidden places. The
seat's view stays exactly the same, and every level (``hard`` included, it samples hidden cards
itself) must make exactly the same move in both worlds, and a legal one.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from test_ai_legal import small_hard

import engine
from engine.ai import make_player
from engine.troika.ai.hard import TroikaHard


def hidden_zones(game: engine.Game, seat: int) -> list[list[Any]]:
    """The state lists holding cards ``seat`` cannot see (for the phases the test uses)."""
    st = game.state
    zones: list[list[Any]] = []
    if game.name in ("troika", "troggu", "troikuntza"):
        zones += [h for s, h in enumerate(st["hands"]) if s != seat]
    if game.name == "troika":
        zones.append(st["kitty"])
    if game.name == "troggu":
        zones.append(st["tapp"])
    if game.name == "troikuntza":
        zones.append(st["stock"])
    if game.name == "troeven":
        if "down" in st:
            zones += st["down"]
        else:
            zones += [st["hands"][1 - seat], st["stock"]]
    return zones


def shuffle_hidden(game: engine.Game, seat: int, rng: random.Random) -> engine.Game:
    """A copy of ``game`` with the hidden cards dealt differently into the same places."""
    other = engine.load(game.to_json())
    zones = hidden_zones(other, seat)
    cards = [c for zone in zones for c in zone if not (isinstance(c, int) and c < 0)]
    rng.shuffle(cards)
    it = iter(cards)
    for zone in zones:
        for i, c in enumerate(zone):
            if not (isinstance(c, int) and c < 0):  # keep Troeven's empty slots empty
                zone[i] = next(it)
        if game.name in ("troika", "troggu"):
            zone.sort()
    return other


SETUPS = [
    ("troika", 4, {}),
    ("troika", 4, {"kitty": True}),
    ("troeven", 2, {"version": "layout"}),
    ("troeven", 2, {"version": "stock"}),
    ("troggu", 4, {}),
    ("troggu", 8, {}),
    ("troikuntza", 5, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), SETUPS)
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_move_does_not_depend_on_hidden_cards(
    name: str, players: int, options: dict[str, Any], level: str
) -> None:
    rng = random.Random(11)
    game = engine.new_game(name, players, options=options, seed=21)
    checked = differed = 0
    moves = 0
    while not game.is_over() and checked < 12 and moves < 1500:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        if len(legal) > 1 and moves % 4 == 0:
            twin = shuffle_hidden(game, seat, rng)
            differed += twin.state != game.state
            view = game.view(seat)
            assert twin.view(seat) == view, "the shuffle must not change what the seat sees"
            assert twin.legal_actions(seat) == legal
            mine = small_hard(name, level, moves).choose(view, legal)
            theirs = small_hard(name, level, moves).choose(twin.view(seat), legal)
            assert mine == theirs
            assert mine in legal
            checked += 1
        game.apply(seat, make_player(name, "normal", moves).choose(game.view(seat), legal))
        moves += 1
    assert checked > 0
    assert differed > 0, "the hidden cards were never dealt differently"


@pytest.mark.parametrize("options", [{}, {"kitty": True}])
def test_troika_hard_endgame_search_sees_no_hidden_card(options: dict[str, Any]) -> None:
    """The double-dummy phase (six tricks left or fewer) deals the hidden cards itself too."""
    rng = random.Random(5)
    game = engine.new_game("troika", 4, options=options, seed=9)
    checked = moves = 0
    while not game.is_over() and checked < 10 and moves < 600:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        late = view["phase"] == "play" and len(view["hand"]) <= 6
        if late and len(legal) > 1:
            twin = shuffle_hidden(game, seat, rng)
            assert twin.view(seat) == view
            mine = TroikaHard(moves, exact_samples=4, budget=math.inf).choose(view, legal)
            theirs = TroikaHard(moves, exact_samples=4, budget=math.inf).choose(
                twin.view(seat), legal
            )
            assert mine == theirs
            assert mine in legal
            checked += 1
        game.apply(seat, make_player("troika", "normal", moves).choose(view, legal))
        moves += 1
    assert checked >= 5
