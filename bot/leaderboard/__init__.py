"""Leaderboards: openskill ratings per guild, game and season, the boards and member stats,
and the guild settings the admins keep (default timer and options, allowed channels).

Usage::

    board = Leaderboard(service.db, service.clock)
    service.add_listener(board)              # rates each game when it ends
    page = await board.board(guild_id, game, sort="rating", page=1)
    stats = await board.stats(guild_id, user_id)
    await board.new_season(guild_id); await board.hide(guild_id, user_id, by=admin_id)
    rules = GuildRules(service.db)           # /new calls rules.for_new_table(...) before opening
"""

from bot.leaderboard.board import PAGE_SIZE, BoardPage, Leaderboard, MemberStats
from bot.leaderboard.guild_settings import (
    ChannelNotAllowed,
    GameDefaults,
    GuildRules,
    GuildSettings,
)
from bot.leaderboard.rating import Decision, Participant, Skill, decide, rate
from bot.leaderboard.store import FORGOTTEN, SORTS, RatedGame, RecentResult, Season, Standing

__all__ = [
    "FORGOTTEN",
    "PAGE_SIZE",
    "SORTS",
    "BoardPage",
    "ChannelNotAllowed",
    "Decision",
    "GameDefaults",
    "GuildRules",
    "GuildSettings",
    "Leaderboard",
    "MemberStats",
    "Participant",
    "RatedGame",
    "RecentResult",
    "Season",
    "Skill",
    "Standing",
    "decide",
    "rate",
]
