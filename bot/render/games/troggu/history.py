"""Troggu: ``/history``, privately: what was played in this hand so far and how the
previous one ended."""

from __future__ import annotations

from collections.abc import Mapping

from bot.render.games._tricks import history_sections
from bot.render.games._words import points, within_limits
from bot.render.games.troggu.verdict import summary
from bot.render.games.troggu.words import card_points
from bot.render.presenter import Seating, Section, View


def hand_history(view: View, seating: Seating) -> list[Section]:
    """This deal's tricks (who led, the cards, who took it, its card points) and how the
    previous deal ended."""
    sections = history_sections(view, seating, lambda played: points(card_points(played)))
    last = view.get("last_hand")
    if isinstance(last, Mapping):
        sections += summary({"type": "hand_over", **last}, seating)
    return within_limits(sections)
