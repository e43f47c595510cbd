"""Troggu (Swiss Tarot, 3-8 players): what its players see.

A Troggu player looks for the contract (Tapp, Solo or Misère, who plays it, the called partner
once he is known), the card points the contract side needs (more than 57 of 114), the trick on
the table and the last one, and the scores. The end of a deal shows the contract side's card
points against 57 and 84 and every seat's payment, which players can check by hand.

One module per surface it draws: ``table`` (the public table message), ``hand`` (the private
panel and the move labels), ``narration`` (one function per event kind), ``verdict`` (the end of
a deal, the scores, the score sheet, the final message), ``history`` (``/history``), ``rules``
(``/rules``); ``words`` holds the game's words they share, and ``presenter`` the ``Presenter``
that the bot finds (``bot.render.games`` imports this package, which imports it).
"""

from __future__ import annotations

from bot.render.games.troggu.presenter import TrogguPresenter

__all__ = ["TrogguPresenter"]
