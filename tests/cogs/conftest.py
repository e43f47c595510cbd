"""SimCord fixtures: the real bot (all cogs, real service on a SQLite file in tmp_path) in a
virtual guild with a channel and members."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
import simcord
from cog_world import World

from bot.app import TroikaBot
from bot.app.client import utc_clock
from bot.app.errors import player_message
from bot.service import TableService
from bot.settings import Settings


def make_settings(tmp_path: Path) -> Settings:
    return Settings(
        discord_token=None,
        dev_guild_id=None,
        database_path=tmp_path / "troika.db",
        ai_delay=0.0,
        log_level="INFO",
    )


def make_bot(
    settings: Settings, edit_interval: float = 0, env: list[simcord.Env] | None = None
) -> TroikaBot:
    """The production bot, with the service's timers on SimCord's virtual clock only.

    ``edit_interval`` 0: every change is rendered at once, so tests see it without advancing
    time. The service sleeps (turn deadlines, the May I window) are declared to SimCord as
    waits for outside input, so they fire only through ``env.advance_time`` -- never through
    the wall clock of a slow test run, which would make tests flaky.
    """

    async def sleep(seconds: float) -> None:
        if env and seconds > 0:
            try:
                await env[0].external_wait(asyncio.sleep(seconds), reason="service timer")
                return
            except simcord.SetupError:  # not bot-owned work, or inside another declared wait
                pass
        await asyncio.sleep(seconds)

    service = TableService(
        settings.database_path, clock=utc_clock, sleep=sleep, ai_delay=settings.ai_delay
    )
    return TroikaBot(settings, service=service, shard_count=1, edit_interval=edit_interval)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@contextlib.contextmanager
def idle_waits_are_external(env: simcord.Env) -> Iterator[None]:
    """Declare bot tasks idling on an ``asyncio.Event`` as waiting for outside input.

    The service's database writer (and its driver bookkeeping) park on an Event between
    commits. SimCord only knows discord.py's own idle waits and otherwise reports "bot did not
    settle"; a task waiting for an Event is waiting for another task, which SimCord still
    waits for, so declaring it external loses nothing.
    """
    original = asyncio.Event.wait

    async def wait(event: asyncio.Event) -> Literal[True]:
        if event.is_set():
            return True
        try:
            return await env.external_wait(original(event), reason="asyncio.Event idle wait")
        except simcord.SetupError:  # not bot-owned work (the driver), or already declared
            return await original(event)

    asyncio.Event.wait = wait  # type: ignore[method-assign]
    try:
        yield
    finally:
        asyncio.Event.wait = original  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def quick_settle(monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord polls unknown waits (here: aiosqlite's thread answering) every 50 ms of real
    time; a database round trip takes well under 1 ms, so poll every 0.5 ms instead."""
    original = simcord.Env._settle_internal

    async def settle(self: simcord.Env, **kwargs: Any) -> None:
        kwargs.setdefault("idle", 0.0005)
        await original(self, **kwargs)

    monkeypatch.setattr(simcord.Env, "_settle_internal", settle)


@contextlib.asynccontextmanager
async def run_world(settings: Settings, edit_interval: float = 0) -> AsyncIterator[World]:
    """The bot running under SimCord in a fresh guild; bot errors other than refused moves
    fail the test."""

    holder: list[simcord.Env] = []

    def factory(s: Settings) -> TroikaBot:
        return make_bot(s, edit_interval, holder)

    env = simcord.Env(factory(settings))
    holder.append(env)
    with idle_waits_are_external(env):
        await env.start()
        try:
            yield World.create(env, settings, factory)
        finally:
            await env.shutdown()
            bot = env.bot
            if isinstance(bot, TroikaBot):
                await bot.close()
        # A refused move (TableError) travels through the command tree's error handler, which
        # SimCord records; only other exceptions are bugs.
        # (A test that provokes errors on purpose acknowledges them by reading ``env.errors``.)
        fresh = env.errors_since(env._errors_acknowledged)
        unexpected = [e for e in fresh if player_message(e) is None]
        if unexpected:
            raise ExceptionGroup("the bot raised", unexpected)


@pytest.fixture
async def world(settings: Settings) -> AsyncIterator[World]:
    async with run_world(settings) as running:
        yield running
