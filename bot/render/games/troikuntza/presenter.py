"""TroiKuntza's ``Presenter``: each surface's function, by the name the bot calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import N_
from bot.render.games.troikuntza import hand, history, narration, rules, table, verdict
from bot.render.presenter import Event, Picture, Presenter, Seating, Section, View


class TroiKuntzaPresenter(Presenter):
    game = "troikuntza"
    unit = N_("round")
    quiet = frozenset({"mayi_pass", "window_closed"})
    narrators = narration.NARRATORS

    def heading(self, view: View, seating: Seating) -> str:
        return table.heading(view, seating)

    def table_sections(self, view: View, seating: Seating) -> list[Section]:
        return table.table_sections(view, seating)

    def table_picture(self, view: View, seating: Seating) -> Picture | None:
        return table.table_picture(view, seating)

    def hand_sections(self, view: View, legal: Sequence[str], seating: Seating) -> list[Section]:
        return hand.hand_sections(view, legal, seating)

    def hand_picture(self, view: View, seating: Seating) -> Picture | None:
        return hand.hand_picture(view, seating)

    def action_label(self, action: str) -> str:
        return hand.action_label(action)

    def you_did(self, action: str) -> str:
        return hand.you_did(action)

    def summary(self, event: Event, seating: Seating) -> list[Section]:
        return verdict.summary(event, seating)

    def history(self, view: View, seating: Seating) -> list[Section]:
        return history.hand_history(view, seating)

    def scores(
        self, view: View | None, result: Mapping[str, Any] | None, seating: Seating
    ) -> Section:
        return verdict.scores_section(view, result, seating)

    def score_sheet(self, view: View | None, seating: Seating) -> list[Section]:
        return verdict.score_sheet(view, seating)

    def final(self, result: Mapping[str, Any], seating: Seating) -> list[Section]:
        return verdict.final(result, seating)

    def rules(self, options: Mapping[str, Any] | None = None) -> str:
        return rules.rules_text(options)
