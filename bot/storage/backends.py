"""Which backend a database target means: a ``postgresql://`` URL (DATABASE_URL) is
PostgreSQL's (``bot.storage.postgres``), anything else a SQLite file (``bot.storage.db``)."""

from __future__ import annotations

from pathlib import Path

from bot.storage.db import Database
from bot.storage.group_commit import DatabaseBackend
from bot.storage.postgres import PgDatabase
from bot.storage.urls import is_postgres_url

#: What names a database: a SQLite file's path, or a PostgreSQL URL.
Target = Path | str


def database_for(target: Target) -> DatabaseBackend:
    """The (unopened) database ``target`` names."""
    if is_postgres_url(target):
        return PgDatabase(str(target))
    return Database(target)


async def check_database(target: Target) -> None:
    """Open and close: every start-up check (``StartupError`` on the first that fails) and the
    migrations, before anything else depends on the database."""
    db = database_for(target)
    await db.open()
    await db.close()
