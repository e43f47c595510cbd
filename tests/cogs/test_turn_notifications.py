"""Turn-based tables through Discord (SimCord): a day's clock across a restart, turn pings that
are not repeated, the opted-in direct message (one for three tables, never for who did not ask,
held back by quiet hours, a closed inbox handled quietly) and ``/mytables``."""

from __future__ import annotations

import re
from typing import Any

from cog_world import World
from simcord import InteractionResult, MemberActor

from bot.app import turn_pings
from bot.service import TableStatus
from bot.service.digests import DIGEST_DELAY
from cogs.moves import declared_verbs

DAY = 24 * 3600


async def open_in(world: World, channel: Any, game: str, members: list[MemberActor], **options):
    """A table in ``channel`` with ``members`` seated (the first one hosts), started."""
    opened = await members[0].slash(channel, f"new {game}", **options)
    assert opened.ephemeral, opened
    for member in members[1:]:
        joined = await member.slash(channel, "join")
        assert "joined" in joined.response.content, joined.response.content
    started = await members[0].slash(channel, "start")
    assert "started" in started.response.content, started.response.content
    table = world.service.get_table(channel.id)
    assert table is not None and table.status is TableStatus.PLAYING
    return table


async def move(channel: Any, member: MemberActor, action: str) -> InteractionResult:
    """``action`` as the slash command a player types (as ``World.by_command``, any channel)."""
    verbs = declared_verbs()
    head = action.split(" ", 1)[0]
    verb = verbs.get(head) or next(v for v in verbs.values() if v.makes(action))
    words = verb.argument_of(action).split(" ") if verb.args else []
    count = len(verb.args)
    values = words[: count - 1] + [" ".join(words[count - 1 :])] if count else []
    options = {arg.name: value for arg, value in zip(verb.args, values, strict=True)}
    result = await member.slash(channel, verb.name, **options)
    assert result.acknowledged, result
    return result


def awaited(world: World, channel: Any) -> int | None:
    table = world.service.get_table(channel.id)
    assert table is not None
    seat = table.seat(table.to_act[0]) if table.to_act else None
    return None if seat is None else seat.user_id


async def turn_to(world: World, channel: Any, member: MemberActor) -> None:
    """The others move (their first legal move) until the turn at ``channel`` is ``member``'s."""
    for _ in range(40):
        user = awaited(world, channel)
        if user == member.id:
            return
        mover = world.member_of(user)  # type: ignore[arg-type]
        await move(channel, mover, world.service.legal_actions(channel.id, mover.id)[0])
    raise AssertionError("the turn never came")


def mentions_of(world: World, member: MemberActor, since: int = 0) -> int:
    """Messages the bot posted in a channel that mention ``member`` since request ``since``."""
    return sum(
        1
        for entry in world.env.http_requests[since:]
        if entry.method == "POST"
        and re.fullmatch(r"/channels/\d+/messages", entry.path)
        and f"<@{member.id}>" in str((entry.json or {}).get("content") or "")
    )


def dms(member: MemberActor) -> list[Any]:
    return [m for m in member.user.dm_channel.history() if m.author.bot]


async def three_tables_waiting_for(world: World, ann: MemberActor, bob: MemberActor) -> list[int]:
    """Three turn-based tables of ann and bob, each waiting for ann."""
    ids = []
    for name in ("day-1", "day-2", "day-3"):
        channel = world.guild.create_text_channel(name)
        table = await open_in(world, channel, "troeven", [bob, ann], timer="24h")
        await turn_to(world, channel, ann)
        ids.append(table.id)
    return ids


# -- the clock ----------------------------------------------------------------------------------
async def test_a_day_table_survives_a_restart_and_its_deadline_fires_after_it(world: World):
    table = await world.open("troika", humans=4, timer="24h")
    (seat,) = table.to_act
    assert table.deadlines[seat] - world.env.now().timestamp() > DAY - 60
    await world.env.advance_time(DAY - 3600)
    assert world.table().move_number == table.move_number  # type: ignore[union-attr]
    await world.restart()
    await world.env.advance_time(3600 - 5)
    assert world.table().move_number == table.move_number  # type: ignore[union-attr]
    await world.env.advance_time(10)
    after = world.table()
    assert after is not None and after.move_number == table.move_number + 1
    assert "ran out of time" in world.public_text()


# -- turn pings ---------------------------------------------------------------------------------
async def test_a_turn_ping_is_not_repeated_while_unanswered(world: World):
    ann, bob = world.members[:2]
    await open_in(world, world.channel, "troeven", [bob, ann], timer="24h")
    await turn_to(world, world.channel, ann)
    assert mentions_of(world, ann) == 1, "ann is told her turn came"
    cursor = len(world.env.http_requests)
    await world.env.advance_time(DAY + 1)  # ann does not answer: the AI moves for her
    await world.env.advance_time(turn_pings.RECENT + 1)
    await turn_to(world, world.channel, ann)
    table = world.table()
    assert table is not None and not table.seat_of(ann.id).away  # type: ignore[union-attr]
    assert mentions_of(world, ann, cursor) == 0, "no second ping while the first is unanswered"
    # She answers; the turn comes back within minutes: no ping; after a pause: one.
    await hand_over(world, ann)
    await turn_to(world, world.channel, ann)
    assert mentions_of(world, ann, cursor) == 0, "the turn came back within a short time"
    await hand_over(world, ann)
    await world.env.advance_time(turn_pings.RECENT + 1)
    await turn_to(world, world.channel, ann)
    assert mentions_of(world, ann, cursor) == 1


