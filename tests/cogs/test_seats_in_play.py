"""Seats during play through Discord: away players, rejoining, taking a seat, rematch."""

from __future__ import annotations

from cog_world import World

from bot.service import (
    ActionApplied,
    ActionSource,
    PlayerAway,
    PlayerBack,
    RecordingListener,
    RematchConfirmed,
    SeatTaken,
    TableStatus,
)
from bot.service.rematch_wait import REMATCH_CONFIRM_SECONDS


async def _time_out(world: World, member_index: int, times: int) -> list[ActionApplied]:
    """Bob plays his turns; each time it is ann's, the virtual clock runs past her deadline,
    until the timer has decided ``times`` of her turns."""
    events = RecordingListener()
    world.service.add_listener(events)
    ann = world.members[member_index]
    seat = world.table().seat_of(ann.id).index  # type: ignore[union-attr]

    def timed_out() -> list[ActionApplied]:
        return [
            e
            for e in events.of_type(ActionApplied)
            if e.seat == seat and e.source is ActionSource.TIMEOUT
        ]

    for _ in range(200):
        if len(timed_out()) >= times:
            break
        turn = world.human_to_act()
        assert turn is not None, "the game ended before the timeouts"
        member, legal = turn
        if member is ann:
            table = world.table()
            assert table is not None and seat in table.deadlines
            await world.env.advance_time(61)  # troika's timer: 60 s a move
        else:
            await world.by_command(member, legal[0])
    world.service.remove_listener(events)
    return timed_out()


async def test_away_after_three_timeouts_then_back_on_the_next_command(world: World) -> None:
    events = RecordingListener()
    world.service.add_listener(events)
    ann, bob = world.members[0], world.members[1]
    await world.open("troika", humans=2, ais=2)
    timed_out = await _time_out(world, 0, 3)
    assert len(timed_out) == 3
    table = world.table()
    assert table is not None and table.status is TableStatus.PLAYING
    seat = table.seat_of(ann.id)
    assert seat is not None and seat.away and seat.is_human and seat.timeouts == 3
    assert [e.seat.name for e in events.of_type(PlayerAway)] == ["ann"]
    assert "ann is away: the AI plays for them" in world.public_text()
    # Away: her turns no longer wait for the timer (no deadline, the AI moves at once).
    before = len(events.of_type(ActionApplied))
    for _ in range(12):
        turn = world.human_to_act()
        if turn is None or turn[0] is ann:
            break
        await world.by_command(bob, turn[1][0])
    table = world.table()
    assert table is not None and seat.index not in table.deadlines
    away_moves = [e for e in events.of_type(ActionApplied)[before:] if e.seat == seat.index]
    assert away_moves and all(e.source is ActionSource.AI for e in away_moves)
    # Any command of hers brings her back.
    shown = await world.slash(ann, "hand")
    assert shown.ephemeral
    table = world.table()
    assert table is not None
    back = table.seat_of(ann.id)
    assert back is not None and not back.away and back.timeouts == 0
    assert [e.seat.name for e in events.of_type(PlayerBack)] == ["ann"]
    assert "ann is back" in world.public_text()
    if seat.index in table.to_act:
        assert seat.index in table.deadlines, "her timer runs again"


async def test_the_host_removes_an_away_player_and_others_cannot(world: World) -> None:
    ann, bob, cid = world.members[0], world.members[1], world.members[2]
    await world.open("troika", humans=3, ais=1)
    await _time_out(world, 1, 3)
    table = world.table()
    assert table is not None and table.seat_of(bob.id).away  # type: ignore[union-attr]
    refused = await world.slash(cid, "kick", member=bob)
    assert refused.ephemeral and "Only the host" in refused.response.content
    assert world.table().seat_of(bob.id).away  # type: ignore[union-attr]
    removed = await world.slash(ann, "kick", member=bob)
    assert removed.ephemeral and "removed" in removed.response.content
    seat = world.table().seat_of(bob.id)  # type: ignore[union-attr]
    assert seat is not None and seat.is_ai and seat.kicked and not seat.away


async def test_a_player_who_left_rejoins_his_seat(world: World) -> None:
    events = RecordingListener()
    world.service.add_listener(events)
    ann, bob = world.members[0], world.members[1]
    await world.open("troika", humans=2, ais=2, timer="off")
    seat = world.table().seat_of(bob.id).index  # type: ignore[union-attr]
    team = world.table().seat_of(bob.id).team  # type: ignore[union-attr]
    left = await world.slash(bob, "leave")
    assert "/join takes it back" in left.response.content
    assert world.table().seat_of(bob.id).is_ai  # type: ignore[union-attr]
    await world.play(stop=lambda w: (w.table().move_number or 0) >= 6)  # type: ignore[union-attr]
    elsewhere = await world.slash(bob, "join", seat=(seat + 1) % 4 + 1)
    assert elsewhere.ephemeral and "takes it back" in elsewhere.response.content
    back = await world.slash(bob, "join")
    assert back.ephemeral and f"You play at seat {seat + 1}" in back.response.content
    mine = world.table().seat_of(bob.id)  # type: ignore[union-attr]
    assert mine is not None and mine.is_human and mine.index == seat and mine.team == team
    taken = events.of_type(SeatTaken)
    assert len(taken) == 1 and taken[0].rejoined and taken[0].previous.left
    assert f"bob is back at seat {seat + 1}" in world.public_text()
    # He plays his seat again, through the usual commands and buttons.
    await world.play(stop=lambda w: any(
        e.seat == seat and e.source is ActionSource.PLAYER for e in events.of_type(ActionApplied)
    ))  # fmt: skip
    assert world.table() is None or world.table().seat_of(bob.id).is_human  # type: ignore[union-attr]
    refused = await world.slash(ann, "join")
    assert refused.ephemeral and "already have a seat" in refused.response.content


