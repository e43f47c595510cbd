"""2-Player Troeven's ``Presenter``: its surfaces, each a module."""

from __future__ import annotations

from typing import ClassVar

from bot.i18n import N_
from bot.render.games.troeven import hand, history, narration, rules, table, verdict
from bot.render.presenter import Presenter
from engine.troeven.cards import CODE


class TroevenPresenter(Presenter):
    game = "troeven"
    unit = N_("deal")
    cards = CODE
    quiet: ClassVar[frozenset[str]] = frozenset({"deal_complete"})
    narrators = narration.NARRATORS
    surfaces = (table, hand, verdict, history, rules)