async def hand_over(world: World, member: MemberActor) -> None:
    """``member`` moves until the turn is somebody else's."""
    for _ in range(20):
        if awaited(world, world.channel) != member.id:
            return
        await move(
            world.channel, member, world.service.legal_actions(world.channel.id, member.id)[0]
        )
    raise AssertionError("the turn stayed")


# -- the direct message ------------------------------------------------------------------------
async def test_the_opted_in_dm_arrives_once_for_three_tables(world: World):
    ann, bob = world.members[:2]
    answer = await world.slash(ann, "notify", dm="on")
    assert answer.ephemeral and "on" in answer.response.content
    ids = await three_tables_waiting_for(world, ann, bob)
    await world.env.advance_time(DIGEST_DELAY - 10)
    assert dms(ann) == []
    await world.env.advance_time(20)
    (message,) = dms(ann)
    text = message.embeds[0].description or ""
    for table_id in ids:
        assert f"#{table_id}" in text
    assert len(re.findall(r"https://discord.com/channels/\d+/\d+", text)) == 3
    assert "3" in (message.embeds[0].title or "")
    await world.env.advance_time(5 * DIGEST_DELAY)
    assert len(dms(ann)) == 1, "the same turns are not told again"
    assert dms(bob) == [], "bob did not opt in"


async def test_quiet_hours_hold_the_dm_back(world: World):
    ann, bob = world.members[:2]
    now = world.env.now()
    start = now.hour
    quiet = f"{start}-{(start + 2) % 24}"
    answer = await world.slash(ann, "notify", dm="on", quiet=quiet, my_time=now.strftime("%H:%M"))
    assert "UTC+0" in answer.response.content, answer.response.content
    await three_tables_waiting_for(world, ann, bob)
    await world.env.advance_time(DIGEST_DELAY + 10)
    assert dms(ann) == [], "quiet hours"
    left = (start + 2) * 3600 - (now.hour * 3600 + now.minute * 60 + now.second)
    await world.env.advance_time(left - DIGEST_DELAY - 60)
    assert dms(ann) == []
    await world.env.advance_time(120)
    assert len(dms(ann)) == 1, "the digest comes after the quiet hours"


async def test_a_closed_inbox_is_handled_quietly(world: World):
    ann, bob = world.members[:2]
    await world.slash(ann, "notify", dm="on")
    # Discord refuses a direct message with 50007 when the inbox is closed; SimCord answers
    # so for a DM to a bot account.
    world.env.backend.users[ann.id].bot = True
    await three_tables_waiting_for(world, ann, bob)
    await world.env.advance_time(DIGEST_DELAY + 10)
    assert world.service.prefs_of(ann.id).dm_closed
    tried = len(world.env.http_requests)
    channel = world.guild.create_text_channel("day-4")
    await open_in(world, channel, "troeven", [bob, ann], timer="24h")
    await turn_to(world, channel, ann)
    await world.env.advance_time(DIGEST_DELAY + 10)
    dm_path = f"/channels/{ann.user.dm_channel.id}/messages"
    assert not any(e.path == dm_path for e in world.env.http_requests[tried:]), "not tried again"
    world.env.backend.users[ann.id].bot = False
    shown = await world.slash(ann, "notify")
    assert "closed" in shown.response.content


async def test_a_bad_quiet_hours_answer_is_private_and_changes_nothing(world: World):
    ann = world.members[0]
    for options in ({"quiet": "night"}, {"quiet": "22-7"}, {"my_time": "25:99"}):
        answer = await world.slash(ann, "notify", dm="on", **options)
        assert answer.ephemeral
    assert not world.service.prefs_of(ann.id).dm


# -- /mytables ----------------------------------------------------------------------------------
async def test_mytables_lists_the_players_tables_in_this_server(world: World):
    ann, bob, cid, dee = world.members[:4]
    mine = await three_tables_waiting_for(world, ann, bob)
    channel = world.guild.create_text_channel("not-ann")
    other = await open_in(world, channel, "troeven", [cid, dee], timer="24h")
    channel = world.guild.create_text_channel("bob-turn")
    waiting_bob = await open_in(world, channel, "troeven", [ann, bob], timer="8h")
    await turn_to(world, channel, bob)
    answer = await world.slash(ann, "mytables")
    assert answer.ephemeral
    embed = answer.response.embeds[0]
    text = embed.description or ""
    lines = text.splitlines()
    assert len(lines) == 4, text
    for table_id in mine:
        assert f"#{table_id}" in text
    assert f"#{other.id}" not in text
    assert f"#{waiting_bob.id}" in lines[-1] and "bob" in lines[-1], "his turns come first"
    assert "3" in (embed.title or "")
    assert f"https://discord.com/channels/{world.guild.id}/{channel.id}" in lines[-1]
    assert re.search(r"<t:\d+:R>", lines[0])
