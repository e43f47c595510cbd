"""Launching the Activity: the table message's Play in Discord button (only when the Activity is
configured) answers with Discord's launch-activity response; the Entry Point command is synced
with the other commands, localised.

SimCord does not know the launch-activity callback (type 12): the test records the call of
discord.py's ``InteractionResponse.launch_activity`` in its place.
"""

from __future__ import annotations

from typing import Any

import discord
from cog_world import World

from bot.app import entry_point
from bot.app.client import TroikaTree


def custom_ids_of(message: discord.Message) -> list[str]:
    return [
        child.custom_id or ""
        for row in message.components
        for child in getattr(row, "children", [])
    ]


async def test_the_play_button_launches_the_activity(world: World, monkeypatch) -> None:
    launched: list[int] = []

    async def launch_activity(self: discord.InteractionResponse) -> None:
        launched.append(self._parent.user.id)
        await self.defer()  # SimCord's stand-in for the type-12 answer

    monkeypatch.setattr(discord.InteractionResponse, "launch_activity", launch_activity)
    world.bot.publisher.activity = True
    await world.open("troika", humans=2, ais=2)
    message = world.live_table_message()
    play = f"tt:play:{world.channel.id}"
    assert play in custom_ids_of(message)
    member = world.members[4]  # not at the table: the Activity makes him a watcher
    await member.click(message, custom_id=play)
    assert launched == [member.id]


async def test_without_the_activity_there_is_no_play_button(world: World) -> None:
    await world.open("troika", humans=2, ais=2)
    assert not any(":play:" in c for c in custom_ids_of(world.live_table_message()))


def test_the_entry_point_command_is_localised() -> None:
    body = entry_point.payload()
    assert body["type"] == 4 and body["handler"] == 2 and body["name"] == "launch"
    assert body["contexts"] == [0] and body["integration_types"] == [0]
    for locale in ("fr", "de", "nl"):
        described = body["description_localizations"][locale]
        assert described and described != entry_point.DESCRIPTION
        assert len(described) <= 100


class RecordingHttp:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def bulk_upsert_global_commands(self, app_id: int, payload: list[dict[str, Any]]):
        self.sent = payload
        return [
            {**command, "id": str(n + 1), "application_id": str(app_id), "version": "1"}
            for n, command in enumerate(payload)
        ]


async def test_a_global_sync_carries_the_entry_point_command(world: World) -> None:
    tree = world.bot.tree
    assert isinstance(tree, TroikaTree)
    http = RecordingHttp()
    original = world.bot.http
    world.bot.http = http  # type: ignore[assignment]
    try:
        tree.entry_point = True
        await tree.sync()
    finally:
        world.bot.http = original
        tree.entry_point = False
    kinds = [(c["name"], c.get("type", 1)) for c in http.sent]
    assert ("launch", 4) in kinds
    assert ("join", 1) in kinds and ("tablelink", 1) in kinds  # the slash commands too
