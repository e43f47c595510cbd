"""Migration 3 (the table record): the ``tables`` table is rebuilt with status ``broken``, its
reason, and the May I window's deadline in its own column; nothing else is lost, malformed
rows are copied as they are, and foreign keys hold."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage.migrations import MIGRATIONS, migrate, schema_version


def table_record_migration() -> int:
    return next(i for i, sql in enumerate(MIGRATIONS) if "window_deadline REAL" in sql)


def old_database(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    migrate(conn, MIGRATIONS[: table_record_migration()])
    rows = [
        # id, channel, status, deadlines
        (1, 10, "playing", '{"0":1900000000.0,"-1":1900000045.5}'),
        (2, 11, "playing", '{"1":1900000001.0}'),
        (3, 12, "playing", "{not json"),
        (4, 13, "finished", "{}"),
        (5, 14, "playing", "[1, 2]"),
    ]
    for table_id, channel, status, deadlines in rows:
        conn.execute(
            "INSERT INTO tables (id, channel_id, guild_id, game, host_id, status, created_at,"
            " deadlines, snapshot) VALUES (?, ?, 7, 'troeven', 1, ?, 0.0, ?, 'x')",
            (table_id, channel, status, deadlines),
        )
        conn.execute(
            "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, 0, 1, 'Ann')",
            (table_id,),
        )
        conn.execute(
            "INSERT INTO actions (table_id, move_number, seat, action, source, at)"
            " VALUES (?, 1, 0, 'pass', 'player', 1.0)",
            (table_id,),
        )
    conn.execute(
        "INSERT INTO results (table_id, channel_id, game, options, status, hands, ended_at)"
        " VALUES (4, 13, 'troeven', '{}', 'finished', 1, 5.0)"
    )
    return conn


def test_the_window_deadline_moves_to_its_column_and_nothing_is_lost(tmp_path: Path) -> None:
    conn = old_database(tmp_path / "old.db")
    before = {
        t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()
        for t in ("seats", "actions", "results")
    }
    upto = table_record_migration() + 1  # (later migrations rebuild the action log)
    assert migrate(conn, MIGRATIONS[:upto]) == upto == schema_version(conn)
    rows = conn.execute(
        "SELECT id, deadlines, window_deadline, broken_reason FROM tables ORDER BY id"
    ).fetchall()
    assert rows == [
        (1, '{"0":1900000000.0}', 1900000045.5, None),
        (2, '{"1":1900000001.0}', None, None),
        (3, "{not json", None, None),  # left for the loader to report
        (4, "{}", None, None),
        (5, "[1, 2]", None, None),
    ]
    for table, kept in before.items():  # the rebuild deleted nothing by cascade
        assert conn.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall() == kept
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    # The new status is allowed, and the one-open-table-per-channel index is back.
    conn.execute("UPDATE tables SET status = 'broken', broken_reason = 'x' WHERE id = 1")
    conn.execute(
        "INSERT INTO tables (channel_id, game, host_id, status, created_at)"
        " VALUES (10, 'troeven', 1, 'lobby', 0.0)"
    )
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO tables (channel_id, game, host_id, status, created_at)"
            " VALUES (10, 'troeven', 1, 'lobby', 0.0)"
        )
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE tables SET status = 'lost' WHERE id = 2")
    # Deleting a table still cascades to its seats (the foreign keys point at the new table).
    conn.execute("DELETE FROM tables WHERE id = 2")
    assert conn.execute("SELECT count(*) FROM seats WHERE table_id = 2").fetchone()[0] == 0


def test_migrating_again_changes_nothing(tmp_path: Path) -> None:
    conn = old_database(tmp_path / "old.db")
    migrate(conn)
    before = conn.execute("SELECT * FROM tables ORDER BY id").fetchall()
    assert migrate(conn) == len(MIGRATIONS)
    assert conn.execute("SELECT * FROM tables ORDER BY id").fetchall() == before
