"""The open pages of ``bench/load.py --web``, as a process of their own (``--web-clients N``
starts N of them): each one opens its share of the pages over real websockets to the bot's web
server and writes down when each frame arrived, so that the bot's process, measured, is the bot
alone (a page's reading is the browser's work, on another machine).

The protocol with the bot's process, one line each on stdin and stdout: the job comes as one
JSON line on stdin (``{"pages": [[channel, user, url, origin], ...], "report": FILE}``); the
process says ``ready`` once every page has its first frame (or ``READY_PATIENCE`` ran out),
and on ``stop`` (or the end of stdin) it closes its pages, writes its frames to the report
file (``{"frames": [[channel, user, move, at], ...], "reconnects": [at, ...], "opened": n,
"lag_p99": seconds}``) and says ``done``.

``at`` is ``time.monotonic()``: CLOCK_MONOTONIC on Linux, one clock for every process of the
machine, the one the bot's process stamps its moves with.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp

#: A frame's move number, read without parsing the whole frame (the page's own work).
MOVE = re.compile(r'"move":(\d+)')
READY, STOP, DONE = "ready", "stop", "done"
#: The move number written down for a "closed" frame (the game ended, its table closed): it
#: shows the game's every move, its last one included.
CLOSED = 1 << 31
#: Seconds the pages may take to open, all together.
READY_PATIENCE = 120.0
#: One frame a page received: (channel, user, move, time.monotonic()).
Frame = tuple[int, int, int, float]


async def follow(
    session: aiohttp.ClientSession,
    page: tuple[int, int, str, str],
    frames: list[Frame],
    stopping: Callable[[], bool],
    reconnects: list[float],
    opened: asyncio.Event | None = None,
) -> None:
    """One open page: read its frames until ``stopping()``, reconnecting as a page does when
    its socket closes (each reconnect's time added to ``reconnects``); every frame with a move
    number is written down."""
    channel, user, url, origin = page
    while not stopping():
        with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
            async with session.ws_connect(url, headers={"Origin": origin}, max_msg_size=0) as ws:
                async for message in ws:
                    if message.type != aiohttp.WSMsgType.TEXT:
                        continue
                    at = time.monotonic()
                    if opened is not None:
                        opened.set()
                    found = MOVE.search(message.data)
                    if found is not None:
                        frames.append((channel, user, int(found.group(1)), at))
                    elif message.data.startswith('{"type":"closed"'):  # (the next game opens)
                        frames.append((channel, user, CLOSED, at))
        if not stopping():
            reconnects.append(time.monotonic())
            await asyncio.sleep(0.2)


async def serve(job: dict[str, object]) -> dict[str, object]:
    loop = asyncio.get_running_loop()
    pages = [tuple(page) for page in job["pages"]]  # type: ignore[attr-defined]
    frames: list[Frame] = []
    reconnects: list[float] = []
    stopped = False
    session = aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=None)
    )
    opened = [asyncio.Event() for _ in pages]
    tasks = [
        loop.create_task(follow(session, page, frames, lambda: stopped, reconnects, event))  # type: ignore[arg-type]
        for page, event in zip(pages, opened, strict=True)
    ]
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in opened)), READY_PATIENCE)
    print(READY, flush=True)
    # This process's own loop lag: a page that reads late makes every move look late.
    lags: list[float] = []
    monitor = loop.create_task(_lag(lags))
    await loop.run_in_executor(None, sys.stdin.readline)  # STOP, or the end of stdin
    monitor.cancel()
    stopped = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await session.close()
    lags.sort()
    lag_p99 = lags[min(len(lags) - 1, int(0.99 * len(lags)))] if lags else 0.0
    opened_count = sum(e.is_set() for e in opened)
    return {"frames": frames, "reconnects": reconnects, "opened": opened_count, "lag_p99": lag_p99}


async def _lag(lags: list[float]) -> None:
    """How late a 1 ms sleep wakes, again and again (as ``bench/load.py``'s stall monitor)."""
    loop = asyncio.get_running_loop()
    while True:
        begin = loop.time()
        await asyncio.sleep(0.001)
        lags.append(max(loop.time() - begin - 0.001, 0.0))


def main() -> int:
    job = json.loads(sys.stdin.readline())
    report = asyncio.run(serve(job))
    Path(job["report"]).write_text(json.dumps(report))
    print(DONE, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
