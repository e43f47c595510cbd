"""The bot as one process of several (SHARD_COUNT 2): it connects only its shards, serves only
their servers' tables, and syncs the slash commands only if it runs shard 0."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import simcord
from cog_world import idle_waits_are_external, make_settings

from bot.app.client import TroikaBot, utc_clock
from bot.service import Limits, TableService
from bot.settings import Settings


def _settings(tmp_path: Path, shard_ids: tuple[int, ...]) -> Settings:
    return dataclasses.replace(make_settings(tmp_path), shard_count=2, shard_ids=shard_ids)


@asynccontextmanager
async def _running(settings: Settings) -> AsyncIterator[simcord.Env]:
    service = TableService(
        settings.database_path,
        clock=utc_clock,
        limits=Limits(open_cooldown_seconds=0),
        shards=settings.shards,
    )
    bot = TroikaBot(settings, service=service, edit_interval=0)
    # (strict_sync off: the process that does not sync must still get its commands' clicks,
    # as on Discord, where the shard-0 process's sync made them global.)
    env = simcord.Env(bot, strict_sync=False)
    with idle_waits_are_external(env):
        await env.start()
        try:
            yield env
        finally:
            await env.shutdown()
            await bot.close()


def _command_syncs(env: simcord.Env) -> list[str]:
    return [
        f"{e.method} {e.path}"
        for e in env.http_requests
        if e.method == "PUT" and e.path.endswith("/commands")
    ]


async def test_the_shard_0_process_syncs_the_commands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="bot.app.client")
    async with _running(_settings(tmp_path, (0,))) as env:
        bot = env.bot
        assert isinstance(bot, TroikaBot)
        assert bot.shard_count == 2 and bot.shard_ids == [0] and sorted(bot.shards) == [0]
        assert len(_command_syncs(env)) == 1
    assert "synced" in caplog.text and "we run shard 0" in caplog.text


async def test_another_shard_range_does_not_sync_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="bot.app.client")
    async with _running(_settings(tmp_path, (1,))) as env:
        bot = env.bot
        assert isinstance(bot, TroikaBot)
        assert bot.shard_ids == [1] and sorted(bot.shards) == [1]
        assert _command_syncs(env) == []
    assert "not syncing the slash commands: this process runs shard(s) 1 of 2" in caplog.text


async def test_a_process_plays_its_shards_servers(tmp_path: Path) -> None:
    async with _running(_settings(tmp_path, (1,))) as env:
        ours = env.create_guild("Ours", shard_id=1)
        channel = ours.create_text_channel("cards")
        ann = ours.add_member(env.create_user("Ann"))
        result = await ann.slash(channel, "new troika")
        bot = env.bot
        assert isinstance(bot, TroikaBot)
        # (The table opens in its own thread of the channel: the server's default.)
        (table,) = bot.service.tables()
        assert table.guild_id == ours.id, result


def test_one_shard_count_leaves_the_gateway_shards_to_discord(tmp_path: Path) -> None:
    # SHARD_COUNT 1: this process serves every server, over the shards Discord recommends.
    bot = TroikaBot(make_settings(tmp_path))
    assert bot.shard_count is None and bot.shard_ids is None and bot.syncs_commands()
    every = dataclasses.replace(make_settings(tmp_path), shard_count=4, shard_ids=None)
    assert TroikaBot(every).shard_ids == [0, 1, 2, 3]
    later = TroikaBot(dataclasses.replace(every, shard_ids=(2, 3)))
    assert later.shard_count == 4 and later.shard_ids == [2, 3] and not later.syncs_commands()
