"""Leaderboard SQL (bot/leaderboard/store.py) on recorded games: rating once, boards, sorting,
seasons, hiding, forgetting; and the guild settings /new consults. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_leaderboard_helpers import GUILD, P, open_db, record, troika

from bot.leaderboard import guild_settings as gs
from bot.leaderboard import store
from bot.leaderboard.guild_settings import ChannelNotAllowed, GameDefaults, GuildSettings
from bot.leaderboard.rating import Skill
from bot.service.errors import UnknownGame
from tests.bot.databases import BACKENDS, connect

NOW = 5000.0


@pytest.fixture(params=BACKENDS)
def conn(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A migrated database: SQLite in memory, or a PostgreSQL database of its own."""
    db = open_db() if request.param == "sqlite" else connect(request.getfixturevalue("pg_url"))
    try:
        yield db
    finally:
        db.close()


def test_catch_up_rates_each_recorded_game_once(conn: Any) -> None:
    record(conn, "troggu", [P(1, 30, True), P(2, 10), P(3, 5)])
    first = store.catch_up(conn, NOW)
    assert [g.rated for g in first] == [True]
    assert store.catch_up(conn, NOW) == []
    line = {s.user_id: s for s in store.board(conn, GUILD, 1, "troggu")}
    assert line[1].games == 1 and line[1].wins == 1 and line[2].wins == 0


def test_abandoned_and_left_games_are_recorded_but_not_rated(conn: Any) -> None:
    record(conn, "troggu", [P(1, 30, True), P(2, 10), P(3, 5)], status="abandoned")
    record(conn, "troggu", [P(1, 30, True), P(2, 10), P(3, 5, left=True)], ended_at=1100)
    outcomes = store.catch_up(conn, NOW)
    assert [(g.rated, g.reason) for g in outcomes] == [
        (False, "abandoned"),
        (False, "a player left"),
    ]
    assert store.board(conn, GUILD, 1, "troggu") == []
    recent = store.recent_results(conn, GUILD, 1)
    assert [r.status for r in recent] == ["finished", "abandoned"]
    assert not any(r.rated for r in recent)


def test_a_game_whose_table_had_hints_is_recorded_but_not_rated(conn: Any) -> None:
    hinted = record(conn, "troggu", [P(1, 30, True), P(2, 10), P(3, 5)])
    conn.execute("UPDATE tables SET settings = ? WHERE id = ?", ('{"hinted": true}', hinted))
    on = record(conn, "troggu", [P(1, 30, True), P(2, 10), P(3, 5)], ended_at=1100)
    conn.execute("UPDATE tables SET settings = ? WHERE id = ?", ('{"hints": "on"}', on))
    off = record(conn, "troggu", [P(1, 30, True), P(2, 10), P(3, 5)], ended_at=1200)
    conn.execute("UPDATE tables SET settings = ? WHERE id = ?", ('{"hints": "off"}', off))
    outcomes = store.catch_up(conn, NOW)
    assert [(g.rated, g.reason) for g in outcomes] == [
        (False, "hints were on"),
        (False, "hints were on"),
        (True, "rated"),
    ]


def test_ratings_chain_from_game_to_game_in_order(conn: Any) -> None:
    record(conn, "troeven", [P(1, 7, True), P(2, 3)], ended_at=1000)
    record(conn, "troeven", [P(1, 7, True), P(2, 3)], ended_at=2000)
    done = store.catch_up(conn, NOW)
    assert done[1].changes[1][0] == done[0].changes[1][1]  # second game starts where first ended
    line = {s.user_id: s for s in store.board(conn, GUILD, 1, "troeven")}
    assert line[1].mu == pytest.approx(done[1].changes[1][1].mu)
    assert line[1].rating == pytest.approx(Skill(line[1].mu, line[1].sigma).conservative)


def test_best_streak_and_current_streak(conn: Any) -> None:
    for i, won in enumerate([True, True, False, True]):
        record(conn, "troeven", [P(1, 7, won), P(2, 3, not won)], ended_at=1000 + i)
    store.catch_up(conn, NOW)
    (me,) = store.standings_of(conn, GUILD, 1, 1)
    assert (me.games, me.wins, me.streak, me.best_streak) == (4, 3, 1, 2)


