"""The test's database, whichever backend: ``db_path`` (tests/bot/conftest.py) is a SQLite
file's path or a PostgreSQL URL, and ``connect`` opens either for a test's own look."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Iterator
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


@contextlib.contextmanager
def wakeups_from_threads(loop: asyncio.AbstractEventLoop) -> Iterator[list[str]]:
    """The callbacks other threads hand ``loop`` (``call_soon_threadsafe``: each one a wake-up
    of the loop) while inside, by name."""
    wakeups: list[str] = []
    original = loop.call_soon_threadsafe

    def counted(callback: Any, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            wakeups.append(getattr(callback, "__name__", repr(callback)))
        return original(callback, *args, **kwargs)

    loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
    try:
        yield wakeups
    finally:
        del loop.call_soon_threadsafe  # (the instance's attribute: the class's again)
