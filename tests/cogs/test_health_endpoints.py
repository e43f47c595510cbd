"""The running bot serves /healthz and /metrics on METRICS_PORT: ready once its shards are,
with the publisher's requests counted."""

from __future__ import annotations

import dataclasses
import socket
from pathlib import Path

import aiohttp
import pytest
from cog_world import run_world
from prometheus_client.parser import text_string_to_metric_families

from bot.app.client import TroikaBot
from bot.service import TableService
from bot.settings import Settings
from bot.storage.startup import StartupError


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


def _value(text: str, name: str) -> float:
    return sum(
        s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == name
    )


async def test_the_bot_serves_health_and_metrics(settings: Settings, tmp_path: Path) -> None:
    port = _free_port()
    settings = dataclasses.replace(settings, metrics_port=port)
    async with run_world(settings) as world:
        health = world.bot.health
        assert health is not None and health.port == port
        status, text = await _get(port, "/healthz")
        assert status == 200 and '"shards": {"0": "ready"}' in text, text
        before = _value((await _get(port, "/metrics"))[1], "tt_publisher_requests_total")
        await world.open("troeven", humans=2)
        await world.bot.table_publisher.flush()
        status, text = await _get(port, "/metrics")
        assert status == 200
        assert _value(text, "tt_publisher_requests_total") > before
        assert _value(text, "tt_tables") == 1  # one table, in play
        assert 'tt_tables{status="playing"} 1.0' in text
        assert "tt_publisher_backlog" in text
    # Closed with the bot: nothing listens any more.
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0


async def test_a_taken_metrics_port_stops_the_start_with_one_line(
    settings: Settings, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        service = TableService(settings.database_path)
        bot = TroikaBot(dataclasses.replace(settings, metrics_port=port), service=service)
        with pytest.raises(StartupError, match=f"METRICS_PORT {port} on 127.0.0.1: .*choose"):
            await bot.start_health()
        assert bot.health is None
