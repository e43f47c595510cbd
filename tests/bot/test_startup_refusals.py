"""``python -m bot`` refuses in one line, before connecting to Discord (issue 31, items 4 and
5): a data folder it cannot write (a read-only folder or mount), and a database emptied or
deleted where the bot ran before (its lock file and backups are there), unless the operator
says it is a fresh start."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.__main__ as entry
from bot.app import run
from bot.app.client import TroikaBot
from bot.settings import Settings
from bot.storage import instance_lock
from bot.storage.backup import backup_name, take_backup
from bot.storage.instance_lock import InstanceLock
from tests.bot.storage.test_storage_startup import make_database


def settings_for(path: Path) -> Settings:
    return Settings(
        discord_token="x.y.z", dev_guild_id=None, database_path=path, ai_delay=0.0, log_level="INFO"
    )


@pytest.fixture
def no_discord(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The bot never connects: ``TroikaBot.run`` records that it was reached instead."""
    reached: list[str] = []

    def record(self: TroikaBot, *args: object, **kwargs: object) -> None:
        reached.append("run")

    monkeypatch.setattr(TroikaBot, "run", record)
    return reached


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    return err[0]


# -- 4. a data folder the bot cannot write ------------------------------------------------------
@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """``folder`` as the bot's user cannot create files in it (as root: ``chattr +i``)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: no way to make a folder read-only")
    done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"running as root and chattr +i failed: {done.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_read_only_data_folder_is_refused_in_one_line(
    tmp_path: Path, no_discord: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "troika.db"
    with read_only_folder(folder):
        with pytest.raises(OSError):  # really read-only, for this user too
            (folder / "probe").touch()
        assert run(settings_for(path)) == 1
    line = one_line(capsys)
    assert str(folder) in line and "write access" in line, line
    assert no_discord == []


def test_a_read_only_mount_is_refused_in_one_line(
    tmp_path: Path,
    no_discord: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "troika.db"

    def read_only_mount(*args: object, **kwargs: object) -> int:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(args[0]))

    monkeypatch.setattr(instance_lock.os, "open", read_only_mount)
    assert run(settings_for(path)) == 1
    line = one_line(capsys)
    assert os.strerror(errno.EROFS) in line and "write access" in line, line
    assert no_discord == []


# -- 5. a database emptied or deleted where the bot ran before ----------------------------------
def ran_before(path: Path) -> Path:
    """``path`` as the bot leaves it: a database, its lock file and daily backups (the newest
    returned). (Sync: ``run`` starts its own event loop.)"""
    asyncio.run(make_database(path))
    with InstanceLock(path):
        pass
    backups = path.parent / "backups"
    backups.mkdir()
    older = take_backup(path, backups / backup_name(path, 1_700_000_000.0, "daily")).path
    newest = take_backup(path, backups / backup_name(path, 1_700_086_400.0, "daily")).path
    os.utime(older, (1_700_000_000, 1_700_000_000))
    os.utime(newest, (1_700_086_400, 1_700_086_400))
    return newest


def tables_in(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize("how", ["emptied", "deleted"])
def test_a_lost_database_is_refused_naming_the_newest_backup(
    how: str, tmp_path: Path, no_discord: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "troika.db"
    newest = ran_before(path)
    if how == "emptied":
        path.write_bytes(b"")
    else:
        path.unlink()
    assert run(settings_for(path)) == 1
    line = one_line(capsys)
    assert line.startswith(str(path)) and str(newest) in line, line
    assert f"cp {newest} {path}" in line and "--fresh-start" in line, line
    assert no_discord == []
    # Nothing was created in its place.
    assert (path.stat().st_size == 0) if how == "emptied" else not path.exists()


def test_a_fresh_start_said_by_the_operator_starts_an_empty_database(
    tmp_path: Path, no_discord: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "troika.db"
    ran_before(path)
    path.write_bytes(b"")
    monkeypatch.setattr(Settings, "load", classmethod(lambda cls: settings_for(path)))
    assert entry.main(["--fresh-start"]) == 0
    assert no_discord == ["run"] and tables_in(path) > 0


def test_a_first_start_on_a_new_folder_is_not_refused(
    tmp_path: Path, no_discord: list[str]
) -> None:
    path = tmp_path / "data" / "troika.db"
    assert run(settings_for(path)) == 0
    assert no_discord == ["run"] and tables_in(path) > 0
    # An empty file put there by hand, with no earlier run, is a new database too.
    other = tmp_path / "other.db"
    other.write_bytes(b"")
    assert run(settings_for(other)) == 0
