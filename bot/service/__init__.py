"""The table service: tables, seats, moves, timers and persistence, with no Discord in it.

Usage::

    service = TableService(path, clock=time.time, ai_delay=1.5)
    service.add_listener(my_listener)          # async on_table_event(event)
    await service.start()                      # load + re-arm timers
    await service.open_table(channel, guild, user, "Ann", game, preset=None, options={})
    await service.join(channel, other, "Bob"); await service.add_ai(channel, user, "easy")
    await service.start_game(channel, user)
    await service.act(channel, user, action)  # the words of a legal action
    service.view(channel, user); service.legal_actions(channel, user)
    service.deadlines(channel)                 # {seat: epoch seconds} of awaited humans
    service.snapshot(channel)                  # the table's current TableSnapshot (below)
    service.guild_tables(guild)                # open tables, then broken ones (/admin tables)
    await service.close()

Every state of a table is one ``TableSnapshot`` (``bot.service.snapshot``: ``seq``,
``table``, ``public_view``, ``view(seat)``, ``legal(seat)``, each computed once, when first
read); every ``TableEvent`` carries the one its change left (``event.snapshot``), and so does
``ActResult``: a client subscribes with ``add_listener``. Delayed work (AI turns, deadlines,
timed windows, idle lobbies, rematch waits) is the ``Scheduler``'s (``service.scheduler``).

Errors are ``TableError`` subclasses whose message is for the player. ``service.db`` is the
``bot.storage.DatabaseBackend`` (SQLite or PostgreSQL: ``run(fn)`` / ``write(fn)`` with a
connection, ``bot.storage.connection``) for other features' tables (leaderboard). ``settle()``
waits until AI seats and due timers are done (tests). ``TableService(..., limits=Limits(...))``
bounds lobbies, openings and hard AI seats (``LimitReached`` refusals). A table that cannot be
read or whose game raises is set aside with status ``broken`` (``TableBroken`` refusal,
``TableSetAside`` event; ``close_broken`` ends it);
a move the database keeps refusing sends ``TableStalled``. ``TableService(..., local=True)``
is the terminal's: it loads only tables with negative channel ids, and the bot's service only
the others.
"""

from bot.service.errors import (
    AiSeat,
    AlreadySeated,
    BadSetting,
    CannotStart,
    IllegalMove,
    LimitReached,
    NoTable,
    NotAtTable,
    NotHost,
    NotYourTurn,
    OpeningTooFast,
    OtherShard,
    TableBroken,
    TableError,
    TableExists,
    TableFull,
    TablePaused,
    TooManyHardAis,
    TooManyLobbies,
    UnknownGame,
    WrongPhase,
)
from bot.service.limits import Limits
from bot.service.listeners import (
    AbandonVoted,
    ActionApplied,
    GameOver,
    GameStarted,
    HandEnded,
    HostChanged,
    OptionsChanged,
    PlayerAway,
    PlayerBack,
    PlayerJoined,
    PlayerKicked,
    PlayerLeft,
    RecordingListener,
    RematchConfirmed,
    SeatTaken,
    SettingsChanged,
    SpectatorJoined,
    TableAbandoned,
    TableClosed,
    TableEvent,
    TableListener,
    TableOpened,
    TableSetAside,
    TableStalled,
    TurnChanged,
)
from bot.service.models import (
    AbandonResult,
    ActionSource,
    ActResult,
    EngineEvent,
    Hint,
    Seat,
    Table,
    TableStatus,
    TableSummary,
    TableView,
    seat_label,
)
from bot.service.service import TableService
from bot.service.snapshot import StaleSnapshot, TableSnapshot

__all__ = [
    "seat_label",
    "AbandonResult",
    "AbandonVoted",
    "ActResult",
    "ActionApplied",
    "ActionSource",
    "AiSeat",
    "AlreadySeated",
    "BadSetting",
    "CannotStart",
    "EngineEvent",
    "Hint",
    "GameOver",
    "GameStarted",
    "HandEnded",
    "HostChanged",
    "IllegalMove",
    "LimitReached",
    "Limits",
    "NoTable",
    "NotAtTable",
    "NotHost",
    "NotYourTurn",
    "OpeningTooFast",
    "OtherShard",
    "OptionsChanged",
    "PlayerAway",
    "PlayerBack",
    "PlayerJoined",
    "PlayerKicked",
    "PlayerLeft",
    "RecordingListener",
    "RematchConfirmed",
    "SeatTaken",
    "SettingsChanged",
    "Seat",
    "SpectatorJoined",
    "StaleSnapshot",
    "Table",
    "TableAbandoned",
    "TableBroken",
    "TableClosed",
    "TableError",
    "TableEvent",
    "TableExists",
    "TablePaused",
    "TableFull",
    "TableListener",
    "TableOpened",
    "TableSetAside",
    "TableStalled",
    "TableService",
    "TableSnapshot",
    "TableStatus",
    "TableSummary",
    "TableView",
    "TooManyHardAis",
    "TooManyLobbies",
    "TurnChanged",
    "UnknownGame",
    "WrongPhase",
]
