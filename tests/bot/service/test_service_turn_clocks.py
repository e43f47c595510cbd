"""Turn-based move clocks (hours and days): the option's values, the deadline a seat gets, the
timed window's share of the clock, and a clock that outlives a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import ActionApplied, ActionSource, TableService, timers
from engine import GAMES, IllegalAction
from tests.bot.conftest import FakeClock

CH = 78
HUMANS = ((1, "Ann"), (2, "Bob"), (3, "Cat"), (4, "Dan"))
DAY = 24 * 3600


async def four_humans(service: TableService, game: str, options: dict) -> None:
    await service.open_table(CH, None, 1, "Ann", game, options=options, seed=4)
    for uid, name in HUMANS[1:]:
        await service.join(CH, uid, name)
    await service.start_game(CH, 1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_takes_the_clocks_of_hours_and_days(game: str) -> None:
    option = GAMES[game].option("timer")
    for text, seconds in {"1h": 3600, "8h": 28800, "24h": DAY, "72h": 3 * DAY}.items():
        assert option.parse(text.upper()) == text
        assert timers.timer_seconds({"timer": text}) == seconds
        assert timers.turn_based({"timer": text})
    assert not timers.turn_based({"timer": 120}) and not timers.turn_based({"timer": "off"})
    with pytest.raises(IllegalAction):
        option.parse("5h")


def test_a_window_is_the_same_share_of_a_turn_based_clock() -> None:
    assert timers.window_seconds(10, {"timer": 60}) == 10  # a live table: as set
    assert timers.window_seconds(10, {"timer": "off"}) == 10
    assert timers.window_seconds(10, {"timer": "24h"}) == 4 * 3600  # a sixth of the day
    assert timers.window_seconds(3, {"timer": "1h"}) == 180


async def test_a_seat_gets_a_day_and_the_ai_moves_after_it(service, recorder, clock):
    await four_humans(service, "troika", {"timer": "24h"})
    (seat,) = service.get_table(CH).to_act
    assert service.deadlines(CH) == {seat: clock.now + DAY}
    await clock.advance(DAY - 60)
    await service.settle()
    assert service.get_table(CH).move_number == 0
    await clock.advance(61)
    await service.settle()
    moved = recorder.of_type(ActionApplied)[-1]
    assert moved.seat == seat and moved.source is ActionSource.TIMEOUT


async def test_the_window_of_a_turn_based_table_closes_after_its_share(service, clock):
    await four_humans(service, "troikuntza", {"timer": "24h", "mayi_window": 10})
    table = service._tables[CH]
    assert timers.window_open(table.game)
    assert table.window_deadline == clock.now + 4 * 3600
    await clock.advance(4 * 3600 - 1)
    await service.settle()
    assert timers.window_open(service._tables[CH].game)
    await clock.advance(2)
    await service.settle()
    assert not timers.window_open(service._tables[CH].game)


async def test_a_day_clock_outlives_a_restart(db_path: Path):
    clock = FakeClock()
    first = TableService(db_path, clock=clock, sleep=clock.sleep)
    await first.start()
    await four_humans(first, "troika", {"timer": "24h"})
    deadline = first.deadlines(CH)
    await first.close()

    clock.now += 20 * 3600  # down for most of the day
    second = TableService(db_path, clock=clock, sleep=clock.sleep)
    await second.start()
    try:
        await second.settle()
        assert second.deadlines(CH) == deadline and second.get_table(CH).move_number == 0
        await clock.advance(4 * 3600 + 1)
        await second.settle()
        assert second.get_table(CH).move_number == 1
    finally:
        await second.close()
