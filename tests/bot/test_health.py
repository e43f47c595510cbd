"""``/healthz`` and ``/metrics``: a real server on a free port, hit with aiohttp's client."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app.health import HealthServer
from bot.service import TableExists, TableService
from tests.bot.conftest import TEST_LIMITS, FakeClock

HOST, BOB = 1, 2
CH, GUILD = 555, 99


async def _get(server: HealthServer, path: str) -> tuple[int, str, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}{path}") as response,
    ):
        return response.status, response.headers["Content-Type"], await response.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus text page: (name, sorted labels) -> value."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def _scrape(server: HealthServer) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    status, kind, text = await _get(server, "/metrics")
    assert status == 200 and kind.startswith("text/plain; version=")
    return samples(text)


@pytest.fixture
async def served(service: TableService) -> AsyncIterator[tuple[HealthServer, dict[int, bool]]]:
    shards = {0: True, 1: True}
    server = HealthServer(service, lambda: shards, port=0)
    port = await server.start()
    assert port > 0 and server.port == port
    try:
        yield server, shards
    finally:
        await server.stop()


async def test_healthz_is_200_when_shards_are_ready_and_the_database_answers(
    served: tuple[HealthServer, dict[int, bool]], service: TableService
) -> None:
    server, _ = served
    await service.open_table(CH, GUILD, HOST, "Ann", "troeven")
    status, kind, text = await _get(server, "/healthz")
    assert status == 200 and kind.startswith("application/json")
    report = json.loads(text)
    assert report == {
        "ok": True,
        "shards": {"0": "ready", "1": "ready"},
        "database": "ok",
        "tables": {"lobby": 1, "playing": 0, "broken": 0},
    }


async def test_healthz_is_503_while_a_shard_is_not_ready(
    served: tuple[HealthServer, dict[int, bool]],
) -> None:
    server, shards = served
    shards[1] = False
    status, _, text = await _get(server, "/healthz")
    assert status == 503 and '"1": "not ready"' in text and '"database": "ok"' in text
    shards.clear()  # not connected at all yet
    assert (await _get(server, "/healthz"))[0] == 503
    assert samples((await _get(server, "/metrics"))[2]).get(("tt_shard_ready", ())) is None


async def test_healthz_is_503_once_the_database_is_closed(
    served: tuple[HealthServer, dict[int, bool]], service: TableService
) -> None:
    server, _ = served
    assert (await _get(server, "/healthz"))[0] == 200
    assert (await _scrape(server))[("tt_database_up", ())] == 1.0
    await service.db.close()
    status, _, text = await _get(server, "/healthz")
    assert status == 503 and '"database": "unreachable"' in text and '"ok": false' in text
    assert (await _scrape(server))[("tt_database_up", ())] == 0.0


async def test_metrics_count_a_table_opened_and_a_move_played(
    served: tuple[HealthServer, dict[int, bool]], service: TableService
) -> None:
    server, _ = served
    before = await _scrape(server)
    opened = ("tt_tables_opened_total", (("game", "troeven"),))
    player = ("tt_actions_total", (("source", "player"),))
    latency = ("tt_action_latency_seconds_count", ())
    await service.open_table(CH, GUILD, HOST, "Ann", "troeven", options={"timer": "off"})
    await service.join(CH, BOB, "Bob")
    after_open = await _scrape(server)
    assert after_open[opened] == before.get(opened, 0) + 1
    assert after_open[("tt_tables", (("status", "lobby"),))] == 1
    await service.start_game(CH, HOST)
    table = service.get_table(CH)
    assert table is not None
    user = HOST if table.to_act[0] == 0 else BOB
    await service.act(CH, user, service.legal_actions(CH, user)[0])
    after = await _scrape(server)
    assert after[player] == before.get(player, 0) + 1
    assert after[latency] == before.get(latency, 0) + 1
    assert after[("tt_action_latency_seconds_sum", ())] > before.get(
        ("tt_action_latency_seconds_sum", ()), 0
    )
    assert after[("tt_tables", (("status", "playing"),))] == 1
    assert after[("tt_tables", (("status", "lobby"),))] == 0
    assert after[("tt_shard_ready", (("shard", "0"),))] == 1.0


async def test_metrics_count_database_errors(
    served: tuple[HealthServer, dict[int, bool]], service: TableService, db_path: Path,
    clock: FakeClock,
) -> None:  # fmt: skip
    server, _ = served
    key = ("tt_database_errors_total", (("error", "IntegrityError"),))
    before = (await _scrape(server)).get(key, 0)
    # Another process opens a table in the channel first: our insert is refused by the database.
    other = TableService(db_path, clock=clock, ai_delay=0, limits=TEST_LIMITS)
    await other.start()
    try:
        await other.open_table(CH, GUILD, BOB, "Bob", "troeven")
        with pytest.raises(TableExists):
            await service.open_table(CH, GUILD, HOST, "Ann", "troeven")
    finally:
        await other.close()
    assert (await _scrape(server))[key] == before + 1


async def test_a_taken_port_is_refused(service: TableService) -> None:
    first = HealthServer(service, dict, port=0)
    port = await first.start()
    try:
        second = HealthServer(service, dict, port=port)
        with pytest.raises(OSError):
            await second.start()
        assert second._runner is None  # nothing left listening
    finally:
        await first.stop()


def test_samples_reads_labels() -> None:
    text = '# TYPE x counter\nx_total{a="1"} 2.0\n'
    parsed: dict[Any, float] = samples(text)
    assert parsed == {("x_total", (("a", "1"),)): 2.0}
