"""``/leaderboard [game] [sort] [season]`` with page buttons, and ``/stats [member]``.

The board shows the conservative rating (mu - 3 sigma), rated games, wins and win rate of the
season (default: the current one). The page buttons carry the board in their custom id
(``tt:lb:<game>:<sort>:<season>:<page>``) so they keep working after a restart. The cog also
registers the ``Leaderboard`` as a table-service listener: each game is rated when it ends.
"""

from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.errors import answer
from bot.i18n import _, _n, _p, use_locale
from bot.leaderboard import FORGOTTEN, SORTS, BoardPage, Leaderboard, MemberStats
from bot.service import TableError, TableService
from cogs.common import bot_of, display_name, service_of, speak_to
from engine import GAMES

GAME_CHOICES = [app_commands.Choice(name=spec.title, value=name) for name, spec in GAMES.items()]
SORT_CHOICES = [app_commands.Choice(name=sort, value=sort) for sort in SORTS]
COLOR = discord.Color.gold()
#: Shown for each recent result, newest first.
MARKS = {"won": "W", "lost": "L", "abandoned": "A"}

_boards: weakref.WeakKeyDictionary[TableService, Leaderboard] = weakref.WeakKeyDictionary()


def leaderboard_of(service: TableService) -> Leaderboard:
    """The one ``Leaderboard`` of a table service (shared by this cog and /admin)."""
    board = _boards.get(service)
    if board is None:
        board = _boards[service] = Leaderboard(service.db, service.clock)
    return board


F = TypeVar("F", bound=Callable[..., Coroutine[Any, Any, None]])


def answers_refusals(func: F) -> F:
    """Answer a ``TableError`` (a refusal: no such season, no table...) ephemerally right here.

    A refusal is not a failure: it never reaches the tree's error handler, which stays for real
    bugs (and SimCord's failure capture in tests).
    """

    @functools.wraps(func)
    async def wrapper(
        self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any
    ) -> None:
        try:
            await func(self, interaction, *args, **kwargs)
        except TableError as error:
            await answer(interaction, str(error))

    return wrapper  # type: ignore[return-value]


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise TableError(_("Leaderboards belong to a server: use this command in one."))
    return interaction.guild_id


def public_language(interaction: discord.Interaction) -> str:
    """The language of the server's public messages (the boards are posted for everyone)."""
    return bot_of(interaction).table_publisher.languages.of(interaction.guild_id)


# -- rendering --------------------------------------------------------------------------------
def title_of(game: str) -> str:
    spec = GAMES.get(game)
    return spec.title if spec else game


def name_of(player: str) -> str:
    """A player's name as stored; a forgotten member's in the reader's language."""
    return _(FORGOTTEN) if player == FORGOTTEN else player


def percent(wins: int, games: int) -> str:
    return f"{round(100 * wins / games)}%" if games else "-"


def board_embed(page: BoardPage) -> discord.Embed:
    embed = discord.Embed(
        title=_("{game} leaderboard · season {season}", game=title_of(page.game),
                season=page.season),
        color=COLOR,
    )  # fmt: skip
    if not page.rows:
        embed.description = _(
            "Nobody is rated yet this season. A game is rated when at least two members play it"
            " to the end (AI seats are not rated)."
        )
    else:
        embed.description = "\n".join(
            f"`{place:>2}.` **{discord.utils.escape_markdown(name_of(s.name))}**: {s.rating:.1f} · "
            + " · ".join(
                (
                    _n("{n} game", "{n} games", s.games),
                    _n("{n} win", "{n} wins", s.wins),
                    percent(s.wins, s.games),
                )
            )
            for place, s in page.rows
        )
    # i18n: {sort} is the sort as typed (rating, wins, games, winrate)
    embed.set_footer(
        text=_("Sorted by {sort} · rating = mu - 3 sigma · page {page}/{pages}",
               sort=_p("choice name", page.sort),
               page=page.page, pages=page.pages)
        + " · "
        + _n("{n} player", "{n} players", page.total)
    )  # fmt: skip
    return embed


def recent_marks(stats: MemberStats, game: str) -> str:
    marks = []
    for result in stats.recent.get(game, []):
        if result.status != "finished":
            marks.append(MARKS["abandoned"])
        else:
            marks.append(MARKS["won"] if result.winner else MARKS["lost"])
    return " ".join(marks) or "-"


