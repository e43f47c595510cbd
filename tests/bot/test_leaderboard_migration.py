"""The leaderboard's migration upgrades a database made by the previous schema without losing
its data, and the games recorded before it are rated afterwards."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from test_leaderboard_helpers import GUILD, P, open_db, record

from bot.leaderboard import store
from bot.storage import repository as repo
from bot.storage.migrations import MIGRATIONS, migrate, schema_version

LEADERBOARD_TABLES = {
    "seasons",
    "ratings",
    "rated_games",
    "rating_changes",
    "board_hidden",
    "guild_settings",
    "guild_game_defaults",
}


def leaderboard_migration() -> int:
    """Index of the migration that creates the leaderboard tables."""
    return next(i for i, sql in enumerate(MIGRATIONS) if "CREATE TABLE ratings" in sql)


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def dump(conn: sqlite3.Connection, table: str) -> list[tuple[object, ...]]:
    return conn.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()


def test_upgrade_from_the_previous_schema_keeps_the_data(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    previous = MIGRATIONS[: leaderboard_migration()]
    old = open_db(path, previous)
    assert schema_version(old) == len(previous)
    assert not tables(old) & LEADERBOARD_TABLES
    first = record(old, "troggu", [P(1, 30, True), P(2, 10), P(3, 5)], ended_at=1000)
    record(old, "troeven", [P(1, 7, True), P(2, 3)], status="abandoned", ended_at=2000)
    kept = {t: dump(old, t) for t in ("tables", "seats", "actions", "results", "result_players")}
    old.close()

    conn = sqlite3.connect(str(path), isolation_level=None)
    assert migrate(conn) == len(MIGRATIONS)
    assert schema_version(conn) == len(MIGRATIONS)
    assert tables(conn) >= LEADERBOARD_TABLES
    log = kept.pop("actions")
    for table, rows in kept.items():
        # (later migrations may add columns: the old ones keep their values)
        now = dump(conn, table)
        assert [new[: len(was)] for new, was in zip(now, rows, strict=True)] == rows, table
    # The ended games' actions were compacted (migration 4): the same moves come back.
    # (id, table_id, move_number, seat, action, source, user_id, at)
    assert log
    for table_id in {row[1] for row in log}:
        was = [row[2:] for row in log if row[1] == table_id]
        now = repo.load_actions(conn, table_id)
        assert [(a.move_number, a.seat, a.action, a.source, a.user_id, a.at) for a in now] == was

    # The games recorded before the upgrade are rated by the first catch-up.
    outcomes = store.catch_up(conn, 3000.0)
    assert [(g.table_id, g.rated) for g in outcomes] == [(first, True), (first + 1, False)]
    assert {s.user_id for s in store.board(conn, GUILD, 1, "troggu")} == {1, 2, 3}


def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    conn = open_db(tmp_path / "db.db")
    record(conn, "troeven", [P(1, 7, True), P(2, 3)])
    before = dump(conn, "results")
    assert migrate(conn) == len(MIGRATIONS)
    assert dump(conn, "results") == before