async def test_a_member_takes_an_ai_seat_mid_game_unless_the_seats_are_closed(
    world: World,
) -> None:
    events = RecordingListener()
    world.service.add_listener(events)
    ann, cid, dee = world.members[0], world.members[2], world.members[3]
    await world.open("troika", humans=2, ais=2, timer="off")
    await world.play(stop=lambda w: (w.table().move_number or 0) >= 4)  # type: ignore[union-attr]
    not_host = await world.slash(cid, "tablesettings", seats="closed")
    assert not_host.ephemeral and "Only the host" in not_host.response.content
    closed = await world.slash(ann, "tablesettings", seats="closed")
    assert "Seats during play: **closed**" in closed.response.content
    refused = await world.slash(cid, "join")
    assert refused.ephemeral and "seats are closed" in refused.response.content
    assert world.table().seat_of(cid.id) is None  # type: ignore[union-attr]
    await world.slash(ann, "tablesettings", seats="open")
    ai_seat = next(s for s in world.table().seats if s.is_ai)  # type: ignore[union-attr]
    joined = await world.slash(cid, "join", seat=ai_seat.index + 1)
    assert joined.ephemeral and "You play at seat" in joined.response.content
    mine = world.table().seat_of(cid.id)  # type: ignore[union-attr]
    assert mine is not None and mine.is_human and mine.team == ai_seat.team
    assert f"cid takes seat {ai_seat.index + 1} from {ai_seat.name}" in world.public_text()
    taken = events.of_type(SeatTaken)
    assert len(taken) == 1 and not taken[0].rejoined
    played = await world.slash(dee, "join", seat=ai_seat.index + 1)
    assert played.ephemeral and "taken by cid" in played.response.content
    last = await world.slash(dee, "join")  # the other AI seat
    assert "You play at seat" in last.response.content
    full = await world.slash(world.members[4], "join")
    assert full.ephemeral and "Every seat is played" in full.response.content
    moves = world.table().move_number  # type: ignore[union-attr]
    await world.play(stop=lambda w: w.table() is None or w.table().move_number >= moves + 12)
    played_by_cid = [e for e in events.of_type(ActionApplied) if e.user_id == cid.id]
    assert played_by_cid and all(e.seat == ai_seat.index for e in played_by_cid)


def _rematch_button(world: World):  # noqa: ANN202 - a discord.Message
    for message in reversed(world.table_messages()):
        for row in message.components:
            for child in getattr(row, "children", []):
                if child.custom_id == f"tt:rematch:{world.channel.id}":
                    return message
    raise AssertionError("no Rematch button")


async def test_rematch_with_two_humans_and_an_ai(world: World) -> None:
    events = RecordingListener()
    world.service.add_listener(events)
    ann, bob, cid = world.members[0], world.members[1], world.members[2]
    first = await world.open("troggu", humans=2, ais=1, preset="quick")
    await world.play()
    assert world.table() is None
    final = _rematch_button(world)
    sheet = final.embeds[0]  # the score sheet stays, with the button under it
    assert "game over" in (sheet.title or "") and any(
        f.name == "Final scores" for f in sheet.fields
    )
    stranger = await cid.click(final, custom_id=f"tt:rematch:{world.channel.id}")
    assert stranger.ephemeral and "Only the players" in stranger.response.content
    assert world.table() is None
    # Bob asks first: a lobby opens with him (host) and the AI at their old seats.
    asked = await bob.click(final, custom_id=f"tt:rematch:{world.channel.id}")
    assert asked.ephemeral and "Rematch!" in asked.response.content
    lobby = world.table()
    assert lobby is not None and lobby.status is TableStatus.LOBBY and lobby.id != first.id
    assert lobby.host_id == bob.id and lobby.game == first.game
    assert dict(lobby.options) == dict(first.options) and lobby.preset == first.preset
    old_ai = next(s for s in first.seats if s.is_ai)
    new_ai = lobby.seat(old_ai.index)
    assert new_ai is not None and new_ai.ai_level == old_ai.ai_level
    assert lobby.seat_of(bob.id).index == first.seat_of(bob.id).index  # type: ignore[union-attr]
    assert lobby.seat_of(ann.id) is None
    confirmed_first = events.of_type(RematchConfirmed)
    assert [(e.seat.name, e.waiting) for e in confirmed_first] == [("bob", ("ann",))]
    shown = world.table_messages()[-1].embeds[0]
    assert "Table #" in (shown.footer.text or "") and "lobby" in (shown.footer.text or "")
    assert "bob" in shown.fields[0].value and "AI 1" in shown.fields[0].value
    again = await bob.click(final, custom_id=f"tt:rematch:{world.channel.id}")
    assert again.ephemeral and world.table().status is TableStatus.LOBBY  # type: ignore[union-attr]
    # Ann confirms: everybody is in, the game starts by itself with the same seats.
    confirmed = await ann.click(final, custom_id=f"tt:rematch:{world.channel.id}")
    assert confirmed.ephemeral and "rematch has started" in confirmed.response.content
    table = world.table()
    assert table is not None and table.status is TableStatus.PLAYING
    for seat in first.seats:
        now = table.seat(seat.index)
        assert now is not None and (now.user_id, now.ai_level) == (seat.user_id, seat.ai_level)
    assert len(events.of_type(RematchConfirmed)) == 2
    await world.play()
    assert world.table() is None
    _rematch_button(world)  # the rematch's final message offers the next one


