"""TroiKuntza's ``Presenter``: its surfaces, each a module."""

from __future__ import annotations

from bot.i18n import N_
from bot.render.games.troikuntza import hand, history, narration, rules, table, verdict
from bot.render.presenter import Presenter


class TroiKuntzaPresenter(Presenter):
    game = "troikuntza"
    unit = N_("round")
    quiet = frozenset({"mayi_pass", "window_closed"})
    narrators = narration.NARRATORS
    surfaces = (table, hand, verdict, history, rules)
