"""Backups with SQLite's online backup API: safe while the bot runs and writes.

The copy is taken in one step, inside one read transaction: in WAL mode a reader never blocks
the writer, and a single step cannot be restarted by the writes that go on meanwhile (a stepped
backup restarts whenever another connection writes, so on a busy bot it might never finish).
The copy is written beside its target as ``*.part``, checked with ``PRAGMA quick_check``,
switched to a single file (journal_mode=DELETE: no -wal to carry along) and only then renamed
into place: a file with a backup's name is always a whole backup.

``python -m bot backup [PATH]`` takes one by hand (named ``<db>-<UTC time>.db`` under
``BACKUP_DIR`` unless PATH says otherwise); the running bot takes one every ``BACKUP_HOURS``
(named ``<db>-daily-<UTC time>.db``) and keeps the newest ``BACKUP_KEEP`` of those. Backups
taken by hand are never pruned. Restoring is a file copy with the bot stopped (README).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.storage.startup import StartupError, check_not_emptied

log = logging.getLogger(__name__)

STAMP = "%Y%m%d-%H%M%S"
DAILY = "daily"
#: A failed scheduled backup is tried again after this long (not at once: the disk may be full).
RETRY_SECONDS = 3600.0


class BackupError(Exception):
    """A backup was refused or failed; ``str()`` is one line naming the file and the cause.
    Nothing is left behind: no target, no ``.part`` file."""


@dataclass(frozen=True)
class BackupReport:
    path: Path
    bytes: int
    seconds: float
    schema_version: int

    def line(self) -> str:
        return (
            f"backed up to {self.path} ({self.bytes:,} bytes, schema {self.schema_version}, "
            f"{self.seconds:.2f} s)"
        )


def backup_name(database: Path, when: float, kind: str | None = None) -> str:
    stamp = datetime.fromtimestamp(when, UTC).strftime(STAMP)
    middle = f"-{kind}" if kind else ""
    return f"{database.stem}{middle}-{stamp}.db"


def resolve_target(database: Path, path: Path | None, directory: Path, now: float) -> Path:
    """Where ``python -m bot backup [PATH]`` writes: PATH itself, a timestamped file inside
    PATH if it is a folder, or a timestamped file in ``directory``."""
    if path is None:
        return directory / backup_name(database, now)
    if path.is_dir():
        return path / backup_name(database, now)
    return path


def take_backup(database: Path, target: Path) -> BackupReport:
    """Copy ``database`` into the new file ``target`` (refused if it exists)."""
    started = time.perf_counter()
    try:
        check_not_emptied(database)
    except StartupError as error:
        raise BackupError(str(error)) from None
    if not database.is_file() or database.stat().st_size == 0:
        raise BackupError(f"there is no database at {database}: check DATABASE_PATH.")
    if target.resolve() == database.resolve():
        raise BackupError(f"{target} is the database itself: choose another PATH.")
    if target.exists():
        raise BackupError(f"{target} already exists: choose another PATH or remove it first.")
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    part.unlink(missing_ok=True)
    try:
        # Read-only: the backup never writes to the live database (nor deletes its WAL).
        source = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
        try:
            source.execute("PRAGMA busy_timeout=5000")
            copy = sqlite3.connect(part, isolation_level=None)
            try:
                source.backup(copy)  # pages=-1: one step, one consistent snapshot
                copy.execute("PRAGMA journal_mode=DELETE")
                check = [row[0] for row in copy.execute("PRAGMA quick_check").fetchall()]
                if check != ["ok"]:
                    raise BackupError(f"the copy of {database} failed quick_check: {check[0]}")
                version = int(copy.execute("PRAGMA user_version").fetchone()[0])
            finally:
                copy.close()
        finally:
            source.close()
        _fsync(part)
        os.replace(part, target)
        _fsync(target.parent)
    except sqlite3.Error as error:
        part.unlink(missing_ok=True)
        raise BackupError(f"backing up {database} to {target} failed: {error}") from error
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return BackupReport(target, target.stat().st_size, time.perf_counter() - started, version)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:  # some filesystems refuse to fsync a directory
        pass
    finally:
        os.close(fd)


def daily_backups(directory: Path, database: Path) -> list[tuple[float, Path]]:
    """The scheduled backups of ``database`` in ``directory``, oldest first, with their time."""
    pattern = re.compile(rf"{re.escape(database.stem)}-{DAILY}-(\d{{8}}-\d{{6}})\.db")
    found: list[tuple[float, Path]] = []
    with contextlib.suppress(FileNotFoundError):
        for path in directory.iterdir():
            match = pattern.fullmatch(path.name)
            if match:
                when = datetime.strptime(match[1], STAMP).replace(tzinfo=UTC).timestamp()
                found.append((when, path))
    return sorted(found)


def prune(directory: Path, database: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` scheduled backups; returns what was deleted."""
    if keep < 1:
        raise ValueError(f"keep must be 1 or more, not {keep}")
    old = [path for _, path in daily_backups(directory, database)[:-keep]]
    for path in old:
        path.unlink(missing_ok=True)
    return old


async def backup_loop(
    database: Path,
    directory: Path,
    *,
    hours: float,
    keep: int,
    clock: Callable[[], float] = time.time,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """Every ``hours``, a backup in ``directory``, then prune to ``keep``. The clock starts from
    the newest scheduled backup, so restarts (even a crash loop) take no extra backups; with
    none yet, the first is taken at once. Failures are logged and retried, never fatal."""
    every = hours * 3600.0
    while True:
        existing = daily_backups(directory, database)
        now = clock()
        due = existing[-1][0] + every if existing else now
        if due > now:
            await sleep(due - now)
            continue  # look again: a backup may have appeared meanwhile
        target = directory / backup_name(database, now, DAILY)
        try:
            report = await asyncio.to_thread(take_backup, database, target)
        except Exception as error:
            log.error("scheduled backup failed (next try in 1 h): %s", error)
            await sleep(RETRY_SECONDS)
            continue
        removed = await asyncio.to_thread(prune, directory, database, keep)
        log.info("%s; %d old backup(s) removed", report.line(), len(removed))
