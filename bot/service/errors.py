"""Errors the table service raises. Each message is written for the player who caused it.

Every operation that raises leaves the table (in memory and on disk) exactly as it was.
Clients catch ``TableError`` and show ``str(error)`` to the user (ephemeral in Discord). The
messages are written in the current language when raised: inside the user's interaction, his.
"""

from __future__ import annotations

from bot.i18n import N_, _


class TableError(Exception):
    """Base class: a request the service refused; ``str(error)`` is the player-facing reason."""


class UnknownGame(TableError):
    """No such game, preset or option value (the engine's message says which exist)."""


class NoTable(TableError):
    """There is no open table (lobby or playing) in this channel."""

    MESSAGE = N_("There is no table here. Open one first.")

    def __init__(self, message: str | None = None) -> None:
        super().__init__(_(self.MESSAGE) if message is None else message)


class TableExists(TableError):
    """This channel already has a table in the lobby or in play."""


class NotAtTable(TableError):
    """The user holds no seat at this table."""


class AlreadySeated(TableError):
    """The user already holds a seat at this table (one seat per user)."""


class TableFull(TableError):
    """No free seat left (or the requested seat / team is taken)."""


class NotHost(TableError):
    """Only the host may do this."""


class WrongPhase(TableError):
    """Not possible now: e.g. options changed after the start, acting in the lobby."""


class CannotStart(TableError):
    """The number of seated players does not fit the game (with its options)."""


class NotYourTurn(TableError):
    """The user's seat is not awaited now."""


class AiSeat(TableError):
    """The seat is played by the AI (a human cannot act for it)."""


class IllegalMove(TableError):
    """The engine refused the action; the message is the engine's reason."""


class TableBroken(TableError):
    """The table's stored game is damaged: it was set aside (``/admin end`` closes it)."""

    MESSAGE = N_(
        "This table's saved game is damaged and was set aside; a server admin can close it with"
        " `/admin end`, and a new table can be opened here."
    )

    def __init__(self, message: str | None = None) -> None:
        super().__init__(_(self.MESSAGE) if message is None else message)


class OtherShard(TableError):
    """The server is served by another process of the bot (another shard range); this one
    never opens a table there (Discord sends that server's commands to the other process)."""

    MESSAGE = N_(
        "This server's tables are kept by another process of the bot; try again in a moment."
    )

    def __init__(self, message: str | None = None) -> None:
        super().__init__(_(self.MESSAGE) if message is None else message)


class TablePaused(TableError):
    """The database cannot store changes now (a full disk, a read-only or locked file): the
    change was not made. The player reads what the players of a table whose AI moves wait read
    (``TableStalled``), never the database's own words (those are logged)."""

    MESSAGE = N_(
        "The table is paused: its moves can't be saved right now, so nothing changed. Try again"
        " in a moment; if this lasts, ask a server admin (`/admin tables`)."
    )

    def __init__(self, message: str | None = None) -> None:
        super().__init__(_(self.MESSAGE) if message is None else message)


class LimitReached(TableError):
    """A limit of ``bot.service.limits.Limits`` refused the request (nothing changed)."""


class TooManyLobbies(LimitReached):
    """The user, or the server, has as many lobbies open as allowed."""


class OpeningTooFast(LimitReached):
    """The user opened a table moments ago."""


class TooManyHardAis(LimitReached):
    """The server has as many costly AI seats as allowed."""


class BadSetting(TableError):
    """A table setting the service does not know, or a value out of its range."""


#: What a damaged game state raises when used (the engine's own refusals are IllegalAction).
GAME_FAULTS: tuple[type[Exception], ...] = (
    KeyError,
    IndexError,
    TypeError,
    ValueError,
    AttributeError,
    AssertionError,
)
