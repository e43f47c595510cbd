"""The SQLite connection: aiosqlite's worker thread, WAL, foreign keys, and group commit.

aiosqlite costs a thread hop (~0.1 ms) per await, so a write is a plain function of a
``sqlite3.Connection`` run entirely on the worker thread (``run``). ``write`` goes further:
group commit (``bot.storage.group_commit``, shared with the PostgreSQL backend).

synchronous=NORMAL in WAL mode: a committed transaction survives the process being killed
(what crash recovery needs); only a power loss may drop the last few commits.

``open`` refuses a database that cannot be served (``bot.storage.startup``: emptied beside its
WAL, damaged, read-only, newer than the code) and checkpoints what a previous life left in the WAL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage import startup
from bot.storage.connection import SQLITE
from bot.storage.group_commit import MAX_BATCH as MAX_BATCH  # (the bench reads it from here)
from bot.storage.group_commit import DatabaseBackend
from bot.storage.group_commit import commit_batch as _commit_batch  # noqa: F401 (the bench's)
from bot.storage.migrations import migrate

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Writes between two WAL checkpoints. SQLite's automatic checkpoint would run inside a commit,
#: delaying every write of that batch by several ms; see ``Database._checkpoint_step``.
CHECKPOINT_EVERY = 1000
#: Once the WAL holds this many frames (4 KiB pages: 32 MiB), the writer copies what is left
#: itself instead of waiting for a pass to catch up: a writer that never pauses would never let
#: one, and the WAL would grow without bound.
WAL_FRAMES_LIMIT = 8192


def configure(conn: sqlite3.Connection) -> None:
    """Pragmas every connection to the bot's database uses (also the bench's raw ceiling)."""
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=5000")


class Database(DatabaseBackend):
    """One aiosqlite connection in autocommit mode; transactions are explicit."""

    BEGIN = "BEGIN IMMEDIATE"
    #: The instance lock file and the online backup apply (``bot.storage.postgres``: neither).
    dialect = SQLITE

    def __init__(self, path: Path | str) -> None:
        super().__init__()
        self.path = Path(path)
        self._conn: aiosqlite.Connection | None = None
        self._since_checkpoint = 0
        # The bulk of each WAL checkpoint runs on a second connection (its own thread).
        self._checkpointer: aiosqlite.Connection | None = None
        self._bulk_checkpoint: asyncio.Task[Any] | None = None
        self._pass_frames = 0  # the WAL's length when the previous pass began

    def __repr__(self) -> str:
        return f"Database({str(self.path)!r})"

    @property
    def where(self) -> str:
        """The database, for messages: the file's path."""
        return str(self.path)

    async def open(self) -> None:
        """Connect, check, migrate and checkpoint; ``StartupError`` (one line naming the file
        and what to do) if the database cannot be served. A failed open leaves no connection."""
        in_memory = str(self.path) == ":memory:"
        wal_commits = 0
        if not in_memory:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:  # (a terminal table's first open in a read-only folder)
                raise startup.unwritable(self.path, error) from None
            wal_commits = startup.check_not_emptied(self.path)  # before SQLite sees the file
        try:
            self._conn = await _connect(self.path, "tt-db-writer")
            await self.run(configure)
            await self.run(partial(startup.check_integrity, path=self.path))
            await self.run(
                partial(startup.check_schema_seen, path=self.path, wal_commits=wal_commits)
            )
            await self.run(startup.probe_write)
            try:
                await self.run(migrate)
            except RuntimeError as error:  # the schema is newer than this code
                raise startup.StartupError(
                    f"{self.path}: {error}: run the code that wrote it, or restore a backup "
                    "taken before it ran (see README 'Backups')."
                ) from error
            if not in_memory:
                await self.run(partial(startup.checkpoint_at_open, path=self.path))
        except BaseException as error:
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    await self._conn.close()
                self._conn = None
            if isinstance(error, sqlite3.Error):
                raise startup.explain(error, self.path) from error
            raise
        await self.run(lambda c: c.execute("PRAGMA wal_autocheckpoint=0").fetchall())
        self._checkpointer = await _connect(self.path, "tt-db-checkpointer")
        await self._checkpointer.execute_fetchall("PRAGMA busy_timeout=5000")
        self._start_writer()

    async def close(self) -> None:
        """Commit what is queued, then close."""
        if self._conn is None:
            return
        await self._stop_writer()
        if self._bulk_checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._bulk_checkpoint
        if self._checkpointer is not None:
            await self._checkpointer.close()
            self._checkpointer = None
        await self.run(lambda c: c.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall())
        await self._conn.close()
        self._conn = None

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` on the database thread (one hop), outside group commit.

        ``fn`` must fetch what it reads (return rows, not a cursor): an unfinished statement
        would make the next COMMIT fail.
        """
        if self._conn is None:
            raise RuntimeError("database is closed")
        raw = self._conn._conn  # the sqlite3 connection aiosqlite's thread owns
        return await self._conn._execute(fn, raw)

    def _start(self, fn: Callable[..., Any]) -> asyncio.Future[Any] | None:
        """``fn(connection, done=future)`` on aiosqlite's thread, queued at once (as its
        ``_execute`` does, without awaiting: see group_commit's docstring). aiosqlite is given
        no future: ``fn`` resolves its own with its writes' (``DatabaseBackend._start``), so a
        run wakes the loop once, not twice (each wake-up is a write to the loop's self-pipe
        from this thread and a read from it on the loop's)."""
        conn = self._conn
        if conn is None or not conn._running or conn._connection is None:
            return None
        loop = self._loop  # (the writer's: see group_commit's ``_loop``)
        assert loop is not None
        future = loop.create_future()
        conn._tx.put_nowait((None, partial(fn, conn._conn, done=future)))
        return future

    async def _after_batch(self, writes: int) -> None:
        await self._checkpoint_step(writes)

    async def _checkpoint_step(self, writes: int) -> None:
        """Keep the WAL short without stalling commits.

        Every ``CHECKPOINT_EVERY`` writes a PASSIVE checkpoint starts on the second connection
        and copies the WAL into the database file while commits go on. The next commit starts
        the WAL afresh only if nothing is left to copy when it begins, and commits keep adding
        frames during a pass; so passes go on over the frames added meanwhile, each shorter than
        the last, until one ends with no commit during it (the WAL is then seen to have
        restarted). Only if the WAL reaches ``WAL_FRAMES_LIMIT`` first does the writer, between
        two batches and after acknowledging them, copy the remainder itself: copying frames
        holds back every queued write (measured: 1-5 ms at 2,000 actions/s, the paced p99's
        main cause before), so the writer must not be the one to copy them when it can wait.
        """
        self._since_checkpoint += writes
        task = self._bulk_checkpoint
        try:
            if task is not None and task.done():
                self._bulk_checkpoint = None
                (_, frames, _), *_ = task.result()  # frames: the WAL's length when it began
                restarted = frames < self._pass_frames
                if not restarted and frames < WAL_FRAMES_LIMIT:
                    self._pass_frames = frames
                    self._start_pass()
                    return
                self._pass_frames = 0
                if not restarted:
                    await self._checkpoint_on_writer()
            elif task is None and self._since_checkpoint >= CHECKPOINT_EVERY:
                self._since_checkpoint = self._pass_frames = 0  # (a failed pass left it set)
                self._start_pass()
        except Exception:  # a missed checkpoint is caught up by the next one
            log.exception("WAL checkpoint failed")

    async def _checkpoint_on_writer(self) -> None:
        """Copy what the passes left, on the writer's connection (no commit can come between)."""
        # fetchall: a pragma's unread row would keep its statement open and fail the next
        # COMMIT ("SQL statements in progress").
        await self.run(lambda c: c.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall())

    def _start_pass(self) -> None:
        if self._checkpointer is not None:
            self._bulk_checkpoint = asyncio.create_task(
                self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            )


async def _connect(path: Path, name: str) -> aiosqlite.Connection:
    """An aiosqlite connection whose thread does not keep the process alive: a service that
    was never closed must not hang the interpreter's exit (SQLite's journal makes a killed
    thread as safe as a killed process). ``name``: its thread's (py-spy, bench/db_threads.py)."""
    conn = aiosqlite.connect(path, isolation_level=None)
    conn._thread.daemon = True  # set before the thread starts (on await)
    conn._thread.name = name
    return await conn
