"""Tables in their own threads (bot/app/threads.py) through SimCord: ``/new`` opens a thread per
table with a lobby post in the channel that follows the table's state; joiners become thread
members; the thread is archived when the table ends and brought back when a live table posts;
a deleted or locked thread closes its table cleanly; the fallback to the channel without the
permission to create threads; the server's setting in ``/admin defaults``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from cog_world import World, run_world
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from bot.app.threads import ARCHIVE_AFTER_FINISH, ARCHIVE_MINUTES, thread_name
from bot.service import TableStatus
from bot.service.table_settings import thread_of
from bot.settings import Settings
from bot.storage import repository as repo


@pytest.fixture
async def world(settings: Settings) -> AsyncIterator[World]:
    async with run_world(settings, tables_in=None) as running:  # the default: threads
        yield running


def _meta(world: World, thread_id: int) -> Any:
    return world.env.backend.channels[thread_id].thread_metadata


def _posts(world: World, parent: Any) -> list[discord.Message]:
    """The lobby posts in the channel (the bot's messages with an embed; not system lines)."""
    me = world.bot.user
    assert me is not None
    return [m for m in parent.history() if m.author.id == me.id and m.embeds]


async def _new(world: World, host: Any, game: str = "troggu", **options: Any) -> Any:
    """``/new`` in the channel; returns the new table's thread (a SimCord channel handle)."""
    parent = world.channel
    before = {t.id for t in parent.threads}
    result = await host.slash(parent, f"new {game}", **options)
    assert result.ephemeral and "in its own thread" in result.response.content, result
    (thread,) = [t for t in parent.threads if t.id not in before]
    assert f"<#{thread.id}>" in result.response.content
    return thread


async def test_new_in_a_channel_with_two_tables_opens_a_third_thread(world: World) -> None:
    ann, bob, cid = world.members[:3]
    threads = [await _new(world, host) for host in (ann, bob, cid)]
    assert len({t.id for t in threads}) == 3 == len(world.channel.threads)
    service = world.service
    assert service.get_table(world.channel.id) is None  # the channel itself holds none
    for thread, host in zip(threads, (ann, bob, cid), strict=True):
        table = service.get_table(thread.id)
        assert table is not None and table.host_id == host.id
        assert thread_of(table.settings) is not None
        assert thread_of(table.settings)[0] == world.channel.id  # type: ignore[index]
        assert thread.name == thread_name("Troggu", host.name)
        assert _meta(world, thread.id).auto_archive_duration == ARCHIVE_MINUTES
        # The lobby post the thread was started from links to it and says the table is open.
        post = next(m for m in _posts(world, world.channel) if m.id == thread.id)
        assert f"<#{thread.id}>" in (post.embeds[0].description or "")
        assert "Open" in (post.embeds[0].description or "")
    assert len(_posts(world, world.channel)) == 3
    # Each table's own message is in its thread, not in the channel.
    world.channel = threads[1]
    assert len(world.table_messages()) == 1


async def test_a_refused_new_makes_no_thread(world: World) -> None:
    ann = world.members[0]
    limit = world.service.limits.lobbies_per_user
    for _ in range(limit):
        await _new(world, ann)
    refused = await world.slash(ann, "new troika")
    assert refused.ephemeral and "You already host" in refused.response.content, refused
    assert len(world.channel.threads) == limit == len(_posts(world, world.channel))


async def test_new_in_a_tables_thread_opens_another_thread_of_the_channel(world: World) -> None:
    ann, bob = world.members[:2]
    first = await _new(world, ann)
    result = await bob.slash(first, "new troika")
    assert result.ephemeral and "in its own thread" in result.response.content, result
    assert len(world.channel.threads) == 2
    (second,) = [t for t in world.channel.threads if t.id != first.id]
    assert world.service.get_table(second.id).host_id == bob.id  # type: ignore[union-attr]
    assert world.service.get_table(first.id).seat_of(bob.id) is None  # type: ignore[union-attr]
    assert len(_posts(world, world.channel)) == 2  # (both lobby posts in the channel)


async def test_lobby_post_follows_the_table_and_joiners_are_members(world: World) -> None:
    ann, bob, cid = world.members[:3]
    parent = world.channel
    thread = await _new(world, ann, preset="quick")

    def post() -> discord.Embed:
        return next(m for m in _posts(world, parent) if m.id == thread.id).embeds[0]

    assert "Open" in (post().description or "") and "ann" in post().fields[0].value
    # Join from the lobby post's button in the channel.
    joined = await bob.click(
        next(m for m in _posts(world, parent) if m.id == thread.id), label="Join"
    )
    assert joined.ephemeral and "joined" in joined.response.content, joined
    world.channel = thread
    await world.slash(cid, "join")
    members = world.env.backend.channels[thread.id].thread_members
    assert {ann.id, bob.id, cid.id} <= set(members), "joiners are members of the thread"
    assert "bob" in post().fields[0].value and "cid" in post().fields[0].value
    await world.slash(ann, "start")
    assert "Playing" in (post().description or "")
    moves = await world.play(via="command")
    table = world.service.get_table(thread.id)
    assert table is None or table.status is not TableStatus.PLAYING
    assert "Finished" in (post().description or "")
    # The post is edited when what it shows changes, never for a move.
    path = f"/channels/{parent.id}/messages/{thread.id}"
    edits = [e for e in world.env.http_requests if e.method == "PATCH" and e.path == path]
    assert moves > 20 and len(edits) <= 5, len(edits)  # opened, 2 joins, started, finished
    # The final message stays in the thread; the thread is archived after the rematch window.
    assert any("game over" in (m.embeds[0].title or "") for m in world.table_messages())
    assert not _meta(world, thread.id).archived
    await world.env.advance_time(ARCHIVE_AFTER_FINISH + 1)
    assert _meta(world, thread.id).archived
    assert any("game over" in (m.embeds[0].title or "") for m in world.table_messages())


async def test_an_archived_thread_comes_back_when_its_table_posts(world: World) -> None:
    ann, bob = world.members[:2]
    thread = await _new(world, ann)
    # Discord (or a moderator) archives the idle thread; the table lives on.
    world.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    await world.env.settle()
    assert _meta(world, thread.id).archived
    world.channel = thread
    await world.slash(bob, "join")
    assert not _meta(world, thread.id).archived, "the table's next post brought it back"
    assert world.service.get_table(thread.id) is not None


async def test_a_thread_archived_while_the_bot_was_away_comes_back(world: World) -> None:
    ann, bob = world.members[:2]
    thread = await _new(world, ann)
    world.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    await world.env.settle()
    await world.restart()  # (the new process never saw the thread archived)
    world.channel = thread
    await world.slash(bob, "join")
    assert not _meta(world, thread.id).archived
    assert world.service.get_table(thread.id).seat_of(bob.id) is not None  # type: ignore[union-attr]


async def test_a_deleted_thread_closes_its_table_cleanly(world: World) -> None:
    ann, bob, cid = world.members[:3]
    parent = world.channel
    thread = await _new(world, ann)
    world.channel = thread
    await world.slash(bob, "join")
    await world.slash(cid, "join")
    await world.slash(ann, "start")
    table = world.service.get_table(thread.id)
    assert table is not None and table.status is TableStatus.PLAYING
    assert any(thread.id in _flat(key) for key in _scheduler_keys(world))  # its jobs run
    world.env.backend.delete_channel(thread.id)
    await world.env.settle()
    assert world.service.get_table(thread.id) is None
    assert not any(thread.id in _flat(key) for key in _scheduler_keys(world))
    post = next(m for m in _posts(world, parent) if m.id == thread.id).embeds[0]
    assert "Closed" in (post.description or "") and "deleted" in (post.description or "")
    stored = await world.service.db.run(lambda c: repo.load_table(c, table.id))
    assert stored is not None and stored.columns["status"] == "abandoned"
    # After a restart nothing of it is half alive.
    await world.restart()
    assert world.service.get_table(thread.id) is None
    assert all(t.id != table.id for t in world.service.tables())


async def test_a_deleted_channel_closes_its_threads_tables(world: World) -> None:
    ann, bob = world.members[:2]
    threads = [await _new(world, host) for host in (ann, bob)]
    world.env.backend.delete_channel(world.channel.id)
    await world.env.settle()
    assert all(world.service.get_table(t.id) is None for t in threads)
    assert world.service.tables() == []


async def test_an_abandoned_table_archives_its_thread_at_once(world: World) -> None:
    ann = world.members[0]
    parent = world.channel
    thread = await _new(world, ann)
    world.channel = thread
    await world.slash(ann, "abandon")
    assert _meta(world, thread.id).archived
    assert any("table closed" in (m.embeds[0].title or "") for m in world.table_messages())
    post = next(m for m in _posts(world, parent) if m.id == thread.id).embeds[0]
    assert "Closed" in (post.description or "") and "the host ended it" in (post.description or "")


async def test_a_rematch_keeps_the_thread_open(world: World) -> None:
    ann, bob, cid = world.members[:3]
    parent = world.channel
    # (No move timer: the rematch waits for its players however long the test's clock runs.)
    thread = await _new(world, ann, preset="quick", timer="off")
    world.channel = thread
    await world.slash(bob, "join")
    await world.slash(cid, "join")
    await world.slash(ann, "start")
    await world.play(via="command")
    final = next(m for m in world.table_messages() if "game over" in (m.embeds[0].title or ""))
    for member in (bob, ann, cid):
        again = await member.click(final, custom_id=f"tt:rematch:{thread.id}")
        assert again.ephemeral, again
    table = world.service.get_table(thread.id)
    assert table is not None and table.status is TableStatus.PLAYING
    await world.env.advance_time(ARCHIVE_AFTER_FINISH + 1)
    assert not _meta(world, thread.id).archived, "the rematch lives in the thread"
    post = next(m for m in _posts(world, parent) if m.id == thread.id).embeds[0]
    assert world.service.get_table(thread.id) is not None
    assert "Open" in (post.description or "") or "Playing" in (post.description or "")


async def test_a_rematch_pressed_in_the_archived_thread_brings_it_back(world: World) -> None:
    ann, bob, cid = world.members[:3]
    thread = await _new(world, ann, preset="quick", timer="off")
    world.channel = thread
    await world.slash(bob, "join")
    await world.slash(cid, "join")
    await world.slash(ann, "start")
    await world.play(via="command")
    await world.env.advance_time(ARCHIVE_AFTER_FINISH + 1)
    assert _meta(world, thread.id).archived
    final = next(m for m in world.table_messages() if "game over" in (m.embeds[0].title or ""))
    again = await bob.click(final, custom_id=f"tt:rematch:{thread.id}")
    assert again.ephemeral and world.service.get_table(thread.id) is not None, again
    assert not _meta(world, thread.id).archived


async def test_a_locked_thread_closes_its_table(world: World) -> None:
    ann = world.members[0]
    parent = world.channel
    thread = await _new(world, ann)
    world.env.backend.edit_channel(
        thread.id, {}, thread_metadata={"locked": True, "archived": True}
    )
    await world.env.settle()
    assert world.service.get_table(thread.id) is None
    post = next(m for m in _posts(world, parent) if m.id == thread.id).embeds[0]
    assert "locked" in (post.description or "")


async def test_without_thread_permission_the_table_opens_in_the_channel(world: World) -> None:
    ann = world.members[0]
    me = world.bot.user
    assert me is not None
    deny = discord.Permissions(create_public_threads=True).value
    world.env.backend.set_overwrite(
        world.channel.id, Overwrite(me.id, OverwriteType.MEMBER, allow=0, deny=deny)
    )
    await world.env.settle()
    result = await world.slash(ann, "new troggu")
    assert result.ephemeral
    assert "may not create public threads" in result.response.content
    assert "You opened a Troggu table" in result.response.content
    assert world.channel.threads == []
    assert world.service.get_table(world.channel.id) is not None


async def test_a_thread_discord_refuses_falls_back_to_the_channel(world: World) -> None:
    # The interaction shows the thread permissions, but Discord still refuses the thread (here:
    # it is started from the lobby post, which the bot may not read back).
    me = world.bot.user
    assert me is not None
    deny = discord.Permissions(read_message_history=True).value
    world.env.backend.set_overwrite(
        world.channel.id, Overwrite(me.id, OverwriteType.MEMBER, allow=0, deny=deny)
    )
    await world.env.settle()
    result = await world.slash(world.members[0], "new troggu")
    assert result.ephemeral and "Discord refused to create the table's thread" in (
        result.response.content
    )
    assert world.channel.threads == []
    tables = {m.id for m in world.table_messages()}
    assert [m for m in _posts(world, world.channel) if m.id not in tables] == [], "post deleted"
    assert world.service.get_table(world.channel.id) is not None


async def test_the_server_setting_chooses_the_channel(world: World) -> None:
    bob = world.members[1]
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    ada = world.guild.add_member(world.env.create_user("ada"), roles=[role])
    shown = await world.slash(ada, "admin defaults")
    assert "a new thread of the channel" in shown.response.content
    changed = await world.slash(ada, "admin defaults", tables="channel")
    assert "the channel itself" in changed.response.content
    opened = await world.slash(bob, "new troggu")
    assert "in its own thread" not in opened.response.content
    assert world.channel.threads == []
    assert world.service.get_table(world.channel.id) is not None


async def test_a_join_button_of_a_thread_table_works_only_from_its_channel(world: World) -> None:
    ann, bob = world.members[:2]
    thread = await _new(world, ann)
    other = world.guild.create_text_channel("elsewhere")
    await world.env.settle()
    # The same button posted in another channel (a copied or forged id) is refused there.
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Join", custom_id=f"tt:join:{thread.id}"))
    channel = world.bot.get_channel(other.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("copy", view=view)
    await world.env.settle()
    copied = other.history()[-1]
    refused = await bob.click(copied, custom_id=f"tt:join:{thread.id}")
    assert refused.ephemeral and "another channel" in refused.response.content, refused
    assert world.service.get_table(thread.id).seat_of(bob.id) is None  # type: ignore[union-attr]


async def test_an_admin_ends_a_thread_table_from_the_channel(world: World) -> None:
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    ada = world.guild.add_member(world.env.create_user("ada"), roles=[role])
    thread = await _new(world, world.members[0])
    ended = await world.slash(ada, "admin end", channel=thread)
    assert ended.ephemeral and "is closed" in ended.response.content, ended
    assert world.service.get_table(thread.id) is None
    assert _meta(world, thread.id).archived


async def test_a_command_in_the_channel_points_at_the_threads(world: World) -> None:
    ann, bob, cid = world.members[:3]
    first = await _new(world, ann)
    second = await _new(world, bob)
    refused = await world.slash(cid, "join")
    assert refused.ephemeral
    text = refused.response.content
    assert f"<#{first.id}>" in text and f"<#{second.id}>" in text
    assert world.service.get_table(first.id).seat_of(cid.id) is None  # type: ignore[union-attr]
    assert world.service.get_table(second.id).seat_of(cid.id) is None  # type: ignore[union-attr]


def _scheduler_keys(world: World) -> list[Any]:
    """Every job the service's scheduler holds (waiting or firing)."""
    scheduler = world.service.scheduler
    return [*scheduler._waiting, *scheduler._firing]


def _flat(key: Any) -> tuple[Any, ...]:
    return tuple(key) if isinstance(key, tuple) else (key,)
