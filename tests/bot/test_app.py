"""Start-up of the Discord app: `python -m bot` dispatch, the missing-token message, the invite
URL's scopes and permissions, and that the token never reaches the logs."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

import bot.__main__ as entry
from bot.app import PERMISSIONS, invite_url, run
from bot.app.client import TroikaBot
from bot.settings import ROOT, Settings


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """``run`` configures the root logger (stderr, DEBUG here): undo it for the other tests."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    http_level = logging.getLogger("discord.http").level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.getLogger("discord.http").setLevel(http_level)


def _settings(tmp_path: Path, token: str | None) -> Settings:
    return Settings(
        discord_token=token,
        dev_guild_id=None,
        database_path=tmp_path / "t.db",
        ai_delay=0.0,
        log_level="DEBUG",
    )


def test_missing_token_exits_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert run(_settings(tmp_path, None)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "DISCORD_TOKEN" in err[0]


def test_python_m_bot_without_a_token(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "", "DATABASE_PATH": str(tmp_path / "t.db")}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "DISCORD_TOKEN" in done.stderr


def test_local_is_dispatched_to_the_terminal_table(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.terminal

    seen: list[list[str]] = []
    monkeypatch.setattr(bot.terminal, "main", lambda argv: seen.append(argv) or 0)
    assert entry.main(["local", "troika", "--players", "4"]) == 0
    assert seen == [["troika", "--players", "4"]]


def test_unknown_subcommand_is_refused(capsys: pytest.CaptureFixture) -> None:
    assert entry.main(["serve"]) == 2
    assert "unknown command" in capsys.readouterr().err


def test_invite_url_asks_for_bot_and_commands_with_few_permissions() -> None:
    url = invite_url(1234)
    assert "client_id=1234" in url and "scope=bot+applications.commands" in url
    assert f"permissions={PERMISSIONS.value}" in url
    granted = {name for name, on in PERMISSIONS if on}
    assert granted == {
        "read_messages", "send_messages", "create_public_threads", "send_messages_in_threads",
        "embed_links", "attach_files", "read_message_history",
    }  # fmt: skip
    assert not PERMISSIONS.administrator and not PERMISSIONS.manage_messages
    # (A table's thread is the bot's own: it archives and brings it back without Manage Threads.)
    assert not PERMISSIONS.manage_threads and not PERMISSIONS.create_private_threads


def test_default_intents_only() -> None:
    client = TroikaBot(_settings(Path("/nonexistent"), "x"))
    assert client.intents == discord.Intents.default()
    assert not client.intents.message_content and not client.intents.members


def test_commands_are_offered_in_servers_only() -> None:
    contexts = TroikaBot(_settings(Path("/nonexistent"), "x")).tree.allowed_contexts
    assert contexts.guild and not contexts.dm_channel and not contexts.private_channel


def test_the_token_never_reaches_the_logs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    token = "MTIzNDU2.SECRET.token-value"

    def fail_login(self: TroikaBot, given: str, **kwargs: object) -> None:
        assert given == token
        logging.getLogger("discord.client").debug("logging in using static token")
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(TroikaBot, "run", fail_login)
    assert run(_settings(tmp_path, token)) == 1
    out = capsys.readouterr()
    assert token not in out.err and token not in out.out
    assert "ERROR" in out.err  # levelled lines on stderr
