"""Game records: a finished game as one JSON document anyone can replay (``/export``), and the
server's recent finished games (``/games``).

A record holds the game, its options, its seats, its seed, every action and the result
(``docs/records.md`` is its schema). ``replay`` plays a record's actions on the game its seed
deals and checks that it ends where the record says: the same record always gives the same
events. Only finished games have records, and only in their own server.
"""

from bot.records.record import FORMAT, VERSION, RecordError, build, replay
from bot.records.store import GameSummary, finished_game, recent_games

__all__ = [
    "FORMAT",
    "VERSION",
    "GameSummary",
    "RecordError",
    "build",
    "finished_game",
    "recent_games",
    "replay",
]
