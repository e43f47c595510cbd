"""Each player's card colours in his own hand pictures (``/deck``).

``two`` (the default: hearts and diamonds red, spades and clubs black) or ``four`` (diamonds
blue and clubs green too, so that no two suits share a colour; other suits each get their
own). Only the player's private pictures use his choice: the public table message keeps the
default for everyone. The choices are kept in memory (read once at start-up, like the servers'
languages) because a live panel is redrawn outside any interaction, between two edits, and must
not wait for the database. A player who keeps the default has no row.
"""

from __future__ import annotations

from bot.storage.connection import Connection
from bot.storage.group_commit import DatabaseBackend

DECKS = ("two", "four")
DEFAULT_DECK = "two"


def chosen_decks(conn: Connection) -> dict[int, str]:
    rows = conn.execute("SELECT user_id, deck FROM player_settings").fetchall()
    return {int(user): str(deck) for user, deck in rows if deck in DECKS}


def store_deck(conn: Connection, user_id: int, deck: str) -> None:
    if deck == DEFAULT_DECK:
        conn.execute("DELETE FROM player_settings WHERE user_id = ?", (user_id,))
        return
    conn.execute(
        "INSERT INTO player_settings (user_id, deck) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET deck = excluded.deck",
        (user_id, deck),
    )


class PlayerDecks:
    """The players' chosen decks, read from and written to the bot's database."""

    def __init__(self) -> None:
        self._chosen: dict[int, str] = {}

    async def load(self, db: DatabaseBackend) -> None:
        """Read every player's choice (at start-up, once the database is open)."""
        self._chosen = await db.run(chosen_decks)

    def of(self, user_id: int) -> str:
        return self._chosen.get(user_id, DEFAULT_DECK)

    async def choose(self, db: DatabaseBackend, user_id: int, deck: str) -> None:
        if deck not in DECKS:
            raise ValueError(f"unknown deck {deck!r}")
        await db.write(lambda conn: store_deck(conn, user_id, deck))
        if deck == DEFAULT_DECK:
            self._chosen.pop(user_id, None)
        else:
            self._chosen[user_id] = deck
