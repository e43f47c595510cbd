"""troika's presenter (being split by surface)."""

from __future__ import annotations

from bot.render.games.troika.verdict import TroikaPresenter, bid_words

__all__ = ["TroikaPresenter", "bid_words"]
