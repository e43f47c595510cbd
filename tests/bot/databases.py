"""The test's database, whichever backend: ``db_path`` (tests/bot/conftest.py) is a SQLite
file's path or a PostgreSQL URL, and ``connect`` opens either for a test's own look."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from bot.storage.postgres import connect as connect_postgres
from bot.storage.urls import is_postgres_url

#: The backends the storage and service tests run on.
BACKENDS = ("sqlite", "postgres")


def connect(target: Path | str) -> Any:
    """A connection to the test's database: sqlite3's, or ``PgConnection`` (autocommit; its
    ``commit`` does nothing) with the same ``execute``."""
    if is_postgres_url(target):
        return connect_postgres(str(target))
    return sqlite3.connect(target)


def is_postgres(target: Path | str) -> bool:
    return is_postgres_url(target)
