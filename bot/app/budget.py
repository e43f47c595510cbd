"""One budget for every request the bot makes on its own (table edits, posts, pings, deletes).

Discord allows a bot about 50 requests per second in all (interaction responses excepted) and
about 5 messages per 5 seconds in one channel. Every channel's publisher worker asks this budget
before each request: ``await budget.acquire(channel)``. It grants at most ``rate`` requests per
second over all channels (a token bucket holding at most ``burst``) and at most ``per_channel``
requests per ``window`` seconds in one channel, and serves waiting channels in the order they
asked, so a thousand busy tables share the budget fairly: each waits its turn, none starves.

A worker that waits renders the table's *latest* state once granted (the publisher coalesces),
so a busy bot shows slightly staler table messages, never 429 errors.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class RequestBudget:
    def __init__(
        self,
        rate: float = 40.0,
        burst: float = 10.0,
        per_channel: int = 5,
        window: float = 5.0,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.per_channel = per_channel
        self.window = window
        self.clock = clock
        self.sleep = sleep
        self._tokens = burst
        self._stamp = clock()
        self._queue: deque[asyncio.Future[None]] = deque()
        self._recent: dict[int, deque[float]] = {}
        self._serving = False
        #: Requests granted so far (for benchmarks and tests).
        self.granted = 0

    async def acquire(self, channel: int) -> None:
        """Wait for this channel's turn and a free request, then take it."""
        await self._channel_room(channel)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(future)
        if not self._serving:
            self._serving = True
            asyncio.get_running_loop().create_task(self._serve())
        await future
        recent = self._recent.setdefault(channel, deque())
        recent.append(self.clock())

    async def _channel_room(self, channel: int) -> None:
        """Wait until this channel has sent fewer than ``per_channel`` in the last window."""
        while True:
            recent = self._recent.get(channel)
            if recent is None:
                return
            now = self.clock()
            while recent and recent[0] <= now - self.window:
                recent.popleft()
            if not recent:
                del self._recent[channel]
                return
            if len(recent) < self.per_channel:
                return
            await self.sleep(recent[0] + self.window - now)

    async def _serve(self) -> None:
        """Hand out tokens in arrival order as the bucket refills."""
        try:
            while self._queue:
                self._refill()
                if self._tokens < 1:
                    await self.sleep((1 - self._tokens) / self.rate)
                    continue
                future = self._queue.popleft()
                if future.done():  # its waiter was cancelled
                    continue
                self._tokens -= 1
                self.granted += 1
                future.set_result(None)
        finally:
            self._serving = False

    def _refill(self) -> None:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    @property
    def waiting(self) -> int:
        return sum(1 for f in self._queue if not f.done())
