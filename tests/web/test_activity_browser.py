"""The table as a Discord Activity in a real browser: a stand-in for Discord's client frames the
page under Discord's ``/.proxy/`` path and speaks the SDK's frame protocol to it, a loopback fake
of Discord's API answers the bot. Four "Discord users" play a whole Troika hand from their
Activity; each page shows its own user's seat and cards only; a client that never answers, a
sign-in Discord refuses, and a channel without a table each leave a clear message.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from bot.service import TableService
from bot.shards import Shards
from bot.web.activity import ActivityConfig
from bot.web.server import WebServer
from tests.bot.conftest import TEST_LIMITS
from tests.web.conftest import BOB, CAT, CH, DAN, HOST, ONE_HAND, SECRET, STRANGER
from tests.web.discord_client import DiscordClient
from tests.web.fake_discord import APP_ID, BOT_TOKEN, CLIENT_SECRET, FakeDiscord
from tests.web.test_browser import TIMEOUT, agrees, moved_on

USERS = (HOST, BOB, CAT, DAN)
NAMES = {HOST: "Ann", BOB: "Bob", CAT: "Cat", DAN: "Dan", STRANGER: "Eve"}
#: Discord's Activity frame: a phone's (portrait) and the desktop client's.
MOBILE, DESKTOP = (400, 720), (1024, 640)


@dataclass
class Stage:
    service: TableService
    web: WebServer
    fake: FakeDiscord
    client: DiscordClient
    base: str  # the stand-in client's origin

    def url(self, user: int, instance: str, size: tuple[int, int], **extra: str) -> str:
        platform = "mobile" if size == MOBILE else "desktop"
        query = f"instance={instance}&platform={platform}&w={size[0]}&h={size[1]}"
        query += "".join(f"&{key}={value}" for key, value in extra.items())
        return f"{self.base}/client/{user}?{query}"


@pytest.fixture
async def stage(tmp_path: Path) -> AsyncIterator[Stage]:
    fake = FakeDiscord(users=dict(NAMES))
    api = TestServer(fake.app())
    await api.start_server()
    service = TableService(tmp_path / "t.db", ai_delay=0, limits=TEST_LIMITS)
    await service.start()
    config = ActivityConfig(APP_ID, CLIENT_SECRET, BOT_TOKEN, f"http://{api.host}:{api.port}/api")
    web = WebServer(service, SECRET, activity_config=config)
    await web.start()
    client = DiscordClient(fake, f"http://127.0.0.1:{web.port}")
    front = TestServer(client.app())
    await front.start_server()
    try:
        yield Stage(service, web, fake, client, f"http://{front.host}:{front.port}")
    finally:
        await front.close()
        await web.stop()
        await service.close()
        await api.close()


async def open_activity(browser: Any, url: str, size: tuple[int, int]) -> tuple[Any, Any]:
    """The client's page and the Activity's frame in it, once the table shows."""
    page = await browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    await page.goto(url)
    frame = await activity_frame(page)
    await frame.wait_for_selector("#table[data-move]", timeout=TIMEOUT)
    return page, frame


async def activity_frame(page: Any) -> Any:
    element = await page.wait_for_selector("iframe", timeout=TIMEOUT)
    frame = await element.content_frame()
    assert frame is not None
    return frame


async def four_players(service: TableService) -> None:
    await service.open_table(CH, 99, HOST, "Ann", "troika", options=ONE_HAND, seed=21)
    for user in (BOB, CAT, DAN):
        await service.join(CH, user, NAMES[user])
    await service.start_game(CH, HOST)


async def test_four_discord_users_play_a_troika_hand_from_the_activity(browser, stage) -> None:
    service = stage.service
    await four_players(service)
    instance = stage.fake.open_instance(CH, list(USERS))
    opened = [await open_activity(browser, stage.url(u, instance, MOBILE), MOBILE) for u in USERS]
    frames = [frame for _, frame in opened]
    # Every address went through the proxy path, and the page came from it.
    assert "GET /static/vendor/discord-sdk.js" in stage.client.proxied
    assert "POST /api/token" in stage.client.proxied
    assert any(p.startswith("GET /ws/a-") for p in stage.client.proxied)
    for page, _ in opened:
        commands = await page.evaluate("window.commands")
        assert commands[:2] == ["AUTHORIZE", "AUTHENTICATE"], commands
    moves = 0
    while (table := service.get_table(CH)) is not None and table.to_act:
        move = table.move_number
        for user, frame in zip(USERS, frames, strict=True):
            await frame.wait_for_selector(f'#table[data-move="{move}"]', timeout=TIMEOUT)
            await agrees(frame, service, user)  # his own hand and moves, nobody else's
        seat = table.to_act[0]
        frame = frames[seat]
        target = await frame.query_selector(".hand .playable") or await frame.query_selector(
            "[data-action]"
        )
        assert target is not None, f"seat {seat} has nothing to tap"
        await target.click(position={"x": 8, "y": 30})
        await moved_on(service, move)
        moves += 1
    assert moves > 32, "the auction and every trick of the hand were played from the Activity"
    assert service.get_table(CH) is None, "the one-hand game is over"
    for page, frame in opened:
        assert page.errors == []
        await frame.wait_for_selector(".overlay", timeout=TIMEOUT)  # the hand's summary


async def test_a_watcher_in_the_activity_takes_the_open_seat(browser, stage) -> None:
    service = stage.service
    await service.open_table(CH, 99, HOST, "Ann", "troika", options={"timer": "off"}, seed=3)
    for user in (BOB, CAT):
        await service.join(CH, user, NAMES[user])
    instance = stage.fake.open_instance(CH, [HOST, DAN])
    _, frame = await open_activity(browser, stage.url(DAN, instance, DESKTOP), DESKTOP)
    await frame.wait_for_selector(".lobby", timeout=TIMEOUT)
    assert service.get_table(CH).seat_of(DAN) is None
    await frame.click('[data-seat="join"]')
    await frame.wait_for_selector(".lobby-seats li.you", timeout=TIMEOUT)
    seat = service.get_table(CH).seat_of(DAN)
    assert seat is not None and seat.name == "Dan"
    assert await frame.query_selector('[data-seat="join"]') is None
    # The host starts from his own Activity; Dan's page turns into the table with his hand.
    _, host = await open_activity(browser, stage.url(HOST, instance, DESKTOP), DESKTOP)
    await host.click('[data-seat="start"]')
    await frame.wait_for_selector(".hand [data-card]", timeout=TIMEOUT)
    await agrees(frame, service, DAN)
    # Who is in the Activity (the client's participants: Ann and Dan) is marked on the seats.
    await frame.wait_for_selector(".seat .mark.here", timeout=TIMEOUT)
    marked = await frame.eval_on_selector_all(
        ".seat:has(.mark.here) .name", "els => els.map(e => e.firstChild.textContent)"
    )
    assert marked == ["Ann"]


async def test_the_seat_bar_stays_when_the_participants_come_after_the_table(
    browser, stage
) -> None:
    """Who is in the Activity may reach the page after the table (a slow client): the table is
    drawn again with their marks, and the seat bar ("Take a seat") with it. It used to vanish
    until the next frame, which in a lobby may be never."""
    service = stage.service
    await service.open_table(CH, 99, HOST, "Ann", "troika", options={"timer": "off"}, seed=3)
    await service.join(CH, BOB, NAMES[BOB])
    instance = stage.fake.open_instance(CH, [HOST, DAN])
    page = await browser.new_page(viewport={"width": DESKTOP[0], "height": DESKTOP[1]})
    release = asyncio.Event()

    async def late(route: Any) -> None:
        await release.wait()
        await route.continue_()

    await page.route("**/client-api/participants*", late)
    await page.goto(stage.url(DAN, instance, DESKTOP))
    frame = await activity_frame(page)
    await frame.wait_for_selector('.lobby ~ .seat-bar [data-seat="join"]', timeout=TIMEOUT)
    await frame.eval_on_selector(".lobby", "el => { el.dataset.before = '1'; }")
    release.set()
    await frame.wait_for_selector(".lobby:not([data-before])", timeout=TIMEOUT)  # drawn again
    assert await frame.query_selector('[data-seat="join"]') is not None
    await frame.click('[data-seat="join"]')
    await frame.wait_for_selector(".lobby-seats li.you", timeout=TIMEOUT)
    assert service.get_table(CH).seat_of(DAN) is not None


async def test_a_page_signs_in_again_when_the_bot_forgot_its_session(browser, stage) -> None:
    """A restart of the bot forgets every Activity session (they live in its memory): the page,
    refused at its next connection, signs in again with the same SDK and plays on."""
    service = stage.service
    await four_players(service)
    instance = stage.fake.open_instance(CH, list(USERS))
    page, frame = await open_activity(browser, stage.url(BOB, instance, MOBILE), MOBILE)
    first = await page.evaluate("window.commands")
    assert first[:2] == ["AUTHORIZE", "AUTHENTICATE"], first
    stage.web.sessions = type(stage.web.sessions)()  # the restarted process knows none
    for page_of in list(stage.web.hub.pages.get(CH, [])):
        await page_of.ws.close()
    # Two refused connections, then a second sign-in and a socket that opens: the table again.
    await page.wait_for_function(
        "window.commands.filter(c => c === 'AUTHORIZE').length === 2", timeout=TIMEOUT
    )
    move = service.get_table(CH).move_number
    await frame.wait_for_selector(f'#table[data-move="{move}"]:not([data-refused])')
    user = USERS[service.get_table(CH).to_act[0]]
    await service.act(CH, user, service.legal_actions(CH, user)[0])
    await frame.wait_for_selector(f'#table[data-move="{move + 1}"]', timeout=TIMEOUT)
    await agrees(frame, service, BOB)
    assert [p.user_id for p in stage.web.hub.pages[CH]] == [BOB]
    assert page.errors == []


async def refusal(browser: Any, url: str) -> tuple[Any, str]:
    page = await browser.new_page(viewport={"width": MOBILE[0], "height": MOBILE[1]})
    await page.goto(url)
    frame = await activity_frame(page)
    await frame.wait_for_selector("#table[data-refused]", timeout=TIMEOUT)
    return page, await frame.inner_text("#table")


async def test_an_sdk_that_never_answers_is_said_on_the_page(browser, stage) -> None:
    await four_players(stage.service)
    before = stage.service.get_table(CH)
    instance = stage.fake.open_instance(CH, list(USERS))
    page, text = await refusal(browser, stage.url(BOB, instance, MOBILE, silent="1"))
    assert "Discord does not answer" in text
    assert await page.evaluate("window.handshakes") == 1
    assert stage.fake.calls == [] and stage.service.get_table(CH) == before


async def test_refused_sign_ins_are_said_on_the_page_and_change_nothing(browser, stage) -> None:
    await four_players(stage.service)
    before = stage.service.get_table(CH)
    # A user Discord does not count in the instance.
    instance = stage.fake.open_instance(CH, [HOST, BOB])
    _, text = await refusal(browser, stage.url(STRANGER, instance, MOBILE))
    assert "You are not in this Activity" in text
    # An instance in a channel with no table.
    elsewhere = stage.fake.open_instance(4242, [STRANGER])
    _, text = await refusal(browser, stage.url(STRANGER, elsewhere, MOBILE))
    assert "There is no table in this channel" in text
    # An instance Discord does not know.
    _, text = await refusal(browser, stage.url(BOB, "i-1-gc-1-1", MOBILE))
    assert "Discord does not know this Activity" in text
    assert stage.service.get_table(CH) == before
    assert not stage.web.hub.pages.get(CH)  # no page opened the table


async def test_a_page_reaches_the_process_of_its_tables_shard(browser, tmp_path) -> None:
    """Two processes of the bot (shards 0 and 1 of 2) behind one address: the page asks the
    first, is told shard 1, and signs in and plays through ``s/1/``, which the proxy routes to
    the second (docs/activity.md)."""
    fake = FakeDiscord(users=dict(NAMES))
    api = TestServer(fake.app())
    await api.start_server()
    service = TableService(tmp_path / "t.db", ai_delay=0, limits=TEST_LIMITS)
    await service.start()
    config = ActivityConfig(APP_ID, CLIENT_SECRET, BOT_TOKEN, f"http://{api.host}:{api.port}/api")
    first = WebServer(service, SECRET, activity_config=config, shards=Shards(2, (0,)))
    second = WebServer(service, SECRET, activity_config=config, shards=Shards(2, (1,)))
    await first.start()
    await second.start()
    client = DiscordClient(
        fake, f"http://127.0.0.1:{first.port}", shards={1: f"http://127.0.0.1:{second.port}"}
    )
    front = TestServer(client.app())
    await front.start_server()
    try:
        await four_players(service)
        instance = fake.open_instance(CH, list(USERS), guild=1 << 22)  # a server of shard 1
        base = f"http://{front.host}:{front.port}"
        url = f"{base}/client/{BOB}?instance={instance}&platform=desktop&w=1024&h=640"
        _, frame = await open_activity(browser, url, DESKTOP)
        await agrees(frame, service, BOB)
        assert "POST /api/token" in client.proxied and "POST /s/1/api/token" in client.proxied
        assert any(p.startswith("GET /s/1/ws/a-") for p in client.proxied)
        assert second.hub is not None and [p.user_id for p in second.hub.pages[CH]] == [BOB]
        assert first.hub is None or not first.hub.pages.get(CH)
    finally:
        await front.close()
        await first.stop()
        await second.stop()
        await service.close()
        await api.close()
