"""The Activity's sign-in (``POST /api/token``) against a loopback fake of Discord: a good
sign-in opens the instance's channel as the player its user is (or a watcher who may take a
seat); every bad input gets a clear refusal, changes nothing, and no log line holds a token."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from bot.service import TableService
from bot.shards import Shards
from bot.web import activity
from bot.web.activity import ActivityConfig
from bot.web.server import WebServer
from tests.web.conftest import BOB, CAT, CH, DAN, HOST, SECRET, STRANGER, four_humans
from tests.web.fake_discord import APP_ID, BOT_TOKEN, CLIENT_SECRET, OTHER_APP, FakeDiscord

OTHER_CHANNEL = 778  # a channel with no table


@pytest.fixture
async def discord() -> AsyncIterator[tuple[FakeDiscord, str]]:
    fake = FakeDiscord(users={HOST: "Ann", BOB: "Bob", CAT: "Cat", DAN: "Dan", STRANGER: "Eve"})
    server = TestServer(fake.app())
    await server.start_server()
    try:
        yield fake, f"http://{server.host}:{server.port}/api"
    finally:
        await server.close()


@pytest.fixture
async def activity_client(
    service: TableService, clock: Any, discord: tuple[FakeDiscord, str]
) -> AsyncIterator[TestClient[Any, Any]]:
    config = ActivityConfig(APP_ID, CLIENT_SECRET, BOT_TOKEN, discord[1])
    web = WebServer(service, SECRET, clock=clock, activity_config=config)
    async with TestClient(TestServer(web.app())) as client:
        yield client
    await web.stop()


async def sign_in(client: TestClient[Any, Any], body: Any) -> tuple[int, dict[str, Any]]:
    reply = await client.post("/api/token?lang=en", json=body)
    return reply.status, await reply.json()


async def open_table(client: TestClient[Any, Any], session: str) -> Any:
    origin = f"https://{APP_ID}.discordsays.com"  # the page's origin inside Discord
    return await client.ws_connect(f"/ws/{session}?lang=en", headers={"Origin": origin})


async def first_frame(ws: Any) -> dict[str, Any]:
    message = await ws.receive(timeout=5)
    assert message.type == WSMsgType.TEXT, message
    frame: dict[str, Any] = message.json()
    return frame


async def test_a_player_signs_in_and_gets_his_own_seat(service, activity_client, discord) -> None:
    fake, _ = discord
    await four_humans(service)
    instance = fake.open_instance(CH, [HOST, BOB, CAT, DAN])
    status, answer = await sign_in(
        activity_client, {"code": fake.grant(CAT), "instance_id": instance}
    )
    assert status == 200, answer
    assert answer["user"] == str(CAT) and answer["name"] == "Cat"
    assert answer["access_token"] in fake.tokens  # what the page passes to authenticate
    ws = await open_table(activity_client, answer["session"])
    frame = await first_frame(ws)
    cat_seat = service.get_table(CH).seat_of(CAT).index
    assert frame["seat"] == cat_seat
    assert frame["view"]["hand"] == service.view(CH, CAT).game["hand"]
    assert not frame["can_join"]
    # Discord was asked, in order: the instance, the code, the token's application, the user.
    assert fake.calls == [
        f"GET /api/applications/{APP_ID}/activity-instances/{instance}",
        "POST /api/oauth2/token",
        "GET /api/oauth2/@me",
        "GET /api/users/@me",
    ]
    await ws.close()


async def test_the_page_never_names_the_channel_or_the_user(
    service, activity_client, discord
) -> None:
    """Whatever else the page sends, the table is the instance's channel and the user the
    code's: a page cannot sit as another user or open another table."""
    fake, _ = discord
    await four_humans(service)
    await service.open_table(OTHER_CHANNEL, 99, STRANGER, "Eve", "troika")
    instance = fake.open_instance(CH, [HOST, STRANGER])
    body = {
        "code": fake.grant(STRANGER),
        "instance_id": instance,
        "channel_id": str(OTHER_CHANNEL),
        "user_id": str(HOST),
        "user": str(HOST),
    }
    status, answer = await sign_in(activity_client, body)
    assert status == 200
    assert answer["user"] == str(STRANGER)
    ws = await open_table(activity_client, answer["session"])
    frame = await first_frame(ws)
    # The instance's table (CH, in play), as a watcher: the public view, no hand, no moves.
    assert frame["game"] == "troika" and frame["status"] == "playing"
    assert frame["seat"] is None and frame["legal"] == []
    assert "hand" not in (frame["view"] or {})
    for seat in frame["seats"]:
        assert not seat["you"]
    # A move in the name of the host's seat is refused.
    table = service.get_table(CH)
    host_seat = table.seat_of(HOST).index
    await ws.send_json(
        {"type": "act", "action": "pass", "move": table.move_number, "seat": host_seat}
    )
    refused = await first_frame(ws)
    assert refused["type"] == "error" and refused["code"] == "not_your_seat"
    assert service.get_table(CH) == table
    await ws.close()