async def test_with_invite_seats_only_an_invited_member_takes_an_ai_seat(world: World) -> None:
    ann, bob, cid, dee = world.members[0], world.members[1], world.members[2], world.members[3]
    await world.open("troika", humans=2, ais=2, timer="off")
    await world.play(stop=lambda w: (w.table().move_number or 0) >= 4)  # type: ignore[union-attr]
    mode = await world.slash(ann, "tablesettings", seats="invite")
    assert "Seats during play: **invite**" in mode.response.content
    not_host = await world.slash(bob, "tableinvite", member=cid)
    assert not_host.ephemeral and "Only the host" in not_host.response.content
    seated = await world.slash(ann, "tableinvite", member=bob)
    assert seated.ephemeral and "already has a seat" in seated.response.content
    assert "invited" not in world.table().settings  # type: ignore[union-attr]
    refused = await world.slash(dee, "join")
    assert refused.ephemeral and refused.response.content == (
        "This table takes only invited players: ask the host (ann) to invite you."
    )
    assert world.table().seat_of(dee.id) is None  # type: ignore[union-attr]
    invited = await world.slash(ann, "tableinvite", member=cid)
    assert invited.ephemeral and "You invited cid" in invited.response.content
    table_id = world.table().id  # type: ignore[union-attr]
    stored = await world.service.db.run(
        lambda c: c.execute("SELECT settings FROM tables WHERE id = ?", (table_id,)).fetchone()[0]
    )
    assert str(cid.id) in stored  # persisted with the table's settings
    ai_seat = next(s for s in world.table().seats if s.is_ai)  # type: ignore[union-attr]
    joined = await world.slash(cid, "join")
    assert joined.ephemeral and f"You play at seat {ai_seat.index + 1}" in joined.response.content
    mine = world.table().seat_of(cid.id)  # type: ignore[union-attr]
    assert mine is not None and mine.is_human and mine.index == ai_seat.index
    assert f"cid takes seat {ai_seat.index + 1} from {ai_seat.name}" in world.public_text()
    still = await world.slash(dee, "join")
    assert still.ephemeral and "only invited players" in still.response.content


async def test_rematch_starts_without_a_player_who_does_not_confirm(world: World) -> None:
    events = RecordingListener()
    world.service.add_listener(events)
    ann, bob = world.members[0], world.members[1]
    first = await world.open("troggu", humans=2, ais=1, preset="quick")
    await world.play()
    final = _rematch_button(world)
    asked = await bob.click(final, custom_id=f"tt:rematch:{world.channel.id}")
    assert "in 60 s without them" in asked.response.content
    before = len(world.public_payloads())
    await world.env.advance_time(REMATCH_CONFIRM_SECONDS - 5)
    assert world.table().status is TableStatus.LOBBY  # type: ignore[union-attr]
    await world.env.advance_time(6)
    table = world.table()
    assert table is not None and table.status is TableStatus.PLAYING
    old = first.seat_of(ann.id)
    assert old is not None
    kept = table.seat(old.index)  # ann's seat is open: the AI plays it until someone takes it
    assert kept is not None and kept.user_id == ann.id and kept.is_ai and kept.left
    assert table.seat_of(bob.id).is_human  # type: ignore[union-attr]
    assert [s.ai_level for s in table.seats if s.user_id is None] == [
        s.ai_level for s in first.seats if s.is_ai
    ]
    # She presses Rematch late and takes her seat back from the AI.
    late = await ann.click(final, custom_id=f"tt:rematch:{world.channel.id}")
    assert late.ephemeral and f"seat {old.index + 1}" in late.response.content
    mine = world.table().seat_of(ann.id)  # type: ignore[union-attr]
    assert mine is not None and mine.is_human and mine.index == old.index
    since = "\n".join(world.public_payloads(before))
    assert "The game starts" in since and f"ann is back at seat {old.index + 1}" in since
    assert len(events.of_type(SeatTaken)) == 1
