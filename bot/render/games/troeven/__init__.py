"""troeven's presenter (being split by surface)."""

from __future__ import annotations

from bot.render.games.troeven.verdict import TroevenPresenter

__all__ = ["TroevenPresenter"]
