"""2-Player Troeven: ``/history``, privately: what was played in this hand so far and how the
previous one ended."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import _
from bot.render.games._tricks import history_sections
from bot.render.games._words import within_limits
from bot.render.games.cards import pretty_suit
from bot.render.games.troeven.verdict import summary
from bot.render.games.troeven.words import card_points
from bot.render.presenter import Seating, Section, View


def hand_history(view: View, seating: Seating) -> list[Section]:
    """This deal's tricks (who led, the cards, who took it, its card points) and how the
    previous deal ended."""
    sections = []
    if view.get("trump"):
        sections.append(Section(_("Trumps"), pretty_suit(str(view["trump"]))))
    sections += history_sections(view, seating, card_points)
    last = view.get("last_hand")
    if isinstance(last, Mapping):
        event = {"type": "hand_over", "seat": last.get("winner"), **last}
        sections += summary(event, seating)
    return within_limits(sections)
