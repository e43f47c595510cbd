"""One budget for every request the bot makes on its own (table edits, posts, pings, deletes).

Discord allows a bot about 50 requests per second in all (interaction responses excepted) and
about 5 messages per 5 seconds in one channel. Every channel's publisher worker asks this budget
before each request: ``await budget.acquire(channel)``. It grants at most ``rate`` requests per
second over all channels (a token bucket holding at most ``burst``) and at most ``per_channel``
requests per ``window`` seconds in one channel, and serves waiting channels in the order they
asked (each request reserves the next free slot), so a thousand busy tables share the budget
fairly: each waits its turn, none starves. Waiting is only ever ``sleep``.

A worker that waits renders the table's *latest* state once granted (the publisher coalesces),
so a busy bot shows slightly staler table messages, never 429 errors.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


def _loop_time() -> float:
    return asyncio.get_running_loop().time()


#: Requests per second the bot allows itself, all its processes together (Discord: ~50 per token).
BOT_RATE = 40.0


def share_of_rate(owned: int, count: int) -> float:
    """This process's share of ``BOT_RATE`` when it runs ``owned`` of the bot's ``count``
    shards: Discord's global limit is per bot token, whatever the number of processes (shards
    are taken to carry alike; SHARD_IDS ranges of one size each keep it so)."""
    return BOT_RATE * max(owned, 1) / max(count, 1)


class RequestBudget:
    def __init__(
        self,
        rate: float = BOT_RATE,
        burst: float = 5.0,
        per_channel: int = 5,
        window: float = 5.0,
        *,
        clock: Clock | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.per_channel = per_channel
        self.window = window
        #: The event loop's clock by default: the one ``asyncio.sleep`` waits on (and the one a
        #: test harness virtualises), so a computed wait is a real wait.
        self.clock: Clock = clock or _loop_time
        self.sleep = sleep
        #: The next free slot (a time): each request reserves one, ``1 / rate`` apart.
        self._next: float | None = None
        self._recent: dict[int, deque[float]] = {}
        #: Requests granted so far (for benchmarks and tests).
        self.granted = 0

    async def acquire(self, channel: int) -> None:
        """Wait for this channel's room and the next free slot, then take it."""
        await self._channel_room(channel)
        now = self.clock()
        # An idle budget lets ``burst`` requests through at once, no more.
        earliest = now - self.burst / self.rate
        slot = earliest if self._next is None else max(self._next, earliest)
        self._next = slot + 1 / self.rate
        self.granted += 1
        self._recent.setdefault(channel, deque()).append(max(slot, now))
        if slot > now:
            await self.sleep(slot - now)

    async def _channel_room(self, channel: int) -> None:
        """Wait until this channel has had fewer than ``per_channel`` in the last window."""
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
