"""Troggu's ``Presenter``: its surfaces, each a module."""

from __future__ import annotations

from bot.i18n import N_
from bot.render.games.troggu import hand, history, narration, rules, table, verdict
from bot.render.presenter import Presenter
from engine.troggu.cards import CODES


class TrogguPresenter(Presenter):
    game = "troggu"
    unit = N_("deal")
    cards = CODES
    quiet = frozenset()
    narrators = narration.NARRATORS
    surfaces = (table, hand, verdict, history, rules)
