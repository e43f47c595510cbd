"""The action log (migration 4): ``actions`` keyed by (table_id, move_number) without a separate
index, an ended game's actions compacted into one compressed row that still replays, and an old
database migrated (its ended games compacted, its playing tables' rows kept)."""

from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path

import pytest

import engine
from bot.storage import action_log
from bot.storage import repository as repo
from bot.storage.migrations import MIGRATIONS, migrate, schema_version


def log_migration() -> int:
    return next(i for i, sql in enumerate(MIGRATIONS) if "CREATE TABLE action_logs" in sql)


def played(game: str, players: int, moves: int, seed: int) -> tuple[str, list[tuple[int, str]]]:
    """(the dealt game's snapshot, ``moves`` first-legal moves of it)."""
    state = engine.new_game(game, players, seed=seed)
    initial, out = state.to_json(), []
    for _ in range(moves):
        seat = state.to_act()[0]
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        out.append((seat, action))
    return initial, out


def store_table(
    conn: sqlite3.Connection, table_id: int, status: str, moves: list[tuple[int, str]], initial: str
) -> None:
    conn.execute(
        "INSERT INTO tables (id, channel_id, game, host_id, status, created_at, snapshot,"
        " initial_snapshot, move_number) VALUES (?, ?, 'troeven', 1, ?, 0.0, ?, ?, ?)",
        (table_id, 100 + table_id, status, initial, initial, len(moves)),
    )
    for seat in (0, 1):
        conn.execute(
            "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
            (table_id, seat, 10 + seat, f"P{seat}"),
        )
    for number, (seat, action) in enumerate(moves, 1):
        conn.execute(
            "INSERT INTO actions (table_id, move_number, seat, action, source, user_id, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, number, seat, action, "player" if seat == 0 else "ai",
             10 if seat == 0 else None, 1_800_000_000.0 + number * 1.5),
        )  # fmt: skip


def as_tuples(rows: list[action_log.ActionRow]) -> list[tuple[object, ...]]:
    return [(r.move_number, r.seat, r.action, r.source, r.user_id, r.at) for r in rows]


def test_an_old_database_migrates_and_its_ended_games_are_compacted(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "old.db", isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    migrate(conn, MIGRATIONS[: log_migration()])
    initial, moves = played("troeven", 2, 60, seed=3)
    store_table(conn, 1, "finished", moves, initial)
    store_table(conn, 2, "playing", moves[:20], initial)
    before = {
        t: conn.execute(
            "SELECT move_number, seat, action, source, user_id, at FROM actions"
            " WHERE table_id = ? ORDER BY move_number",
            (t,),
        ).fetchall()
        for t in (1, 2)
    }
    assert len(before[1]) == 60 and len(before[2]) == 20

    assert migrate(conn) == len(MIGRATIONS) == schema_version(conn)
    # The ended game is one compressed row; the playing one keeps its rows.
    assert conn.execute("SELECT table_id, moves FROM action_logs").fetchall() == [(1, 60)]
    counts = dict(conn.execute("SELECT table_id, count(*) FROM actions GROUP BY table_id"))
    assert counts == {2: 20}
    assert {t: as_tuples(repo.load_actions(conn, t)) for t in (1, 2)} == before
    # The ended game's dealt game moved into its compressed row, and its last snapshot (the
    # replay's) is dropped; the playing table keeps both.
    stored = conn.execute("SELECT id, initial_snapshot, snapshot FROM tables ORDER BY id")
    assert stored.fetchall() == [(1, None, None), (2, initial, initial)]
    assert repo.load_game(conn, 1).initial_snapshot == initial
    # Old snapshots stood at their move number.
    assert conn.execute("SELECT snapshot_move FROM tables ORDER BY id").fetchall() == [(60,), (20,)]
    # The action log is its own key: no rowid, no separate index.
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'actions'").fetchone()[0]
    assert "WITHOUT ROWID" in sql
    indexes = conn.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'actions'"
                           " AND type = 'index' AND sql IS NOT NULL").fetchall()  # fmt: skip
    assert indexes == []
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    # A move repeated is refused by the key.
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO actions (table_id, move_number, seat, action, source, at)"
            " VALUES (2, 20, 0, 'x', 'ai', 0.0)"
        )
    # Deleting a table still takes its log (both forms) with it.
    conn.execute("DELETE FROM tables WHERE id IN (1, 2)")
    assert conn.execute("SELECT count(*) FROM action_logs").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM actions").fetchone()[0] == 0
    assert migrate(conn) == len(MIGRATIONS)  # again: nothing to do


def test_a_compacted_log_replays_the_game_and_is_much_smaller(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "new.db", isolation_level=None)
    migrate(conn)
    initial, moves = played("troeven", 2, 200, seed=8)
    store_table(conn, 1, "finished", moves, initial)
    rows = repo.load_actions(conn, 1)
    raw = sum(len(r.action) + 24 for r in rows)  # the row's values, without SQLite's overhead
    assert action_log.compact(conn, 1) == 200
    assert conn.execute("SELECT count(*) FROM actions").fetchone()[0] == 0
    blob = conn.execute("SELECT log FROM action_logs WHERE table_id = 1").fetchone()[0]
    assert len(blob) * 5 < raw + len(initial)
    record = repo.load_game(conn, 1)
    again = record.actions
    assert as_tuples(again) == as_tuples(rows)  # player moves get their seat's user id back
    assert record.initial_snapshot == initial
    game = engine.load(record.initial_snapshot)
    for row in again:
        game.apply(row.seat, row.action)
    state = engine.load(initial)
    for seat, action in moves:
        state.apply(seat, action)
    assert game.to_json() == state.to_json()
    # A forgotten member's seat loses its user id, and so do his moves in the compacted log.
    conn.execute("UPDATE seats SET user_id = NULL WHERE table_id = 1 AND seat = 0")
    assert {r.user_id for r in repo.load_actions(conn, 1)} == {None}


def test_a_damaged_compacted_log_is_refused_with_its_reason(tmp_path: Path) -> None:
    with pytest.raises(action_log.BadLog, match="damaged"):
        action_log.decode(b"not zlib", {})
    with pytest.raises(action_log.BadLog, match="format"):
        action_log.decode(zlib.compress(b'{"v": 99}'), {})
