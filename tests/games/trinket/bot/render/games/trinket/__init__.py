"""Trinket as its players read it, laid out as every game's presenter package: ``table`` (the
public table message), ``hand`` (the private panel), ``narration`` (one function per event
kind), ``verdict`` (the scores and the end), ``rules`` (``/rules``) and ``presenter`` (the
``Presenter`` the bot finds once this folder is on ``bot.render.games.__path__``). Its strings
are in its own catalog, ``locale/``.
"""

from __future__ import annotations

from bot.render.games.trinket.presenter import TrinketPresenter

__all__ = ["TrinketPresenter"]
