"""Troika (Kaiser)'s ``Presenter``: its surfaces, each a module."""

from __future__ import annotations

from typing import ClassVar

from bot.render.games.troika import hand, history, narration, rules, table, verdict
from bot.render.presenter import Presenter
from engine.troika.cards import CODES


class TroikaPresenter(Presenter):
    game = "troika"
    cards = CODES
    quiet: ClassVar[frozenset[str]] = frozenset()
    narrators = narration.NARRATORS
    surfaces = (table, hand, verdict, history, rules)
