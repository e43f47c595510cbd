"""Trinket's scores: tricks taken by each seat (the final message is the shared one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import _
from bot.render.presenter import Event, Seating, Section, View


def _line(scores: Sequence[int], seating: Seating) -> str:
    return " · ".join(f"{seating.name(s)} {v}" for s, v in enumerate(scores))


def summary(event: Event, seating: Seating) -> list[Section]:
    return [Section(_("Trinkets taken"), _line(event.get("scores") or [], seating))]


def scores_section(
    view: View | None, result: Mapping[str, Any] | None, seating: Seating
) -> Section:
    scores = (view or result or {}).get("scores") or []
    return Section(_("Trinkets taken"), _line(scores, seating))