async def test_a_watcher_takes_a_seat_in_the_lobby_and_the_host_starts(
    service, activity_client, discord
) -> None:
    fake, _ = discord
    await service.open_table(CH, 99, HOST, "Ann", "troika", options={"timer": "off"})
    instance = fake.open_instance(CH, [HOST, BOB])
    _, bob = await sign_in(activity_client, {"code": fake.grant(BOB), "instance_id": instance})
    ws = await open_table(activity_client, bob["session"])
    frame = await first_frame(ws)
    assert frame["status"] == "lobby" and frame["can_join"] and frame["seat"] is None
    assert service.get_table(CH).seat_of(BOB) is None  # opening the page changed nothing
    # Whatever the frame says, the seat is the session's user's, under his Discord name.
    await ws.send_json({"type": "join", "user_id": HOST, "name": "Mallory", "seat": 0})
    while (frame := await first_frame(ws)).get("seat") is None:
        pass
    seat = service.get_table(CH).seat_of(BOB)
    assert seat is not None and seat.name == "Bob" and frame["seat"] == seat.index
    assert [s.user_id for s in service.get_table(CH).seats] == [HOST, BOB]
    assert not frame["can_start"]  # Bob is not the host
    await ws.send_json({"type": "start"})
    assert (await first_frame(ws))["code"] == "refused"
    _, ann = await sign_in(activity_client, {"code": fake.grant(HOST), "instance_id": instance})
    host = await open_table(activity_client, ann["session"])
    assert (await first_frame(host))["can_start"]
    await ws.close()
    await host.close()


# -- bad input ----------------------------------------------------------------------------------
async def refused(client: TestClient[Any, Any], body: Any, status: int, words: str) -> None:
    got, answer = await sign_in(client, body)
    assert got == status, answer
    assert answer["type"] == "error" and words in answer["message"]
    assert "session" not in answer and "access_token" not in answer


async def test_every_bad_sign_in_is_refused_and_changes_nothing(
    service, activity_client, discord, caplog
) -> None:
    caplog.set_level(logging.DEBUG)
    fake, _ = discord
    await four_humans(service)
    before = service.get_table(CH)
    instance = fake.open_instance(CH, [HOST, BOB, CAT, DAN])
    # A forged code (Discord never granted it).
    await refused(activity_client, {"code": "forged-code-0123", "instance_id": instance}, 403,
                  "Discord refused this sign-in")  # fmt: skip
    # A replayed code: good once, refused the second time (here, before Discord sees it).
    code = fake.grant(BOB)
    status, first = await sign_in(activity_client, {"code": code, "instance_id": instance})
    assert status == 200
    asked = len(fake.calls)
    await refused(activity_client, {"code": code, "instance_id": instance}, 403,
                  "Discord refused this sign-in")  # fmt: skip
    assert "POST /api/oauth2/token" not in fake.calls[asked:]
    # A code (and so a token) of another application.
    await refused(
        activity_client, {"code": fake.grant(CAT, OTHER_APP), "instance_id": instance}, 403,
        "not for this bot",
    )  # fmt: skip
    # An instance Discord does not know, and one in a channel with no table.
    await refused(activity_client, {"code": fake.grant(CAT), "instance_id": "i-404-gc-1-2"}, 404,
                  "Discord does not know this Activity")  # fmt: skip
    empty = fake.open_instance(OTHER_CHANNEL, [CAT])
    await refused(activity_client, {"code": fake.grant(CAT), "instance_id": empty}, 404,
                  "There is no table in this channel")  # fmt: skip
    # A user who is not in the instance (Discord says who is).
    await refused(activity_client, {"code": fake.grant(STRANGER), "instance_id": instance}, 403,
                  "You are not in this Activity")  # fmt: skip
    # Not a sign-in at all.
    for body in (None, [], {"code": 5, "instance_id": instance}, {"code": "x" * 300,
                 "instance_id": instance}, {"code": "a b", "instance_id": instance},
                 {"code": "abc"}):  # fmt: skip
        await refused(activity_client, body, 400, "Not a sign-in request")
    reply = await activity_client.post("/api/token", data=b"not json")
    assert reply.status == 400
    # Nothing changed: the table, its seats, its watchers.
    assert service.get_table(CH) == before
    assert service.get_table(OTHER_CHANNEL) is None
    # No log line holds a code, a token, the client secret or the bot token.
    secrets = [code, first["access_token"], first["session"], CLIENT_SECRET, BOT_TOKEN]
    secrets += list(fake.tokens)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "activity:" in logged  # the refusals are logged, by kind
    for secret in secrets:
        assert secret not in logged


