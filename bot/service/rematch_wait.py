"""The rematch lobby's wait: a rematch does not wait forever for a player who went away.

A rematch lobby starts by itself once every human of the finished game has pressed Rematch.
``REMATCH_CONFIRM_SECONDS`` after it opened (the service's clock and ``sleep``, so tests and
SimCord move time by hand), the players who have not confirmed are handed to the AI as seats
they left (``TableService.expire_rematch``): any member may take them when the table's seats
allow, and the player himself takes his seat back with the Rematch button or /join; then the game
starts. One task per rematch lobby; a lobby loaded at start is armed again from its ``created_at``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.service.tables import LiveTable

if TYPE_CHECKING:
    from bot.service.service import TableService

log = logging.getLogger(__name__)

#: Long enough to see the final message and press Rematch from a phone (players who want the
#: rematch press within seconds: the button is on the message they are looking at), short enough
#: that those who did confirm are still at the table when it starts without the others.
REMATCH_CONFIRM_SECONDS = 60.0


class RematchWait:
    def __init__(self, service: TableService) -> None:
        self.service = service
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def arm(self, table: LiveTable) -> None:
        """Wait for the rematch lobby ``table`` (once per lobby; a new lobby replaces it)."""
        if not self.service.driver.running:
            return
        previous = self._tasks.get(table.channel_id)
        if previous is not None and not previous.done():
            previous.cancel()
        due = table.created_at + REMATCH_CONFIRM_SECONDS
        task = asyncio.create_task(
            self._wait(table.channel_id, table.id, due), name=f"rematch-wait-{table.id}"
        )
        self._tasks[table.channel_id] = task

    async def stop(self) -> None:
        tasks, self._tasks = list(self._tasks.values()), {}
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _wait(self, channel_id: int, table_id: int, due: float) -> None:
        service = self.service
        try:
            while (left := due - service.clock()) > 0:
                await service.sleep(left)
            await service.expire_rematch(channel_id, table_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # a refused write: the lobby stays as it is (the host may /start)
            log.exception("table %s: the rematch could not start without the others", table_id)
        finally:
            if self._tasks.get(channel_id) is asyncio.current_task():
                del self._tasks[channel_id]
