"""The table service: every table operation, persisted, serialized per table, with turn timers.

Clients (the Discord cogs, the terminal table, tests) call these coroutines with plain ids and
names, catch ``TableError`` (player-facing message), and render ``TableEvent``s from listeners.

How it holds together:
- One asyncio lock per channel serializes every change of that channel's table; tables of other
  channels never wait for it. A change is validated, then written (``Database.write``, group
  commit), and only then applied to the live record and acknowledged; if the write fails the
  live record (and the game, from its last committed snapshot) is put back.
- Games stay in memory. Each action appends one action-log row and updates the table's move
  number (the write guard); the game's snapshot is written only every ``SNAPSHOT_EVERY`` moves,
  at a hand's end and at the game's start and end. Loading a table (start-up) and undoing a
  failed commit replay the logged actions after the snapshot on it (games are deterministic).
  An ended game's actions are compacted into one compressed row (``bot.storage.action_log``).
- Listeners get a table's events in commit order (a second lock hands the turn over before the
  channel lock is released), and ``act`` returns once its events were delivered.
- Every delayed job (AI turns, move deadlines, timed windows, idle lobbies, rematch waits) is
  owned by one ``Scheduler`` (scheduler.py), which fires it back through ``fire``.
- Every state of a table is one ``TableSnapshot`` (snapshot.py): its views and legal moves,
  computed once and read by every listener, the acting player's reply and the AI.
- One table never takes the others down: a stored table that cannot be read, or whose game
  raises when used, is set aside with status ``broken`` and its reason (its channel is free;
  ``guild_tables`` lists it and ``close_broken`` closes it), and the command that met it gets a
  ``TableBroken`` refusal.
- ``Limits`` (limits.py) bound the lobbies a user or a server holds, how fast a user opens
  tables, and the costly AI seats of a server; a lobby left idle is closed.

The parts, each a module by its job, assembled here (``TableService`` is their composition and
holds the life cycle: start, close, loading the stored tables):
- ``core.py`` (``ServiceCore``): the shared state, reading tables, locks, events, commits, and
  damaged tables set aside; every part builds on it and on nothing else's private members;
- ``lobby.py``: lobbies and seats; ``flow.py`` (on the lobby): hints, invitations, rematches;
- ``endings.py``: leaving, kicking, abandoning, an admin's end, the end of a table;
- ``play.py``: the move pipeline; ``jobs.py``: the scheduler's jobs (the moves nobody types,
  idle lobbies, rematch waits, turn digests); ``digests.py``: a player's tables and the
  direct message that tells him his turns (``/notify``).

Choices where the brief is silent:
- Leaving during play, or being kicked, hands the seat to the AI (level of timed-out moves);
  when no human is left playing the game is abandoned.
- Abandon: the host at once; anyone else seated casts a vote, and a strict majority of the
  humans still playing abandons. An abandoned game in play is recorded (no winners); a lobby
  is just closed.
- The host leaving the lobby passes the host role to the next human seat; the last human
  leaving closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine
from bot.service.broken import BrokenTables, reason_of
from bot.service.core import Clock, Sleep, _ChannelLock
from bot.service.digests import DigestsMixin
from bot.service.driver import Driver
from bot.service.endings import EndingsMixin
from bot.service.errors import (
    TableError,
)
from bot.service.finished import FinishedGame
from bot.service.flow import FlowMixin
from bot.service.gc_tuning import tune_gc
from bot.service.jobs import JobsMixin
from bot.service.limits import Limits, Quotas
from bot.service.listeners import (
    Listeners,
)
from bot.service.models import (
    TableStatus,
)
from bot.service.play import SNAPSHOT_EVERY, PlayMixin
from bot.service.scheduler import Scheduler
from bot.service.switch_interval import tune_switch_interval
from bot.service.tables import LiveTable, TableRecord, probe
from bot.shards import Shards
from bot.storage import repository as repo
from bot.storage.backends import database_for
from bot.storage.shard_locks import ShardLocks

log = logging.getLogger(__name__)


class TableService(JobsMixin, PlayMixin, EndingsMixin, FlowMixin, DigestsMixin):
    """One active table per channel id; games in memory, every change committed to the
    database (``database``: a SQLite file's path, or a ``postgresql://`` URL).

    ``clock`` gives the wall-clock now in epoch seconds (stored deadlines); timers wait with
    ``sleep`` (default ``asyncio.sleep``, which SimCord virtualises). ``ai_delay`` is the pause
    before an AI seat moves (0 in tests). ``local``: a terminal session (negative channel ids).
    ``ai_thread_levels``: AI levels that think in the AI's process pool (the slow ones; they are
    also the "hard AI" of ``limits``). ``limits``: see ``Limits`` (defaults there).
    ``shards``: the Discord shards this process runs (default: all); it loads and opens only
    the tables of their servers, so processes with other shard ranges share the database.
    """

    def __init__(
        self,
        database: Path | str,
        *,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        ai_delay: float = 0.0,
        local: bool = False,
        ai_thread_levels: frozenset[str] = frozenset({"hard"}),
        limits: Limits | None = None,
        shards: Shards | None = None,
        hold_shards: bool = False,
    ) -> None:
        self.db = database_for(database)
        self.shards = shards if shards is not None else Shards()
        #: With ``hold_shards`` (the bot's process: ``from_settings``), on PostgreSQL, this
        #: process's hold on its shards: taken at start, before any table is loaded, and
        #: watched; ``on_shards_lost`` hears of a lost hold. None: no hold (SQLite's instance
        #: lock serves one process; tests build services sharing a database on purpose).
        self.shard_locks = (
            ShardLocks(database, self.shards.count, self.shards.ids, on_lost=self._shards_lost)
            if hold_shards
            else None
        )
        self.on_shards_lost: Callable[[str], Any] | None = None
        #: Terminal tables use negative channel ids; a service loads either those (``local``)
        #: or the Discord ones, so the bot and a terminal session never drive the same table.
        self.local = local
        #: AI levels whose decisions run in a process pool (50-150 ms each; see driver.py).
        self.ai_thread_levels = ai_thread_levels
        self.limits = limits if limits is not None else Limits()
        self.clock = clock
        self.sleep = sleep
        self.ai_delay = ai_delay
        #: The AI's decisions (and its process pool) for the moves nobody types.
        self.driver = Driver(ai_thread_levels)
        #: Every delayed job: AI turns, deadlines, timed windows, idle lobbies, rematch waits.
        self.scheduler = Scheduler(clock, sleep)
        self._listeners = Listeners()
        self._tables: dict[int, LiveTable] = {}
        #: Tables set aside (status broken) until an admin closes them.
        self.broken = BrokenTables()
        self._locks: dict[int, _ChannelLock] = {}
        self.quotas = Quotas(self.limits)
        #: Each channel's last finished game (a rematch plays it again; after a restart it is
        #: read back from the database).
        self._finished: dict[int, FinishedGame] = {}
        #: Checks of games that raised on a read (``_fault_soon``).
        self._checks: set[asyncio.Task[None]] = set()
        #: Each player's notification choices (``/notify``; loaded at start) and the Discord
        #: side's way to send a turn digest (see digests.py).
        self.notify_prefs = {}
        self.digest_sender = None
        self.acted_at = {}

    @classmethod
    def from_settings(cls, settings: Any, *, clock: Clock = time.time) -> TableService:
        """A service on ``settings.database`` (DATABASE_URL, else the SQLite file) with
        ``settings.ai_delay``, serving the servers of ``settings.shards``."""
        return cls(
            settings.database,
            clock=clock,
            ai_delay=settings.ai_delay,
            shards=settings.shards,
            hold_shards=True,
        )

    async def start(self) -> None:
        """Open the database (migrating it), load every table in lobby or play of our shards'
        servers (the others belong to other processes: never touched here), re-arm timers
        (a deadline that passed while down fires at once) and let AI seats carry on.

        A table that cannot be read or whose game raises when used is set aside (status
        ``broken``, logged once with its reason): it never keeps the others from starting."""
        await self.db.open()
        if self.shard_locks is not None:
            try:  # another process serving one of our shards: refuse to start (ShardLockError)
                await self.shard_locks.acquire()
            except BaseException:
                await self.db.close()
                raise
            if self.shard_locks.held:
                self.shard_locks.watch()
        await self.load_notify_prefs()
        statuses = (TableStatus.LOBBY, TableStatus.PLAYING, TableStatus.BROKEN)
        rows = await self.db.run(lambda c: repo.load_tables(c, [s.value for s in statuses]))
        now = self.clock()
        for row in rows:
            channel = row.columns.get("channel_id")
            if not isinstance(channel, int) or (channel < 0) != self.local:
                continue
            if not self.shards.owns(row.columns.get("guild_id")):
                continue
            if row.columns.get("status") == TableStatus.BROKEN.value:
                self.broken.add_row(row, row.columns.get("broken_reason"))
                continue
            try:
                table = self._load(row, now)
            except Exception as exc:  # one unreadable table must not keep the bot down
                await self._set_aside_row(row, reason_of(exc))
                continue
            self._tables[table.channel_id] = table
        # The loaded games leave the collector's scans (see gc_tuning: GC pauses made the p99).
        tune_gc()
        # The loop's thread gets the GIL back quickly from the worker threads.
        tune_switch_interval()
        self.scheduler.start(self)
        for table in self._tables.values():
            if table.status is TableStatus.PLAYING:
                self.wake(table)
            elif table.status is TableStatus.LOBBY:
                self.arm_idle(table)
                if "rematch_of" in table.settings:
                    self.arm_rematch(table)
        self.arm_pending_digests()

    async def close(self) -> None:
        """Cancel timers and AI tasks, wait for pending commits, close the database."""
        for check in list(self._checks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await check
        await self.scheduler.stop()
        await self.driver.stop()
        await self.db.close()
        if self.shard_locks is not None:
            await self.shard_locks.release()
        self._tables.clear()

    def _shards_lost(self, reason: str) -> None:
        """The shard locks' connection is gone: another process may hold our shards now. The
        write guard refuses any write over its moves meanwhile; the application stops."""
        log.critical("lost the hold on %s (%s): stopping", self.shards, reason)
        if self.on_shards_lost is not None:
            self.on_shards_lost(reason)

    async def settle(self) -> None:
        """Wait until no AI move or due timeout is pending: every table waits for a human (or
        for a deadline still in the future). For tests, and the terminal between turns."""
        await self.scheduler.settle()

    def _load(self, row: repo.StoredTable, now: float) -> LiveTable:
        """The live table of a stored row; raises (with the reason) if it cannot be used."""
        table = LiveTable(**TableRecord.decode(row), active_at=now)
        if table.status is TableStatus.PLAYING:
            if table.snapshot is None:
                raise ValueError("a table in play has no snapshot")
            if table.snapshot_move > table.move_number:  # it would load as the current game
                raise ValueError(
                    f"the snapshot (move {table.snapshot_move}) is ahead of the table's move "
                    f"number {table.move_number}"
                )
            game = engine.load(table.snapshot)
            # The moves logged after the snapshot, replayed (see SNAPSHOT_EVERY): exactly
            # those up to the move number, none missing and none beyond it.
            numbers = [a.move_number for a in row.tail]
            if numbers != list(range(table.snapshot_move + 1, table.move_number + 1)):
                raise ValueError(
                    f"the action log does not hold exactly the moves between the snapshot (move "
                    f"{table.snapshot_move}) and move {table.move_number} (it holds "
                    f"{len(numbers)} move(s) after the snapshot)"
                )
            # Every player of the game has a seat: a missing one stalls once it is awaited.
            if sorted(table.seats) != list(range(game.players)):
                raise ValueError(
                    f"the seats {sorted(table.seats)} do not cover the game's "
                    f"{game.players} players"
                )
            for logged in row.tail:
                game.apply(logged.seat, logged.action)
            table.since_snapshot = [(a.move_number, a.seat, a.action) for a in row.tail]
            probe(game, list(table.seats))
            table.game = game
        table.public()
        return table

    async def _set_aside_row(self, row: repo.StoredTable, reason: str) -> None:
        """At start-up: store that the row is broken (if the database lets us) and list it."""
        columns = row.columns
        log.error(
            "table %s (channel %s) is set aside as broken: %s",
            row.id,
            columns.get("channel_id"),
            reason,
        )
        marked = {"status": TableStatus.BROKEN.value, "broken_reason": reason}
        try:
            await self._commit(lambda conn: repo.update_table(conn, row.id, marked))
        except Exception:  # listed all the same; its channel stays taken in the database
            log.exception("table %s could not be marked broken", row.id)
        self.broken.add_row(row, reason)


__all__ = ["SNAPSHOT_EVERY", "TableError", "TableService"]
