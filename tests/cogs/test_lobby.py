"""The lobby through Discord: the public lobby message and its buttons, /addbot, /kick, /leave,
/abandon, and the host's option editor."""

from __future__ import annotations

from cog_world import World

from bot.service import TableStatus


def _lobby_message(world: World):  # noqa: ANN202 - a discord.Message
    for message in reversed(world.table_messages()):
        if "lobby" in (message.embeds[0].footer.text or ""):
            return message
    raise AssertionError("no lobby message")


async def test_lobby_message_join_and_start_buttons(world: World) -> None:
    host = world.members[0]
    await world.slash(host, "new troeven")
    lobby = _lobby_message(world)
    assert "ann" in lobby.embeds[0].fields[0].value
    joined = await world.members[1].click(lobby, label="Join")
    assert joined.response.ephemeral and "joined" in joined.response.content
    assert "bob" in _lobby_message(world).embeds[0].fields[0].value, "the lobby shows him"
    refused = await world.members[1].click(_lobby_message(world), label="Start")
    assert refused.response.ephemeral  # only the host starts
    assert world.table().status is TableStatus.LOBBY  # type: ignore[union-attr]
    started = await host.click(_lobby_message(world), label="Start")
    assert started.response.ephemeral and "started" in started.response.content
    assert world.table().status is TableStatus.PLAYING  # type: ignore[union-attr]
    world.live_table_message()  # the same message now carries Show my hand


async def test_addbot_kick_and_leave(world: World) -> None:
    host, bob = world.members[0], world.members[1]
    await world.slash(host, "new troika")
    await world.slash(host, "addbot")
    await world.slash(bob, "join")
    table = world.table()
    assert table is not None and len(table.seats) == 3
    assert sum(1 for s in table.seats if s.is_ai) == 1
    kicked = await world.slash(host, "kick", member=bob)
    assert kicked.response.ephemeral and "removed" in kicked.response.content
    assert world.table().seat_of(bob.id) is None  # type: ignore[union-attr]
    ai_seat = next(s.index for s in world.table().seats if s.is_ai)  # type: ignore[union-attr]
    await world.slash(host, "kick", seat=ai_seat + 1)
    assert len(world.table().seats) == 1  # type: ignore[union-attr]
    await world.slash(bob, "join")
    left = await world.slash(bob, "leave")
    assert left.response.ephemeral and world.table().seat_of(bob.id) is None  # type: ignore[union-attr]


async def test_seat_numbers_count_from_one_in_every_answer(world: World) -> None:
    host, bob = world.members[0], world.members[1]
    await world.slash(host, "new troika")
    taken = await world.slash(bob, "join", seat=1)
    assert taken.response.ephemeral and "Seat 1 is taken by ann" in taken.response.content
    missing = await world.slash(bob, "join", seat=6)
    assert missing.response.ephemeral and "no seat 6: seats are 1 to 4" in missing.response.content
    nobody = await world.slash(host, "kick", seat=3)
    assert nobody.response.ephemeral and "Nobody sits at seat 3" in nobody.response.content
    assert [s.user_id for s in world.table().seats] == [host.id]  # type: ignore[union-attr]
    joined = await world.slash(bob, "join", seat=3)
    assert "at seat 3" in joined.response.content
    assert world.table().seat_of(bob.id).index == 2  # type: ignore[union-attr]


async def test_join_as_a_partner(world: World) -> None:
    ann, bob, cid = world.members[0], world.members[1], world.members[2]
    await world.slash(ann, "new troika")
    await world.slash(bob, "join")
    joined = await world.slash(cid, "join", partner=ann)
    assert joined.response.ephemeral and "at seat 3" in joined.response.content
    table = world.table()
    assert table is not None and table.seat_of(cid.id).team == table.seat_of(ann.id).team
    full = await world.slash(world.members[3], "join", partner=cid)
    assert full.response.ephemeral and "That team is full" in full.response.content
    assert world.table().seat_of(world.members[3].id) is None  # type: ignore[union-attr]


async def test_leaving_during_play_hands_the_seat_to_the_ai(world: World) -> None:
    await world.open("troika", humans=4)
    left = await world.slash(world.members[3], "leave")
    assert "AI" in left.response.content
    table = world.table()
    assert table is not None and table.seat_of(world.members[3].id).is_ai  # type: ignore[union-attr]


async def test_abandon_by_the_host_and_by_vote(world: World) -> None:
    await world.open("troika", humans=4)
    vote = await world.slash(world.members[1], "abandon")
    assert vote.response.ephemeral and "vote" in vote.response.content
    assert world.table() is not None
    done = await world.slash(world.members[0], "abandon")
    assert "abandoned" in done.response.content
    assert world.table() is None
    assert "abandoned" in world.public_text()


async def test_host_changes_options_with_the_select_menus(world: World) -> None:
    host = world.members[0]
    await world.slash(host, "new troika")
    shown = await world.slash(host, "options")
    assert shown.response.ephemeral
    message = shown.response.message
    pick_id = next(
        child.custom_id
        for row in message.components
        for child in row.children
        if any(o.value == "min_bid" for o in getattr(child, "options", []))
    )
    picked = await host.select(message, ["min_bid"], custom_id=pick_id)
    message = picked.response.message
    value_id = next(
        child.custom_id
        for row in message.components
        for child in row.children
        if [o.value for o in getattr(child, "options", [])] == ["5", "6", "7", "8"]
    )
    chosen = await host.select(message, ["8"], custom_id=value_id)
    assert world.table().options["min_bid"] == 8  # type: ignore[union-attr]
    message = chosen.response.message
    preset_id = next(
        child.custom_id
        for row in message.components
        for child in row.children
        if any(o.value == "saskatchewan" for o in getattr(child, "options", []))
    )
    await host.select(message, ["saskatchewan"], custom_id=preset_id)
    assert world.table().preset == "saskatchewan"  # type: ignore[union-attr]
    # Others see the options but get no editor.
    other = await world.slash(world.members[1], "options")
    assert other.response.ephemeral and not other.response.components