def test_board_sorts_by_rating_wins_games_and_win_rate(conn: Any) -> None:
    # user 1: 1 game, 1 win (100%); user 2: 3 games, 2 wins; user 3: 3 games, 0 wins.
    record(conn, "troeven", [P(1, 7, True), P(3, 3)], ended_at=1)
    record(conn, "troeven", [P(2, 7, True), P(3, 3)], ended_at=2)
    record(conn, "troeven", [P(2, 7, True), P(3, 3)], ended_at=3)
    record(conn, "troeven", [P(2, 3), P(4, 7, True)], ended_at=4)
    store.catch_up(conn, NOW)

    def order(sort: str) -> list[int]:
        return [s.user_id for s in store.board(conn, GUILD, 1, "troeven", sort)]

    assert order("wins")[0] == 2  # 2 wins; everyone else has at most 1
    assert set(order("games")[:2]) == {2, 3}
    assert order("win rate")[:2] in ([1, 4], [4, 1])
    ratings = [s.rating for s in store.board(conn, GUILD, 1, "troeven", "rating")]
    assert ratings == sorted(ratings, reverse=True)
    with pytest.raises(ValueError):
        store.board(conn, GUILD, 1, "troeven", "luck")


def test_boards_are_per_guild_and_game(conn: Any) -> None:
    record(conn, "troeven", [P(1, 7, True), P(2, 3)])
    record(conn, "troeven", [P(1, 7, True), P(2, 3)], guild=GUILD + 1)
    record(conn, "troika", troika(1, 2, 3, 4))
    store.catch_up(conn, NOW)
    assert len(store.board(conn, GUILD, 1, "troeven")) == 2
    assert len(store.board(conn, GUILD, 1, "troika")) == 4
    assert store.board(conn, GUILD + 1, 1, "troeven")[0].games == 1
    assert store.games_on_board(conn, GUILD, 1) == ["troika", "troeven"]


def test_new_season_starts_afresh_and_keeps_history(conn: Any) -> None:
    record(conn, "troeven", [P(1, 7, True), P(2, 3)], ended_at=1000)
    store.catch_up(conn, NOW)
    old = store.board(conn, GUILD, 1, "troeven")
    assert store.new_season(conn, GUILD, NOW) == 2
    assert store.current_season(conn, GUILD, NOW) == 2
    assert store.board(conn, GUILD, 2, "troeven") == []
    assert store.board(conn, GUILD, 1, "troeven") == old  # the old season is kept
    record(conn, "troeven", [P(2, 7, True), P(1, 3)], ended_at=NOW + 10)
    (game,) = store.catch_up(conn, NOW + 20)
    assert game.season == 2
    assert game.changes[2][0] == Skill()  # fresh rating in the new season
    seasons = store.seasons(conn, GUILD)
    assert [(s.number, s.ended_at) for s in seasons] == [(1, NOW), (2, None)]


def test_a_pending_game_counts_in_the_season_it_was_played_in(conn: Any) -> None:
    record(conn, "troeven", [P(1, 7, True), P(2, 3)])
    store.new_season(conn, GUILD, NOW)  # rates the pending game first
    assert len(store.board(conn, GUILD, 1, "troeven")) == 2


def test_hidden_member_is_left_off_and_restored(conn: Any) -> None:
    record(conn, "troeven", [P(1, 7, True), P(2, 3)])
    store.catch_up(conn, NOW)
    assert store.hide(conn, GUILD, 1, 99, NOW)
    assert not store.hide(conn, GUILD, 1, 99, NOW)
    assert [s.user_id for s in store.board(conn, GUILD, 1, "troeven")] == [2]
    assert store.is_hidden(conn, GUILD, 1)
    record(conn, "troeven", [P(1, 7, True), P(2, 3)], ended_at=2000)
    store.catch_up(conn, NOW)  # still rated while hidden
    assert store.restore(conn, GUILD, 1)
    assert not store.restore(conn, GUILD, 1)
    line = {s.user_id: s for s in store.board(conn, GUILD, 1, "troeven")}
    assert line[1].games == 2


