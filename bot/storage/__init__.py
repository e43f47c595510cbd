"""Persistence: SQLite through aiosqlite (``Database``), the schema (``migrations``), and the
SQL the table service and the leaderboard use (``repository``)."""

from bot.storage.db import Database, configure
from bot.storage.migrations import MIGRATIONS, migrate, schema_version

__all__ = ["MIGRATIONS", "Database", "configure", "migrate", "schema_version"]
