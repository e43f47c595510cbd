"""/admin through SimCord: only Manage Server may use it (default permission, and checked again on
use), seasons, hiding, forgetting, force-ending a table, channels and defaults for /new."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import discord
import pytest
import simcord
from cog_world import World
from simcord import MemberActor

import engine
from bot.leaderboard import FORGOTTEN, ChannelNotAllowed, GuildRules, GuildSettings
from bot.service import (
    RecordingListener,
    TableBroken,
    TableStalled,
    TableStatus,
    TableSummary,
)
from bot.storage import repository as repo
from cogs.admin import MESSAGE_CHARS, REFUSAL, tables_text
from cogs.leaderboard import leaderboard_of

#: Every /admin command with arguments that would change something if allowed.
ADMIN_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("admin season new", {}),
    ("admin leaderboard remove", {"member": 1}),
    ("admin leaderboard restore", {"member": 2}),
    ("admin defaults", {"timer": "30", "game": "troika", "preset": "online"}),
    ("admin end", {}),
    ("admin tables", {}),
    ("admin channels", {"action": "add"}),
    ("admin forget", {"member": 1}),
]


def make_admin(world: World) -> MemberActor:
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("ada"), roles=[role])


async def admin(world: World, who: MemberActor, name: str, **options: Any) -> str:
    """Run an /admin command; its answer is ephemeral. Returns the answer's text."""
    result = await world.slash(who, name, **options)
    assert result.ephemeral and result.response is not None, result
    return result.response.content


async def last_result(world: World) -> dict[str, Any]:
    def read(conn: Any) -> dict[str, Any]:
        (table_id,) = conn.execute("SELECT MAX(table_id) FROM results").fetchone()
        result = repo.load_result(conn, table_id)
        assert result is not None
        return result

    return await world.service.db.run(read)


async def board_names(world: World, game: str = "troggu", **options: Any) -> list[str]:
    result = await world.slash(world.members[0], "leaderboard", game=game, **options)
    description = result.response.embeds[0].description or ""
    return [line.split("**")[1] for line in description.splitlines() if "**" in line]


async def play_troggu(world: World) -> dict[str, Any]:
    await world.open("troggu", humans=3, preset="quick")
    await world.play(via="command")
    return await last_result(world)


def refusals(world: World, kind: type[BaseException]) -> int:
    """How many refusals of ``kind`` the bot answered (the lobby cog raises them for the tree's
    handler; SimCord records them). Reading ``env.errors`` acknowledges them."""
    return sum(1 for e in world.env.errors if isinstance(getattr(e, "original", e), kind))


# -- permissions --------------------------------------------------------------------------------
async def test_admin_is_hidden_from_members_without_manage_server(world: World) -> None:
    ada = make_admin(world)
    assert any(c.startswith("admin ") for c in ada.available_commands(world.channel))
    member = world.members[1]
    assert not any(c.startswith("admin") for c in member.available_commands(world.channel))
    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await member.slash(world.channel, "admin season new")


async def test_a_non_admin_gets_an_ephemeral_refusal_from_every_admin_command(
    world: World,
) -> None:
    # The server lets everybody see /admin (Integrations settings); the on-use check still holds.
    command = world.env.backend.find_command("admin", world.guild.id)
    assert command is not None
    bob = world.members[1]
    world.guild.set_command_permissions(int(command["id"]), {bob: True})
    await play_troggu(world)
    board = leaderboard_of(world.service)
    await board.hide(world.guild.id, world.members[2].id, None)
    await world.open("troggu", humans=3)
    before_board = await board_names(world)
    before_results = await last_result(world)

    for name, options in ADMIN_CALLS:
        resolved = {k: world.members[v] if k == "member" else v for k, v in options.items()}
        assert await admin(world, bob, name, **resolved) == REFUSAL, name

    assert await board.season(world.guild.id) == 1
    assert await board_names(world) == before_board
    assert (await board.stats(world.guild.id, world.members[2].id)).hidden
    # (The world chose tables in the channel itself; nothing else is set.)
    assert await GuildRules(world.service.db).get(world.guild.id) == GuildSettings(
        tables_in="channel"
    )
    table = world.table()
    assert table is not None and table.status is TableStatus.PLAYING
    assert await last_result(world) == before_results


