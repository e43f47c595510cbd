"""Troika (Kaiser): ``/history``, privately: what was played in this hand so far and how the
previous one ended."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import _
from bot.render.games._tricks import history_sections
from bot.render.games._words import within_limits
from bot.render.games.troika.table import contract_section
from bot.render.games.troika.verdict import sheet_header, sheet_row
from bot.render.games.troika.words import trick_value
from bot.render.presenter import Seating, Section, View


def hand_history(view: View, seating: Seating) -> list[Section]:
    """The contract, this hand's tricks (who led, the cards, who took it, its hand points)
    and the previous hand's row of the score sheet."""
    sections = []
    if view.get("contract") or view.get("bids"):
        sections.append(contract_section(view, seating))
    sections += history_sections(view, seating, trick_value)
    rows = [r for r in view.get("history") or [] if isinstance(r, Mapping)]
    if rows:
        text = f"{sheet_header(seating)}\n{sheet_row(rows[-1], seating)}"
        sections.append(Section(_("Previous hand"), text))
    return within_limits(sections)
