"""Seats during play through Discord: away players, rejoining, taking a seat, rematch."""

from __future__ import annotations

from cog_world import World

from bot.service import (
    ActionApplied,
    ActionSource,
    PlayerAway,
    PlayerBack,
    RecordingListener,
    TableStatus,
)


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
