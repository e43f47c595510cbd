"""Moves made from the Activity (its websocket, signed in against a loopback fake of Discord)
reach the channel's table message as a button press would: after each one the message SimCord
shows is the one the publisher renders for the table now."""

from __future__ import annotations

import asyncio
from typing import Any

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
                now = world.table()
                assert now is not None
                expected, _, _ = await world.bot.publisher.render(now)
                shown = world.live_table_message()
                seen.append(repr([e.to_dict() for e in shown.embeds]))
                assert [e.to_dict().get("description") for e in shown.embeds] == [
                    e.to_dict().get("description") for e in expected
                ]
                assert [e.to_dict().get("fields") for e in shown.embeds] == [
                    e.to_dict().get("fields") for e in expected
                ]
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
