"""/tablelink and the hand panel's Open table button: each member's own signed link to the
table in the browser (bot/web), none when the web table is off."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from cog_world import World

from bot.web import links
from bot.web.server import WebServer

SECRET = b"cog-test-secret-cog-test-secret!"


def token_of(url: str) -> links.Link:
    path = urlsplit(url).path
    assert path.startswith("/t/")
    return links.verify(SECRET, path.removeprefix("/t/"), time.time())


def link_buttons(message) -> list[str]:
    return [
        child.url
        for row in message.components
        for child in getattr(row, "children", [])
        if getattr(child, "url", None)
    ]


async def test_a_player_and_a_watcher_get_their_own_links(world: World) -> None:
    await world.open("troika", humans=2, ais=2)
    world.bot.web = WebServer(world.service, SECRET, public_url="https://cards.example.org")
    player, watcher = world.members[0], world.members[5]
    answer = await world.slash(player, "tablelink")
    assert answer.ephemeral and answer.response is not None
    [url] = link_buttons(answer.response.message)
    assert url.startswith("https://cards.example.org/t/")
    link = token_of(url)
    assert (link.user_id, link.channel_id) == (player.id, world.channel.id)
    refused = await world.slash(watcher, "tablelink")
    assert refused.ephemeral and "/watch" in refused.response.content
    await world.slash(watcher, "watch")
    watched = await world.slash(watcher, "tablelink")
    [url] = link_buttons(watched.response.message)
    assert token_of(url).user_id == watcher.id


async def test_the_hand_panel_has_the_open_table_button(world: World) -> None:
    await world.open("troika", humans=2, ais=2)
    player = world.members[0]
    panel = await player.click(world.live_table_message(), custom_id=f"tt:hand:{world.channel.id}")
    assert link_buttons(panel.response.message) == [], "no web table: no button"
    world.bot.web = WebServer(world.service, SECRET)
    panel = await player.click(world.live_table_message(), custom_id=f"tt:hand:{world.channel.id}")
    [url] = link_buttons(panel.response.message)
    assert token_of(url).user_id == player.id


async def test_without_the_web_table_the_command_says_so(world: World) -> None:
    await world.open("troika", humans=2, ais=2)
    answer = await world.slash(world.members[0], "tablelink")
    assert answer.ephemeral and "off" in answer.response.content
