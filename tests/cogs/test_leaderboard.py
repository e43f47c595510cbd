"""/leaderboard and /stats through SimCord: games played to the end through the real bot update
the boards, and rating changes are exactly openskill's (a team game and a free-for-all)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from cog_world import World
from openskill.models import PlackettLuce

from bot.leaderboard.board import PAGE_SIZE
from bot.storage import repository as repo
from cogs.leaderboard import leaderboard_of


async def last_result(world: World) -> dict[str, Any]:
    """The recorded result of the channel's last table."""

    def read(conn: Any) -> dict[str, Any]:
        (table_id,) = conn.execute("SELECT MAX(table_id) FROM results").fetchone()
        result = repo.load_result(conn, table_id)
        assert result is not None
        return result

    return await world.service.db.run(read)


async def board_embed(world: World, **options: Any) -> discord.Embed:
    result = await world.slash(world.members[0], "leaderboard", **options)
    assert result.response is not None and not result.ephemeral
    return result.response.embeds[0]


async def play_troggu(world: World) -> dict[str, Any]:
    """Three members play one deal of Troggu to the end; returns the recorded result."""
    await world.open("troggu", humans=3, preset="quick")
    await world.play(via="command")
    assert world.table() is None
    return await last_result(world)


async def ratings(world: World, game: str) -> dict[int, tuple[float, float, int, int]]:
    """user id -> (mu, sigma, games, wins) of the current season's board."""
    page = await leaderboard_of(world.service).board(world.guild.id, game)
    return {s.user_id: (s.mu, s.sigma, s.games, s.wins) for _, s in page.rows}


async def test_a_finished_game_updates_the_leaderboard_and_stats(world: World) -> None:
    empty = await board_embed(world, game="troggu")
    assert "Nobody is rated yet" in (empty.description or "")

    result = await play_troggu(world)

    winners = [p for p in result["players"] if p["winner"]]
    embed = await board_embed(world, game="troggu")
    assert embed.title == "Troggu leaderboard · season 1"
    lines = (embed.description or "").splitlines()
    assert len(lines) == 3
    assert winners[0]["name"] in lines[0] and "1 win · 100%" in lines[0]
    assert all("1 game ·" in line for line in lines)

    winner = world.member_of(winners[0]["user_id"])
    stats = await world.slash(world.members[0], "stats", member=winner)
    assert stats.response is not None
    field = stats.response.embeds[0].fields[0]
    assert field.name == "Troggu"
    assert "1 game · 1 win (100%) · best streak 1" in (field.value or "")
    assert "Recent (newest first): W" in (field.value or "")


async def test_free_for_all_rating_change_follows_openskill(world: World) -> None:
    result = await play_troggu(world)
    players = sorted(result["players"], key=lambda p: p["seat"])
    # Winners first, then by score (higher is better in Troggu); equal scores share a rank.
    keys = [(0 if p["winner"] else 1, -p["score"]) for p in players]
    ranks = [1 + sum(1 for k in keys if k < key) for key in keys]
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in players], ranks=ranks)
    board = await ratings(world, "troggu")
    for player, team in zip(players, expected, strict=True):
        mu, sigma, games, wins = board[player["user_id"]]
        assert mu == pytest.approx(team[0].mu) and sigma == pytest.approx(team[0].sigma)
        assert (games, wins) == (1, int(bool(player["winner"])))


async def test_team_game_rating_change_follows_openskill(world: World) -> None:
    await world.open("troika", humans=4, end="rounds", rounds=1)
    await world.play(via="command")
    result = await last_result(world)
    players = sorted(result["players"], key=lambda p: p["seat"])
    teams = [[p for p in players if p["team"] == t] for t in (0, 1)]
    won = [any(p["winner"] for p in team) for team in teams]
    scores = [team[0]["score"] for team in teams]
    keys = [(0 if w else 1, -s) for w, s in zip(won, scores, strict=True)]
    ranks = [1 + sum(1 for k in keys if k < key) for key in keys]
    model = PlackettLuce()
    expected = model.rate([[model.rating(), model.rating()] for _ in teams], ranks=ranks)
    board = await ratings(world, "troika")
    assert len(board) == 4
    for team, rated in zip(teams, expected, strict=True):
        for player, rating in zip(team, rated, strict=True):
            mu, sigma, games, _ = board[player["user_id"]]
            assert mu == pytest.approx(rating.mu) and sigma == pytest.approx(rating.sigma)
            assert games == 1
    # Partners move together.
    assert board[teams[0][0]["user_id"]][0] == pytest.approx(board[teams[0][1]["user_id"]][0])


