"""The PostgreSQL backend: one psycopg connection on one worker thread, like SQLite's.

Why synchronous psycopg on a thread rather than its asyncio API: the repository, the action log
and the leaderboard are plain functions of a connection, and group commit runs several of them
in one transaction (``bot.storage.group_commit``). On a thread they stay one set of functions for
both backends; an async connection would need every one of them written again with ``await``.
The event loop never waits on the network: each ``run`` is one hop to the thread (as with
aiosqlite), and the statements of a batch go to the server from there.

One connection, not a pool: group commit wants a single writer (a pool would only let writes of
one table race each other), and reads are a few per table load. The shard locks hold their own
connection (``bot.storage.shard_locks``).

A lost connection fails the statements then running (the service treats that as any failed
write: nothing is acknowledged); the next ``run`` connects again.

What is SQLite-only has no counterpart here: there is no file (no instance lock file, no WAL
checkpoints, no integrity check at open; the server looks after its own storage), and backups
are ``pg_dump``'s (docs/postgresql.md): ``python -m bot backup`` refuses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import psycopg

from bot.storage.connection import POSTGRES, PgConnection
from bot.storage.group_commit import DatabaseBackend
from bot.storage.migrations import migrate
from bot.storage.startup import StartupError
from bot.storage.urls import redact

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How long connecting may take before the start-up gives up.
CONNECT_TIMEOUT = 10


def connect(url: str, **options: Any) -> PgConnection:
    """A new autocommit connection (transactions are explicit, as on SQLite)."""
    raw = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT, **options)
    return PgConnection(raw)


class PgDatabase(DatabaseBackend):
    """``Database``'s interface on PostgreSQL (see the module's doc)."""

    dialect = POSTGRES

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._conn: PgConnection | None = None
        self._executor: ThreadPoolExecutor | None = None

    def __repr__(self) -> str:  # never the password
        return f"PgDatabase({redact(self.url)!r})"

    @property
    def where(self) -> str:
        """The database, for messages (no password)."""
        return redact(self.url)

    async def open(self) -> None:
        """Connect and migrate; ``StartupError`` (one line saying what to do) if the server
        cannot be reached or the schema is newer than this code."""
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="tt-pg")
        try:
            self._conn = await self._on_thread(lambda: connect(self.url))
            try:
                await self.run(migrate)
            except RuntimeError as error:  # the schema is newer than this code
                raise StartupError(
                    f"{self.where}: {error}: run the code that wrote it, or restore a dump "
                    "taken before it ran (docs/postgresql.md)."
                ) from error
        except BaseException as error:
            await self._drop()
            if isinstance(error, psycopg.Error):
                raise StartupError(
                    f"{self.where} cannot be used ({' '.join(str(error).split())}): check "
                    "DATABASE_URL, that the server runs and that its user may create tables."
                ) from error
            raise
        self._start_writer()

    async def close(self) -> None:
        """Commit what is queued, then close."""
        if self._conn is None:
            return
        await self._stop_writer()
        await self._drop()

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        executor, self._executor = self._executor, None
        await close_on_thread(conn, executor)

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    async def run(self, fn: Callable[[Any], T]) -> T:
        """Run ``fn(connection)`` on the database thread (one hop), outside group commit."""
        if self._conn is None:
            raise RuntimeError("database is closed")
        return await self._on_thread(lambda: fn(self._live()))

    def _start(self, fn: Callable[..., Any]) -> asyncio.Future[Any] | None:
        """``fn(connection)`` on the database's thread, sent at once (group commit)."""
        if self._executor is None or self._conn is None:
            return None
        return asyncio.get_running_loop().run_in_executor(self._executor, lambda: fn(self._live()))

    def _live(self) -> PgConnection:
        """The connection, connected again if the server dropped it (on the thread)."""
        assert self._conn is not None
        if self._conn.closed:
            log.warning("%s: the connection was lost; connecting again", self.where)
            self._conn = connect(self.url)
        return self._conn

    async def _on_thread(self, fn: Callable[[], T]) -> T:
        if self._executor is None:
            raise RuntimeError("database is closed")
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)


async def close_on_thread(conn: Any, executor: ThreadPoolExecutor | None) -> None:
    """Close a connection on the one thread that uses it, then let that thread go (a lost
    connection's close may fail: nothing more to do with it)."""
    if conn is not None and executor is not None:
        with contextlib.suppress(Exception):
            await asyncio.get_running_loop().run_in_executor(executor, conn.close)
    if executor is not None:
        executor.shutdown(wait=False)
