"""Troika Table's rules: four card games as pure, deterministic state machines.

No Discord, asyncio, SQL or I/O lives here. Entry points::

    game = engine.new_game("troika", 4, options={"min_bid": 7}, seed=1)
    game.to_act(); game.legal_actions(seat); game.apply(seat, "bid 7 no")
    game.view(seat); game.view(None); engine.load(game.to_json())

Every game is a package with the same file roles: ``cards`` (its deck and card codes), ``spec``
(options, presets, player range), ``summary`` (the readable rules for ``/rules``), ``tricks`` or
``melds`` (the rules of play the AI shares), ``game`` (the ``<Name>Game`` state machine),
``views`` (the ``<Name>View`` TypedDict documenting every view key, on ``engine.views``),
``events`` (a ``TypedDict`` per kind of event, in ``EVENTS``), ``refusals`` (its refusal
templates) and ``ai/`` (its AI players). Its ``__init__`` sets ``GAME_CLASS`` (``engine.registry``
finds it) and registers its refusals (``engine.messages.add_templates``; ``add_words`` for the
words of its values) and its AI players (``engine.ai.register_players``). The shared modules
(``engine/*.py``, ``engine/ai/``) name no game. ``tests/engine/test_contract.py`` checks every
game in ``GAMES`` against the ``Game`` contract. A move or option the rules refuse raises
``IllegalAction``: a key of ``engine.messages.TEMPLATES`` and its params, English by default.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine import messages
from engine.cards import SUIT_NAMES
from engine.errors import IllegalAction
from engine.game import SNAPSHOT_VERSION, Event, Game, TimedWindow, View, normalize_action
from engine.options import GameSpec, Option
from engine.registry import CLASSES, GAMES, register, unregister
from engine.verbs import Arg, Verb

__all__ = [
    "GAMES",
    "Arg",
    "TimedWindow",
    "Verb",
    "register",
    "unregister",
    "SNAPSHOT_VERSION",
    "Event",
    "Game",
    "GameSpec",
    "IllegalAction",
    "Option",
    "View",
    "load",
    "new_game",
    "normalize_action",
]

# The French suits are shared by three games: their words belong to no game's package.
messages.add_words("suit", SUIT_NAMES)


def _game_class(name: str) -> type[Game]:
    key = name.strip().lower()
    if key not in CLASSES:
        raise IllegalAction("game.unknown", text=name, games=list(CLASSES))
    return CLASSES[key]


def new_game(
    name: str,
    players: int,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    deck: list[str] | None = None,
    preset: str | None = None,
) -> Game:
    """Start a game. ``options`` override the preset, which overrides the defaults.

    Without a seed one is drawn and stored, so the game is still replayable.
    ``deck`` stacks the first deal (card codes, dealt one at a time from the player after the
    dealer); later deals are shuffled from the seed.
    """
    cls = _game_class(name)
    resolved = cls.spec.resolve(preset, options)
    cls.spec.check_players(players, resolved)
    if seed is None:
        seed = random.SystemRandom().randrange(2**53)
    return cls.new(players, resolved, int(seed), deck)


def load(text: str) -> Game:
    """The game ``Game.to_json()`` wrote."""
    data = json.loads(text)
    if data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"snapshot version {data.get('version')} is not {SNAPSHOT_VERSION}")
    return _game_class(data["game"]).from_state(data["state"])
