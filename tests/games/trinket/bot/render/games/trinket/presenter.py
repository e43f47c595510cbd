"""Trinket's ``Presenter``: each surface's function, by the name the bot calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.render.games.trinket import hand, narration, table, verdict
from bot.render.games.trinket.rules import rules_text
from bot.render.presenter import Event, Presenter, Seating, Section, View


class TrinketPresenter(Presenter):
    game = "trinket"
    quiet: ClassVar[frozenset[str]] = frozenset({"hand_over", "game_over"})
    narrators = narration.NARRATORS

    def rules(self, options: Mapping[str, Any] | None = None) -> str:
        return rules_text(options)

    def heading(self, view: View, seating: Seating) -> str:
        return table.heading(view, seating)

    def table_sections(self, view: View, seating: Seating) -> list[Section]:
        return table.table_sections(view, seating)

    def hand_sections(
        self,
        view: View,
        legal: Sequence[str],
        seating: Seating,
        hidden: frozenset[str] = frozenset(),
    ) -> list[Section]:
        return hand.hand_sections(view, legal, seating)  # (no section it could leave out)

    def summary(self, event: Event, seating: Seating) -> list[Section]:
        return verdict.summary(event, seating)

    def scores(
        self, view: View | None, result: Mapping[str, Any] | None, seating: Seating
    ) -> Section:
        return verdict.scores_section(view, result, seating)
