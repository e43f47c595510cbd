"""The table service's common ground (``ServiceCore``): its shared state, reading tables and
their snapshots, the channel locks, events, commits, and damaged tables set aside.

- One asyncio lock per channel serializes every change of that channel's table (``locked``);
  the lock map keeps a channel only while it has a table or someone holds or waits for it.
- A change is committed (``_commit``: group commit, a cancelled caller still waits for the
  outcome) and, if the write fails, the live table is put back as it was
  (``_commit_or_restore``): memory never disagrees with the disk.
- A game that raises when used fails its probe and the table is set aside with status
  ``broken`` (``_fault``; from a read, checked in the background: ``_fault_soon``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

import engine
from bot import metrics
from bot.i18n import _
from bot.i18n.refusals import excerpt
from bot.service import timers
from bot.service.broken import BrokenTables, reason_of
from bot.service.driver import Driver
from bot.service.errors import (
    GAME_FAULTS,
    NoTable,
    NotHost,
    TableBroken,
    TableError,
)
from bot.service.finished import FinishedGame
from bot.service.idle import idle_key
from bot.service.limits import Limits, Quotas
from bot.service.listeners import (
    Listeners,
    TableEvent,
    TableListener,
    TableSetAside,
)
from bot.service.models import (
    Seat,
    Table,
    TableStatus,
    TableSummary,
    TableView,
    seat_label,
)
from bot.service.paused import refusal
from bot.service.scheduler import Scheduler
from bot.service.snapshot import TableSnapshot
from bot.service.tables import LiveTable, probe
from bot.shards import Shards
from bot.storage import repository as repo
from bot.storage.backends import DatabaseBackend
from bot.storage.connection import UNAVAILABLE_ERRORS

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


@dataclass
class _ChannelLock:
    """A channel's lock and how many callers hold or wait for it (to prune the map)."""

    lock: asyncio.Lock
    users: int = 0


class _Locked:
    """``ServiceCore.locked``'s block: a class, not an async generator's context manager
    (every move takes its channel's lock: a generator, its wrapper and their steps cost
    several times this)."""

    __slots__ = ("core", "channel_id", "entry")

    def __init__(self, core: ServiceCore, channel_id: int) -> None:
        self.core, self.channel_id = core, channel_id

    async def __aenter__(self) -> None:
        locks = self.core._locks
        entry = locks.get(self.channel_id)
        if entry is None:
            entry = locks[self.channel_id] = _ChannelLock(asyncio.Lock())
        entry.users += 1
        self.entry = entry
        try:
            await entry.lock.acquire()
        except BaseException:  # (cancelled while waiting: not a user any more)
            self._leave()
            raise

    async def __aexit__(self, *error: object) -> None:
        self.entry.lock.release()
        self._leave()

    def _leave(self) -> None:
        entry = self.entry
        entry.users -= 1
        if entry.users == 0 and self.channel_id not in self.core._tables:
            del self.core._locks[self.channel_id]


class _TableOp:
    """``ServiceCore._table_op``'s block: a class, as ``_Locked`` is (every click takes it: two
    context managers made of async generators, nested, cost their objects and steps each time).
    The lock is held until the block's error is turned into its refusal."""

    __slots__ = ("core", "channel_id", "locked", "table")

    def __init__(self, core: ServiceCore, channel_id: int) -> None:
        self.core, self.channel_id = core, channel_id
        self.locked = _Locked(core, channel_id)

    async def __aenter__(self) -> LiveTable:
        await self.locked.__aenter__()
        try:
            self.table = self.core._require(self.channel_id)
        except BaseException:
            await self.locked.__aexit__()
            raise
        return self.table

    async def __aexit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        try:
            if isinstance(error, UNAVAILABLE_ERRORS):  # (``paused.refused_writes``'s refusal)
                raise refusal(self.channel_id, error) from error
            if isinstance(error, GAME_FAULTS):
                raise await self.core._fault(self.table, error) from error
        finally:
            await self.locked.__aexit__()


