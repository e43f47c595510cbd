"""The web table's protocol, without a browser: links, the snapshot, live frames, moves from the
page, and every kind of bad input (refused, nothing changed, the other pages still served)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient

from bot.service import TableService
from bot.web import links
from tests.bot.conftest import FakeClock
from tests.web.conftest import BOB, CAT, CH, DAN, HOST, SECRET, STRANGER, WATCHER, four_humans

USERS = {0: HOST, 1: BOB, 2: CAT, 3: DAN}


def token(clock: FakeClock, user: int, channel: int = CH, seconds: int = 3600) -> str:
    return links.sign(SECRET, user, channel, int(clock.now) + seconds)


async def connect(client: TestClient[Any, Any], clock: FakeClock, user: int, **kwargs: Any):
    origin = f"http://{client.host}:{client.port}"
    headers = {"Origin": origin, **kwargs.pop("headers", {})}
    return await client.ws_connect(f"/ws/{token(clock, user)}", headers=headers, **kwargs)


async def receive(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    message = await ws.receive(timeout=timeout)
    assert message.type == WSMsgType.TEXT, message
    return json.loads(message.data)


async def until(ws: Any, predicate: Any) -> dict[str, Any]:
    """The first frame matching ``predicate`` (frames are whole: later ones supersede)."""
    while True:
        frame = await receive(ws)
        if predicate(frame):
            return frame


def to_move(service: TableService) -> tuple[int, str]:
    table = service.get_table(CH)
    assert table is not None
    seat = table.to_act[0]
    return seat, service.legal_actions(CH, USERS[seat])[0]


# -- links -------------------------------------------------------------------------------------
def test_a_link_opens_only_its_user_table_and_time() -> None:
    good = links.sign(SECRET, 5, 10, 2000)
    assert links.verify(SECRET, good, 1999) == links.Link(5, 10, 2000)
    user, channel, expires, signature = good.split(".")
    forged = [
        f"6.{channel}.{expires}.{signature}",  # another user
        f"{user}.11.{expires}.{signature}",  # another table
        f"{user}.{channel}.3000.{signature}",  # a later expiry
        links.sign(b"another secret, another server!!", 5, 10, 2000),
        "5.10.2000",
        "x" * 500,
        "",
    ]
    for bad in forged:
        with pytest.raises(links.BadLink):
            links.verify(SECRET, bad, 1999)
    with pytest.raises(links.BadLink, match="expired"):
        links.verify(SECRET, good, 2000)


def test_the_secret_is_made_once_and_kept_private(tmp_path: Any) -> None:
    from bot.settings import Settings

    settings = Settings(None, None, tmp_path / "troika.db", 0, "INFO")
    first = links.load_secret(settings)
    assert links.load_secret(settings) == first and len(first) >= 32
    assert (tmp_path / links.SECRET_FILE).stat().st_mode & 0o077 == 0
    chosen = Settings(None, None, tmp_path / "troika.db", 0, "INFO", web_key="s" * 40)
    assert links.load_secret(chosen) == b"s" * 40


async def test_the_page_opens_with_a_good_link_only(service, client, clock) -> None:
    await four_humans(service)
    page = await client.get(f"/t/{token(clock, HOST)}")
    assert page.status == 200
    assert "/static/main.js" in await page.text()
    assert page.headers["Referrer-Policy"] == "no-referrer"
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    expired = await client.get(f"/t/{token(clock, HOST, seconds=-1)}")
    assert expired.status == 403 and "expired" in await expired.text()
    forged = await client.get(f"/t/{token(clock, HOST)[:-2]}xx")
    assert forged.status == 403
    french = await client.get(f"/t/{token(clock, HOST)[:-2]}xx?lang=fr")
    assert "lien" in (await french.text()).lower()


# -- the snapshot and live frames ------------------------------------------------------------
async def test_each_page_gets_its_seat_view_and_watchers_the_public_one(
    service, client, clock
) -> None:
    await four_humans(service)
    seat, _ = to_move(service)
    ws = await connect(client, clock, USERS[seat])
    first = await receive(ws)
    assert first["type"] == "snapshot" and first["seat"] == seat
    assert first["view"] == dict(service.view(CH, USERS[seat]).game or {})
    assert first["legal"] == service.legal_actions(CH, USERS[seat])
    assert set(first["labels"]) == set(first["legal"]) and first["strings"]["Your turn"]
    watcher = await connect(client, clock, WATCHER)
    public = await receive(watcher)
    assert public["seat"] is None and public["legal"] == []
    assert public["view"] == service.public_view(CH) and "hand" not in public["view"]
    stranger = await connect(client, clock, STRANGER)
    assert (await receive(stranger))["view"] == service.public_view(CH)


async def test_a_move_from_the_page_is_the_services_and_every_page_hears_of_it(
    service, client, clock
) -> None:
    await four_humans(service)
    seat, action = to_move(service)
    mover = await connect(client, clock, USERS[seat])
    other = await connect(client, clock, USERS[(seat + 1) % 4])
    watcher = await connect(client, clock, WATCHER)
    snapshots = [await receive(ws) for ws in (mover, other, watcher)]
    move = service.get_table(CH).move_number
    await mover.send_json({"type": "act", "action": action, "move": move, "seat": seat})
    after = [await until(ws, lambda f: f["move"] == move + 1) for ws in (mover, other, watcher)]
    assert service.get_table(CH).move_number == move + 1
    for before, frame in zip(snapshots, after, strict=True):
        assert frame["type"] == "state" and frame["seq"] > before["seq"]
    assert after[1]["legal"] == service.legal_actions(CH, USERS[(seat + 1) % 4])
    # A page that reconnects gets the whole table as it is now.
    await mover.close()
    again = await connect(client, clock, USERS[seat])
    frame = await receive(again)
    assert frame["type"] == "snapshot" and frame["move"] == move + 1
    assert frame["view"] == dict(service.view(CH, USERS[seat]).game or {})


# -- bad input ---------------------------------------------------------------------------------
async def refused(ws: Any, frame: Any, code: str) -> dict[str, Any]:
    if isinstance(frame, str):
        await ws.send_str(frame)
    else:
        await ws.send_json(frame)
    answer = await until(ws, lambda f: f["type"] == "error")
    assert answer["code"] == code, answer
    assert answer["message"]
    return answer


async def test_bad_frames_are_refused_and_change_nothing(service, client, clock) -> None:
    await four_humans(service)
    seat, action = to_move(service)
    waiting = (seat + 1) % 4
    ws = await connect(client, clock, USERS[seat])
    other = await connect(client, clock, USERS[waiting])
    watcher = await connect(client, clock, WATCHER)
    for page in (ws, other, watcher):
        await receive(page)
    before = service.get_table(CH)
    move = before.move_number
    await refused(ws, "not json {", "bad_frame")
    await refused(ws, [1, 2], "bad_frame")
    await refused(ws, {"type": "dance"}, "bad_frame")
    await refused(ws, {"type": "act", "action": 5, "move": move}, "bad_frame")
    await refused(ws, {"type": "act", "action": action, "move": "1"}, "bad_frame")
    await refused(ws, {"type": "act", "action": "x" * 300, "move": move}, "bad_frame")
    await refused(ws, {"type": "act", "action": "play zz", "move": move}, "refused")
    await refused(ws, {"type": "act", "action": action, "move": move - 1}, "stale")
    await refused(
        ws, {"type": "act", "action": action, "move": move, "seat": waiting}, "not_your_seat"
    )
    # Another seat's move from its own page: not his turn. A watcher: no seat.
    other_action = service.view(CH, USERS[waiting]).game["hand"][0]
    await refused(other, {"type": "act", "action": f"play {other_action}", "move": move}, "refused")
    await refused(watcher, {"type": "act", "action": action, "move": move}, "not_your_seat")
    await ws.send_bytes(b"\x00\x01")
    assert (await until(ws, lambda f: f["type"] == "error"))["code"] == "bad_frame"
    assert service.get_table(CH) == before
    # The table still plays from the page.
    await ws.send_json({"type": "act", "action": action, "move": move})
    await until(ws, lambda f: f.get("move") == move + 1)


async def test_a_refusal_is_in_the_readers_language(service, client, clock) -> None:
    await four_humans(service)
    seat, action = to_move(service)
    origin = f"http://{client.host}:{client.port}"
    ws = await client.ws_connect(
        f"/ws/{token(clock, USERS[seat])}?lang=fr", headers={"Origin": origin}
    )
    first = await receive(ws)
    assert first["lang"] == "fr" and first["strings"]["Your turn"] != "Your turn"
    answer = await refused(ws, {"type": "act", "action": action, "move": -5}, "stale")
    assert answer["message"] != "The table has moved on: look again."


async def test_a_huge_frame_closes_the_socket_and_changes_nothing(service, client, clock) -> None:
    await four_humans(service)
    seat, action = to_move(service)
    ws = await connect(client, clock, USERS[seat])
    other = await connect(client, clock, USERS[(seat + 2) % 4])
    await receive(ws)
    await receive(other)
    before = service.get_table(CH)
    await ws.send_str(json.dumps({"type": "act", "action": action, "move": 0, "pad": "x" * 9000}))
    while True:
        message = await ws.receive(timeout=5)
        if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING):
            break
    assert ws.close_code == 1009
    assert service.get_table(CH) == before
    await other.send_json({"type": "sync"})
    assert (await receive(other))["move"] == before.move_number  # the others are still served


async def test_a_flood_is_refused_then_closed(service, client, clock) -> None:
    await four_humans(service)
    seat, _ = to_move(service)
    ws = await connect(client, clock, USERS[seat])
    await receive(ws)
    before = service.get_table(CH)
    for _ in range(200):
        await ws.send_json({"type": "act", "action": "play zz", "move": 0})
    codes = []
    while True:
        message = await ws.receive(timeout=5)
        if message.type != WSMsgType.TEXT:
            break
        codes.append(json.loads(message.data).get("code"))
    assert "slow_down" in codes and ws.close_code == 1008
    assert service.get_table(CH) == before


async def test_a_socket_from_another_site_or_with_a_bad_link_is_refused(
    service, client, clock
) -> None:
    await four_humans(service)
    for headers, path in (
        ({"Origin": "https://evil.example"}, f"/ws/{token(clock, HOST)}"),
        ({}, f"/ws/{token(clock, HOST)}"),
        (
            {"Origin": f"http://{client.host}:{client.port}"},
            f"/ws/{token(clock, HOST, seconds=-5)}",
        ),
        ({"Origin": f"http://{client.host}:{client.port}"}, f"/ws/{token(clock, HOST)[:-3]}abc"),
    ):
        response = await client.get(path, headers=headers)
        assert response.status == 403, (headers, path)


async def test_a_link_to_a_channel_without_a_table_says_so(service, client, clock) -> None:
    ws = await connect(client, clock, HOST)
    frame = await receive(ws)
    assert frame["type"] == "error" and frame["code"] == "no_table"


async def test_a_page_that_is_slow_gets_the_newest_state_not_a_queue(service, web, clock) -> None:
    """Frames are whole: a page's sender keeps only the newest unsent one."""
    from bot.web.hub import Page

    sent: list[str] = []

    class SlowSocket:
        closed = False

        async def send_str(self, text: str) -> None:
            await asyncio.sleep(0.05)
            sent.append(text)

    page = Page(SlowSocket(), HOST, CH, "en")  # type: ignore[arg-type]
    for n in range(10):
        page.push(str(n))
        await asyncio.sleep(0)
    await asyncio.sleep(0.3)
    await page.stop()
    assert sent[-1] == "9" and len(sent) < 10


