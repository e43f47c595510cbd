"""Group commit, the same on both backends: writes queued while a transaction is on its way to
the disk are committed together in the next one; if one of them fails, each is retried in its
own transaction so that it fails alone. A write's future resolves only after the COMMIT that
holds it returned: callers acknowledge on that.

A backend (``bot.storage.db.Database`` for SQLite, ``bot.storage.postgres.PgDatabase``) gives
``run(fn)`` (``fn(connection)`` on its database thread), the statement that opens a write
transaction, and what to do between two batches (SQLite's WAL checkpoints).

Each hop through the event loop on a write's way back costs its caller one turn of the loop, and
at 1,000 busy tables a turn of the loop is milliseconds long (``bench/load.py --parts``: the
slowest clicks waited most of their time in such hops). So the database's thread itself asks the
loop to resolve a batch's futures as soon as its COMMIT returned (one hop), rather than handing
the outcomes to the writer task, which would wake up and then resolve them (two); and
``submit(fn, shielded=True)`` gives a future that its awaiting caller's cancellation does not
cancel, so a caller that must learn the outcome anyway awaits it directly, without
``asyncio.shield``'s extra hop. And when writes were queued while a batch was on the disk, the
database's thread commits them next, at once (up to ``BATCHES_IN_A_ROW`` batches), instead of
handing back to the writer task and waiting two turns of the loop for it to send the next batch
(``_after_batch``, SQLite's checkpoint step, then runs once for them all). Last, a write
that finds the writer idle (most of them when writes are few; without the commit window below,
a batch held one write at the median at 1,000 tables) is handed to the database's thread by
``submit`` itself (``_start``), not a turn of the loop later when the writer task wakes up.

When writes come often, the database's thread waits a few milliseconds before a run's first
transaction so that the writes submitted meanwhile join it (``bot.storage.commit_window``: only
when a write was submitted while another was unacknowledged; a lone write commits at once). On
both backends: PostgreSQL's own ``commit_delay`` cannot group our commits (its
``commit_siblings`` counts other sessions' transactions, and the bot writes on one connection),
and there each transaction is also a round trip to the server and a flush of its WAL (measured,
``bench/db_threads.py --postgres``, 1,000 tables, two pairs: the bot's database thread 240 and
223 -> 179 and 189 µs per action, the server 232 and 227 -> 157 and 191 µs; the ack's median
0.6 and 2.5 ms later).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from bot.storage.commit_window import CommitWindow
from bot.storage.connection import Connection

log = logging.getLogger(__name__)

T = TypeVar("T")
Write = Callable[[Any], Any]

#: A batch never holds more writes than this (bounds one transaction's time on the disk).
MAX_BATCH = 512
#: Batches the database's thread commits one after the other before the writer task has its
#: turn again (``_after_batch``: SQLite's checkpoint steps run between such runs).
BATCHES_IN_A_ROW = 4

Queued = tuple[Write, "asyncio.Future[Any]"]


class DatabaseBackend:
    """A database the service and the leaderboard use: ``open``, ``run``, ``write`` /
    ``submit`` (group commit, here), ``close``. Subclasses hold the connection."""

    #: "sqlite" or "postgres" (``bot.storage.connection``).
    dialect: str

    async def open(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    #: What opens a write transaction (SQLite: take the write lock at once, not on first write).
    BEGIN = "BEGIN"

    def __init__(self) -> None:
        #: Appended to on the loop's thread, taken from on the database's: a deque (its
        #: ``append`` and ``popleft`` are atomic), never replaced.
        self._queue: collections.deque[Queued] = collections.deque()
        self._wakeup: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        #: The loop the writer runs on (set with it): handed to asyncio rather than looked up
        #: at every write (on CPython 3.11 ``get_running_loop`` is a ``getpid`` system call).
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        #: The writer waits for writes (nothing on the database's thread, nothing queued).
        self._idle = False
        #: Batches ``submit`` handed to the thread itself, and their run's future.
        self._started: tuple[list[list[Queued]], asyncio.Future[Any]] | None = None
        self._window = CommitWindow()
        #: The future of the write submitted last: not done, a write is in flight (futures
        #: resolve in the order of their writes), and the next one is its sibling.
        self._last: asyncio.Future[Any] | None = None

    @property
    def is_open(self) -> bool:
        raise NotImplementedError

    async def run(self, fn: Callable[[Any], T]) -> T:
        raise NotImplementedError

    def _start(self, fn: Callable[..., Any]) -> asyncio.Future[Any] | None:
        """Hand ``fn(connection)`` to the database's thread now, without a turn of the loop;
        the future resolves once it ran. None: this backend cannot (the writer runs it).

        ``fn`` is a group commit's run (``_commit_and_resolve``): a backend can call it as
        ``fn(connection, done=future)``, and ``fn`` resolves the future itself in the same
        turn of the loop as its last batch's writes (SQLite: one wake-up of the loop per run,
        not a second one for the future)."""
        return None

    async def write(self, fn: Write) -> Any:
        """Run ``fn(connection)`` inside a transaction; returns its result once committed."""
        return await self.submit(fn)

    def submit(self, fn: Write, *, shielded: bool = False) -> asyncio.Future[Any]:
        """Queue ``fn`` for the next group commit; the future resolves after its COMMIT.

        Once queued the write happens even if nobody awaits the future any more. ``shielded``:
        the future refuses ``cancel()``, so a task cancelled while it awaits the future is
        woken only once the outcome is known, and then gets its ``CancelledError`` (the
        outcome stays readable on the future: see ``TableService._commit``).
        """
        if not self.is_open or self._wakeup is None or self._closing:
            raise RuntimeError("database is closed")
        loop = self._loop
        assert loop is not None  # (set with ``_wakeup``)
        future: asyncio.Future[Any] = _Outcome(loop=loop) if shielded else loop.create_future()
        self._queue.append((fn, future))
        last, self._last = self._last, future
        if last is not None and not last.done():
            self._window.sibling()
        if self._idle and self._started is None:
            self._start_batch(loop)
        self._wakeup.set()
        return future

    def _start_batch(self, loop: asyncio.AbstractEventLoop) -> None:
        """The writer is idle: send the queued writes to the thread at once (see the module)."""
        batches = [_take(self._queue)]
        job = self._job(batches, loop)
        try:
            started = self._start(job)
        except Exception:  # (closing meanwhile: the writer's own run says why)
            started = None
        if started is None:
            self._queue.extendleft(reversed(batches[0]))
            return
        self._started = (batches, started)

    def _job(
        self, batches: list[list[Queued]], loop: asyncio.AbstractEventLoop
    ) -> Callable[..., None]:
        """The database thread's run of a group commit from ``batches[0]`` on (see
        ``_commit_and_resolve``)."""
        return partial(
            _commit_and_resolve,
            batches=batches,
            queue=self._queue,
            begin=self.BEGIN,
            loop=loop,
            window=self._window,
        )

    def _start_writer(self) -> None:
        self._wakeup = asyncio.Event()
        self._closing = False
        self._loop = loop = asyncio.get_running_loop()
        self._writer = loop.create_task(self._write_loop(), name="tt-db-writer")

    async def _stop_writer(self) -> None:
        """Commit what is queued and stop the writer."""
        self._closing = True
        if self._wakeup is not None:
            self._wakeup.set()
        if self._writer is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None

    async def _after_batch(self, writes: int) -> None:
        """Between two batches, after their futures resolved (SQLite checkpoints here)."""

    async def _write_loop(self) -> None:
        assert self._wakeup is not None
        while True:
            if not self._queue and self._started is None:
                if self._closing:
                    return
                self._wakeup.clear()
                self._idle = True
                try:
                    await self._wakeup.wait()
                finally:
                    self._idle = False
                continue
            loop = self._loop
            assert loop is not None
            try:
                if self._started is not None:  # (``submit`` sent them)
                    (batches, started), self._started = self._started, None
                    await started
                else:
                    batches = [_take(self._queue)]
                    job = self._job(batches, loop)
                    started = self._start(job)
                    await (self.run(job) if started is None else started)
            except Exception as exc:  # the batch never reached the thread (a closed database)
                log.exception("group commit of %d writes failed", len(batches[-1]))
                for batch in batches:  # (those the thread's call resolved are skipped)
                    _resolve(batch, [(False, exc)] * len(batch))
            await self._after_batch(sum(len(batch) for batch in batches))


def _take(queue: collections.deque[Queued], batch: list[Queued] | None = None) -> list[Queued]:
    """``batch`` (a new one if None) with queued writes added, oldest first, up to
    ``MAX_BATCH`` in all (on either thread)."""
    if batch is None:
        batch = []
    with contextlib.suppress(IndexError):
        while len(batch) < MAX_BATCH:
            batch.append(queue.popleft())
    return batch


def _commit_and_resolve(
    conn: Connection,
    *,
    batches: list[list[Queued]],
    queue: collections.deque[Queued],
    begin: str,
    loop: asyncio.AbstractEventLoop,
    window: CommitWindow,
    done: asyncio.Future[None] | None = None,
) -> None:
    """On the database's thread: commit ``batches[0]`` (joined first by the writes queued
    during the ``window``, if it waits), have the loop resolve its futures at its
    next turn (before the writer task wakes up: see the module's docstring), and go on with the
    writes queued meanwhile, each batch appended to ``batches`` (the writer's record of them).
    ``done`` (see ``DatabaseBackend._start``) is resolved with the last batch's futures, or
    with what this raised."""
    try:
        if window.wait():
            _take(queue, batches[-1])  # (the writer's record: the same list, grown)
        while True:
            batch = batches[-1]
            failed = False
            try:
                outcomes = commit_batch(conn, writes=[fn for fn, _ in batch], begin=begin)
            except Exception as exc:  # the COMMIT itself failed: nothing of the batch is stored
                log.exception("group commit of %d writes failed", len(batch))
                outcomes = [(False, exc)] * len(batch)
                failed = True
            # After a failed COMMIT the connection may be gone: the next batch goes through the
            # writer task again, whose ``_start`` (or ``run``) connects again if it must
            # (PostgreSQL).
            last = failed or len(batches) >= BATCHES_IN_A_ROW or not queue
            with contextlib.suppress(RuntimeError):  # (a loop closed meanwhile: nobody waits)
                loop.call_soon_threadsafe(_resolve, batch, outcomes, done if last else None)
            if last:
                return
            batches.append(_take(queue))
    except BaseException as exc:  # (a write's own BaseException: the writer must learn it)
        if done is None:
            raise
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_fail, done, exc)


def _fail(done: asyncio.Future[None], exc: BaseException) -> None:
    if not done.done():
        done.set_exception(exc)


def _resolve(
    batch: list[Queued], outcomes: list[tuple[bool, Any]], done: asyncio.Future[None] | None = None
) -> None:
    """The batch's futures, then ``done`` (the writer task's: woken after the callers)."""
    for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
        if future.done():  # resolved already, or the caller was cancelled: committed anyway
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)
    if done is not None and not done.done():
        done.set_result(None)


class _Outcome(asyncio.Future[Any]):
    """A write's future that ``cancel()`` does not cancel (``submit(shielded=True)``): a task
    cancelled while awaiting it is woken when the outcome is known, with its cancellation."""

    def cancel(self, msg: Any = None) -> bool:
        return False


def commit_batch(
    conn: Connection, *, writes: list[Write], begin: str = "BEGIN"
) -> list[tuple[bool, Any]]:
    """One transaction for all ``writes``. Fast path: no savepoints (each statement is a GIL
    hand-over between threads); if any write fails, the batch is rolled back and every write is
    run again in its own transaction, so a failing write fails alone and the others commit."""
    outcomes: list[tuple[bool, Any]] = []
    conn.execute(begin)
    try:
        for fn in writes:
            outcomes.append((True, fn(conn)))
        conn.execute("COMMIT")
        return outcomes
    except Exception:
        _rollback(conn)
        if len(writes) == 1:
            raise
    except BaseException:
        _rollback(conn)
        raise
    return [_commit_one(conn, fn, begin) for fn in writes]


def _commit_one(conn: Connection, fn: Write, begin: str) -> tuple[bool, Any]:
    conn.execute(begin)
    try:
        value = fn(conn)
        conn.execute("COMMIT")
        return True, value
    except Exception as exc:
        _rollback(conn)
        return False, exc


def _rollback(conn: Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")