# -- seasons and boards ---------------------------------------------------------------------------
async def test_a_new_season_resets_the_board_and_keeps_history(world: World) -> None:
    ada = make_admin(world)
    await play_troggu(world)
    season_one = await board_names(world)
    assert len(season_one) == 3

    assert "Season 2 has started" in await admin(world, ada, "admin season new")

    empty = await world.slash(world.members[0], "leaderboard", game="troggu")
    assert empty.response.embeds[0].title == "Troggu leaderboard · season 2"
    assert "Nobody is rated yet" in (empty.response.embeds[0].description or "")
    assert await board_names(world, season=1) == season_one
    stats = await world.slash(world.members[0], "stats")
    value = stats.response.embeds[0].fields[0].value or ""
    assert "Not rated this season." in value and "Recent (newest first): " in value
    assert value.split(": ")[-1] in ("W", "L")  # the season-1 game stays in his history

    # A game in the new season starts from a fresh rating.
    await play_troggu(world)
    page = await leaderboard_of(world.service).board(world.guild.id, "troggu")
    assert page.season == 2 and all(s.games == 1 for _, s in page.rows)


async def test_remove_hides_a_member_and_restore_shows_him(world: World) -> None:
    ada = make_admin(world)
    await play_troggu(world)
    bob = world.members[1]
    assert "no longer shows" in await admin(world, ada, "admin leaderboard remove", member=bob)
    assert "already hidden" in await admin(world, ada, "admin leaderboard remove", member=bob)
    assert "bob" not in await board_names(world)
    stats = await world.slash(bob, "stats")
    assert "hidden from the boards" in stats.response.embeds[0].footer.text
    assert "shows on the boards again" in await admin(
        world, ada, "admin leaderboard restore", member=bob
    )
    assert "bob" in await board_names(world)
    assert "was not hidden" in await admin(world, ada, "admin leaderboard restore", member=bob)


# -- tables -------------------------------------------------------------------------------------
async def test_admin_end_force_ends_the_table_as_abandoned(world: World) -> None:
    ada = make_admin(world)
    await world.open("troggu", humans=3, preset="quick")
    await world.play(via="command", stop=lambda w: len(w.results) >= 9)
    assert world.table() is not None

    answer = await admin(world, ada, "admin end")
    assert "recorded as abandoned" in answer
    assert world.table() is None
    result = await last_result(world)
    assert result["status"] == "abandoned" and not result["winners"]
    assert await board_names(world) == []
    assert "There is no table" in await admin(world, ada, "admin end")
    # The channel is free for a new table.
    opened = await world.slash(world.members[1], "new troggu")
    assert "You opened" in opened.response.content


def damage(world: World, channel_id: int, column: str, value: str) -> None:
    """Write ``value`` into the stored column of the channel's table in play."""
    conn = sqlite3.connect(world.settings.database_path)
    try:
        conn.execute(
            f"UPDATE tables SET {column} = ? WHERE channel_id = ? AND status = 'playing'",
            (value, channel_id),
        )
        conn.commit()
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("column", "value", "reason"),
    [
        ("spectators", "[oops", "column spectators"),
        ("deadlines", '{"north": 1}', "column deadlines"),
        ("snapshot", '{"version": 1, "game": "troggu"}', "KeyError"),
    ],
)
async def test_a_broken_table_is_listed_closed_and_its_channel_reused(
    world: World, column: str, value: str, reason: str
) -> None:
    ada = make_admin(world)
    home = world.channel
    other = world.guild.create_text_channel("other")
    await world.open("troggu", humans=3, preset="quick")
    await world.play(via="command", stop=lambda w: len(w.results) >= 8)
    world.channel = other
    await world.open("troggu", humans=3, preset="quick")
    world.channel = home
    if column == "snapshot":
        snapshot = world.service._tables[home.id].snapshot
        value = value.replace("1", str(json.loads(snapshot or "{}")["version"]))
    damage(world, home.id, column, value)

    await world.restart()  # the bot starts all the same
    assert world.table() is None
    listing = await admin(world, ada, "admin tables")
    lines = listing.splitlines()
    assert lines[0] == "**Tables (2):**"
    assert lines[1].startswith(f"<#{other.id}> Troggu") and "playing, move" in lines[1]
    assert lines[2].startswith(f"<#{home.id}> Troggu") and "**broken**" in lines[2]
    assert reason in lines[2] and "`/admin end` closes it" in lines[2]

    # The other table plays on to its end.
    world.channel = other
    await world.play(via="command")
    assert world.table() is None and (await last_result(world))["status"] == "finished"
    world.channel = home

    # The channel takes a new table; /admin end closes the broken one and leaves the new one.
    opened = await world.slash(world.members[1], "new troggu")
    assert "You opened" in opened.response.content
    assert "broken table" in await admin(world, ada, "admin end") and world.table() is not None
    listing = await admin(world, ada, "admin tables")
    assert "broken" not in listing and "lobby" in listing
    assert "lobby in" in await admin(world, ada, "admin end")
    assert await admin(world, ada, "admin tables") == "This server has no open table."