async def test_a_discord_that_does_not_answer_is_a_clear_refusal(
    service, activity_client, discord, monkeypatch
) -> None:
    fake, _ = discord
    await four_humans(service)
    instance = fake.open_instance(CH, [BOB])
    monkeypatch.setattr(activity, "DISCORD_TIMEOUT", 0.2)
    fake.delay = 1.0
    await refused(activity_client, {"code": fake.grant(BOB), "instance_id": instance}, 502,
                  "Discord did not answer")  # fmt: skip


async def test_a_session_opens_only_its_table_and_expires(
    service, activity_client, discord, clock
) -> None:
    fake, _ = discord
    await four_humans(service)
    instance = fake.open_instance(CH, [BOB])
    _, answer = await sign_in(activity_client, {"code": fake.grant(BOB), "instance_id": instance})
    forged = activity.SESSION_PREFIX + "x" * 43
    reply = await activity_client.get(f"/ws/{forged}", headers={"Origin": "https://x"})
    assert reply.status == 403
    origin = f"https://{APP_ID}.discordsays.com"
    reply = await activity_client.get(f"/ws/{forged}", headers={"Origin": origin})
    assert reply.status == 403 and "sign-in has expired" in await reply.text()
    # Another site's page cannot use a good session either.
    reply = await activity_client.get(f"/ws/{answer['session']}", headers={"Origin": "https://x"})
    assert reply.status == 403
    # The right page's plain GET passes every check (only the websocket upgrade is missing)...
    reply = await activity_client.get(f"/ws/{answer['session']}", headers={"Origin": origin})
    assert reply.status == 400
    # ...until the session has expired.
    await clock.advance(activity.SESSION_SECONDS + 1)
    reply = await activity_client.get(f"/ws/{answer['session']}", headers={"Origin": origin})
    assert reply.status == 403


async def test_the_activity_page_is_served_only_when_configured(
    service, activity_client, client
) -> None:
    page = await activity_client.get("/?frame_id=f&instance_id=i&platform=mobile")
    text = await page.text()
    assert page.status == 200 and 'id="activity"' in text and APP_ID in text
    assert 'src="static/main.js"' in text  # relative: it loads under /.proxy/ too
    policy = page.headers["Content-Security-Policy"]
    assert "frame-ancestors 'self' https://discord.com" in policy
    assert "connect-src 'self'" in policy and "default-src 'none'" in policy
    # No secret in the page.
    assert CLIENT_SECRET not in text and BOT_TOKEN not in text
    # Without the Activity configured: no page, no sign-in.
    plain = await client.get("/?frame_id=f&instance_id=i&platform=mobile")
    assert 'id="activity"' not in await plain.text()
    reply = await client.post("/api/token", json={"code": "abc", "instance_id": "i-1"})
    assert reply.status == 404


async def test_a_server_of_another_shard_is_sent_to_its_process(service, clock, discord) -> None:
    """Two processes (shards 0 and 1 of 2): the one that does not serve the instance's server
    says which shard does, before the code is used; the owner then signs the page in."""
    fake, api = discord
    await four_humans(service)
    guild = 1 << 22  # shard (guild >> 22) % 2 == 1
    instance = fake.open_instance(CH, [BOB], guild=guild)
    config = ActivityConfig(APP_ID, CLIENT_SECRET, BOT_TOKEN, api)
    first = WebServer(service, SECRET, clock=clock, activity_config=config,
                      shards=Shards(count=2, ids=(0,)))  # fmt: skip
    second = WebServer(service, SECRET, clock=clock, activity_config=config,
                       shards=Shards(count=2, ids=(1,)))  # fmt: skip
    code = fake.grant(BOB)
    async with TestClient(TestServer(first.app())) as elsewhere:
        reply = await elsewhere.post("/api/token", json={"code": code, "instance_id": instance})
        assert reply.status == 409 and (await reply.json())["shard"] == 1
    assert code in fake.codes  # not used: the owner may still exchange it
    async with TestClient(TestServer(second.app())) as owner:
        status, answer = await sign_in(owner, {"code": code, "instance_id": instance})
        assert status == 200 and answer["user"] == str(BOB)
    await first.stop()
    await second.stop()
