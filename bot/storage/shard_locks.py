"""Shard locks: on PostgreSQL several bot processes share one database, each serving some of the
Discord shards (SHARD_COUNT / SHARD_IDS). Two processes serving one shard would load the same
tables and fight over every move; this keeps the second one out.

At start, on a connection of its own (held for the process's life), a process:
1. records the shard count in the ``meta`` row ``shard_count`` the first time, and otherwise
   refuses to start if its count is another (a guild's shard depends on the count: processes
   counting differently would serve one guild twice);
2. takes ``pg_try_advisory_lock(NAMESPACE, shard)`` for each of its shards, and refuses to start,
   naming the shard and the process holding it, if another process holds one.
Both steps run in one transaction under ``pg_advisory_xact_lock(START_LOCK)``: processes
starting together take their turns, so none sees a half-started one.

The locks live as long as the connection: PostgreSQL drops them when the process dies, however
it dies. The other way round, a process whose connection is lost (a network cut, the server
restarted) no longer holds its shards, and another process may take them: ``watch`` pings the
connection every few seconds and reports the loss (``lost``, ``on_lost``) so the application
stops. Meanwhile the write guard (``repository.StaleWrite``) refuses whatever it would write
over the new holder's moves.

On SQLite this is a no-op: one process serves the file (``instance_lock`` ensures it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from bot.storage.connection import DATABASE_ERRORS, PgConnection
from bot.storage.migrations_postgres import META_TABLE
from bot.storage.startup import StartupError
from bot.storage.urls import is_postgres_url, redact

log = logging.getLogger(__name__)

T = TypeVar("T")

#: First key of every shard lock (the second is the shard): a constant of our own, so that no
#: other application's advisory locks collide with ours.
NAMESPACE = 0x5454_5348
#: Taken for the length of a start (checking the count and taking the shard locks).
START_LOCK = 0x5454_5300
#: Seconds between two pings of the lock connection.
PING_EVERY = 5.0


class ShardLockError(StartupError):
    """This process may not serve its shards; ``str()`` says why and what to do."""


class ShardLocks:
    """The shard locks of this process (see the module's doc): ``await acquire()`` (or
    ``async with``), then ``watch()``; ``release()`` at the end."""

    def __init__(
        self,
        database: Path | str,
        shard_count: int,
        shard_ids: Sequence[int] | None = None,
        *,
        on_lost: Callable[[str], Any] | None = None,
        ping_every: float = PING_EVERY,
    ) -> None:
        if shard_count < 1:
            raise ShardLockError(f"SHARD_COUNT must be 1 or more, not {shard_count}.")
        shards = tuple(range(shard_count)) if shard_ids is None else tuple(shard_ids)
        bad = sorted({s for s in shards if not 0 <= s < shard_count})
        if bad or len(set(shards)) != len(shards) or not shards:
            raise ShardLockError(
                f"SHARD_IDS {list(shards)} must be distinct shards from 0 to {shard_count - 1} "
                f"(SHARD_COUNT={shard_count})."
            )
        self.database = database
        self.shard_count = shard_count
        self.shards = shards
        self.on_lost = on_lost
        self.ping_every = ping_every
        #: Set once the lock connection is lost (the shards may be another process's now).
        self.lost = asyncio.Event()
        self._conn: PgConnection | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._watch: asyncio.Task[None] | None = None

    @property
    def enabled(self) -> bool:
        """Whether there are locks to take at all (PostgreSQL only)."""
        return is_postgres_url(self.database)

    @property
    def held(self) -> bool:
        return self._conn is not None

    async def acquire(self) -> ShardLocks:
        """Check the shard count and take every shard's lock, or ``ShardLockError`` having
        taken none. A no-op on SQLite."""
        if not self.enabled or self._conn is not None:
            return self
        from bot.storage.postgres import connect  # (psycopg only when PostgreSQL is used)

        url = str(self.database)
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="tt-shard-locks")
        try:
            self._conn = await self._on_thread(
                lambda: connect(url, application_name=self._application_name())
            )
            await self._on_thread(self._take)
        except BaseException as error:
            await self._close()
            if isinstance(error, DATABASE_ERRORS):
                raise ShardLockError(
                    f"{redact(url)}: cannot take the shard locks "
                    f"({' '.join(str(error).split())}): check DATABASE_URL and the server."
                ) from error
            raise
        log.info("holding the locks of shard(s) %s of %d", _listed(self.shards), self.shard_count)
        return self

    def watch(self) -> asyncio.Task[None]:
        """Start pinging the lock connection every ``ping_every`` seconds; on a failure (or no
        answer within two intervals) set ``lost`` and call ``on_lost(reason)``, once."""
        if self._watch is None:
            self._watch = asyncio.create_task(self._watch_loop(), name="tt-shard-locks")
        return self._watch

    async def release(self) -> None:
        """Stop watching and let the shards go (closing the connection drops its locks)."""
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        conn = self._conn
        if conn is not None:
            # Unlocked before the close: a server drops a closed session's locks only when its
            # backend has exited, a moment after the close returns, and the next process (a
            # restart at once) would find its shards still held.
            with contextlib.suppress(Exception):
                await self._on_thread(lambda: conn.execute("SELECT pg_advisory_unlock_all()"))
        await self._close()

    async def __aenter__(self) -> ShardLocks:
        return await self.acquire()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.release()

    # -- on the lock connection's thread ----------------------------------------------------------
    def _take(self) -> None:
        conn = self._conn
        assert conn is not None
        conn.execute("BEGIN")
        taken: list[int] = []
        try:
            conn.execute(f"SELECT pg_advisory_xact_lock({START_LOCK})")
            conn.execute(META_TABLE)
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('shard_count', ?) ON CONFLICT DO NOTHING",
                (str(self.shard_count),),
            )
            (stored,) = conn.execute("SELECT value FROM meta WHERE key = 'shard_count'").fetchone()
            if int(stored) != self.shard_count:
                raise ShardLockError(
                    f"{redact(str(self.database))} is set up for {stored} shard(s), and this "
                    f"process has SHARD_COUNT={self.shard_count}: every process must use the "
                    f"same count. To change it, stop every bot process, then run "
                    f"UPDATE meta SET value = '{self.shard_count}' WHERE key = 'shard_count' "
                    "(docs/postgresql.md)."
                )
            for shard in self.shards:
                (ok,) = conn.execute(
                    "SELECT pg_try_advisory_lock(?, ?)", (NAMESPACE, shard)
                ).fetchone()
                if not ok:
                    raise ShardLockError(
                        f"shard {shard} of {self.shard_count} is served by another process "
                        f"({self._holder(shard)}): stop it, or give this process other SHARD_IDS."
                    )
                taken.append(shard)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for shard in taken:  # (session locks outlive the transaction's rollback)
                conn.execute("SELECT pg_advisory_unlock(?, ?)", (NAMESPACE, shard))
            raise

    def _holder(self, shard: int) -> str:
        assert self._conn is not None
        row = self._conn.execute(
            "SELECT a.pid, a.application_name, a.client_addr FROM pg_locks l"
            " JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory'"
            " AND l.classid = ? AND l.objid = ? AND l.objsubid = 2 AND l.granted",
            (NAMESPACE, shard),
        ).fetchone()
        if row is None:
            return "it let go meanwhile: start again"
        pid, name, address = row
        return f"server pid {pid}, {name or 'no application name'}, from {address or 'local'}"

    def _ping(self) -> None:
        assert self._conn is not None
        (held,) = self._conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = ?"
            " AND pid = pg_backend_pid() AND granted",
            (NAMESPACE,),
        ).fetchone()
        if held != len(self.shards):
            raise RuntimeError(f"holding {held} of the {len(self.shards)} shard locks")

    def _application_name(self) -> str:
        return f"troika-table pid {os.getpid()} shards {_listed(self.shards)}"[:63]

    # -- on the event loop ------------------------------------------------------------------------
    async def _watch_loop(self) -> None:
        while True:
            await asyncio.sleep(self.ping_every)
            try:
                await asyncio.wait_for(self._on_thread(self._ping), timeout=2 * self.ping_every)
            except asyncio.CancelledError:
                raise
            except TimeoutError:
                self._report("the database did not answer the shard locks' ping")
                return
            except Exception as error:
                self._report(f"the shard locks' connection failed: {' '.join(str(error).split())}")
                return

    def _report(self, reason: str) -> None:
        log.error("%s: shard(s) %s may be another process's now; stopping", reason, self.shards)
        self.lost.set()
        if self.on_lost is not None:
            self.on_lost(reason)

    async def _on_thread(self, fn: Callable[[], T]) -> T:
        assert self._executor is not None
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)

    async def _close(self) -> None:
        from bot.storage.postgres import close_on_thread

        conn, self._conn = self._conn, None
        executor, self._executor = self._executor, None
        await close_on_thread(conn, executor)


def _listed(shards: Sequence[int]) -> str:
    return ",".join(str(s) for s in shards)
