"""Troika (Kaiser) as its players read it: the contract, the hand points of each team, the
trick, the scores against the target or the rounds, the cut-off where it bites.

Words are Kaiser's: a *hand* (8 tricks), *hand points* (1 a trick, 5♥️ +5, 3♤ −3, 10 in all),
the *declarer* and his partner against the *defenders*, a *no trump* bid scoring double, the
*cut-off* (``max_non_bid``) above which defenders add no points. Every word is in the reader's
language (``bot.i18n``); the game's name, Troika (Kaiser), stays.

One module per surface it draws: ``table`` (the public table message), ``hand`` (the private
panel and the move labels), ``narration`` (one function per event kind), ``verdict`` (the end of
a hand, the scores, the score sheet, the final message), ``history`` (``/history``), ``rules``
(``/rules``); ``words`` holds the game's words they share, and ``presenter`` the ``Presenter``
that the bot finds (``bot.render.games`` imports this package, which imports it).
"""

from __future__ import annotations

from bot.render.games.troika.presenter import TroikaPresenter
from bot.render.games.troika.words import bid_words

__all__ = ["TroikaPresenter", "bid_words"]
