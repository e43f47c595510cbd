"""Trinket's public table message: the trick on the table and the points so far."""

from __future__ import annotations

from bot.i18n import _
from bot.render.games.cards import pretty
from bot.render.games.trinket.verdict import scores_section
from bot.render.presenter import Seating, Section, View


def heading(view: View, seating: Seating) -> str:
    return _("trinket {n} of 4", n=int(view.get("tricks", 0)) + 1)


def table_sections(view: View, seating: Seating) -> list[Section]:
    played = " · ".join(
        f"{seating.name(p['seat'])} {pretty(str(p['card']))}" for p in view.get("trick") or []
    )
    return [Section(_("On the trinket table"), played or "—"), scores_section(view, None, seating)]
