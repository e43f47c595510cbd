"""TroiKuntza (contract rummy with May I, 3-10 players): what its players see.

A TroiKuntza player looks for the round's contract, the melds on the table with the numbers
``/layoff`` uses (grouped by who laid them down), every player's card count and May I's left,
the top of the discard pile, and the May I window while it is open. A game has seven
*rounds* (never "hands"); the end of each shows every player's cards left and their points.

One module per surface it draws: ``table`` (the public table message), ``hand`` (the private
panel and the move labels), ``narration`` (one function per event kind), ``verdict`` (the end of
a round, the scores, the score sheet, the final message), ``history`` (``/history``), ``rules``
(``/rules``); ``words`` holds the game's words they share, and ``presenter`` the ``Presenter``
that the bot finds (``bot.render.games`` imports this package, which imports it).
"""

from __future__ import annotations

from bot.render.games.troikuntza.presenter import TroiKuntzaPresenter

__all__ = ["TroiKuntzaPresenter"]
