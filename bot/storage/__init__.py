"""Persistence: SQLite through aiosqlite (``Database``), the schema (``migrations``), the
SQL the table service and the leaderboard use (``repository``), the checks a database passes
before it is served (``startup``), one bot per database (``instance_lock``) and ``backup``."""

from bot.storage.db import Database, configure
from bot.storage.migrations import MIGRATIONS, migrate, schema_version

__all__ = ["MIGRATIONS", "Database", "configure", "migrate", "schema_version"]