class ServiceCore:
    """The state every part of the service shares, and its common ground: reading tables,
    the channel locks, delivering events, committing a change, and setting a damaged table
    aside. ``TableService.__init__`` sets the state; each part (lobby, endings, play, jobs,
    flow) is a subclass and uses only what is defined here or in its own base classes."""

    db: DatabaseBackend
    clock: Clock
    sleep: Sleep
    ai_delay: float
    limits: Limits
    quotas: Quotas
    shards: Shards
    ai_thread_levels: frozenset[str]
    driver: Driver
    scheduler: Scheduler
    broken: BrokenTables
    _listeners: Listeners
    #: The table of each channel in lobby or play.
    _tables: dict[int, LiveTable]
    _locks: dict[int, _ChannelLock]
    #: Each channel's last finished game (a rematch plays it again; after a restart it is
    #: read back from the database).
    _finished: dict[int, FinishedGame]
    #: Checks of games that raised on a read (``_fault_soon``).
    _checks: set[asyncio.Task[None]]

    # -- the scheduler's arming (``jobs.JobsMixin``), which every change may need -------------
    def wake(self, table: LiveTable, failures: int = 0) -> None:
        raise NotImplementedError

    def arm_idle(self, table: LiveTable) -> None:
        raise NotImplementedError

    def arm_rematch(self, table: LiveTable) -> None:
        raise NotImplementedError

    # -- the turn digests (``digests.DigestsMixin``) -------------------------------------------
    def note_turns(self, events: list[TableEvent]) -> None:
        raise NotImplementedError

    async def fire_digest(self, job: Any) -> None:
        raise NotImplementedError

    def add_listener(self, listener: TableListener) -> None:
        self._listeners.add(listener)

    def remove_listener(self, listener: TableListener) -> None:
        self._listeners.remove(listener)

    def get_table(self, channel_id: int) -> Table | None:
        """The channel's table in lobby or play, or None."""
        table = self._tables.get(channel_id)
        return None if table is None else table.public()

    def tables(self) -> list[Table]:
        """Every table in lobby or play."""
        return [t.public() for t in self._tables.values()]

    def guild_tables(self, guild_id: int | None) -> list[TableSummary]:
        """The guild's open tables, then those set aside (broken), each oldest first."""
        open_tables = [
            t.summary()
            for t in sorted(self._tables.values(), key=lambda t: t.id)
            if t.guild_id == guild_id
        ]
        return open_tables + self.broken.of_guild(guild_id)

    def snapshot(self, channel_id: int) -> TableSnapshot | None:
        """The current state of the channel's table in lobby or play (``snapshot.py``): what
        a client that connects reads first; events carry the later ones. None: no table."""
        table = self._tables.get(channel_id)
        return None if table is None else table.current_state()

    def view(self, channel_id: int, user_id: int) -> TableView:
        """The user's seat view, or the spectator view if he holds no seat. Raises NoTable,
        TableBroken. Made once per state of the table and shared: read it, never change it."""
        table = self._require(channel_id)
        seat = table.seat_of(user_id)
        index = seat.index if seat is not None and seat.is_human else None
        try:
            return table.current_state().table_view(index)
        except GAME_FAULTS as exc:
            raise self._fault_soon(table, exc) from exc

    def public_view(self, channel_id: int) -> dict[str, Any] | None:
        """What a spectator sees of the game (None in the lobby or with no table here)."""
        table = self._tables.get(channel_id)
        if table is None or table.game is None:
            return None
        try:
            view = table.current_state().public_view
        except GAME_FAULTS as exc:
            self._fault_soon(table, exc)
            return None
        return None if view is None else dict(view)

    def legal_actions(self, channel_id: int, user_id: int) -> list[str]:
        """What the user may do now (buttons, autocomplete); [] if not his turn / not seated."""
        table = self._tables.get(channel_id)
        if table is None:
            return []
        seat = table.seat_of(user_id)
        index = seat.index if seat is not None and seat.is_human else None
        try:
            return list(table.current_state().legal(index))
        except GAME_FAULTS as exc:
            self._fault_soon(table, exc)
            return []

    def deadlines(self, channel_id: int) -> dict[int, float]:
        """Each awaited human seat's deadline (epoch seconds); {} if the timer is off."""
        table = self._tables.get(channel_id)
        return {} if table is None else dict(table.deadlines)

    def table_counts(self) -> dict[str, int]:
        """How many tables are in lobby, in play, and set aside (``/metrics``)."""
        counts = dict.fromkeys((TableStatus.LOBBY.value, TableStatus.PLAYING.value), 0)
        for table in self._tables.values():
            counts[table.status.value] = counts.get(table.status.value, 0) + 1
        counts[TableStatus.BROKEN.value] = len(self.broken)
        return counts

    async def ping(self, timeout: float = 2.0) -> bool:
        """The database answers a query within ``timeout`` seconds (``/healthz``)."""
        try:
            await asyncio.wait_for(self.db.run(lambda c: c.execute("SELECT 1").fetchall()), timeout)
        except Exception:  # closed, gone, locked up: not healthy, whatever the reason
            return False
        return True

    def live_tables(self) -> list[LiveTable]:
        """Every table in lobby or play (the service's own records: for its helpers)."""
        return list(self._tables.values())

    def is_live(self, table: LiveTable) -> bool:
        """The table is still its channel's open table (not ended or set aside meanwhile)."""
        return self._tables.get(table.channel_id) is table

    def locked(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the channel's lock. The lock map keeps a channel only while it has a table or
        someone holds or waits for its lock (it does not grow with every channel ever used)."""
        return _Locked(self, channel_id)

    def _table_op(self, channel_id: int) -> AbstractAsyncContextManager[LiveTable]:
        """Hold the channel's lock and yield its table (NoTable if none); an error of the game
        becomes a refusal (``_fault``) instead of reaching the user, and so does a database
        that cannot take the change (``TablePaused``)."""
        return _TableOp(self, channel_id)

    def _require(self, channel_id: int) -> LiveTable:
        table = self._tables.get(channel_id)
        if table is None:
            raise NoTable()
        return table

    def _require_host(self, table: LiveTable, user_id: int, refusal: str) -> None:
        """Raise NotHost with ``refusal`` (a sentence marked ``N_`` with a field ``{name}``,
        the host's name) unless ``user_id`` is the host."""
        if user_id != table.host_id:
            host = table.seat_of(table.host_id)
            # i18n: in "Only the host (the host) can ...", when the host has no seat
            name = excerpt(host.name) if host else _("the host")
            raise NotHost(_(refusal, name=name))

    async def _announce(self, channel_id: int, events: list[TableEvent]) -> None:
        """Deliver events; called with the channel lock held, so a table's events arrive in
        commit order (see listeners.py: a listener must not await a change of that table)."""
        if not events:
            return
        table = self._tables.get(channel_id)
        # Each event carries the state it left. A move's come with theirs: then the table's
        # state is not looked up again (its change key rebuilt and compared, once more a move).
        if table is not None and any(e.snapshot is None for e in events):
            state = table.current_state()
            events = [
                dataclasses.replace(e, snapshot=state)
                if e.snapshot is None and e.table is state.table
                else e
                for e in events
            ]
        self.note_turns(events)
        await self._listeners.emit(events)

    async def announce(self, channel_id: int, events: list[TableEvent]) -> None:
        """Deliver events (the driver's); the caller holds the channel lock."""
        await self._announce(channel_id, events)

    async def _commit(self, write: Callable[[Any], Any]) -> Any:
        """Group-commit ``write``; a cancelled caller still waits for the outcome, so memory
        never disagrees with the disk. (The future refuses cancellation: a cancelled caller is
        woken with its ``CancelledError`` once the outcome is known, with no ``shield`` and its
        extra turn of the loop on every move's way back.) A refused or failed write counts in
        ``/metrics`` here, on the caller's way back (which always waits for the outcome), not
        in a done-callback: that was one more callback for the loop to run at every commit."""
        task = self.db.submit(write, shielded=True)
        try:
            return await task
        except asyncio.CancelledError:
            while not task.done():  # (only if thrown in by hand: the future is not cancelled)
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.shield(task)
            failure = task.exception()
            if failure is not None:
                metrics.count_database_error(failure)
                raise failure from None
            # Committed: the caller must bring memory up to the disk (raising here would make
            # it put the old game back, a move behind its database). The cancellation is
            # asked for again and lands at the caller's next await.
            current = asyncio.current_task()
            if current is not None:
                current.cancel()
            return task.result()
        except Exception as failure:  # the database refused or failed the write
            metrics.count_database_error(failure)
            raise

    async def _commit_or_restore(
        self, table: LiveTable, saved: dict[str, Any], build: Callable[[], Callable[[Any], Any]]
    ) -> None:
        """Build the write (``build``: it may change the table first, and encodes its row) and
        commit it; if either fails, put ``table`` back as ``saved``: memory never disagrees
        with the disk, and a refusal leaves the table as it was. (A value that cannot be
        encoded, such as a caller's wrong-typed id, fails while the row is built.)"""
        try:
            write = build()
            await self._commit(write)
        except BaseException:
            table.restore(saved)
            raise

    async def _save(self, table: LiveTable, saved: dict[str, Any]) -> None:
        """Store the table's record and seats (a change outside moves); put ``saved`` back if
        the write fails. A lobby's change makes it active again (see idle.py)."""

        def build() -> Callable[[Any], Any]:
            columns, rows, table_id = table.columns(), table.seat_rows(), table.id
            return lambda conn: repo.update_table(conn, table_id, columns, rows)

        await self._commit_or_restore(table, saved, build)
        table.version += 1  # (update_table counted the write)
        table.active_at = self.clock()

    def _forget(self, table: LiveTable) -> None:
        """The table is over: the channel is free; its driver stops (unless it is us)."""
        if self._tables.get(table.channel_id) is table:
            del self._tables[table.channel_id]
        self.scheduler.cancel(("play", table.channel_id))
        self.scheduler.cancel(idle_key(table.channel_id))

    async def check_game(self, table: LiveTable, exc: BaseException) -> None:
        """The driver met an error: if the game fails the probe the table is set aside (see
        ``_fault``), else the driver stops until the next change. Takes the channel lock."""
        async with self.locked(table.channel_id):
            if self.is_live(table):
                await self._fault(table, exc)

    async def _set_aside(self, table: LiveTable, reason: str) -> None:
        log.error(
            "table %s (channel %s) is set aside as broken: %s",
            table.id,
            table.channel_id,
            reason,
        )
        table.status, table.broken_reason = TableStatus.BROKEN, reason
        marked = {"status": TableStatus.BROKEN.value, "broken_reason": reason}
        table_id = table.id
        try:
            await self._commit(lambda conn: repo.update_table(conn, table_id, marked))
        except Exception:  # set aside in memory all the same: its game cannot be used
            log.exception("table %s could not be marked broken", table.id)
        self._forget(table)
        self.broken.add_live(table, reason)
        await self._announce(table.channel_id, [TableSetAside(table.public(), reason)])

    async def _fault(self, table: LiveTable, exc: BaseException) -> TableError:
        """A command met an error of the game (lock held): if the game fails the probe, the
        table is set aside; either way the user gets a refusal, never the raw error."""
        log.error("table %s: the game raised", table.id, exc_info=exc)
        game = table.game
        if game is None:
            return TableError(_("That could not be done; the table is unchanged."))
        try:
            probe(game, list(table.seats))
        except Exception as failed:
            await self._set_aside(table, reason_of(failed))
            return TableBroken()
        return TableError(_("That could not be done (an error in the game); nothing changed."))

    def _fault_soon(self, table: LiveTable, exc: BaseException) -> TableError:
        """``_fault`` from a read (no lock held, not awaitable): checked in the background."""

        async def check() -> None:
            async with self.locked(table.channel_id):
                if self.is_live(table):
                    await self._fault(table, exc)

        task = asyncio.get_running_loop().create_task(check(), name=f"table-{table.id}-check")
        self._checks.add(task)  # (a task nobody references may be collected mid-way)
        task.add_done_callback(self._checks.discard)
        return TableBroken(
            _("This table's game could not be read; it is being checked. Try again in a moment.")
        )

    def _deadlines_for(
        self,
        table: LiveTable,
        game: engine.Game,
        previous: Mapping[int, float],
        acted: int | None,
        now: float,
        seats: Mapping[int, Seat] | None = None,
    ) -> dict[int, float]:
        """Deadlines of the awaited humans; ``seats``: the seats as they will be (default the
        table's). AI seats and away players get none: the AI moves for them at once."""
        seats = table.seats if seats is None else seats
        awaited = game.to_act()
        return timers.next_deadlines(
            awaited=awaited,
            # (only the awaited seats' matter: one or two of them, not every seat's property)
            ai_seats=[i for i in awaited if (seat := seats.get(i)) is not None and seat.autoplay],
            previous=previous,
            acted=acted,
            now=now,
            seconds=timers.timer_seconds(table.options),
        )

    def _not_your_turn(self, table: LiveTable) -> str:
        seats = table.seats
        waiting = [excerpt(seats[s].name) if s in seats else seat_label(s) for s in table.to_act()]
        if not waiting:
            return _("It is not your turn: waiting for nobody.")
        return _("It is not your turn: waiting for {seats}.", seats=", ".join(waiting))
