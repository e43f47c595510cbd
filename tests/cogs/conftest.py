"""SimCord fixtures: the real bot (all cogs, real service on a SQLite file in tmp_path) in a
virtual guild with a channel and members."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import simcord
from cog_world import World, make_settings, run_world

from bot.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture(autouse=True)
def quick_settle(monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord polls unknown waits (here: aiosqlite's thread answering) every 50 ms of real
    time; a database round trip takes well under 1 ms, so poll every 0.5 ms instead."""
    original = simcord.Env._settle_internal

    async def settle(self: simcord.Env, **kwargs: Any) -> None:
        kwargs.setdefault("idle", 0.0005)
        await original(self, **kwargs)

    monkeypatch.setattr(simcord.Env, "_settle_internal", settle)


@pytest.fixture
async def world(settings: Settings) -> AsyncIterator[World]:
    async with run_world(settings) as running:
        yield running
