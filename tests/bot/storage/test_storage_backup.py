"""Backups (bot/storage/backup.py): taken while moves are committed, restored as the README says,
played on; ``python -m bot backup``; the running bot's schedule and its pruning."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from discord.ext import commands

from bot.app.client import TroikaBot
from bot.service import Limits, TableService
from bot.settings import ROOT, Settings
from bot.storage import Database
from bot.storage.backup import (
    BackupError,
    backup_loop,
    backup_name,
    daily_backups,
    take_backup,
)
from bot.storage.migrations import MIGRATIONS
from bot.storage.startup import wal_path

ANN, BOB = 11, 12
CHANNELS = (101, 102, 103)


async def open_tables(service: TableService) -> None:
    for n, channel in enumerate(CHANNELS):
        await service.open_table(channel, None, ANN, "Ann", "troeven", seed=n + 1)
        await service.join(channel, BOB, "Bob")
        await service.start_game(channel, ANN)


async def play(service: TableService, channel: int, moves: int) -> int:
    """Up to ``moves`` legal moves by whoever must act; returns how many were played."""
    for done in range(moves):
        user = next((u for u in (ANN, BOB) if service.legal_actions(channel, u)), None)
        if user is None:  # the game is over
            return done
        await service.act(channel, user, service.legal_actions(channel, user)[0])
    return moves


#: Moves the writer plays at most while a backup is being copied (all tables together).
COPY_MOVES = 150


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def test_a_backup_taken_while_moves_go_on_restores_and_plays_on(tmp_path: Path) -> None:
    database = tmp_path / "data" / "troika.db"
    live = TableService(database, ai_delay=0, limits=Limits.none())
    await live.start()
    await open_tables(live)
    for channel in CHANNELS:
        assert await play(live, channel, 4) == 4
    at_start = {c: live.get_table(c).move_number for c in CHANNELS}  # type: ignore[union-attr]

    stop, copied = asyncio.Event(), asyncio.Event()
    played = [0]

    async def keep_playing() -> None:
        while not stop.is_set():
            # A slow copy (a loaded machine) must not outlast the games (a seeded game here
            # ends after 460-730 moves): past COPY_MOVES the writer waits for the copy's end.
            if played[0] >= COPY_MOVES and not copied.is_set():
                await copied.wait()
            for channel in CHANNELS:
                played[0] += await play(live, channel, 1)
            await asyncio.sleep(0)

    writer = asyncio.create_task(keep_playing())
    while played[0] < 10:  # the writer is under way
        await asyncio.sleep(0.001)
    target = tmp_path / "backups" / "troika-test.db"
    try:
        report = await asyncio.to_thread(take_backup, database, target)
    finally:
        copied.set()
    during = played[0]
    while played[0] < during + 10:  # and carries on after the copy
        await asyncio.sleep(0.001)
    stop.set()
    await writer
    at_end = {c: live.get_table(c).move_number for c in CHANNELS}  # type: ignore[union-attr]
    await live.close()

    # One whole file, checked, not the live database's WAL mode.
    assert report.path == target and report.bytes == target.stat().st_size > 0
    assert not wal_path(target).exists() and not target.with_name(target.name + ".part").exists()
    assert rows(target, "PRAGMA journal_mode") == [("delete",)]
    assert rows(target, "PRAGMA quick_check") == [("ok",)]
    # A consistent snapshot: every table's move count matches its action log, and lies between
    # what was played before the copy began and what was played by the end.
    saved = dict(rows(target, "SELECT channel_id, move_number FROM tables"))
    per_table = "SELECT t.channel_id, count(*) FROM tables t JOIN actions a ON a.table_id = t.id"
    logged = dict(rows(target, per_table + " GROUP BY t.id"))
    assert saved == logged
    for channel in CHANNELS:
        assert at_start[channel] <= saved[channel] <= at_end[channel]
    assert sum(saved.values()) < sum(at_end.values())  # moves were committed after the copy

    # Restore as the README says: bot stopped, backup copied over the file, -wal/-shm deleted.
    shutil.copyfile(target, database)
    for suffix in ("-wal", "-shm"):
        database.with_name(database.name + suffix).unlink(missing_ok=True)
    restored = TableService(database, ai_delay=0, limits=Limits.none())
    await restored.start()
    try:
        for channel in CHANNELS:
            table = restored.get_table(channel)
            assert table is not None and table.move_number == saved[channel]
            assert await play(restored, channel, 6) == 6
            assert restored.get_table(channel).move_number == saved[channel] + 6  # type: ignore[union-attr]
    finally:
        await restored.close()
    after = dict(rows(database, "SELECT channel_id, move_number FROM tables"))
    assert after == {c: saved[c] + 6 for c in CHANNELS}


async def test_refused_backups_change_nothing(tmp_path: Path) -> None:
    database = tmp_path / "troika.db"
    with pytest.raises(BackupError, match="there is no database at"):
        take_backup(database, tmp_path / "copy.db")
    assert not database.exists() and not (tmp_path / "copy.db").exists()

    db = Database(database)
    await db.open()
    await db.close()
    existing = tmp_path / "copy.db"
    existing.write_bytes(b"precious")
    with pytest.raises(BackupError, match="already exists"):
        take_backup(database, existing)
    assert existing.read_bytes() == b"precious"
    with pytest.raises(BackupError, match="is the database itself"):
        take_backup(database, tmp_path / "." / "troika.db")

    # An emptied database beside a WAL with commits: refused, and SQLite never deletes that WAL.
    wal = wal_path(database)
    conn = sqlite3.connect(database, isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("INSERT INTO board_hidden VALUES (1, 1, 0.0, NULL)")
    shutil.copyfile(wal, tmp_path / "kept-wal")
    conn.close()
    shutil.copyfile(tmp_path / "kept-wal", wal)
    database.write_bytes(b"")
    with pytest.raises(BackupError, match="is empty"):
        take_backup(database, tmp_path / "new.db")
    assert wal.read_bytes() == (tmp_path / "kept-wal").read_bytes()
    assert not (tmp_path / "new.db").exists() and not (tmp_path / "new.db.part").exists()


def backup_cli(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_PATH": str(database), "DISCORD_TOKEN": ""}
    env.pop("BACKUP_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "bot", "backup", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


async def test_python_m_bot_backup(tmp_path: Path) -> None:
    database = tmp_path / "troika.db"
    missing = backup_cli(database)
    assert missing.returncode == 1 and f"there is no database at {database}" in missing.stderr

    service = TableService(database, ai_delay=0, limits=Limits.none())
    await service.start()
    try:
        await open_tables(service)  # the bot is running while the copies are taken
        done = await asyncio.to_thread(backup_cli, database)
        assert done.returncode == 0, done.stderr
        (made,) = (tmp_path / "backups").iterdir()  # the default: backups/ beside the database
        assert made.name.startswith("troika-") and made.suffix == ".db"
        assert (
            done.stdout.startswith(f"backed up to {made} (")
            and f"schema {len(MIGRATIONS)}" in done.stdout
        )

        chosen = tmp_path / "elsewhere" / "copy.db"
        assert (await asyncio.to_thread(backup_cli, database, str(chosen))).returncode == 0
        assert len(rows(chosen, "SELECT id FROM tables")) == len(CHANNELS)
        again = await asyncio.to_thread(backup_cli, database, str(chosen))
        assert again.returncode == 1 and "already exists" in again.stderr

        folder = await asyncio.to_thread(backup_cli, database, str(tmp_path / "elsewhere"))
        assert folder.returncode == 0
        assert len(list((tmp_path / "elsewhere").glob("troika-*.db"))) == 1
    finally:
        await service.close()
    usage = backup_cli(database, "a", "b")
    assert usage.returncode == 2 and "usage:" in usage.stderr


class Stop(Exception):
    pass


async def test_the_schedule_keeps_the_newest_and_survives_restarts(tmp_path: Path) -> None:
    database = tmp_path / "troika.db"
    db = Database(database)
    await db.open()
    await db.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    by_hand = folder / backup_name(database, 1_000.0)  # taken by hand: never pruned
    by_hand.write_bytes(b"manual")
    now = [1_800_000_000.0]
    slept: list[float] = []

    def run_until(sleeps: int) -> None:
        async def sleep(seconds: float) -> None:
            slept.append(seconds)
            if len(slept) >= sleeps:
                raise Stop
            now[0] += seconds

        with pytest.raises(Stop):
            asyncio.run(
                backup_loop(database, folder, hours=24, keep=2, clock=lambda: now[0], sleep=sleep)
            )

    await asyncio.to_thread(run_until, 3)  # backups at once, after a day, after two days
    day = 86_400.0
    assert slept == [day, day, day]
    kept = daily_backups(folder, database)
    assert [when for when, _ in kept] == [now[0] - day, now[0]]  # the first was pruned
    assert by_hand.read_bytes() == b"manual"

    # A restart an hour later takes no extra backup: it waits for the rest of the day.
    now[0] += 3_600
    slept.clear()
    await asyncio.to_thread(run_until, 1)
    assert slept == [day - 3_600] and daily_backups(folder, database) == kept


async def test_the_bot_takes_scheduled_backups_and_stops_them_on_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def no_gateway(self: commands.AutoShardedBot) -> None:
        pass  # never logged in: nothing of discord.py's to close

    monkeypatch.setattr(commands.AutoShardedBot, "close", no_gateway)
    database = tmp_path / "troika.db"
    settings = Settings(
        discord_token=None,
        dev_guild_id=None,
        database_path=database,
        ai_delay=0.0,
        log_level="INFO",
        backup_hours=24.0,
        backup_keep=3,
    )
    service = TableService(database, ai_delay=0, limits=Limits.none())
    await service.start()
    bot = TroikaBot(settings, service=service, shard_count=1)
    bot._service_started = True  # as setup_hook leaves it
    bot.start_backups()
    for _ in range(500):
        if daily_backups(settings.backups, database):
            break
        await asyncio.sleep(0.01)
    assert len(daily_backups(settings.backups, database)) == 1  # the first one at once
    await bot.close()
    assert bot._backups is None and not service.db.is_open