def test_the_web_settings(tmp_path: Any) -> None:
    from bot.settings import Settings, SettingsError

    missing = tmp_path / "missing.env"
    off = Settings.load(missing, environ={})
    assert off.web_port == 0 and off.web_host == "127.0.0.1" and off.web_public_url is None
    on = Settings.load(
        missing,
        environ={
            "WEB_PORT": "8080",
            "WEB_HOST": "0.0.0.0",
            "WEB_PUBLIC_URL": "https://cards.example.org/",
            "WEB_SECRET": "a-secret-of-the-operator",
        },
    )
    assert (on.web_port, on.web_host) == (8080, "0.0.0.0")
    assert on.web_public_url == "https://cards.example.org"
    assert "a-secret-of-the-operator" not in repr(on)
    for environ in ({"WEB_PORT": "99999"}, {"WEB_PUBLIC_URL": "cards.example.org"}):
        with pytest.raises(SettingsError):
            Settings.load(missing, environ=environ)


async def test_the_score_sheet_and_history_on_request(service, client, clock) -> None:
    await four_humans(service)
    seat, action = to_move(service)
    ws = await connect(client, clock, USERS[seat])
    await receive(ws)
    await ws.send_json({"type": "act", "action": action, "move": 0})
    await ws.send_json({"type": "sheet"})
    sheet = await until(ws, lambda f: f["type"] == "sheet")
    await ws.send_json({"type": "info"})
    info = await until(ws, lambda f: f["type"] == "sheet")
    assert sheet["lines"] and info["lines"] and sheet["lines"] != info["lines"]
