"""The page's list of the player's tables (``GET /t/<token>/tables``): his tables in the link's
table's server only, his turn flagged with its deadline, each linking to its channel; a bad
link gets a refusal and nothing else."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient

from bot.service import TableService
from bot.web import links
from tests.bot.conftest import FakeClock
from tests.web.conftest import BOB, CH, HOST, SECRET, four_humans


def token(clock: FakeClock, user: int, channel: int = CH) -> str:
    return links.sign(SECRET, user, channel, int(clock.now) + 3600)


async def two_player(service: TableService, channel: int, guild: int, first: int, second: int):
    await service.open_table(channel, guild, first, "P", "troeven", options={"timer": "24h"})
    await service.join(channel, second, "Q")
    await service.start_game(channel, first)
    return service.get_table(channel)


async def test_the_page_lists_the_players_tables_of_this_server(
    service: TableService, client: TestClient[Any, Any], clock: FakeClock
) -> None:
    await four_humans(service)  # CH, server 99: HOST's turn or another's
    other = await two_player(service, 778, 99, HOST, BOB)
    elsewhere = await two_player(service, 779, 55, HOST, BOB)  # another server
    answer = await client.get(f"/t/{token(clock, HOST)}/tables?lang=fr")
    assert answer.status == 200
    body = await answer.json()
    names = [row["name"] for row in body["tables"]]
    # (French says "n°12" for "#12")
    assert len(names) == 2 and not any(n.endswith(f"°{elsewhere.id}") for n in names)
    assert body["title"] == "Tes tables" and body["language"] == "fr"
    row = next(r for r in body["tables"] if r["name"].endswith(f"°{other.id}"))
    assert row["link"] == "https://discord.com/channels/99/778" and not row["here"]
    awaited = service.get_table(778)
    assert row["yours"] == (awaited.seat(awaited.to_act[0]).user_id == HOST)
    assert row["deadline"] == awaited.deadlines[awaited.to_act[0]]
    here = next(r for r in body["tables"] if r["here"])
    assert here["link"] == f"https://discord.com/channels/99/{CH}"


async def test_a_bad_link_lists_nothing(
    service: TableService, client: TestClient[Any, Any], clock: FakeClock
) -> None:
    await four_humans(service)
    forged = token(clock, HOST)[:-3] + "abc"
    answer = await client.get(f"/t/{forged}/tables")
    assert answer.status == 403
    assert "tables" not in await answer.json()


async def test_the_page_loads_the_list(client: TestClient[Any, Any], clock: FakeClock) -> None:
    page = await (await client.get(f"/t/{token(clock, HOST)}")).text()
    assert "/static/mytables.js" in page and "/static/mytables.css" in page
    script = await client.get("/static/mytables.js")
    assert script.status == 200 and "/tables" in await script.text()
