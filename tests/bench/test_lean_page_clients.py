"""bench/web_clients.py's lean pages against a real aiohttp websocket server: they receive every
frame whole (small, 16-bit and 64-bit lengths, split across reads), answer the server's pings
(the server's heartbeat never closes them), reopen after a close, and time each frame at its
arrival on the bot's clock."""

from __future__ import annotations

import asyncio
import json
import time

from aiohttp import web

from bench.web_clients import CLOSED, Pages

SIZES = (10, 300, 70_000)  # one length byte, 16-bit, 64-bit


async def test_the_lean_pages_read_every_frame_answer_pings_and_reopen() -> None:
    opened: list[int] = []

    async def socket(request: web.Request) -> web.WebSocketResponse:
        # A heartbeat shorter than the wait below: a page that did not answer the pings
        # would be closed by the server, and would reopen once more.
        ws = web.WebSocketResponse(heartbeat=0.2, compress=False)
        await ws.prepare(request)
        opened.append(len(opened))
        first = len(opened) == 1
        for move, size in enumerate(SIZES, start=1 if first else 10):
            frame = {"type": "state", "seq": move, "move": move, "pad": "x" * size}
            await ws.send_str(json.dumps(frame, separators=(",", ":")))
            await asyncio.sleep(0.05)
        if first:
            await ws.close()  # the page opens again
            return ws
        await asyncio.sleep(0.8)  # pings meanwhile
        await ws.send_str('{"type":"closed","seq":99,"lines":[]}')
        await asyncio.sleep(5)
        return ws

    app = web.Application()
    app.router.add_get("/ws/token", socket)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    url = f"http://127.0.0.1:{port}/ws/token"
    pages = Pages([(7, 70, url, f"http://127.0.0.1:{port}")])
    begin = time.monotonic()
    try:
        pages.open(pages.pages[0])
        done = asyncio.get_running_loop().run_in_executor(
            None, pages.run, lambda: any(f[2] == CLOSED for f in pages.frames), 10.0
        )
        await done
    finally:
        pages.close()
        await runner.cleanup()
    moves = [frame[2] for frame in pages.frames]
    assert moves == [1, 2, 3, 10, 11, 12, CLOSED]
    assert len(opened) == 2 and len(pages.reconnects) == 1  # the close only: pings answered
    times = [frame[3] for frame in pages.frames]
    assert begin <= times[0] and times == sorted(times) and times[-1] <= time.monotonic()
    assert {(frame[0], frame[1]) for frame in pages.frames} == {(7, 70)}
    # (seq 3 to 10 across the reopening, 12 to 99 at the close: skipped, never older)
    assert (pages.out_of_order, pages.gaps) == (0, 2)
