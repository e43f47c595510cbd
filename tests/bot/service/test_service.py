"""Every table operation and every error of the table service, on a real SQLite file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service import (
    AbandonVoted,
    ActionApplied,
    ActionSource,
    AiSeat,
    AlreadySeated,
    BadSetting,
    CannotStart,
    GameOver,
    GameStarted,
    HandEnded,
    HostChanged,
    IllegalMove,
    NoTable,
    NotAtTable,
    NotHost,
    NotYourTurn,
    OptionsChanged,
    PlayerJoined,
    PlayerKicked,
    PlayerLeft,
    RecordingListener,
    TableAbandoned,
    TableExists,
    TableFull,
    TableOpened,
    TableService,
    TableStatus,
    TurnChanged,
    UnknownGame,
    WrongPhase,
)
from bot.storage import repository as repo
from bot.storage.repository import StaleWrite
from tests.bot.conftest import TEST_LIMITS, FakeClock
from tests.bot.databases import connect

CH = 555
HOST, BOB, CAT, DAN, EVE = 1, 2, 3, 4, 5
ONE_HAND = {"end": "rounds", "rounds": 1, "timer": "off"}


async def troika_with_ais(service: TableService, options: dict | None = None, seed: int = 7):
    await service.open_table(CH, 99, HOST, "Ann", "troika", options=options or ONE_HAND, seed=seed)
    for _ in range(3):
        await service.add_ai(CH, HOST, "easy")
    return await service.start_game(CH, HOST)


async def troika_four_humans(service: TableService, options: dict | None = None):
    await service.open_table(CH, 99, HOST, "Ann", "troika", options=options or ONE_HAND, seed=11)
    for uid, name in ((BOB, "Bob"), (CAT, "Cat"), (DAN, "Dan")):
        await service.join(CH, uid, name)
    return await service.start_game(CH, HOST)


def user_at(service: TableService, seat: int) -> int:
    table = service.get_table(CH)
    assert table is not None
    found = table.seat(seat)
    assert found is not None and found.user_id is not None
    return found.user_id


def stored(db_path: Path, sql: str, *args: object) -> list[tuple]:
    conn = connect(db_path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


# -- open -----------------------------------------------------------------------------------------
async def test_open_table_seats_the_host_and_announces(service, recorder, db_path):
    table = await service.open_table(CH, 99, HOST, "Ann", "Troika", preset="online")
    assert table.status is TableStatus.LOBBY and table.game == "troika"
    assert table.seats[0].user_id == HOST and table.seats[0].team == 0
    assert table.options["auction"] == "open" and table.preset == "online"
    assert isinstance(recorder.events[0], TableOpened)
    assert stored(db_path, "SELECT channel_id, guild_id, status FROM tables") == [(CH, 99, "lobby")]


async def test_one_open_table_per_channel(service):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    with pytest.raises(TableExists):
        await service.open_table(CH, None, BOB, "Bob", "troeven")
    other = await service.open_table(CH + 1, None, BOB, "Bob", "troeven")
    assert other.channel_id == CH + 1


async def test_a_table_another_process_opened_in_the_channel_is_refused(db_path, clock, service):
    """Two processes on one database (the terminal and the bot): the second to open a table in
    a channel gets TableExists from the stored row, and holds no table there."""
    other = TableService(db_path, clock=clock, sleep=clock.sleep, ai_delay=0, limits=TEST_LIMITS)
    await other.start()
    try:
        await service.open_table(CH, None, HOST, "Ann", "troika")
        with pytest.raises(TableExists, match="already has an open table"):
            await other.open_table(CH, None, BOB, "Bob", "troeven")
        assert other.get_table(CH) is None and other.tables() == []
        assert stored(db_path, "SELECT channel_id, host_id FROM tables") == [(CH, HOST)]
    finally:
        await other.close()


async def test_a_second_process_serving_the_same_table_is_refused_not_merged(
    db_path, clock, service
):
    """A rogue second process loaded the same lobby (two bots on one shard): once ours has
    written the table, the other's writes of it are refused whole (StaleWrite), in the lobby
    (the record's version) as in play (the move number); what ours wrote stands."""
    await service.open_table(CH, None, HOST, "Ann", "troika")
    rogue = TableService(db_path, clock=clock, sleep=clock.sleep, ai_delay=0, limits=TEST_LIMITS)
    await rogue.start()
    try:
        assert rogue.get_table(CH) is not None  # it loaded the lobby too
        await service.join(CH, BOB, "Bob")
        with pytest.raises(StaleWrite, match="another process wrote the table"):
            await rogue.join(CH, 77, "Rogue")
        rogue_table = rogue.get_table(CH)
        assert rogue_table is not None and [s.name for s in rogue_table.seats] == ["Ann"]
    finally:
        await rogue.close()
    seats = stored(db_path, "SELECT name FROM seats ORDER BY seat")
    assert seats == [("Ann",), ("Bob",)]


@pytest.mark.parametrize(
    ("game", "preset", "options"),
    [("chess", None, None), ("troika", "nope", None), ("troika", None, {"min_bid": 3})],
)
async def test_open_refuses_unknown_game_preset_or_option_value(service, game, preset, options):
    with pytest.raises(UnknownGame):
        await service.open_table(CH, None, HOST, "Ann", game, preset, options)
    assert service.get_table(CH) is None


async def test_no_table_here(service):
    assert service.get_table(CH) is None
    for call in (
        service.join(CH, BOB, "Bob"),
        service.act(CH, BOB, "pass"),
        service.start_game(CH, BOB),
        service.leave(CH, BOB),
    ):
        with pytest.raises(NoTable):
            await call
    with pytest.raises(NoTable):
        service.view(CH, BOB)
    assert service.legal_actions(CH, BOB) == []


# -- join / leave / AI / kick ---------------------------------------------------------------------
async def test_join_takes_the_first_free_seat_or_the_one_asked(service, recorder):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    table = await service.join(CH, BOB, "Bob", seat=3)
    assert table.seat_of(BOB).index == 3
    table = await service.join(CH, CAT, "Cat")
    assert table.seat_of(CAT).index == 1
    assert [type(e) for e in recorder.events] == [TableOpened, PlayerJoined, PlayerJoined]


async def test_join_a_team_in_troika(service):
    await service.open_table(CH, None, HOST, "Ann", "troika")  # Ann: seat 0, team 0
    table = await service.join(CH, BOB, "Bob", team=0)
    assert table.seat_of(BOB).index == 2 and table.seat_of(BOB).team == 0
    with pytest.raises(TableFull, match="That team is full"):
        await service.join(CH, CAT, "Cat", team=0)


async def test_join_as_a_players_partner(service):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    table = await service.join(CH, BOB, "Bob")  # the first free seat: Ann's opponent
    assert table.seat_of(BOB).team != table.seat_of(HOST).team
    table = await service.join(CH, CAT, "Cat", partner_id=BOB)
    assert table.seat_of(CAT).team == table.seat_of(BOB).team and table.seat_of(CAT).index == 3
    with pytest.raises(NotAtTable, match="no seat"):
        await service.join(CH, DAN, "Dan", partner_id=EVE)
    with pytest.raises(TableFull, match="That team is full"):
        await service.join(CH, DAN, "Dan", partner_id=CAT)
    table = await service.join(CH, DAN, "Dan", partner_id=HOST)
    assert table.seat_of(DAN).index == 2


async def test_a_partner_in_a_game_without_teams_is_refused(service):
    await service.open_table(CH, None, HOST, "Ann", "troggu")
    with pytest.raises(TableFull, match="no teams"):
        await service.join(CH, BOB, "Bob", partner_id=HOST)
    assert service.get_table(CH).seat_of(BOB) is None


async def test_join_errors_leave_the_table_unchanged(service):
    await service.open_table(CH, None, HOST, "Ann", "troeven")
    with pytest.raises(AlreadySeated):
        await service.join(CH, HOST, "Ann")
    with pytest.raises(TableFull, match="taken"):
        await service.join(CH, BOB, "Bob", seat=0)
    with pytest.raises(TableFull, match="no seat 6: seats are 1 to 2"):  # players count from 1
        await service.join(CH, BOB, "Bob", seat=5)
    await service.join(CH, BOB, "Bob")
    with pytest.raises(TableFull, match="full"):
        await service.join(CH, CAT, "Cat")
    assert [s.user_id for s in service.get_table(CH).seats] == [HOST, BOB]


async def test_join_after_the_start_is_refused_when_the_seats_are_closed(service):
    """(Open seats, the default, let her take an AI's seat: tests/cogs/test_seats_in_play.)"""
    await troika_with_ais(service)
    await service.set_settings(CH, HOST, seats="closed")
    with pytest.raises(WrongPhase):
        await service.join(CH, EVE, "Eve")
    assert service.get_table(CH).seat_of(EVE) is None
    with pytest.raises(BadSetting):
        await service.set_settings(CH, HOST, seats="ajar", away_after=2)
    with pytest.raises(BadSetting):
        await service.set_settings(CH, HOST, away_after="0")
    assert dict(service.get_table(CH).settings) == {"seats": "closed"}  # unchanged


async def test_leave_lobby_frees_the_seat_and_passes_the_host(service, recorder):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    await service.join(CH, BOB, "Bob")
    table = await service.leave(CH, HOST)
    assert table.host_id == BOB and table.seat_of(HOST) is None
    assert any(isinstance(e, HostChanged) for e in recorder.events)
    with pytest.raises(NotAtTable):
        await service.leave(CH, HOST)


async def test_last_human_leaving_the_lobby_closes_it(service, db_path):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    await service.add_ai(CH, HOST)
    await service.leave(CH, HOST)
    assert service.get_table(CH) is None
    assert stored(db_path, "SELECT status FROM tables") == [("abandoned",)]
    assert stored(db_path, "SELECT count(*) FROM results") == [(0,)]  # a lobby is not a game
    await service.open_table(CH, None, BOB, "Bob", "troika")  # the channel is free again


async def test_add_ai_is_for_the_host_with_a_known_level(service):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    await service.join(CH, BOB, "Bob")
    with pytest.raises(NotHost):
        await service.add_ai(CH, BOB)
    with pytest.raises(UnknownGame, match="AI level"):
        await service.add_ai(CH, HOST, "godlike")
    table = await service.add_ai(CH, HOST, "easy", seat=3)
    assert table.seat(3).is_ai and table.seat(3).ai_level == "easy"


async def test_kick_by_the_host_only(service, recorder):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    await service.join(CH, BOB, "Bob")
    await service.add_ai(CH, HOST)
    with pytest.raises(NotHost):
        await service.kick(CH, BOB, 2)
    with pytest.raises(NotAtTable, match="Nobody sits at seat 4"):  # players count from 1
        await service.kick(CH, HOST, 3)
    with pytest.raises(NotHost, match="yourself"):
        await service.kick(CH, HOST, 0)
    table = await service.kick(CH, HOST, 1)
    assert table.seat_of(BOB) is None
    table = await service.kick(CH, HOST, 2)
    assert len(table.seats) == 1
    assert len(recorder.of_type(PlayerKicked)) == 2


async def test_kick_during_play_hands_the_seat_to_the_ai(service):
    await troika_four_humans(service)
    table = await service.kick(CH, HOST, 1)
    assert table.seat(1).is_ai and table.seat(1).left and table.seat(1).user_id == BOB
    await service.settle()
    with pytest.raises(AiSeat):
        await service.act(CH, BOB, "pass")


# -- options / start ------------------------------------------------------------------------------
async def test_set_options_by_the_host_in_the_lobby(service, recorder):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    await service.join(CH, BOB, "Bob")
    table = await service.set_options(CH, HOST, {"min_bid": "8", "kitty": "on"})
    assert table.options["min_bid"] == 8 and table.options["kitty"] is True
    table = await service.set_options(CH, HOST, preset="saskatchewan")
    assert table.preset == "saskatchewan" and table.options["min_bid"] == 8  # override kept
    assert len(recorder.of_type(OptionsChanged)) == 2
    with pytest.raises(NotHost):
        await service.set_options(CH, BOB, {"min_bid": 7})
    with pytest.raises(UnknownGame):
        await service.set_options(CH, HOST, {"min_bid": 99})
    with pytest.raises(UnknownGame):
        await service.set_options(CH, HOST, {"colour": "red"})
    assert service.get_table(CH).options["min_bid"] == 8


async def test_options_cannot_change_after_the_start(service):
    await troika_with_ais(service)
    with pytest.raises(WrongPhase):
        await service.set_options(CH, HOST, {"min_bid": 7})


async def test_start_needs_the_host_and_a_fitting_seat_count(service):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    await service.join(CH, BOB, "Bob")
    with pytest.raises(NotHost):
        await service.start_game(CH, BOB)
    with pytest.raises(CannotStart, match="4"):
        await service.start_game(CH, HOST)
    assert service.get_table(CH).status is TableStatus.LOBBY


async def test_start_closes_gaps_and_announces_the_first_turn(service, recorder, db_path):
    await service.open_table(CH, None, HOST, "Ann", "troeven", seed=5)
    await service.join(CH, BOB, "Bob", seat=1)
    table = await service.start_game(CH, HOST)
    assert table.status is TableStatus.PLAYING and table.move_number == 0
    assert [s.index for s in table.seats] == [0, 1]
    assert isinstance(recorder.events[-2], GameStarted)
    turn = recorder.events[-1]
    assert isinstance(turn, TurnChanged) and turn.to_act == table.to_act
    assert set(turn.deadlines) == set(table.to_act)  # default timer 60 s
    snapshot, initial = stored(db_path, "SELECT snapshot, initial_snapshot FROM tables")[0]
    assert snapshot == initial


# -- play -----------------------------------------------------------------------------------------
async def test_act_applies_commits_and_announces(service, recorder, db_path):
    await troika_four_humans(service)
    table = service.get_table(CH)
    seat = table.to_act[0]
    user = user_at(service, seat)
    legal = service.legal_actions(CH, user)
    assert "pass" in legal
    result = await service.act(CH, user, "PASS")
    assert result.move_number == 1 and result.action == "pass" and result.seat == seat
    applied = recorder.of_type(ActionApplied)[-1]
    assert applied.source is ActionSource.PLAYER and applied.user_id == user
    assert applied.events and applied.events[0].type == "pass"
    log = stored(db_path, "SELECT move_number, seat, action, source, user_id FROM actions")
    assert log == [(1, seat, "pass", "player", user)]
    # The snapshot stays the dealt game (written every few moves, not at each): the move is in
    # the log, and the move number (the write guard) is stored.
    snapshot = stored(db_path, "SELECT snapshot, snapshot_move, move_number FROM tables")[0]
    assert snapshot == (service._tables[CH].snapshot, 0, 1)
    assert snapshot[0] != service._tables[CH].game.to_json()


async def test_act_errors_leave_the_game_unchanged(service, db_path):
    await troika_four_humans(service)
    table = service.get_table(CH)
    before = service._tables[CH].game.to_json()
    waiting = table.to_act[0]
    other = next(s.user_id for s in table.seats if s.index != waiting)
    with pytest.raises(NotYourTurn, match="waiting for"):
        await service.act(CH, other, "pass")
    with pytest.raises(IllegalMove):
        await service.act(CH, user_at(service, waiting), "bid 99")
    with pytest.raises(NotAtTable):
        await service.act(CH, EVE, "pass")
    assert service._tables[CH].game.to_json() == before
    assert service.get_table(CH).move_number == 0
    assert stored(db_path, "SELECT count(*) FROM actions") == [(0,)]


async def test_act_in_the_lobby_is_refused(service):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    with pytest.raises(WrongPhase):
        await service.act(CH, HOST, "pass")


async def test_ai_seats_move_by_themselves(service, recorder):
    await troika_with_ais(service)
    await service.settle()
    table = service.get_table(CH)
    assert table.to_act == (0,)  # the AIs played up to the human
    ai_moves = [e for e in recorder.of_type(ActionApplied) if e.source is ActionSource.AI]
    assert ai_moves == [] or all(e.seat != 0 for e in ai_moves)


async def test_view_for_a_seat_a_spectator_and_the_lobby(service):
    await service.open_table(CH, None, HOST, "Ann", "troika", options=ONE_HAND)
    lobby = service.view(CH, HOST)
    assert lobby.game is None and lobby.seat == 0
    for _ in range(3):
        await service.add_ai(CH, HOST)
    await service.start_game(CH, HOST)
    await service.settle()
    mine = service.view(CH, HOST)
    assert mine.seat == 0 and len(mine.game["hand"]) == 8 and mine.legal
    watcher = service.view(CH, EVE)
    assert watcher.seat is None and "hand" not in watcher.game and watcher.legal == ()


async def test_spectate(service):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    table = await service.spectate(CH, EVE)
    assert table.spectators == (EVE,)
    with pytest.raises(AlreadySeated):
        await service.spectate(CH, HOST)
    table = await service.join(CH, EVE, "Eve")
    assert table.spectators == ()


async def test_leaving_during_play_hands_the_seat_to_the_ai(service, recorder):
    await troika_four_humans(service)
    table = await service.leave(CH, BOB)
    seat = table.seat_of(BOB)
    assert seat.is_ai and seat.left and seat.ai_level in ("normal", "easy")
    assert recorder.of_type(PlayerLeft)[-1].replaced_by_ai
    await service.settle()
    assert 1 not in service.get_table(CH).to_act  # the AI moved for him when needed
    with pytest.raises(AiSeat):
        await service.act(CH, BOB, "pass")


async def test_the_last_human_leaving_a_game_abandons_it(service, db_path):
    await troika_with_ais(service)
    await service.leave(CH, HOST)
    assert service.get_table(CH) is None
    assert stored(db_path, "SELECT status FROM results") == [("abandoned",)]


async def test_private_events_are_marked_for_their_seat(service, recorder):
    await service.open_table(CH, None, HOST, "Ann", "troikuntza", options={"timer": "off"}, seed=2)
    for _ in range(3):
        await service.add_ai(CH, HOST)
    await service.start_game(CH, HOST)
    rng = random.Random(1)
    for _ in range(200):
        await service.settle()
        events = [ev for e in recorder.of_type(ActionApplied) for ev in e.events]
        private = [ev for ev in events if ev.private_to is not None]
        if private:
            break
        await service.act(CH, HOST, rng.choice(service.legal_actions(CH, HOST)))
    assert private
    event = private[0]
    assert event.private_to == event.data["private_to"]
    assert event.visible_to(event.private_to) and not event.visible_to(None)


async def test_a_may_i_past_the_limit_is_refused_with_the_engines_reason(service, db_path):
    options = {"timer": "off", "mayi_limit": 1}
    await service.open_table(CH, None, HOST, "Ann", "troikuntza", options=options, seed=2)
    for uid, name in ((BOB, "Bob"), (CAT, "Cat"), (DAN, "Dan")):
        await service.join(CH, uid, name)
    await service.start_game(CH, HOST)
    game = service._tables[CH].game
    current = game.state["current"]
    spent = (current + 1) % 4
    game.state["mayi_used"][spent] = 1
    game._open_window(None)  # the upcard's window, without the seat that has used his May I
    before = game.to_json()
    with pytest.raises(IllegalMove, match="You have used your 1 May I this round"):
        await service.act(CH, user_at(service, spent), "mayi")
    with pytest.raises(NotYourTurn, match="waiting for"):
        await service.act(CH, user_at(service, spent), "pass")
    assert service._tables[CH].game.to_json() == before
    assert stored(db_path, "SELECT count(*) FROM actions") == [(0,)]


async def test_a_human_cannot_send_the_service_close_action(service):
    await service.open_table(CH, None, HOST, "Ann", "troikuntza", seed=2)
    for _ in range(3):
        await service.add_ai(CH, HOST)
    await service.start_game(CH, HOST)
    await service.settle()
    with pytest.raises((IllegalMove, NotYourTurn)):
        await service.act(CH, HOST, "close")


# -- end of game ----------------------------------------------------------------------------------
async def play_out(service: TableService, user: int, seed: int = 0, limit: int = 5000) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        await service.settle()
        if service.get_table(CH) is None:
            return
        legal = service.legal_actions(CH, user)
        assert legal, "the human is never left without a move"
        await service.act(CH, user, rng.choice(legal))
    raise AssertionError("the game did not end")


async def test_a_finished_game_is_recorded_and_frees_the_channel(service, recorder, db_path):
    await troika_with_ais(service)
    await play_out(service, HOST)
    over = recorder.of_type(GameOver)
    assert len(over) == 1 and over[0].table.status is TableStatus.FINISHED
    assert over[0].result["winners"]
    hands = recorder.of_type(HandEnded)
    assert hands and all(h.details["type"] == "hand_over" for h in hands)
    (status, hands, scores, winners, guild) = stored(
        db_path, "SELECT status, hands, scores, winners, guild_id FROM results"
    )[0]
    assert status == "finished" and hands >= 1 and guild == 99
    players = stored(db_path, "SELECT seat, user_id, ai_level, team, winner FROM result_players")
    assert [p[0] for p in players] == [0, 1, 2, 3]
    assert players[0][1] == HOST and players[1][2] == "easy" and players[1][3] == 1
    assert service.get_table(CH) is None


async def test_results_read_back(service, db_path):
    table = await troika_with_ais(service)
    await play_out(service, HOST)
    result = await service.db.run(lambda conn: repo.load_result(conn, table.id))
    assert result["game"] == "troika" and result["status"] == "finished"
    assert len(result["players"]) == 4 and result["options"]["rounds"] == 1


# -- abandon --------------------------------------------------------------------------------------
async def test_the_host_abandons_at_once(service, recorder, db_path):
    await troika_four_humans(service)
    result = await service.abandon(CH, HOST)
    assert result.abandoned and result.table.status is TableStatus.ABANDONED
    assert recorder.of_type(TableAbandoned)[-1].by_user_id == HOST
    assert service.get_table(CH) is None
    assert stored(db_path, "SELECT status, winners FROM results") == [("abandoned", None)]


async def test_a_majority_of_the_seated_humans_abandons(service, recorder):
    await troika_four_humans(service)
    first = await service.abandon(CH, BOB)
    assert not first.abandoned and (first.votes, first.needed) == (1, 3)
    again = await service.abandon(CH, BOB)  # voting twice counts once
    assert again.votes == 1
    await service.abandon(CH, CAT)
    done = await service.abandon(CH, DAN)
    assert done.abandoned and service.get_table(CH) is None
    assert len(recorder.of_type(AbandonVoted)) == 4


async def test_force_end_by_an_admin_records_the_game_as_abandoned(service, recorder, db_path):
    await troika_four_humans(service)
    table = await service.force_end(CH, EVE, "a server admin ended it")
    assert table.status is TableStatus.ABANDONED and service.get_table(CH) is None
    told = recorder.of_type(TableAbandoned)[-1]
    assert (told.by_user_id, told.reason) == (EVE, "a server admin ended it")
    assert stored(db_path, "SELECT status, winners FROM results") == [("abandoned", None)]
    with pytest.raises(NoTable):
        await service.force_end(CH, EVE, "again")


async def test_public_view_is_the_spectator_view_and_none_without_a_game(service):
    assert service.public_view(CH) is None
    await service.open_table(CH, None, HOST, "Ann", "troika")
    assert service.public_view(CH) is None  # a lobby has no game yet
    await service.abandon(CH, HOST)
    await troika_four_humans(service)
    view = service.public_view(CH)
    assert view is not None and view["seat"] is None and "hand" not in view
    assert view == service.view(CH, EVE).game


async def test_add_ai_defaults_to_the_normal_level(service):
    await service.open_table(CH, None, HOST, "Ann", "troika")
    table = await service.add_ai(CH, HOST)
    assert [s.ai_level for s in table.seats if not s.is_human] == ["normal"]


async def test_a_spectator_cannot_abandon(service):
    await troika_four_humans(service)
    with pytest.raises(NotAtTable):
        await service.abandon(CH, EVE)


# -- deadlines and restart ------------------------------------------------------------------------
async def test_deadline_readout_follows_the_timer_option(service, clock: FakeClock):
    await troika_four_humans(service, options={"timer": 30})
    table = service.get_table(CH)
    assert service.deadlines(CH) == {table.to_act[0]: clock.now + 30}
    assert service.view(CH, user_at(service, table.to_act[0])).deadline == clock.now + 30


async def test_timer_off_means_no_deadline(service):
    await troika_four_humans(service)
    assert service.deadlines(CH) == {}


async def test_tables_survive_a_restart(db_path, clock: FakeClock):
    first = TableService(db_path, clock=clock, sleep=clock.sleep)
    await first.start()
    await first.open_table(CH, 9, HOST, "Ann", "troika", options={"min_bid": 7})
    await first.join(CH, BOB, "Bob")
    await first.spectate(CH, EVE)
    await first.open_table(CH + 1, 9, CAT, "Cat", "troeven", seed=1)
    await first.join(CH + 1, DAN, "Dan")
    await first.start_game(CH + 1, CAT)
    mover = first.get_table(CH + 1).to_act[0]
    user = CAT if mover == 0 else DAN
    await first.act(CH + 1, user, first.legal_actions(CH + 1, user)[0])
    before = {t.channel_id: t for t in first.tables()}
    game_before = first._tables[CH + 1].game
    await first.close()

    second = TableService(db_path, clock=clock, sleep=clock.sleep)
    await second.start()
    try:
        after = {t.channel_id: t for t in second.tables()}
        assert after == before
        assert second._tables[CH + 1].game == game_before
    finally:
        await second.close()


async def test_listener_failures_do_not_break_the_table(service):
    class Broken:
        async def on_table_event(self, event):
            raise RuntimeError("render bug")

    service.add_listener(Broken())
    recorder = RecordingListener()
    service.add_listener(recorder)
    await service.open_table(CH, None, HOST, "Ann", "troika")
    assert service.get_table(CH) is not None and recorder.events


async def test_terminal_tables_and_discord_tables_are_loaded_apart(db_path, clock: FakeClock):
    local = TableService(db_path, clock=clock, sleep=clock.sleep, local=True)
    await local.start()
    await local.open_table(-1, None, -1, "You", "troika")
    await local.close()
    bot = TableService(db_path, clock=clock, sleep=clock.sleep)
    await bot.start()
    try:
        assert bot.get_table(-1) is None and bot.tables() == []
        await bot.open_table(CH, None, HOST, "Ann", "troika")
    finally:
        await bot.close()
    again = TableService(db_path, clock=clock, sleep=clock.sleep, local=True)
    await again.start()
    try:
        assert [t.channel_id for t in again.tables()] == [-1]
    finally:
        await again.close()
