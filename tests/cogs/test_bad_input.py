"""Every kind of bad input is answered ephemerally with the service's reason and changes
nothing: no table state, no public message."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from cog_world import World
from simcord import InteractionResult

from bot.app.errors import APOLOGY


@asynccontextmanager
async def unchanged(world: World) -> AsyncIterator[None]:
    """The table snapshot and the public messages are the same after the block."""
    table = world.table()
    game = world.service.view(world.channel.id, 0).game if table else None
    public = len(world.public_payloads())
    yield
    assert world.table() == table
    if table is not None:
        assert world.service.view(world.channel.id, 0).game == game
    assert world.public_payloads()[public:] == [], "nothing public was said"


def refused(result: InteractionResult, *words: str) -> str:
    assert result.acknowledged, "the user got an answer (never 'did not respond')"
    assert result.response is not None
    assert result.response.ephemeral, "bad input is answered only to its author"
    text = result.response.content
    for word in words:
        assert word.lower() in text.lower(), text
    return text


async def _playing(world: World) -> None:
    await world.open("troika", humans=4)


def _turn(world: World) -> tuple[int, list[str]]:
    found = world.human_to_act()
    assert found is not None
    member, legal = found
    return world.member_index(member), legal


@pytest.mark.parametrize(
    ("command", "options"),
    [("play", {"card": "5h"}), ("bid", {"bid": "7"}), ("pass", {}), ("hand", {}),
     ("table", {}), ("score", {}), ("join", {}), ("start", {}), ("leave", {}), ("abandon", {}),
     ("options", {}), ("mayi", {})],
)  # fmt: skip
async def test_no_table_in_the_channel(world: World, command: str, options: dict) -> None:
    async with unchanged(world):
        result = await world.slash(world.members[0], command, **options)
    refused(result, "no table")


async def test_user_not_at_the_table(world: World) -> None:
    await _playing(world)
    outsider = world.members[5]
    _, legal = _turn(world)
    async with unchanged(world):
        result = await world.by_command(outsider, legal[0])
    refused(result, "seat")
    async with unchanged(world):
        clicked = await outsider.click(world.live_table_message(), label="Show my hand")
    refused(clicked, "not playing")


async def test_out_of_turn(world: World) -> None:
    await _playing(world)
    index, _ = _turn(world)
    other = world.members[(index + 1) % 4]
    async with unchanged(world):
        result = await world.slash(other, "pass")
    refused(result, "not your turn")


@pytest.mark.parametrize(
    ("command", "options", "words"),
    [("play", {"card": "zz"}, ()),  # malformed
     ("bid", {"bid": "99"}, ()),  # out of range
     ("trump", {"suit": "h"}, ()),  # no trump to name while bidding
     ("meld", {"melds": "7h 7s 7d"}, ())],  # a TroiKuntza word at a Troika table
)  # fmt: skip
async def test_illegal_or_malformed_action(
    world: World, command: str, options: dict, words: tuple[str, ...]
) -> None:
    await _playing(world)
    index, _ = _turn(world)
    async with unchanged(world):
        result = await world.slash(world.members[index], command, **options)
    refused(result, *words)


async def test_a_stale_panel_button_changes_nothing(world: World) -> None:
    await _playing(world)
    index, legal = _turn(world)
    member = world.members[index]
    panel = await member.click(world.live_table_message(), label="Show my hand")
    message = panel.response.message
    # A second panel: the first one is no longer kept up to date, its buttons go stale.
    await member.click(world.live_table_message(), label="Show my hand")
    action = legal[0]
    await world.by_command(member, action)  # his move is made by command meanwhile
    async with unchanged(world):
        result = await member.click(message, custom_id=f"tt:act:{world.channel.id}:{action}")
    refused(result)


async def test_lobby_misuse(world: World) -> None:
    host, bob = world.members[0], world.members[1]
    await world.slash(host, "new troika")
    async with unchanged(world):
        refused(await world.slash(bob, "start"))  # not the host
        refused(await world.slash(host, "start"))  # one player is not enough for Troika
        refused(await world.slash(host, "join"))  # already seated
        refused(await world.slash(bob, "addbot"))  # only the host adds AI players
        refused(await world.slash(bob, "kick", seat=1))
        refused(await world.slash(bob, "new troeven"))  # one table per channel
    for member in world.members[1:4]:
        await world.slash(member, "join")
    async with unchanged(world):
        refused(await world.slash(world.members[4], "join"), "full")


async def test_unexpected_error_is_logged_and_answered_with_an_apology(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await _playing(world)
    index, legal = _turn(world)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(world.service, "act", broken)
    with caplog.at_level(logging.ERROR):
        async with unchanged(world):
            result = await world.by_command(world.members[index], legal[0])
        assert refused(result) == APOLOGY
        async with unchanged(world):
            clicked = await world.by_button(world.members[index], legal[0])
        assert refused(clicked) == APOLOGY
    assert "disk on fire" in caplog.text
    # Reading ``errors`` acknowledges them: these errors were the point of the test.
    recorded = world.env.errors
    assert any("disk on fire" in repr(e.__cause__ or e) for e in recorded)