def test_the_table_list_fits_one_message() -> None:
    many = [
        TableSummary(
            table_id=i,
            channel_id=10**18 + i,
            guild_id=1,
            title="Troggu",
            status=TableStatus.BROKEN if i % 3 else TableStatus.PLAYING,
            players=tuple("x" * 100 for _ in range(4)),
            move_number=i,
            reason="KeyError: " + "y" * 500,
        )
        for i in range(300)
    ]
    text = tables_text(many)
    assert len(text) <= MESSAGE_CHARS
    assert text.startswith("**Tables (300):**") and text.endswith("more.")
    shown = len(text.splitlines()) - 2
    assert text.splitlines()[-1] == f"… and {300 - shown} more."


async def test_admin_channels_limits_where_tables_open(world: World) -> None:
    ada = make_admin(world)
    games = world.guild.create_text_channel("games")
    shown = await admin(world, ada, "admin channels", action="add", channel=games)
    assert f"<#{games.id}>" in shown

    refused = await world.slash(world.members[0], "new troggu")
    assert refused.ephemeral and "can't be opened here" in refused.response.content
    assert world.table() is None
    assert refusals(world, ChannelNotAllowed) == 1

    opened = await world.members[0].slash(games, "new troggu")
    assert "You opened" in opened.response.content

    assert "everywhere" in await admin(world, ada, "admin channels", action="everywhere")
    opened = await world.slash(world.members[1], "new troggu")
    assert "You opened" in opened.response.content
    await world.slash(world.members[1], "abandon")

    # Disallowing one channel while tables may open everywhere lists all the others.
    shown = await admin(world, ada, "admin channels", action="remove")
    assert f"<#{games.id}>" in shown and f"<#{world.channel.id}>" not in shown
    refused = await world.slash(world.members[0], "new troggu")
    assert refused.ephemeral and "can't be opened here" in refused.response.content
    assert refusals(world, ChannelNotAllowed) == 2


async def test_admin_defaults_apply_to_new_tables(world: World) -> None:
    ada = make_admin(world)
    shown = await admin(
        world, ada, "admin defaults", timer="30", game="troika", preset="online",
        options="kitty=on",
    )  # fmt: skip
    assert "**Default timer:** 30" in shown and "preset online, kitty=on" in shown

    await world.slash(world.members[0], "new troika")
    table = world.table()
    assert table is not None
    assert table.preset == "online"
    assert table.options["timer"] == 30 and table.options["kitty"] is True
    assert table.options["auction"] == "open"  # from the preset
    await world.slash(world.members[0], "abandon")

    # What the host types wins over the guild's defaults.
    await world.slash(world.members[0], "new troika", timer="120", kitty="off")
    table = world.table()
    assert table is not None and table.options["timer"] == 120 and table.options["kitty"] is False
    await world.slash(world.members[0], "abandon")

    shown = await admin(world, ada, "admin defaults", game="troika", reset=True, timer="default")
    assert "Troika" not in shown and "**Default timer:** game default" in shown
    await world.slash(world.members[0], "new troika")
    table = world.table()
    assert table is not None and table.preset is None and table.options["timer"] == 60


async def test_admin_defaults_refuse_bad_values_and_change_nothing(world: World) -> None:
    ada = make_admin(world)
    answer = await admin(world, ada, "admin defaults", game="troika", options="colour=red")
    assert "no option `colour`" in answer
    answer = await admin(world, ada, "admin defaults", game="troika", preset="blitz")
    assert "no preset `blitz`" in answer
    assert "Say which game" in await admin(world, ada, "admin defaults", preset="online")
    # (The world chose tables in the channel itself; nothing else is set.)
    assert await GuildRules(world.service.db).get(world.guild.id) == GuildSettings(
        tables_in="channel"
    )


