"""``bench/load.py --web``: the table in the browser under load. The bot's web server (bot/web)
runs in the bench's process with two open pages per table (websocket clients on this machine,
in the same process: their reading costs the bench's CPU too, so the figures are an upper
bound), and every committed move is timed from its commit to its frame at each open page."""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import time
from typing import Any

import aiohttp

from bot.service import ActionApplied, TableEvent, TableService
from bot.web import links
from bot.web.server import WebServer

#: A frame's move number, read without parsing the whole frame (the page's own work).
MOVE = re.compile(r'"move":(\d+)')
#: Moves of a table whose commit time is kept (frames of older ones no longer count).
KEEP = 16


class WebPages:
    def __init__(self, service: TableService) -> None:
        self.server = WebServer(service, secrets.token_bytes(32))
        self.recording = False
        #: Seconds from a move's commit to its first frame at each open page.
        self.latencies: list[float] = []
        self.pages = 0
        self.reconnects = 0
        self._commits: dict[int, dict[int, float]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._session: aiohttp.ClientSession | None = None
        self._stopping = False

    async def start(self) -> None:
        await self.server.start()
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=None)
        )

    async def on_table_event(self, event: TableEvent) -> None:
        if not isinstance(event, ActionApplied):
            return
        moves = self._commits.setdefault(event.table.channel_id, {})
        move = event.table.move_number
        moves[move] = time.perf_counter()
        moves.pop(move - KEEP, None)

    def open(self, channel: int, users: tuple[int, ...]) -> None:
        for user in users:
            task = asyncio.get_running_loop().create_task(self._page(channel, user))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _page(self, channel: int, user: int) -> None:
        assert self._session is not None
        token = links.sign(self.server.secret, user, channel, int(time.time()) + 86_400)
        url = f"{self.server.base}/ws/{token}"
        headers = {"Origin": self.server.base}
        self.pages += 1
        while not self._stopping:
            seen = -1
            with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
                async with self._session.ws_connect(url, headers=headers, max_msg_size=0) as ws:
                    async for message in ws:
                        if message.type != aiohttp.WSMsgType.TEXT:
                            continue
                        found = MOVE.search(message.data)
                        if found is None:
                            continue  # the table closed (a game over): the next one opens
                        move = int(found.group(1))
                        if move < seen:
                            seen = -1  # a new game at this channel
                        if move > seen:
                            seen = move
                            at = self._commits.get(channel, {}).get(move)
                            if at is not None and self.recording:
                                self.latencies.append(time.perf_counter() - at)
            if not self._stopping:
                self.reconnects += 1
                await asyncio.sleep(0.2)

    async def stop(self) -> None:
        self._stopping = True
        await self.server.stop()  # closes every page's socket
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._session is not None:
            await self._session.close()

    def summary(self) -> dict[str, Any]:
        return {"pages": self.pages, "frames_timed": len(self.latencies)}
