"""troikuntza's presenter (being split by surface)."""

from __future__ import annotations

from bot.render.games.troikuntza.narration import TroiKuntzaPresenter

__all__ = ["TroiKuntzaPresenter"]