# -- forgetting ---------------------------------------------------------------------------------
async def test_forget_removes_the_member_and_keeps_other_players_results(world: World) -> None:
    ada = make_admin(world)
    result = await play_troggu(world)
    bob = world.members[1]
    others_before = {
        p["user_id"]: (p["score"], p["winner"]) for p in result["players"] if p["user_id"] != bob.id
    }

    answer = await admin(world, ada, "admin forget", member=bob)
    assert "Forgot bob" in answer and "in 1 recorded game the seat" in answer

    assert "bob" not in await board_names(world)
    stats = await world.slash(bob, "stats")
    assert stats.response.embeds[0].description == "No games recorded in this server yet."
    after = await last_result(world)
    seat = next(p for p in after["players"] if p["user_id"] is None)
    assert seat["name"] == FORGOTTEN
    assert {
        p["user_id"]: (p["score"], p["winner"]) for p in after["players"] if p["user_id"]
    } == others_before
    ann = await world.slash(world.members[0], "stats")
    assert "1 game ·" in (ann.response.embeds[0].fields[0].value or "")


async def test_forget_waits_until_the_member_leaves_his_table(world: World) -> None:
    ada = make_admin(world)
    await world.open("troggu", humans=3)
    answer = await admin(world, ada, "admin forget", member=world.members[1])
    assert "sits at a table" in answer and "/admin end" in answer


async def test_admin_defaults_offers_the_chosen_games_presets(world: World) -> None:
    ada = make_admin(world)
    choices = await ada.autocomplete(world.channel, "admin defaults", "preset", "", game="troika")
    assert [c["value"] for c in choices] == ["standard", "saskatchewan", "online", "none"]
    choices = await ada.autocomplete(world.channel, "admin defaults", "preset", "s", game="troggu")
    assert [c["value"] for c in choices] == ["standard"]


async def test_a_game_that_raises_gets_a_refusal_and_an_admin_closes_it(world: World) -> None:
    ada = make_admin(world)
    await world.open("troggu", humans=3, preset="quick")
    turn = world.human_to_act()
    assert turn is not None
    member, legal = turn
    # The game in memory (and its last snapshot) lose a key that only a move reads.
    live = world.service._tables[world.channel.id]
    data = json.loads(live.snapshot or "{}")
    del data["state"]["players"]
    live.snapshot = json.dumps(data)
    live.game = engine.load(live.snapshot)
    result = await world.by_command(member, legal[0])
    assert result.ephemeral and "damaged" in result.response.content
    assert len(result.response.content) < 200 and "KeyError" not in result.response.content
    assert refusals(world, TableBroken) == 1
    assert world.table() is None
    assert "**broken**" in await admin(world, ada, "admin tables")
    assert "broken table" in await admin(world, ada, "admin end")
    assert await admin(world, ada, "admin tables") == "This server has no open table."
    opened = await world.slash(world.members[1], "new troggu")
    assert "You opened" in opened.response.content


async def test_a_stalled_ai_table_resumes_without_a_restart(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk is full for the AI's next six moves: retried 0.5, 1, 2, 4, 8, 16 s later, one
    ``TableStalled`` after the fifth; then it plays on (virtual time: ``env.advance_time``)."""
    stalls = RecordingListener()
    world.service.add_listener(stalls)
    await world.open("troggu", humans=1, ais=2, preset="quick")
    real = repo.record_action
    failures: list[int] = []

    def full_disk(conn: sqlite3.Connection, table_id: int, **kwargs: Any) -> None:
        if kwargs["source"] == "ai" and len(failures) < 6:
            failures.append(kwargs["move_number"])
            raise sqlite3.OperationalError("database or disk is full")
        real(conn, table_id, **kwargs)

    monkeypatch.setattr(repo, "record_action", full_disk)
    await world.play(via="command", stop=lambda w: bool(failures))
    if not failures:  # the AI leads: it is already retrying
        await world.env.advance_time(0)
    assert len(failures) == 1
    stuck = world.table()
    assert stuck is not None
    for waited, count in ((0.5, 2), (1, 3), (2, 4), (4, 5), (8, 6)):
        await world.env.advance_time(waited)
        assert len(failures) == count and world.table().move_number == stuck.move_number
    assert len(stalls.of_type(TableStalled)) == 1
    await world.env.advance_time(16)
    assert world.table() is None or world.table().move_number > stuck.move_number
    assert len(set(failures)) == 1, "the same move was retried"
    await world.play(via="command")
    assert world.table() is None and (await last_result(world))["status"] == "finished"
    assert len(stalls.of_type(TableStalled)) == 1
