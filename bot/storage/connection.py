"""What the SQL functions of ``bot.storage`` and ``bot.leaderboard`` are given: a connection
with sqlite3's few methods, whichever database is behind it.

On SQLite that is the ``sqlite3.Connection`` itself. On PostgreSQL it is ``PgConnection``: a
psycopg connection (autocommit; transactions are explicit, as on SQLite) whose ``execute`` takes
the same statements, with ``?`` placeholders, translated once each to psycopg's ``%s``. So the
repository keeps one set of plain SQL for both: statements use what both dialects accept
(``INSERT ... ON CONFLICT``, ``RETURNING``, ``"left"`` quoted), and what differs (the schema's
types, ``PRAGMA``) lives in the backend-specific modules.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

import psycopg
from psycopg.pq import TransactionStatus


class Cursor(Protocol):
    """The part of a DB-API cursor the SQL functions use."""

    @property
    def rowcount(self) -> int: ...

    @property
    def description(self) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """The part of ``sqlite3.Connection`` the SQL functions use (``PgConnection`` has it too)."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Any: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any: ...

    @property
    def in_transaction(self) -> bool: ...


#: Errors a statement may raise on either backend (a write that failed, a lost connection).
DATABASE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, psycopg.Error)
#: The database cannot take writes now (a full disk, a read-only or locked file, a lost
#: server): the change is refused whole and may succeed later. (Not a statement's own error,
#: such as a value of a type it cannot bind.)
UNAVAILABLE_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.OperationalError,
    psycopg.OperationalError,
    OSError,
)
#: A constraint refused the statement (a second open table in a channel, a duplicate key).
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError, psycopg.IntegrityError)

SQLITE = "sqlite"
POSTGRES = "postgres"

# A quoted string or identifier (copied as it is), a `?` placeholder, or a `%` (doubled: psycopg
# reads `%` as the start of a placeholder whenever parameters are given).
_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?|%")


@functools.lru_cache(maxsize=1024)
def to_psycopg(sql: str) -> str:
    """``sql`` with ``?`` placeholders as psycopg's ``%s`` and every ``%`` as ``%%``; a ``?``
    inside quotes is text, not a placeholder. Cached: the repository's statements are a few
    dozen strings."""

    def swap(match: re.Match[str]) -> str:
        token = match[0]
        if token == "?":
            return "%s"
        return token.replace("%", "%%")  # (psycopg reads `%` even inside quotes)

    return _TOKENS.sub(swap, sql)


_IN_TRANSACTION = (TransactionStatus.INTRANS, TransactionStatus.INERROR, TransactionStatus.ACTIVE)


class PgConnection:
    """A psycopg connection behind sqlite3's interface (see the module's doc). Used by one
    thread at a time, like the sqlite3 connection it stands in for."""

    dialect = POSTGRES

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.raw = conn

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.Cursor[Any]:
        if not parameters:  # no placeholders: the text goes as it is (`%` included)
            return self.raw.execute(sql)
        return self.raw.execute(to_psycopg(sql), parameters)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> psycopg.Cursor[Any]:
        cursor = self.raw.cursor()
        cursor.executemany(to_psycopg(sql), parameters)
        return cursor

    @property
    def in_transaction(self) -> bool:
        # (UNKNOWN, a lost connection, has no transaction to roll back)
        return self.raw.info.transaction_status in _IN_TRANSACTION

    def commit(self) -> None:
        """Nothing to do: autocommit, as sqlite3's with ``isolation_level=None``."""

    @property
    def closed(self) -> bool:
        return self.raw.closed

    def close(self) -> None:
        self.raw.close()


def dialect_of(conn: Any) -> str:
    """``"postgres"`` for a ``PgConnection``, else ``"sqlite"``."""
    return getattr(conn, "dialect", SQLITE)
