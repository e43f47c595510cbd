"""``python -m bot local GAME --web``: the terminal's table, also in the browser, with no token:
it prints the address, and the page's socket gets the player's seat."""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path

import aiohttp

from bot import terminal


async def test_local_web_prints_a_link_that_opens_the_players_seat(tmp_path: Path) -> None:
    out = io.StringIO()
    args = terminal.parse_args(
        ["troika", "--db", str(tmp_path / "t.db"), "--ai", "easy", "--delay", "0", "--web"]
    )
    asked = asyncio.Event()
    answer: asyncio.Queue[str] = asyncio.Queue()
    loop = asyncio.get_running_loop()

    def read() -> str:  # the terminal's input, in its executor thread: quit when told
        loop.call_soon_threadsafe(asked.set)
        return asyncio.run_coroutine_threadsafe(answer.get(), loop).result(timeout=30)

    game = asyncio.create_task(terminal.play(args, read, out))
    await asyncio.wait_for(asked.wait(), 30)
    found = re.search(r"(http://127\.0\.0\.1:\d+/t/\S+)", out.getvalue())
    assert found, out.getvalue()
    url = found.group(1)
    base = url.split("/t/")[0]
    socket_url = url.replace("/t/", "/ws/")
    async with aiohttp.ClientSession() as session:
        page = await session.get(url)
        assert page.status == 200
        async with session.ws_connect(socket_url, headers={"Origin": base}) as ws:
            frame = json.loads((await ws.receive(timeout=10)).data)
    assert frame["type"] == "snapshot" and frame["seat"] == 0 and frame["view"]["hand"]
    assert frame["legal"], "the terminal's player is to bid: his page offers his moves"
    await answer.put("quit")
    assert await asyncio.wait_for(game, 30) == 0
