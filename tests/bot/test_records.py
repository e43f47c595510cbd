"""Game records (``bot.records``): a finished game's record replays every event the table
applied, for every game and player count; records of running, abandoned or other servers'
games are not given; a record read from outside is checked before anything is replayed."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import engine
from bot.records import RecordError, build, finished_game, recent_games, replay
from bot.records.record import FORMAT, check
from bot.service import ActionApplied, TableService
from engine.ai import make_player
from tests.golden.fingerprint import cells

CH, GUILD, OTHER_GUILD, HOST = 700, 42, 43, 1


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """SQLite alone: the sweep over every game and count plays whole games."""
    return tmp_path / "troika.db"


#: The shortest whole game of each: one Troika hand, one Troggu deal.
SHORT = {"troika": {"end": "rounds", "rounds": 1}, "troggu": {"deals": 1}}


async def play_game(
    service: TableService, name: str, players: int, *, channel: int = CH, guild: int = GUILD
) -> int:
    """A whole seeded game: the host moves as the normal AI would, the others are normal AIs.
    Returns the table's id."""
    options = {**SHORT.get(name, {}), "timer": "off"}
    table = await service.open_table(channel, guild, HOST, "Ann", name, options=options, seed=5)
    for _ in range(players - 1):
        await service.add_ai(channel, HOST, "normal")
    await service.start_game(channel, HOST)
    for turn in range(20_000):
        await service.settle()
        if service.get_table(channel) is None:
            return table.id
        seen = service.view(channel, HOST)
        if seen.legal:
            player = make_player(name, "normal", seed=turn)
            await service.act(channel, HOST, player.choose(dict(seen.game or {}), list(seen.legal)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("name", "players"), cells(), ids=lambda v: str(v))
async def test_a_finished_games_record_replays_every_event(service, recorder, name, players):
    table_id = await play_game(service, name, players)
    finished = await service.db.run(lambda conn: finished_game(conn, GUILD, table_id))
    assert finished is not None
    record = json.loads(json.dumps(build(finished)))  # through its JSON text, as exported
    applied = [e for e in recorder.of_type(ActionApplied)]
    assert [m["action"] for m in record["actions"]] == [e.action for e in applied]
    replayed = replay(record)
    assert len(replayed) == len(applied)
    for events, seen in zip(replayed, applied, strict=True):
        assert [dict(e) for e in events] == [dict(e.data) for e in seen.events]
    assert record["game"] == name and record["players"] == players
    assert "dealt" not in record  # dealt from its seed: the seed alone replays it
    assert [s["seat"] for s in record["seats"]] == list(range(players))


async def test_a_game_dealt_otherwise_than_by_its_seed_carries_its_deal(service):
    table_id = await play_game(service, "troeven", 2)
    finished = await service.db.run(lambda conn: finished_game(conn, GUILD, table_id))
    assert finished is not None
    # The same game, but its stored dealt state is another seed's deal: the record keeps it.
    other = engine.new_game("troeven", 2, options=finished.options, seed=6)
    changed = json.loads(other.to_json())
    changed["state"]["seed"] = engine.load(finished.dealt).seed
    forged = dataclasses.replace(finished, dealt=json.dumps(changed))
    record = build(forged)
    assert record["dealt"] == forged.dealt
    with pytest.raises(RecordError):  # the real game's moves do not fit the other deal
        replay(record)


async def test_no_record_of_another_servers_or_a_running_game(service):
    table_id = await play_game(service, "troeven", 2)
    assert await service.db.run(lambda conn: finished_game(conn, OTHER_GUILD, table_id)) is None
    running = await service.open_table(CH + 1, GUILD, HOST, "Ann", "troeven", seed=1)
    await service.add_ai(CH + 1, HOST, "normal")
    await service.start_game(CH + 1, HOST)
    assert await service.db.run(lambda conn: finished_game(conn, GUILD, running.id)) is None


async def test_recent_games_are_the_servers_newest_first_and_a_members_own(service):
    first = await play_game(service, "troeven", 2)
    second = await play_game(service, "troeven", 2)
    await play_game(service, "troeven", 2, channel=CH + 5, guild=OTHER_GUILD)
    games, total = await service.db.run(
        lambda conn: recent_games(conn, GUILD, user_id=None, limit=10, offset=0)
    )
    assert total == 2 and [g.table_id for g in games] == [second, first]
    assert games[0].players[0][1:3] == ("Ann", HOST)
    mine, total = await service.db.run(
        lambda conn: recent_games(conn, GUILD, user_id=HOST + 1, limit=10, offset=0)
    )
    assert (mine, total) == ([], 0)
    page, total = await service.db.run(
        lambda conn: recent_games(conn, GUILD, user_id=HOST, limit=1, offset=1)
    )
    assert total == 2 and [g.table_id for g in page] == [first]


RECORD = {
    "format": FORMAT,
    "version": 1,
    "game": "troeven",
    "players": 2,
    "options": {},
    "seed": 3,
    "actions": [],
}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "chess/pgn"}, "not a"),
        ({"version": 2}, "not a"),
        ({"game": "poker"}, "'game'"),
        ({"players": "2"}, "'players'"),
        ({"players": True}, "'players'"),
        ({"seed": 1.5}, "'seed'"),
        ({"options": []}, "'options'"),
        ({"options": {"timer": "x" * 6000}}, ""),
        ({"actions": {}}, "'actions'"),
        ({"actions": [{"seat": 0}]}, "move 1"),
        ({"actions": [{"seat": 0, "action": "x" * 6000}]}, "move 1"),
        ({"actions": [{"seat": 0, "action": "play zz"}]}, "move 1 is refused"),
        ({"players": 3}, ""),
        ({"dealt": 5}, "'dealt'"),
        ({"dealt": "{not json"}, "'dealt'"),
        ({}, "do not finish"),
    ],
)
def test_a_bad_record_is_refused_briefly(change, words):
    with pytest.raises(RecordError) as refused:
        replay({**RECORD, **change})
    assert words in str(refused.value) and len(str(refused.value)) < 400


def test_check_takes_only_objects():
    for bad in (None, [], "record", 5):
        with pytest.raises(RecordError):
            check(bad)
