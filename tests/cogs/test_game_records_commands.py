"""/games and /export through SimCord: a game played to the end through the real bot is listed,
its record downloads as JSON and replays every move; another server's or a running game is
refused privately."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from cog_world import World
from test_web_link import SECRET

from bot.records import replay
from bot.web import links
from bot.web.server import WebServer


async def play_troeven(world: World) -> int:
    table = await world.open("troeven", humans=2)
    await world.play(via="command")
    assert world.table() is None
    return table.id


async def test_games_lists_the_finished_game_and_export_replays_it(world: World) -> None:
    empty = await world.slash(world.members[0], "games")
    assert empty.ephemeral and "No finished game yet" in empty.response.embeds[0].description

    table_id = await play_troeven(world)
    listed = await world.slash(world.members[0], "games")
    embed = listed.response.embeds[0]
    assert listed.ephemeral and embed.title == "The server's finished games"
    (line,) = embed.description.splitlines()
    assert f"`#{table_id}`" in line and "2-Player Troeven" in line and "🏆" in line
    mine = await world.slash(world.members[2], "games", mine=True)
    assert "No finished game yet" in mine.response.embeds[0].description

    choices = await world.members[0].autocomplete(world.channel, "export", "game", "")
    assert [c["value"] for c in choices] == [table_id]

    exported = await world.slash(world.members[1], "export", game=table_id)
    assert exported.ephemeral and f"#{table_id}" in exported.response.content
    (attachment,) = exported.response.attachments
    record = json.loads(await attachment.read())
    assert record["game"] == "troeven" and record["id"] == table_id
    assert len(replay(record)) == len(record["actions"]) > 10


async def test_export_refuses_a_running_or_unknown_game_privately(world: World) -> None:
    table = await world.open("troeven", humans=2)
    running = await world.slash(world.members[0], "export", game=table.id)
    assert running.ephemeral and not running.response.attachments
    assert f"#{table.id} is still being played" in running.response.content
    unknown = await world.slash(world.members[0], "export", game=999_999)
    assert unknown.ephemeral and not unknown.response.attachments
    assert "no finished game #999999" in unknown.response.content


async def test_replay_posts_the_hand_as_an_animated_picture(world: World) -> None:
    table_id = await play_troeven(world)
    posted = await world.slash(world.members[2], "replay", game=table_id, hand=2)
    assert not posted.ephemeral
    (message,) = posted.followups or [posted.response]
    assert f"#{table_id}" in message.content and "hand 2" in message.content
    (attachment,) = message.attachments
    gif = await attachment.read()
    assert gif[:6] == b"GIF89a" and len(gif) < 10 * 1024 * 1024


async def test_replay_refuses_a_running_game_and_a_hand_it_never_had(world: World) -> None:
    table_id = await play_troeven(world)
    too_far = await world.slash(world.members[0], "replay", game=table_id, hand=999)
    assert too_far.ephemeral and "choose one from 1 to" in too_far.response.content
    running = await world.open("troeven", humans=2)
    refused = await world.slash(world.members[0], "replay", game=running.id)
    assert refused.ephemeral and "still being played" in refused.response.content


async def test_replay_offers_the_games_hands(world: World) -> None:
    table_id = await play_troeven(world)
    record_hands = await world.members[0].autocomplete(
        world.channel, "replay", "hand", "", game=table_id
    )
    values = [c["value"] for c in record_hands]
    assert values[:3] == [1, 2, 3] and len(values) <= 25
    assert record_hands[0]["name"] == "hand 1"
    none_yet = await world.members[0].autocomplete(world.channel, "replay", "hand", "")
    assert none_yet == []


async def test_score_after_the_game_shows_the_finished_games_sheet(world: World) -> None:
    nothing = await world.slash(world.members[0], "score")
    assert nothing.ephemeral and "no table here" in nothing.response.content.lower()
    await play_troeven(world)
    sheet = await world.slash(world.members[1], "score")
    embed = sheet.response.embeds[0]
    assert sheet.ephemeral and embed.title == "2-Player Troeven: scores"
    text = " ".join(f"{f.name} {f.value}" for f in embed.fields)
    assert "🏆" in text and "Score sheet" in text
    assert embed.footer.text == "The last game played here, finished."


def link_buttons(message: Any) -> list[str]:
    """The URLs of a sent message's link buttons (its components as sent: JSON)."""
    rows = getattr(message, "components", None) or []
    return [
        button["url"]
        for row in rows
        for button in (row.get("components", []) if isinstance(row, dict) else [])
        if button.get("url")
    ]


async def test_replay_and_games_link_the_replay_viewer_when_the_web_table_is_on(
    world: World,
) -> None:
    table_id = await play_troeven(world)
    posted = await world.slash(world.members[2], "replay", game=table_id)
    (message,) = posted.followups or [posted.response]
    assert link_buttons(message) == [], "no web table: no link"
    listed = await world.slash(world.members[0], "games")
    assert link_buttons(listed.response) == []

    world.bot.web = WebServer(world.service, SECRET, public_url="https://cards.example.org")
    posted = await world.slash(world.members[2], "replay", game=table_id)
    (message,) = posted.followups or [posted.response]
    [url] = link_buttons(message)
    assert url.startswith("https://cards.example.org/r/")
    token = urlsplit(url).path.removeprefix("/r/")
    assert links.verify_replay(SECRET, token) == links.ReplayLink(world.guild.id, table_id)
    listed = await world.slash(world.members[0], "games")
    [url] = link_buttons(listed.response)
    assert links.verify_replay(SECRET, urlsplit(url).path.removeprefix("/r/")).table_id == table_id
