"""troggu's presenter (being split by surface)."""

from __future__ import annotations

from bot.render.games.troggu.table import TrogguPresenter

__all__ = ["TrogguPresenter"]