async def test_an_abandoned_game_is_recorded_but_not_rated(world: World) -> None:
    await world.open("troggu", humans=3, preset="quick")
    moves_before = len(world.results)
    await world.play(via="command", stop=lambda w: len(w.results) >= moves_before + 5)
    assert world.table() is not None  # still in play
    abandoned = await world.slash(world.members[0], "abandon")
    assert "abandoned" in abandoned.response.content
    result = await last_result(world)
    assert result["status"] == "abandoned"
    embed = await board_embed(world, game="troggu")
    assert "Nobody is rated yet" in (embed.description or "")
    stats = await world.slash(world.members[1], "stats")
    assert "Not rated this season." in (stats.response.embeds[0].fields[0].value or "")
    assert "Recent (newest first): A" in (stats.response.embeds[0].fields[0].value or "")


async def test_page_buttons_turn_the_pages(world: World) -> None:
    # 23 rated members (written straight into the database), so three pages.
    def seed(conn: Any) -> None:
        for i in range(23):
            conn.execute(
                "INSERT INTO ratings (guild_id, season, game, user_id, name, mu, sigma, games,"
                " wins) VALUES (?, 1, 'troggu', ?, ?, ?, 2.0, 3, 1)",
                (world.guild.id, 1000 + i, f"player{i:02}", 40.0 - i),
            )

    await leaderboard_of(world.service).season(world.guild.id)
    await world.service.db.write(seed)
    first = await world.slash(world.members[0], "leaderboard", game="troggu", sort="rating")
    message = first.response.message
    assert "page 1/3" in message.embeds[0].footer.text
    assert len(message.embeds[0].description.splitlines()) == PAGE_SIZE
    assert message.embeds[0].description.startswith("` 1.` **player00**")

    second = await world.members[1].click(message, label="Next")
    assert second.acknowledged
    message = world.channel.history()[-1]
    embed = message.embeds[0]
    assert "page 2/3" in embed.footer.text
    assert embed.description.startswith("`11.` **player10**")

    await world.members[1].click(message, label="Next")
    embed = world.channel.history()[-1].embeds[0]
    assert "page 3/3" in embed.footer.text and len(embed.description.splitlines()) == 3
    back = await world.members[2].click(world.channel.history()[-1], label="Previous")
    assert back.acknowledged
    assert "page 2/3" in world.channel.history()[-1].embeds[0].footer.text


async def test_leaderboard_sorts_and_rejects_unknown_seasons(world: World) -> None:
    def seed(conn: Any) -> None:
        rows = [(1, "ace", 30.0, 2, 1), (2, "bee", 20.0, 9, 5), (3, "cat", 25.0, 4, 4)]
        for uid, name, mu, games, wins in rows:
            conn.execute(
                "INSERT INTO ratings (guild_id, season, game, user_id, name, mu, sigma, games,"
                " wins) VALUES (?, 1, 'troika', ?, ?, ?, 1.0, ?, ?)",
                (world.guild.id, uid, name, mu, games, wins),
            )

    await leaderboard_of(world.service).season(world.guild.id)
    await world.service.db.write(seed)

    async def order(sort: str) -> list[str]:
        embed = await board_embed(world, game="troika", sort=sort)
        return [line.split("**")[1] for line in (embed.description or "").splitlines()]

    assert await order("rating") == ["ace", "cat", "bee"]
    assert await order("wins") == ["bee", "cat", "ace"]
    assert await order("games") == ["bee", "cat", "ace"]
    assert await order("win rate") == ["cat", "bee", "ace"]
    refused = await world.slash(world.members[0], "leaderboard", game="troika", season=7)
    assert refused.ephemeral and "There is no season 7" in refused.response.content


async def test_leaderboard_defaults_to_the_channels_game_then_the_most_played(
    world: World,
) -> None:
    await world.slash(world.members[0], "new troikuntza")
    assert (await board_embed(world)).title == "TroiKuntza leaderboard · season 1"
    await world.slash(world.members[0], "abandon")
    await play_troggu(world)
    assert (await board_embed(world)).title == "Troggu leaderboard · season 1"
