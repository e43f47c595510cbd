"""Turn digests in the service: one message for all of a player's turn-based tables whose
turn is his, never for a player who did not opt in, held back by quiet hours, stopped by a
closed inbox; and the quiet hours' and local time's parsing."""

from __future__ import annotations

import pytest

from bot.service import TableService, digests, notify
from bot.service.notify import NotifyPrefs

HOUR = 3600


class Inbox:
    """The Discord side's sender, recorded (``outcome``: what Discord answers)."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, list[int]]] = []
        self.outcome: digests.Outcome = digests.SENT

    async def __call__(self, prefs: NotifyPrefs, turns) -> digests.Outcome:
        if self.outcome == digests.SENT:
            self.sent.append((prefs.user_id, [t.table.id for t in turns]))
        return self.outcome


async def table_waiting_for(service: TableService, channel: int, first: int, timer="24h"):
    """A two-human troeven table in ``channel`` whose turn is ``first``'s."""
    other = 900 + channel
    await service.open_table(channel, 5, first, "P", "troeven", options={"timer": timer})
    await service.join(channel, other, "Q")
    await service.start_game(channel, first)
    table = service.get_table(channel)
    for _ in range(6):  # the other player moves until the turn is ``first``'s
        if table.seat(table.to_act[0]).user_id == first:
            break
        await service.act(channel, other, service.legal_actions(channel, other)[0])
        table = service.get_table(channel)
    assert table.seat(table.to_act[0]).user_id == first
    return table


@pytest.fixture
def inbox(service: TableService) -> Inbox:
    box = Inbox()
    service.digest_sender = box
    return box


async def test_one_digest_for_three_tables_and_none_without_opting_in(service, clock, inbox):
    await service.set_notify(NotifyPrefs(1, dm=True))
    ids = [(await table_waiting_for(service, ch, 1)).id for ch in (11, 12, 13)]
    await table_waiting_for(service, 14, 2)  # user 2 did not opt in
    await table_waiting_for(service, 15, 1, timer=60)  # a live table: no digest
    await clock.advance(digests.DIGEST_DELAY + 1)
    await service.settle()
    assert inbox.sent == [(1, ids)]
    await clock.advance(10 * digests.DIGEST_DELAY)
    await service.settle()
    assert inbox.sent == [(1, ids)], "the same turns are not told twice"


async def test_quiet_hours_hold_the_digest_until_they_end(service, clock, inbox):
    now = clock()
    start = int((now % notify.DAY) // HOUR)  # quiet from this UTC hour, for 3 hours
    prefs = NotifyPrefs(1, dm=True, quiet_start=start, quiet_end=(start + 3) % 24)
    await service.set_notify(prefs)
    await table_waiting_for(service, 11, 1)
    await clock.advance(digests.DIGEST_DELAY + 1)
    await service.settle()
    assert inbox.sent == []
    end = notify.quiet_until(prefs, now)
    assert end is not None and end > clock()
    await clock.advance(end - clock() + 1)
    await service.settle()
    assert [user for user, _ in inbox.sent] == [1]


async def test_a_closed_inbox_is_remembered_and_not_tried_again(service, clock, inbox, db_path):
    inbox.outcome = digests.CLOSED
    await service.set_notify(NotifyPrefs(1, dm=True))
    await table_waiting_for(service, 11, 1)
    await clock.advance(digests.DIGEST_DELAY + 1)
    await service.settle()
    assert service.prefs_of(1).dm_closed
    inbox.outcome = digests.SENT
    await table_waiting_for(service, 12, 1)
    await clock.advance(digests.DIGEST_DELAY + 1)
    await service.settle()
    assert inbox.sent == []
    stored = await service.db.run(notify.load_all)
    assert stored[1].dm_closed


def test_quiet_hours_and_local_time_parse() -> None:
    assert notify.parse_quiet("22-7") == (22, 7)
    assert notify.parse_quiet("22:00 - 07:00") == (22, 7)
    assert notify.parse_quiet("off") is None
    for bad in ("7-7", "25-3", "night", "22"):
        with pytest.raises(ValueError):
            notify.parse_quiet(bad)
    assert notify.parse_local_time("14:30") == 14 * 60 + 30
    assert notify.parse_local_time("2:30 pm") == 14 * 60 + 30
    assert notify.parse_local_time("12 am") == 0
    noon_utc = 1_800_000_000 - 1_800_000_000 % notify.DAY + 12 * HOUR
    assert notify.offset_from_local_time(14 * 60, noon_utc + 40) == 120
    assert notify.offset_from_local_time(7 * 60, noon_utc) == -300
    # (UTC+13 reads the same hour of the day: the quiet hours do not mind which)
    assert notify.offset_from_local_time(1 * 60, noon_utc) == -11 * 60
    assert notify.offset_text(-300) == "UTC-5" and notify.offset_text(330) == "UTC+5:30"


def test_quiet_hours_across_midnight_in_the_players_day() -> None:
    prefs = NotifyPrefs(1, quiet_start=22, quiet_end=7, utc_offset=120)
    midnight = 1_800_000_000 - 1_800_000_000 % notify.DAY
    # 21:30 UTC is 23:30 his time: quiet until 07:00 his time, 05:00 UTC the next day.
    assert notify.quiet_until(prefs, midnight + 21.5 * HOUR) == midnight + notify.DAY + 5 * HOUR
    assert notify.quiet_until(prefs, midnight + 12 * HOUR) is None


async def test_a_player_who_is_playing_gets_no_digest_until_he_stops(service, clock, inbox):
    await service.set_notify(NotifyPrefs(1, dm=True))
    await table_waiting_for(service, 11, 1)
    await table_waiting_for(service, 12, 1)
    await clock.advance(digests.DIGEST_DELAY / 2)
    await service.act(12, 1, service.legal_actions(12, 1)[0])  # he plays at table 12
    moved = clock()
    await clock.advance(digests.DIGEST_DELAY / 2 + 1)
    await service.settle()
    assert inbox.sent == [], "he is playing: no message yet"
    await clock.advance(moved + digests.DIGEST_DELAY - clock() + 1)
    await service.settle()
    assert [user for user, _ in inbox.sent] == [1], "away for the delay: told"
