"""``/healthz`` and ``/metrics`` on ``METRICS_HOST:METRICS_PORT`` (aiohttp: discord.py runs on it
already, so no new web stack).

``/healthz`` answers 200 with a small JSON when every shard this process runs is ready and the
database answers a query, 503 with the same JSON otherwise (a load balancer or systemd watchdog
reads the code; a person reads the JSON). ``/metrics`` is the Prometheus text format: the
counters of ``bot.metrics`` plus what is read when scraped here (shards ready, tables by
status, the publisher's backlog, whether the database answered).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric

from bot import metrics
from bot.service import TableService

log = logging.getLogger(__name__)

#: Seconds the database gets to answer ``SELECT 1`` before the process counts as unhealthy.
PING_TIMEOUT = 2.0

ShardStates = Callable[[], Mapping[int, bool]]


class HealthServer:
    """Serves the two endpoints for one bot process. ``shards``: each shard the process runs
    and whether it is ready (none yet: not ready); ``backlog``: the publisher's channels with
    unsent changes (None: no publisher, e.g. a test)."""

    def __init__(
        self,
        service: TableService,
        shards: ShardStates,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        backlog: Callable[[], int] | None = None,
    ) -> None:
        self.service = service
        self.shards = shards
        self.host = host
        self.port = port
        self.backlog = backlog
        #: Whether the database answered the last check (/metrics shows it as a gauge).
        self.database_up = False
        self.registry = metrics.registry(_LiveCollector(self))
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        """Listen; returns the port (the one the system chose if ``port`` was 0). Raises
        OSError if the address is taken."""
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        runner = web.AppRunner(app, access_log=None)  # scrapers every few s: no line each
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = runner.addresses[0][1]
        log.info("/healthz and /metrics on http://%s:%d", self.host, self.port)
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def check(self) -> dict[str, object]:
        """The health report: ``ok`` is true when every shard is ready and the database
        answers."""
        self.database_up = await self.service.ping(PING_TIMEOUT)
        shards = dict(self.shards())
        ready = bool(shards) and all(shards.values())
        return {
            "ok": ready and self.database_up,
            "shards": {str(shard): "ready" if up else "not ready" for shard, up in shards.items()},
            "database": "ok" if self.database_up else "unreachable",
            "tables": self.service.table_counts(),
        }

    async def _healthz(self, request: web.Request) -> web.Response:
        report = await self.check()
        return web.json_response(report, status=200 if report["ok"] else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        self.database_up = await self.service.ping(PING_TIMEOUT)
        return web.Response(
            body=generate_latest(self.registry), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )


class _LiveCollector:
    """What is a state, not an event: read from the bot when scraped."""

    def __init__(self, server: HealthServer) -> None:
        self.server = server

    def collect(self) -> Iterator[Metric]:
        server = self.server
        shards = GaugeMetricFamily(
            f"{metrics.NAMESPACE}_shard_ready",
            "1 if the shard is connected and ready.",
            labels=["shard"],
        )
        for shard, up in sorted(server.shards().items()):
            shards.add_metric([str(shard)], 1.0 if up else 0.0)
        yield shards
        tables = GaugeMetricFamily(
            f"{metrics.NAMESPACE}_tables",
            "Tables held by this process, by status.",
            labels=["status"],
        )
        for status, count in sorted(server.service.table_counts().items()):
            tables.add_metric([status], float(count))
        yield tables
        yield GaugeMetricFamily(
            f"{metrics.NAMESPACE}_database_up",
            "1 if the database answered the last check (each scrape checks).",
            value=1.0 if server.database_up else 0.0,
        )
        if server.backlog is not None:
            yield GaugeMetricFamily(
                f"{metrics.NAMESPACE}_publisher_backlog",
                "Channels whose table message has changes not yet sent to Discord.",
                value=float(server.backlog()),
            )
