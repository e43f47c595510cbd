"""Away players in the service: counted timeouts, away after ``away_after``, stored with the
seat (a restart keeps it), back on a move of his own, removable by an admin."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import NotAtTable, NotHost, PlayerAway, RecordingListener, TableService
from tests.bot.conftest import FakeClock

CH = 78


async def _table(service: TableService) -> None:
    await service.open_table(CH, None, 1, "Ann", "troika", options={"timer": 30}, seed=4)
    await service.join(CH, 2, "Bob")
    await service.add_ai(CH, 1, "easy")
    await service.add_ai(CH, 1, "easy")
    await service.start_game(CH, 1)


async def _until_away(service: TableService, clock: FakeClock, user: int) -> None:
    """The other human plays at once; ``user``'s turns run out, until he is away."""
    for _ in range(200):
        await service.settle()
        table = service.get_table(CH)
        assert table is not None
        if table.seat_of(user).away:  # type: ignore[union-attr]
            return
        waiting = [table.seat(s) for s in table.to_act if table.seat(s).is_human]  # type: ignore[union-attr]
        if not waiting:
            continue
        other = next((s for s in waiting if s.user_id != user), None)
        if other is not None:
            await service.act(CH, other.user_id, service.legal_actions(CH, other.user_id)[0])
        else:
            await clock.advance(31)
    raise AssertionError("never away")


async def test_away_is_stored_and_a_move_of_his_own_brings_him_back(db_path: Path) -> None:
    clock = FakeClock()
    first = TableService(db_path, clock=clock, sleep=clock.sleep)
    events = RecordingListener()
    first.add_listener(events)
    await first.start()
    await _table(first)
    await _until_away(first, clock, 2)
    seat = first.get_table(CH).seat_of(2)  # type: ignore[union-attr]
    assert seat is not None and seat.timeouts == 3 and seat.away
    assert len(events.of_type(PlayerAway)) == 1
    await first.close()

    second = TableService(db_path, clock=clock, sleep=clock.sleep)
    await second.start()
    try:
        await second.settle()
        kept = second.get_table(CH).seat_of(2)  # type: ignore[union-attr]
        assert kept is not None and kept.away and kept.timeouts == 3, "a restart keeps it"
        assert await second.come_back(CH, 2) is True
        assert await second.come_back(CH, 2) is False  # (already back: nothing to do)
        back = second.get_table(CH).seat_of(2)  # type: ignore[union-attr]
        assert back is not None and not back.away and back.timeouts == 0
    finally:
        await second.close()


async def test_only_the_host_or_an_admin_removes_an_away_player(
    service: TableService, clock: FakeClock
) -> None:
    await service.open_table(CH, None, 1, "Ann", "troika", options={"timer": 30}, seed=4)
    for uid, name in ((2, "Bob"), (3, "Cat")):
        await service.join(CH, uid, name)
    await service.add_ai(CH, 1, "easy")
    await service.start_game(CH, 1)
    cat = service.get_table(CH).seat_of(3).index  # type: ignore[union-attr]
    with pytest.raises(NotHost):
        await service.kick(CH, 2, cat, admin=True)  # an admin, but Cat is present
    assert service.get_table(CH).seat_of(3).is_human  # type: ignore[union-attr]
    await _until_away(service, clock, 3)
    await service.kick(CH, 2, cat, admin=True)
    gone = service.get_table(CH).seat_of(3)  # type: ignore[union-attr]
    assert gone is not None and gone.is_ai and gone.kicked
    with pytest.raises(NotAtTable, match="removed you"):  # a removed player cannot rejoin
        await service.join(CH, 3, "Cat")
    assert service.get_table(CH).seat_of(3).is_ai  # type: ignore[union-attr]
