"""Idle lobbies: a lobby nobody changed for ``Limits.lobby_idle_seconds`` is closed.

One sweep task per service runs while there are lobbies: it sleeps (the service's ``sleep``, so
tests and SimCord move time by hand) until the oldest lobby would be due, closes those that are
(``TableAbandoned``, reason "nobody started it for N minutes"), and stops when no lobby is left;
the next lobby starts it again. A lobby's clock restarts with each change (``active_at``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.i18n.later import later_n
from bot.service.models import TableStatus
from bot.service.tables import LiveTable

if TYPE_CHECKING:
    from bot.service.service import TableService

log = logging.getLogger(__name__)


class IdleSweep:
    def __init__(self, service: TableService) -> None:
        self.service = service
        self._task: asyncio.Task[None] | None = None

    def arm(self) -> None:
        """Start the sweep if it is off and there is a lobby (and idle lobbies are closed)."""
        service = self.service
        if service.limits.lobby_idle_seconds <= 0 or not service.driver.running:
            return
        if self._task is not None and not self._task.done():
            return
        if any(t.status is TableStatus.LOBBY for t in service.live_tables()):
            self._task = asyncio.create_task(self._sweep(), name="idle-lobby-sweep")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _sweep(self) -> None:
        service = self.service
        idle = service.limits.lobby_idle_seconds
        while True:
            lobbies = [t for t in service.live_tables() if t.status is TableStatus.LOBBY]
            if not lobbies:
                self._task = None
                return
            now = service.clock()
            due = min(t.active_at for t in lobbies) + idle
            if due > now:
                await service.sleep(due - now)
                continue
            for table in lobbies:
                if now - table.active_at >= idle:
                    try:
                        await self._close(table, idle)
                    except Exception:  # a refused write: tried again after another period
                        log.exception("table %s: the idle lobby could not be closed", table.id)
                        table.active_at = now

    async def _close(self, table: LiveTable, idle: float) -> None:
        service = self.service
        async with service.locked(table.channel_id):
            if not service.is_live(table) or table.status is not TableStatus.LOBBY:
                return
            if service.clock() - table.active_at < idle:
                return  # changed meanwhile
            minutes = max(1, round(idle / 60))
            # i18n: why a lobby was closed ("Table abandoned (nobody started it for 10 minutes)")
            reason = later_n(
                "nobody started it for {n} minute", "nobody started it for {n} minutes", minutes
            )
            await service.close_table(table, reason)
