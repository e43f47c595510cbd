"""PostgreSQL as the bot's database: the same migrations as SQLite's (one schema, however many
processes migrate at once), the placeholder translation, DATABASE_URL, and the write guard that
refuses a second writer on either backend."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot.settings import Settings, SettingsError
from bot.storage import MIGRATIONS, PgDatabase, database_for, migrate, schema_version
from bot.storage import migrations_postgres as pgm
from bot.storage import repository as repo
from bot.storage.connection import to_psycopg
from bot.storage.postgres import connect
from bot.storage.startup import StartupError
from tests.bot.databases import connect as connect_target
from tests.postgres_server import PostgresServer


@pytest.fixture
def empty_url(pg_server: PostgresServer) -> Iterator[str]:
    """A PostgreSQL database with no schema at all."""
    name = pg_server.create_empty_database()
    try:
        yield pg_server.url(name)
    finally:
        pg_server.drop_database(name)


def columns_pg(conn: Any) -> dict[str, list[str]]:
    rows = conn.execute(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = 'public' AND table_name <> 'meta'"
        " ORDER BY table_name, ordinal_position"
    ).fetchall()
    out: dict[str, list[str]] = {}
    for table, column in rows:
        out.setdefault(table, []).append(column)
    return out


def columns_sqlite(conn: sqlite3.Connection) -> dict[str, list[str]]:
    names = [
        r[0]
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    ]
    return {name: [c[1] for c in conn.execute(f"PRAGMA table_info({name})")] for name in names}


def test_both_backends_have_the_same_migrations_and_end_with_the_same_columns(
    empty_url: str,
) -> None:
    assert len(pgm.MIGRATIONS) == len(MIGRATIONS)
    lite = sqlite3.connect(":memory:", isolation_level=None)
    pg = connect(empty_url)
    try:
        for upto in range(1, len(MIGRATIONS) + 1):  # version by version, not only the last
            assert migrate(lite, MIGRATIONS[:upto]) == upto == schema_version(lite)
            assert migrate(pg, pgm.MIGRATIONS[:upto]) == upto == schema_version(pg)
            assert columns_pg(pg) == columns_sqlite(lite), f"after migration {upto}"
        assert migrate(pg) == len(MIGRATIONS)  # running again changes nothing
    finally:
        pg.close()
        lite.close()


def test_migration_3_moves_the_window_deadline_out_of_deadlines(empty_url: str) -> None:
    conn = connect(empty_url)
    try:
        migrate(conn, pgm.MIGRATIONS[:2])
        for channel, deadlines in enumerate(['{"0": 5.0, "-1": 9.5}', '{"1": 2.0}', "not json"]):
            conn.execute(
                "INSERT INTO tables (channel_id, game, host_id, status, created_at, deadlines)"
                " VALUES (?, 'troika', 1, 'playing', 0, ?)",
                (channel, deadlines),
            )
        migrate(conn)
        rows = conn.execute(
            "SELECT deadlines, window_deadline FROM tables ORDER BY channel_id"
        ).fetchall()
    finally:
        conn.close()
    assert rows == [('{"0":5.0}', 9.5), ('{"1": 2.0}', None), ("not json", None)]


def test_processes_migrating_together_make_one_schema_without_error(empty_url: str) -> None:
    start = threading.Barrier(6)
    outcomes: list[object] = []

    def one() -> None:
        conn = connect(empty_url)
        try:
            start.wait()
            outcomes.append(migrate(conn))
        except Exception as error:  # noqa: BLE001 - the assertion below shows it
            outcomes.append(error)
        finally:
            conn.close()

    threads = [threading.Thread(target=one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes == [len(MIGRATIONS)] * 6
    conn = connect(empty_url)
    try:
        assert schema_version(conn) == len(MIGRATIONS)
        (tables,) = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
            " AND table_name = 'tables'"
        ).fetchone()
        assert tables == 1
    finally:
        conn.close()


def test_a_failing_migration_leaves_nothing_behind(empty_url: str) -> None:
    conn = connect(empty_url)
    try:
        migrate(conn)
        broken = [*pgm.MIGRATIONS, "CREATE TABLE ok (x BIGINT); CREATE TABLE broken (;"]
        with pytest.raises(Exception, match="syntax"):
            migrate(conn, broken)
        assert schema_version(conn) == len(MIGRATIONS)
        (ok,) = conn.execute("SELECT to_regclass('ok') IS NULL").fetchone()
        assert ok
    finally:
        conn.close()


async def test_a_newer_schema_is_refused_at_open(pg_url: str) -> None:
    conn = connect(pg_url)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.close()
    db = PgDatabase(pg_url)
    with pytest.raises(StartupError, match="schema version 99 is newer than this code"):
        await db.open()
    assert not db.is_open


async def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    db = database_for("postgresql://bot:s3cret@127.0.0.1:1/troika?connect_timeout=2")
    with pytest.raises(StartupError) as caught:
        await db.open()
    text = str(caught.value)
    assert "postgresql://bot@127.0.0.1:1/troika cannot be used" in text
    assert "DATABASE_URL" in text and "s3cret" not in text and "\n" not in text
    assert "s3cret" not in repr(db)


def test_placeholders_are_translated_outside_quotes() -> None:
    assert to_psycopg("SELECT ? WHERE a = '?' AND b LIKE 'x%'") == (
        "SELECT %s WHERE a = '?' AND b LIKE 'x%%'"
    )
    assert to_psycopg('SELECT "we?ird", ? FROM t') == 'SELECT "we?ird", %s FROM t'


def test_database_url_selects_postgres_and_is_never_shown_with_its_password(
    tmp_path: Path,
) -> None:
    url = "postgresql://bot:s3cret@db.example:5432/troika"
    s = Settings.load(env_file=tmp_path / "none", environ={"DATABASE_URL": url})
    assert s.database_url == url and s.database == url
    assert "s3cret" not in repr(s) and "postgresql://bot@db.example:5432/troika" in repr(s)
    assert isinstance(database_for(s.database), PgDatabase)
    plain = Settings.load(env_file=tmp_path / "none", environ={})
    assert plain.database_url is None and plain.database == plain.database_path
    with pytest.raises(SettingsError, match="DATABASE_URL must be a postgresql:// URL") as bad:
        Settings.load(env_file=tmp_path / "none", environ={"DATABASE_URL": "mysql://u:pw@h/d"})
    assert "pw" not in str(bad.value)


# -- the write guard, on both backends -------------------------------------------------------------
def _move(table_id: int, number: int) -> Any:
    return lambda c: repo.record_action(
        c,
        table_id,
        move_number=number,
        seat=0,
        action="pass",
        source="player",
        user_id=1,
        at=1.0,
        hands=0,
        deadlines={},
    )


async def test_a_second_writer_on_a_table_is_refused_not_merged(db_path: Path | str) -> None:
    """Two processes loaded the table at move 0 (a rogue second bot on the same shard): the
    first one's move stands; the other's move and its record write are both refused whole."""
    ours, rogue = database_for(db_path), database_for(db_path)
    await ours.open()
    await rogue.open()
    try:
        columns = {"channel_id": 7, "game": "troika", "host_id": 1, "status": "playing"}
        columns |= {"seed": 1, "created_at": 0.0}
        seats = [repo.Seat(index=0, name="Ann", user_id=1)]
        table_id = await ours.write(lambda c: repo.insert_table(c, columns, seats))
        loaded = await rogue.run(lambda c: repo.load_table(c, table_id))
        assert loaded is not None and loaded.columns["move_number"] == 0

        await ours.write(_move(table_id, 1))
        with pytest.raises(repo.StaleWrite):
            await rogue.write(_move(table_id, 1))  # the same move again, from its stale state
        stale = {**loaded.columns, "spectators": "[99]"}  # the rogue's whole record, at move 0
        renamed = [repo.Seat(index=0, name="Rogue", user_id=1)]
        with pytest.raises(repo.StaleWrite, match="another process"):
            await rogue.write(lambda c: repo.update_table(c, table_id, stale, renamed))

        row = await ours.run(lambda c: repo.load_table(c, table_id))
        assert row is not None
        assert row.columns["move_number"] == 1 and row.columns["spectators"] == "[]"
        assert [s.name for s in row.seats] == ["Ann"]  # its seats were rolled back with it
        actions = await ours.run(lambda c: repo.load_actions(c, table_id))
        assert [(a.move_number, a.action) for a in actions] == [(1, "pass")]
        current = {**row.columns, "spectators": "[5]"}  # the owner, up to date, may write
        await ours.write(lambda c: repo.update_table(c, table_id, current))
        # In a lobby the move number stays 0: the record's version tells the writers apart.
        reloaded = await rogue.run(lambda c: repo.load_table(c, table_id))
        assert reloaded is not None and reloaded.columns["version"] == 1
        newer = {**current, "version": 1, "spectators": "[6]"}  # (ours counts its writes)
        await ours.write(lambda c: repo.update_table(c, table_id, newer))
        with pytest.raises(repo.StaleWrite, match="version 1"):
            await rogue.write(lambda c: repo.update_table(c, table_id, reloaded.columns))
    finally:
        await rogue.close()
        await ours.close()
    conn = connect_target(db_path)
    try:
        rows = conn.execute("SELECT spectators, version FROM tables").fetchall()
        assert rows == [("[6]", 2)]
    finally:
        conn.close()


async def test_a_lost_connection_fails_the_writes_then_and_the_next_ones_connect_again(
    pg_url: str,
) -> None:
    db = PgDatabase(pg_url)
    await db.open()
    try:
        columns = {"channel_id": 1, "game": "troika", "host_id": 1, "status": "lobby"}
        columns |= {"seed": 1, "created_at": 0.0}
        await db.write(lambda c: repo.insert_table(c, columns, []))
        pid = await db.run(lambda c: c.execute("SELECT pg_backend_pid()").fetchone()[0])
        admin = connect(pg_url)
        admin.execute("SELECT pg_terminate_backend(?)", (pid,))
        admin.close()
        again = {**columns, "channel_id": 2}
        with pytest.raises(psycopg.OperationalError):
            await db.write(lambda c: repo.insert_table(c, again, []))
        await db.write(lambda c: repo.insert_table(c, again, []))  # a new connection
        rows = await db.run(lambda c: c.execute("SELECT channel_id FROM tables").fetchall())
        assert sorted(rows) == [(1,), (2,)]
    finally:
        await db.close()