def stats_embed(name: str, stats: MemberStats) -> discord.Embed:
    embed = discord.Embed(
        title=_("{name} · season {season}", name=name, season=stats.season), color=COLOR
    )
    standings = {s.game: s for s in stats.standings}
    games = sorted(set(standings) | set(stats.recent), key=lambda g: list(GAMES).index(g)
                   if g in GAMES else 99)  # fmt: skip
    for game in games:
        line = standings.get(game)
        if line is None:
            text = _("Not rated this season.")
        else:
            text = "\n".join(
                (
                    _("Rating **{rating}** (mu {mu}, sigma {sigma})", rating=f"{line.rating:.1f}",
                      mu=f"{line.mu:.1f}", sigma=f"{line.sigma:.1f}"),
                    _n("{n} game", "{n} games", line.games)
                    + " · "
                    + _n("{n} win", "{n} wins", line.wins)
                    + f" ({percent(line.wins, line.games)}) · "
                    + _("best streak {streak}", streak=line.best_streak),
                )
            )  # fmt: skip
        text += "\n" + _("Recent (newest first): {marks}", marks=recent_marks(stats, game))
        embed.add_field(name=title_of(game), value=text, inline=False)
    if not games:
        embed.description = _("No games recorded in this server yet.")
    # i18n: the letters of "Recent": keep them in line with the marks (W, L, A)
    notes = [_("W won · L lost · A abandoned")]
    if stats.hidden:
        notes.append(_("hidden from the boards by the admins"))
    embed.set_footer(text=" · ".join(notes))
    return embed


# -- page buttons -----------------------------------------------------------------------------
class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:lb:(?P<game>[a-z]+):(?P<sort>\d+):(?P<season>\d+):(?P<page>\d+)",
):
    """Previous / next page of a board; the custom id says which board and page."""

    def __init__(self, game: str, sort: str, season: int, page: int, label: str, enabled: bool):
        self.game, self.sort, self.season, self.page = game, sort, season, page
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=not enabled,
                custom_id=f"tt:lb:{game}:{SORTS.index(sort)}:{season}:{page}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> PageButton:
        sort_index = int(match["sort"])
        sort = SORTS[sort_index] if sort_index < len(SORTS) else SORTS[0]
        return cls(match["game"], sort, int(match["season"]), int(match["page"]), "", True)

    @answers_refusals
    async def callback(self, interaction: discord.Interaction) -> None:
        speak_to(interaction)  # (a refusal: the user's language; the board: the server's)
        board = leaderboard_of(service_of(interaction))
        page = await board.board(
            guild_of(interaction), self.game, self.sort, self.page, season=self.season
        )
        with use_locale(public_language(interaction)):
            embed, view = board_embed(page), page_buttons(page)
        await interaction.response.edit_message(embed=embed, view=view)


def page_buttons(page: BoardPage) -> discord.ui.View | None:
    if page.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(page.game, page.sort, page.season, page.page - 1,
                             _p("button", "Previous"), page.page > 1))  # fmt: skip
    view.add_item(PageButton(page.game, page.sort, page.season, page.page + 1,
                             _p("button", "Next"), page.page < page.pages))  # fmt: skip
    return view


# -- the cog ----------------------------------------------------------------------------------
class Leaderboards(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service  # type: ignore[attr-defined, no-any-return]

    async def cog_load(self) -> None:
        self.service.add_listener(leaderboard_of(self.service))
        self.bot.add_dynamic_items(PageButton)

    async def cog_unload(self) -> None:
        self.service.remove_listener(leaderboard_of(self.service))
        self.bot.remove_dynamic_items(PageButton)

    async def default_game(self, interaction: discord.Interaction, guild: int) -> str:
        """The channel's table's game, else the most played this season, else the first."""
        table = self.service.get_table(interaction.channel_id or 0)
        if table is not None:
            return table.game
        played = await leaderboard_of(self.service).games(guild)
        return played[0] if played else next(iter(GAMES))

    @app_commands.command(name="leaderboard", description="The server's best players this season")
    @app_commands.describe(
        game="Which game (default: this channel's game, or the most played)",
        sort="Order by rating (mu - 3 sigma), wins, games or win rate",
        season="An earlier season's board (default: the current season)",
    )
    @app_commands.choices(game=GAME_CHOICES, sort=SORT_CHOICES)
    @app_commands.guild_only()
    @answers_refusals
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        sort: str = "rating",
        season: app_commands.Range[int, 1, 100_000] | None = None,
    ) -> None:
        guild = guild_of(interaction)
        board = leaderboard_of(self.service)
        if season is not None:
            known = [s.number for s in await board.seasons(guild)]
            if season not in known:
                raise TableError(
                    _("There is no season {season}: seasons are 1 to {last}.", season=season,
                      last=max(known))
                )  # fmt: skip
        chosen = game or await self.default_game(interaction, guild)
        page = await board.board(guild, chosen, sort, 1, season=season)
        with use_locale(public_language(interaction)):  # a public message: the server's
            embed, view = board_embed(page), page_buttons(page)
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="A member's ratings and results per game")
    @app_commands.describe(member="Whose stats (default: yours)")
    @app_commands.guild_only()
    @answers_refusals
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        guild = guild_of(interaction)
        who = member or interaction.user
        stats = await leaderboard_of(self.service).stats(guild, who.id)
        with use_locale(public_language(interaction)):  # a public message: the server's
            embed = stats_embed(display_name(who), stats)
        await interaction.response.send_message(embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leaderboards(bot))
