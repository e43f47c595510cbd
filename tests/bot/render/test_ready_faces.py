"""The faces drawn ahead in the picture workers' fork server (``bot.render.ready_faces``): every
game declares the cards its pictures show, and they are all drawn there."""

from __future__ import annotations

import importlib

import bot.render.games  # noqa: F401 (registers the presenters)
from bot.render.games import images
from bot.render.games.cards import face
from bot.render.presenter import PRESENTERS
from bot.workers import PRELOAD
from engine import GAMES


def test_every_game_declares_the_cards_of_its_pictures() -> None:
    for game in GAMES:  # (a test's extra game may be registered too: it need not draw cards)
        presenter = PRESENTERS[game]
        assert presenter.cards, game
        unknown = [c for c in presenter.cards if face(c).family in {"unknown", "hidden"}]
        assert not unknown, (game, unknown)


def test_the_fork_server_draws_them_before_the_workers_start() -> None:
    assert "bot.render.ready_faces" in PRELOAD
    ready = importlib.import_module("bot.render.ready_faces")
    every = {code for presenter in PRESENTERS.values() for code in presenter.cards}
    assert every | {"??"} == set(ready.codes())
    images._pieces.cache_clear()
    images.draw_ahead(ready.codes())
    drawn = images._pieces.cache_info()
    for code in ready.codes():
        images._pieces(code, images.HAND_W, "two", ())
        images._pieces(code, images.CARD_W, "two", ())
    assert images._pieces.cache_info().misses == drawn.misses  # all there already
