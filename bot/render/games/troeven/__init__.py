"""2-Player Troeven as its players read it: both layouts (face-up cards, how many face-down
under them) or the stock, the trump, the card points of the deal (40 in all, more than 20
wins), and the scores counting down from 7, first to 0. Every word is in the reader's language
(``bot.i18n``); the game's name, Troeven, stays.

One module per surface it draws: ``table`` (the public table message), ``hand`` (the private
panel and the move labels), ``narration`` (one function per event kind), ``verdict`` (the end of
a deal, the scores, the score sheet, the final message), ``history`` (``/history``), ``rules``
(``/rules``); ``words`` holds the game's words they share, and ``presenter`` the ``Presenter``
that the bot finds (``bot.render.games`` imports this package, which imports it).
"""

from __future__ import annotations

from bot.render.games.troeven.presenter import TroevenPresenter

__all__ = ["TroevenPresenter"]
