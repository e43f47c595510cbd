"""The replay viewer's protocol (``/r/<token>``, ``/r/<token>/step/<k>``): each step of a finished
game shows every seat's view and the public view as the engine gives them after ``k`` moves of
its record; a running game, another server's game, a forged or altered link and a step out of
range are refused, and nothing changes."""

from __future__ import annotations

import json
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

import engine
from bot.records import build, finished_game, recent_games
from bot.service import TableService
from bot.web import links
from bot.web.limits import FrameBudget
from bot.web.server import WebServer
from tests.bot.test_records import GUILD, OTHER_GUILD, play_game
from tests.web.conftest import SECRET


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


async def record_of(service: TableService, table_id: int) -> dict[str, Any]:
    finished = await service.db.run(lambda conn: finished_game(conn, GUILD, table_id))
    assert finished is not None
    return build(finished)


def path(guild: int, table_id: int, step: int | str | None = None, secret: bytes = SECRET) -> str:
    url = f"/r/{links.sign_replay(secret, guild, table_id)}"
    return url if step is None else f"{url}/step/{step}"


async def test_every_step_shows_the_views_the_engine_gives_after_its_moves(service, web, client):
    # Every step at once (no reader does this): a budget that never runs out.
    web.steps_budget = lambda: FrameBudget(1e6, 1e6, tokens=1e6)
    table_id = await play_game(service, "troika", 4)
    record = await record_of(service, table_id)
    game = engine.new_game("troika", 4, options=record["options"], seed=record["seed"])
    total = len(record["actions"])
    assert total > 20
    page = await client.get(path(GUILD, table_id))
    assert page.status == 200 and "replay.js" in await page.text()
    for step in range(total + 1):
        if step:
            move = record["actions"][step - 1]
            game.apply(move["seat"], move["action"])
        response = await client.get(path(GUILD, table_id, step))
        assert response.status == 200, step
        frame = await response.json()
        assert (frame["step"], frame["total"], frame["id"]) == (step, total, table_id)
        assert frame["views"] == [plain(game.view(seat)) for seat in range(4)], step
        assert frame["public"] == plain(game.view(None)), step
        assert frame["over"] == game.is_over()
        if step:
            assert frame["move"] == {"seat": move["seat"], "action": move["action"]}
        else:
            assert frame["move"] is None and frame["caption"] == []
    # The hands are all there at the deal, and the last step ends the game with its sheet.
    first = await (await client.get(path(GUILD, table_id, 0))).json()
    assert all(view["hand"] for view in first["views"])
    last = await (await client.get(path(GUILD, table_id, total))).json()
    assert last["over"] and last["to_act"] == [] and last["summary"] and last["sheet"]


async def test_the_caption_is_the_moves_narration_in_the_readers_language(service, client):
    table_id = await play_game(service, "troeven", 2)
    record = await record_of(service, table_id)
    played = next(n for n, m in enumerate(record["actions"], 1) if m["action"].startswith("play"))
    mover = record["seats"][record["actions"][played - 1]["seat"]]["name"]
    english = await (await client.get(path(GUILD, table_id, played))).json()
    french = await (await client.get(path(GUILD, table_id, played) + "?lang=fr")).json()
    assert english["caption"] and french["caption"]
    assert english["caption"] != french["caption"]
    assert f"{mover} plays {english['label']}" in english["caption"]
    assert french["strings"]["Forward"] == "Suivant" and french["lang"] == "fr"


async def test_refusals_open_nothing_and_change_nothing(service: TableService, client, web):
    table_id = await play_game(service, "troeven", 2)
    record = await record_of(service, table_id)
    running = await service.open_table(701, GUILD, 1, "Ann", "troeven", seed=1)
    await service.add_ai(701, 1, "normal")
    await service.start_game(701, 1)
    await service.settle()
    before = service.get_table(701)
    assert before is not None
    move_before = before.move_number
    listed_before = await service.db.run(
        lambda conn: recent_games(conn, GUILD, user_id=None, limit=10, offset=0)
    )

    refused = await client.get(path(GUILD, running.id, 0))
    assert refused.status == 409
    assert "still being played" in (await refused.json())["message"]

    other = await client.get(path(OTHER_GUILD, table_id, 0))
    assert other.status == 404 and "no such finished game" in (await other.json())["message"]

    token = links.sign_replay(SECRET, GUILD, table_id)
    guild, game_id, signature = token.split(".")
    altered = [
        f"{OTHER_GUILD}.{game_id}.{signature}",  # the link of this server moved to another
        f"{guild}.{int(game_id) + 1}.{signature}",  # another game
        f"{guild}.{game_id}.{signature[:-2]}xx",  # a forged signature
        links.sign_replay(b"another-secret-another-secret-xx", GUILD, table_id),
        links.sign(SECRET, 1, table_id, 2**40),  # a table link is no replay link
        "nothing",
    ]
    for bad in altered:
        step = await client.get(f"/r/{bad}/step/0")
        assert step.status == 403, bad
        assert "link" in (await step.json())["message"]
        assert (await client.get(f"/r/{bad}")).status == 403, bad

    for step in (-1, len(record["actions"]) + 1, "x", "1.5"):
        out = await client.get(path(GUILD, table_id, step))
        assert out.status == 404, step
        assert "no such step" in (await out.json())["message"]

    after = service.get_table(701)
    assert after is not None and after.move_number == move_before
    listed_after = await service.db.run(
        lambda conn: recent_games(conn, GUILD, user_id=None, limit=10, offset=0)
    )
    assert listed_after == listed_before
    assert (await client.get(path(GUILD, table_id, 1))).status == 200  # still replays


async def test_a_replay_link_names_server_and_game_and_no_time(web: WebServer):
    url = web.replay_link(GUILD, 5, "de")
    token = url.split("/r/")[1].split("?")[0]
    assert token.count(".") == 2  # no expiry: a finished game never changes
    assert links.verify_replay(SECRET, token) == links.ReplayLink(GUILD, 5)
    assert url.endswith("?lang=de")


async def test_a_reader_asking_too_many_steps_is_slowed_down(service: TableService, clock):
    table_id = await play_game(service, "troeven", 2)
    three = FrameBudget(rate=0.001, burst=3.0, tokens=3.0)
    web = WebServer(service, SECRET, clock=clock, steps_budget=lambda: three)
    async with TestClient(TestServer(web.app())) as client:
        for _ in range(3):
            assert (await client.get(path(GUILD, table_id, 1))).status == 200
        refused = await client.get(path(GUILD, table_id, 2))
        assert refused.status == 429 and "slow down" in (await refused.json())["message"]
        # A forged address header changes nothing without a proxy in front.
        forged = await client.get(path(GUILD, table_id, 2), headers={"X-Forwarded-For": "1.2.3.4"})
        assert forged.status == 429
    await web.stop()
