"""Trinket's private panel: the reader's cards."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _
from bot.render.games.cards import pretty_list
from bot.render.presenter import Seating, Section, View


def hand_sections(view: View, legal: Sequence[str], seating: Seating) -> list[Section]:
    return [Section(_("Your trinkets"), pretty_list([str(c) for c in view.get("hand") or []]))]
