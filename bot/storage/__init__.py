"""Persistence: SQLite through aiosqlite (``Database``) or PostgreSQL through psycopg
(``PgDatabase``), chosen by ``backends.database_for``; the schema (``migrations``), the SQL the
table service and the leaderboard use (``repository``, one set for both: ``connection``), the
checks a SQLite database passes before it is served (``startup``), one bot per SQLite file
(``instance_lock``), the shard locks of several processes on PostgreSQL (``shard_locks``) and
``backup`` (SQLite's)."""

from bot.storage.backends import check_database, database_for
from bot.storage.db import Database, configure
from bot.storage.group_commit import DatabaseBackend
from bot.storage.migrations import MIGRATIONS, migrate, schema_version
from bot.storage.postgres import PgDatabase

__all__ = [
    "MIGRATIONS",
    "Database",
    "DatabaseBackend",
    "PgDatabase",
    "check_database",
    "configure",
    "database_for",
    "migrate",
    "schema_version",
]