def test_forget_removes_the_member_and_keeps_the_others_results(conn: Any) -> None:
    table = record(conn, "troggu", [P(1, 30, True), P(2, 10), P(3, 5)])
    other_guild = record(conn, "troeven", [P(1, 7, True), P(2, 3)], guild=GUILD + 1)
    store.catch_up(conn, NOW)
    store.hide(conn, GUILD, 1, None, NOW)
    before = store.board(conn, GUILD, 1, "troggu")
    assert store.forget(conn, GUILD, 1) == 1
    after = store.board(conn, GUILD, 1, "troggu")
    store.restore(conn, GUILD, 1)
    assert {s.user_id for s in store.board(conn, GUILD, 1, "troggu")} == {2, 3}
    assert [s for s in before if s.user_id != 1] == after
    players = conn.execute(
        "SELECT seat, user_id, name, score, winner FROM result_players WHERE table_id = ?"
        " ORDER BY seat",
        (table,),
    ).fetchall()
    assert players == [(0, None, store.FORGOTTEN, 30, 1), (1, 2, "user2", 10, 0),
                       (2, 3, "user3", 5, 0)]  # fmt: skip
    for sql in (
        "SELECT COUNT(*) FROM seats WHERE table_id = ? AND user_id = 1",
        "SELECT COUNT(*) FROM actions WHERE table_id = ? AND user_id = 1",
        "SELECT COUNT(*) FROM tables WHERE id = ? AND host_id = 1",
        "SELECT COUNT(*) FROM rating_changes WHERE table_id = ? AND user_id = 1",
    ):
        assert conn.execute(sql, (table,)).fetchone()[0] == 0, sql
    assert store.recent_results(conn, GUILD, 2)[0].table_id == table
    # Another guild's data is not this guild's to delete.
    assert conn.execute(
        "SELECT user_id FROM result_players WHERE table_id = ? AND seat = 0", (other_guild,)
    ).fetchone() == (1,)


# -- guild settings ---------------------------------------------------------------------------
def test_guild_settings_round_trip(conn: Any) -> None:
    assert gs.load(conn, GUILD) == GuildSettings()
    gs.store_timer(conn, GUILD, 30)
    gs.store_channels(conn, GUILD, (5, 4, 5))
    gs.store_game_defaults(conn, GUILD, "troika", GameDefaults("online", {"kitty": True}))
    loaded = gs.load(conn, GUILD)
    assert loaded.timer == 30 and loaded.channels == (4, 5)
    assert loaded.games == {"troika": GameDefaults("online", {"kitty": True})}
    gs.store_channels(conn, GUILD, None)
    gs.store_game_defaults(conn, GUILD, "troika", None)
    assert gs.load(conn, GUILD) == GuildSettings(timer=30)


def test_channels_everywhere_or_only_listed() -> None:
    gs.check_channel(GuildSettings(), 7)
    gs.check_channel(GuildSettings(channels=(7,)), 7)
    with pytest.raises(ChannelNotAllowed, match="<#8>"):
        gs.check_channel(GuildSettings(channels=(8,)), 7)
    with pytest.raises(ChannelNotAllowed):
        gs.check_channel(GuildSettings(channels=()), 7)


def test_guild_defaults_fill_what_the_host_left_out() -> None:
    settings = GuildSettings(timer=30, games={"troika": GameDefaults("online", {"kitty": True})})
    assert gs.merge_defaults(settings, "troika", None, {}) == (
        "online",
        {"timer": 30, "kitty": True},
    )
    assert gs.merge_defaults(settings, "troika", None, {"kitty": False, "timer": "off"}) == (
        "online",
        {"timer": "off", "kitty": False},
    )


def test_a_preset_the_host_names_replaces_the_guilds_game_defaults() -> None:
    settings = GuildSettings(timer=30, games={"troika": GameDefaults("online", {"kitty": True})})
    assert gs.merge_defaults(settings, "troika", "saskatchewan", {}) == (
        "saskatchewan",
        {"timer": 30},
    )
    assert gs.merge_defaults(settings, "troggu", None, {}) == (None, {"timer": 30})


def test_parse_and_validate_default_options() -> None:
    assert gs.parse_options("troika", "kitty=on, min_bid=7") == {"kitty": True, "min_bid": 7}
    with pytest.raises(UnknownGame, match="no option"):
        gs.parse_options("troika", "colour=red")
    with pytest.raises(UnknownGame, match="name=value"):
        gs.parse_options("troika", "kitty")
    with pytest.raises(UnknownGame, match="no preset"):
        gs.validate_defaults("troika", GameDefaults("blitz"))
