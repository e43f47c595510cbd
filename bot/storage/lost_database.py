"""A database lost where the bot ran before: refused at start, unless the operator says so.

SQLite takes an empty or missing file for a new database and creates the schema in it: a file
emptied to 0 bytes (a bad copy, a full disk during a restore, a stray ``> troika.db``) or
deleted would start the bot with every table and rating gone, without a word. Where the bot
has run before it leaves traces beside the file (its lock file, and its backups), so an empty
or missing file there is a loss, not a first start: ``check_not_lost`` refuses it in one line
naming the newest backup and how to restore it. ``python -m bot --fresh-start`` is the
operator saying that an empty database is what he wants.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.instance_lock import lock_path
from bot.storage.startup import StartupError


def backups_of(database: Path, folder: Path) -> list[Path]:
    """The backups of ``database`` in ``folder`` (taken by hand or daily), newest first."""
    try:
        found = [p for p in folder.glob(f"{database.stem}-*.db") if p.is_file()]
    except OSError:  # an unreadable folder holds no backup we could name
        return []
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def check_not_lost(database: Path, backup_folder: Path) -> None:
    """``StartupError`` if ``database`` is empty or missing although the bot ran on it before
    (its lock file or a backup of it exists). Runs before the lock is taken: taking it creates
    the lock file, which would make every first start look like a second one."""
    if database.exists() and database.stat().st_size > 0:
        return
    backups = backups_of(database, backup_folder)
    lock = lock_path(database)
    if not backups and not lock.exists():
        return  # a first start: SQLite creates the database
    what = "is empty (0 bytes)" if database.exists() else "is missing"
    seen = f"its backups in {backup_folder}" if backups else f"its lock file {lock}"
    if backups:
        todo = (
            f"restore the newest backup: `cp {backups[0]} {database}` (delete "
            f"{database.name}-wal and {database.name}-shm beside it if they exist; README "
            "'Backups')"
        )
    else:
        todo = f"restore it from a copy of your own (there is no backup in {backup_folder})"
    raise StartupError(
        f"{database} {what} but the bot has run on it before ({seen}): every table and rating "
        f"would be gone. {todo}, or start with `python -m bot --fresh-start` if an empty "
        "database is what you want."
    )
