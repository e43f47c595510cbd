"""TroiKuntza's ``Presenter``: its surfaces, each a module."""

from __future__ import annotations

from bot.i18n import N_
from bot.render.games.troikuntza import hand, history, narration, rules, table, verdict
from bot.render.presenter import Presenter
from engine.troikuntza.cards import full_deck


class TroiKuntzaPresenter(Presenter):
    game = "troikuntza"
    unit = N_("round")
    cards = tuple(dict.fromkeys(full_deck(1)))
    quiet = frozenset({"mayi_pass", "window_closed"})
    narrators = narration.NARRATORS
    surfaces = (table, hand, verdict, history, rules)
