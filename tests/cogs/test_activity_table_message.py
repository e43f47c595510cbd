"""Moves made from the Activity (signed in against a loopback fake of Discord) reach the
channel's table message as a button press would: after each one the message SimCord shows is
the one the publisher renders for the table now. Once from the Activity's websocket, once from
four Activities in Chromium framed by the stand-in for Discord's client."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from cog_world import World

from bot.web.activity import ActivityConfig
from bot.web.server import WebServer
from tests.web.fake_discord import APP_ID, BOT_TOKEN, CLIENT_SECRET, FakeDiscord

SECRET = b"cog-test-secret-cog-test-secret!"
MOVES = 14  # the auction and a few tricks


async def until_moved(world: World, move: int) -> None:
    for _ in range(500):
        await world.env.settle()
        table = world.table()
        if table is None or table.move_number > move:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the move from the Activity was not made (still at {move})")


def descriptions(embeds: list[Any]) -> list[Any]:
    return [(e.to_dict().get("description"), e.to_dict().get("fields")) for e in embeds]


async def message_follows(world: World) -> Any:
    """The live table message once it shows the table as it is now (the publisher edits it
    right after the move's commit, in its own task); fails if it never does."""
    for _ in range(500):
        await world.env.settle()
        now = world.table()
        if now is None:
            return None
        expected, _, _ = await world.bot.publisher.render(now)
        shown = world.live_table_message()
        if descriptions(shown.embeds) == descriptions(expected):
            return shown
        await asyncio.sleep(0.01)
    raise AssertionError("the table message did not follow the move")


async def test_moves_from_the_activity_are_followed_by_the_table_message(world: World) -> None:
    world.bot.publisher.activity = True
    await world.open("troika", humans=4)
    players = world.members[:4]
    fake = FakeDiscord(users={m.id: m.name for m in players})
    api = TestServer(fake.app())
    await api.start_server()
    config = ActivityConfig(APP_ID, CLIENT_SECRET, BOT_TOKEN, f"http://{api.host}:{api.port}/api")
    web = WebServer(world.service, SECRET, activity_config=config)
    sockets: dict[int, Any] = {}
    seen: list[str] = []
    try:
        async with TestClient(TestServer(web.app())) as client:
            instance = fake.open_instance(world.channel.id, [m.id for m in players])
            for member in players:
                body = {"code": fake.grant(member.id), "instance_id": instance}
                reply = await client.post("/api/token", json=body)
                session = (await reply.json())["session"]
                sockets[member.id] = await client.ws_connect(
                    f"/ws/{session}", headers={"Origin": f"https://{APP_ID}.discordsays.com"}
                )
            for _ in range(MOVES):
                table = world.table()
                assert table is not None and table.to_act
                seat = table.seat(table.to_act[0])
                assert seat is not None and seat.user_id is not None
                action = world.service.legal_actions(world.channel.id, seat.user_id)[0]
                await sockets[seat.user_id].send_json(
                    {"type": "act", "action": action, "move": table.move_number}
                )
                await until_moved(world, table.move_number)
                shown = await message_follows(world)
                assert shown is not None
                seen.append(repr([e.to_dict() for e in shown.embeds]))
            for ws in sockets.values():
                await ws.close()
        # The message changed with the moves (a frozen message would fail here), and it
        # offers Play in Discord.
        assert len(set(seen)) > MOVES // 2
        ids = [c.custom_id for row in shown.components for c in getattr(row, "children", [])]
        assert f"tt:play:{world.channel.id}" in ids
    finally:
        await web.stop()
        await api.close()


async def test_four_activities_in_a_browser_play_while_the_table_message_follows(
    world: World,
) -> None:
    """The whole path: four Discord users' Activities in Chromium, framed by the stand-in for
    Discord's client and its proxy, play a Troika hand by tapping; the bot's table message in
    the channel follows every move."""
    from tests.chromium import chromium
    from tests.web.conftest import ONE_HAND
    from tests.web.discord_client import DiscordClient
    from tests.web.test_activity_browser import MOBILE, open_activity

    executable = chromium()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("no Chromium in CI: .ci/run installs Debian's chromium")
        pytest.skip("no Chromium here (set TROIKA_CHROMIUM or install chromium)")
    playwright_api = pytest.importorskip("playwright.async_api")
    world.bot.publisher.activity = True
    players = world.members[:4]
    channel = world.channel.id
    host = players[0]
    await world.service.open_table(channel, world.guild.id, host.id, host.name, "troika",
                                   options=ONE_HAND, seed=21)  # fmt: skip
    for member in players[1:]:
        await world.service.join(channel, member.id, member.name)
    await world.service.start_game(channel, host.id)
    await world.env.settle()
    fake = FakeDiscord(users={m.id: m.name for m in players})
    api = TestServer(fake.app())
    await api.start_server()
    config = ActivityConfig(APP_ID, CLIENT_SECRET, BOT_TOKEN, f"http://{api.host}:{api.port}/api")
    web = WebServer(world.service, SECRET, activity_config=config)
    await web.start()
    front = TestServer(DiscordClient(fake, f"http://127.0.0.1:{web.port}").app())
    await front.start_server()
    base = f"http://{front.host}:{front.port}"
    instance = fake.open_instance(world.channel.id, [m.id for m in players])
    seen: set[str] = set()
    try:
        async with playwright_api.async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=executable, args=["--no-sandbox", "--disable-gpu"]
            )
            frames = {}
            for member in players:
                url = f"{base}/client/{member.id}?instance={instance}&platform=mobile&w=400&h=720"
                _, frames[member.id] = await open_activity(browser, url, MOBILE)
            moves = 0
            while (table := world.table()) is not None and table.to_act:
                seat = table.seat(table.to_act[0])
                assert seat is not None and seat.user_id is not None
                frame = frames[seat.user_id]
                await frame.wait_for_selector(
                    f'#table[data-move="{table.move_number}"]', timeout=15_000
                )
                hand = await frame.eval_on_selector_all(
                    ".hand [data-card]", "els => els.map(e => e.dataset.card)"
                )
                mine = world.service.view(channel, seat.user_id).game or {}
                assert hand == list(mine.get("hand") or [])  # his own cards, nobody else's
                target = await frame.query_selector(
                    ".hand .playable"
                ) or await frame.query_selector("[data-action]")
                assert target is not None
                await target.click(position={"x": 8, "y": 30})
                await until_moved(world, table.move_number)
                moves += 1
                shown = await message_follows(world)
                if shown is None:
                    break
                seen.add(repr([e.to_dict() for e in shown.embeds]))
            await browser.close()
    finally:
        await front.close()
        await web.stop()
        await api.close()
    assert moves > 32 and world.table() is None, "the hand (the one-hand game) was played"
    assert len(seen) > moves // 2
