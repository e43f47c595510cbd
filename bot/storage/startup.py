"""Checks the database must pass before the bot serves anyone.

Each failure raises ``StartupError``: one line naming the file and what to do, which the entry
point prints instead of a traceback. Starting anyway would be worse than not starting: a
read-only file would refuse every move after a "healthy" start, a damaged file would fail at
random, and a database emptied beside its WAL would start empty and throw the WAL away (SQLite
deletes the WAL of a 0-byte database as soon as it reads it).
"""

from __future__ import annotations

import logging
import sqlite3
import struct
import time
from pathlib import Path

log = logging.getLogger(__name__)

#: The first 16 bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
FRAME_HEADER = 24
#: A WAL at least this big when the bot opens is worth a line in the log once checkpointed.
BIG_WAL = 16 * 1024 * 1024


class StartupError(Exception):
    """The database cannot be served; ``str()`` is the one line to show the operator."""


def wal_path(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def committed_wal_frames(wal: Path) -> int:
    """Commit frames of the WAL's current generation (frames carrying the header's salts):
    transactions that exist only in the WAL until a checkpoint copies them. Checksums are not
    verified: a torn last frame counts, which errs on the side of refusing."""
    try:
        with wal.open("rb") as f:
            header = f.read(WAL_HEADER)
            if len(header) < WAL_HEADER:
                return 0
            magic, _, page_size, _, salt1, salt2 = struct.unpack(">6I", header[:24])
            if magic not in WAL_MAGIC or page_size < 512:
                return 0
            commits = 0
            offset = WAL_HEADER
            while True:
                f.seek(offset)
                frame = f.read(FRAME_HEADER)
                if len(frame) < FRAME_HEADER:
                    return commits
                _, db_size, s1, s2 = struct.unpack(">4I", frame[:16])
                if (s1, s2) != (salt1, salt2):  # frames of an earlier generation
                    return commits
                commits += db_size != 0
                offset += FRAME_HEADER + page_size
    except FileNotFoundError:
        return 0


def check_not_emptied(path: Path) -> int:
    """Refuse a main file that is empty or has no SQLite header while its WAL holds committed
    transactions. Runs before any connection: SQLite itself would delete that WAL. Returns the
    WAL's committed frames (``check_schema_seen`` uses them after the open)."""
    wal = wal_path(path)
    commits = committed_wal_frames(wal)
    if commits == 0 or not path.exists():
        return commits
    with path.open("rb") as f:
        head = f.read(len(SQLITE_HEADER))
    if head != SQLITE_HEADER:
        what = "is empty (0 bytes)" if not head else "has no SQLite header"
        raise StartupError(
            f"{path} {what} but {wal.name} beside it holds {commits} committed transaction(s): "
            "the database file was truncated or overwritten, and opening it would discard the WAL: "
            "restore the file (or the newest backup, see README 'Backups') and start again."
        )
    return commits


def check_schema_seen(conn: sqlite3.Connection, path: Path, wal_commits: int) -> None:
    """A WAL with committed transactions that still shows no schema was not applied."""
    if wal_commits == 0:
        return
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if tables == 0 and version == 0:
        raise StartupError(
            f"{path} shows no schema although {wal_path(path).name} holds {wal_commits} "
            "committed transaction(s): the database file was replaced. Restore it (or the "
            "newest backup, see README 'Backups') and start again."
        )


def check_integrity(conn: sqlite3.Connection, path: Path) -> None:
    """``PRAGMA quick_check``: the b-trees are well formed (O(size), no index cross-checks)."""
    try:
        rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.DatabaseError as error:  # damage that stops the check itself
        rows = [str(error)]
    if rows != ["ok"]:
        first = " ".join(rows[0].split()) if rows else "no answer"
        raise StartupError(
            f"{path} failed PRAGMA quick_check ({len(rows)} problem(s), first: {first[:120]}): "
            "stop here, keep a copy, then restore the newest backup (see README 'Backups') "
            f"or try `sqlite3 {path} .recover`."
        )


def probe_write(conn: sqlite3.Connection) -> None:
    """One real write, committed: a file the bot cannot write fails here, not on the first
    move. Setting ``user_version`` to its own value changes nothing but writes a page."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def checkpoint_at_open(conn: sqlite3.Connection, path: Path) -> None:
    """Copy whatever a previous life left in the WAL and truncate it: after a crash loop the
    WAL would otherwise keep every frame since the last clean close (it grew past 100 MB).
    It does not wait: a terminal table opening beside the running bot must not hold the bot's
    commits back for the busy timeout. What another process's reader or writer keeps is
    logged, not fatal; the running bot's own checkpoints catch up."""
    wal = wal_path(path)
    before = wal.stat().st_size if wal.exists() else 0
    started = time.perf_counter()
    timeout = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute("PRAGMA busy_timeout=0")
    try:
        busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        conn.execute(f"PRAGMA busy_timeout={int(timeout)}")
    after = wal.stat().st_size if wal.exists() else 0
    if busy:
        log.warning(
            "%s: WAL checkpoint at open copied %d of %d frames (another connection reads)",
            path,
            copied,
            frames,
        )
    elif before >= BIG_WAL:
        log.info(
            "%s: checkpointed a %.1f MB WAL at open in %.2f s (now %d bytes)",
            path,
            before / 1e6,
            time.perf_counter() - started,
            after,
        )


def unwritable(path: Path, error: OSError) -> StartupError:
    """A file the bot must create or write in its data folder, refused by the system (a
    read-only folder or mount), as one line saying what to do."""
    return StartupError(
        f"{path} cannot be created or written ({error.strerror or error}): the bot keeps its "
        f"database, the database's journal and lock in {path.parent}; give the bot's user "
        "write access to that folder (or mount it read-write), or set DATABASE_PATH to a "
        "writable folder."
    )


def explain(error: sqlite3.Error, path: Path) -> StartupError:
    """SQLite's error at open, as one line saying what to do."""
    text = str(error)
    lowered = text.lower()
    if "readonly" in lowered or "read-only" in lowered:
        todo = "give the bot's user write access to the file and its folder"
    elif "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        todo = "restore the newest backup (see README 'Backups') or set DATABASE_PATH right"
    elif "unable to open" in lowered:
        todo = "check that the folder exists and the bot's user may create files in it"
    elif "locked" in lowered or "busy" in lowered:
        todo = "another process holds a write lock on it: stop it and start again"
    elif "full" in lowered or "disk i/o" in lowered:
        todo = "free disk space (or fix the disk) and start again"
    else:
        todo = "fix the file or restore the newest backup (see README 'Backups')"
    return StartupError(f"{path} cannot be used ({text}): {todo}.")
