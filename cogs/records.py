"""``/games [mine]``: the server's recent finished games, newest first, with page buttons;
``/export game``: a finished game's record as a JSON file (``bot.records``, schema in
``docs/records.md``); ``/replay game hand``: one hand of a finished game as an animated picture
posted in the channel (``bot.render.replay``). /games and /export answer only the member who
asks; all three see only this server's games, and only finished ones.

With the web table on (``WEB_PORT``), /replay's answer and each game of /games carry a link
button to the game's replay viewer in the browser (``bot.web``: a link anyone of the server may
open, for a finished game only).

The page buttons carry the page in their custom id (``tt:games:<member or 0>:<page>``), so they
keep working after a restart.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import custom_ids
from bot.app.errors import answer
from bot.i18n import _, _n, _p, use_locale
from bot.records import GameSummary, RecordError, build, finished_game, recent_games
from bot.records.store import FinishedGame, running_here
from bot.render import pool, replay
from bot.service import TableError, TableService
from cogs.common import bot_of, service_of, speak_to
from cogs.leaderboard import answers_refusals
from engine import GAMES

#: Games per page of /games (each one line: an embed's description holds them all).
PAGE = 10
#: Autocomplete offers at most Discord's 25 choices.
CHOICES = 25
COLOR = discord.Color.dark_teal()
#: A name shown in a line or a choice (Discord names are up to 32 characters).
NAME_CHARS = 16


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise TableError(_("Game records belong to a server: use this command in one."))
    return interaction.guild_id


def title_of(game: str) -> str:
    spec = GAMES.get(game)
    return spec.title if spec else game


def short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def players_of(game: GameSummary) -> str:
    """``Ann 🏆, Bob, Cat``: the winners marked."""
    return ", ".join(
        discord.utils.escape_markdown(short(name)) + (" 🏆" if winner else "")
        for _seat, name, _user, _score, winner in game.players
    )


def line_of(game: GameSummary) -> str:
    hands = _n("{n} hand", "{n} hands", game.hands)
    return (
        f"`#{game.table_id}` **{title_of(game.game)}** · {players_of(game)}"
        f" · {hands} · <t:{int(game.ended_at)}:R>"
    )


def games_embed(games: list[GameSummary], total: int, page: int, mine: bool) -> discord.Embed:
    title = _("Your finished games") if mine else _("The server's finished games")
    embed = discord.Embed(title=title, color=COLOR)
    if not games:
        embed.description = _("No finished game yet.")
        return embed
    embed.description = "\n".join(line_of(game) for game in games)
    pages = max(1, math.ceil(total / PAGE))
    embed.set_footer(
        text=_("Page {page}/{pages} · /export with the game's # gives its record",
               page=page, pages=pages)
        + " · "
        + _n("{n} game", "{n} games", total)
    )  # fmt: skip
    return embed


def replay_links(interaction: discord.Interaction) -> Callable[[int, int], str] | None:
    """``(guild, game) -> url`` of a finished game's replay viewer, or None with the web table
    off. No language in the link: it is for anyone of the server, whose browser chooses."""
    web = getattr(interaction.client, "web", None)
    if web is None:
        return None
    link: Callable[[int, int], str] = web.replay_link
    return link


def replay_button(url: str, label: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(style=discord.ButtonStyle.link, label=label[:80], url=url)


async def games_page(
    service: TableService,
    guild: int,
    member: int | None,
    page: int,
    links: Callable[[int, int], str] | None = None,
) -> tuple[discord.Embed, custom_ids.Sealed | None]:
    """One page of /games; with ``links`` (the web table on), a replay link button per game."""
    games, total = await service.db.run(
        lambda conn: recent_games(conn, guild, user_id=member, limit=PAGE, offset=(page - 1) * PAGE)
    )
    pages = max(1, math.ceil(total / PAGE))
    embed = games_embed(games, total, page, member is not None)
    if pages <= 1 and (links is None or not games):
        return embed, None
    view = discord.ui.View(timeout=None)
    if links is not None:
        for game in games:  # PAGE (10) links: two rows of five
            view.add_item(replay_button(links(guild, game.table_id), f"▶ #{game.table_id}"))
    if pages > 1:
        for target, label in (
            (page - 1, _p("button", "Previous")),
            (page + 1, _p("button", "Next")),
        ):
            view.add_item(GamesPageButton(member or 0, target, label, 1 <= target <= pages))
    # Sealed: its buttons are dynamic items or links, no view need stay alive (custom_ids).
    return embed, custom_ids.sealed(view)


class GamesPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:games:(?P<member>\d+):(?P<page>\d+)",
):
    """Previous / next page of /games; the custom id says whose list and which page."""

    def __init__(self, member: int, page: int, label: str = "", enabled: bool = True) -> None:
        self.member, self.page = member, page
        super().__init__(
            discord.ui.Button(
                label=label or "·",
                style=discord.ButtonStyle.secondary,
                disabled=not enabled,
                custom_id=f"tt:games:{member}:{page}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> GamesPageButton:
        return cls(int(match["member"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        speak_to(interaction)
        try:
            embed, view = await games_page(
                service_of(interaction),
                guild_of(interaction),
                self.member or None,
                max(1, self.page),
                replay_links(interaction),
            )
        except TableError as error:
            await answer(interaction, str(error))
            return
        await interaction.response.edit_message(embed=embed, view=view)


class Records(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service  # type: ignore[attr-defined, no-any-return]

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(GamesPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(GamesPageButton)

    @app_commands.command(name="games", description="The server's recent finished games")
    @app_commands.describe(mine="Only the games you played in")
    @app_commands.guild_only()
    @answers_refusals
    async def games(self, interaction: discord.Interaction, mine: bool = False) -> None:
        guild = guild_of(interaction)
        member = interaction.user.id if mine else None
        embed, view = await games_page(self.service, guild, member, 1, replay_links(interaction))
        if view is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @app_commands.command(name="export", description="A finished game's record as a JSON file")
    @app_commands.describe(game="The game's # (see /games)")
    @app_commands.guild_only()
    @answers_refusals
    async def export(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 2**53]
    ) -> None:
        guild = guild_of(interaction)
        found = await self.record_of(interaction, guild, game)
        if found is None:
            return
        finished, record = found
        text = json.dumps(record, ensure_ascii=False, indent=1).encode()
        file = discord.File(io.BytesIO(text), filename=f"{finished.game}-{finished.table_id}.json")
        await interaction.response.send_message(
            _("The record of game #{id} ({game}): every move, replayable.", id=game,
              game=title_of(finished.game)),
            file=file,
            ephemeral=True,
        )  # fmt: skip

    async def record_of(
        self, interaction: discord.Interaction, guild: int, game: int
    ) -> tuple[FinishedGame, dict[str, Any]] | None:
        """The finished game ``game`` of this server and its record; else None, having told the
        member why (still running, unknown here, or its log was lost)."""
        finished = await self.service.db.run(lambda conn: finished_game(conn, guild, game))
        if finished is None and await self.service.db.run(
            lambda conn: running_here(conn, guild, game)
        ):
            await answer(
                interaction,
                _("Game #{id} is still being played: only a finished game has a record.", id=game),
            )
            return None
        if finished is None:
            await answer(
                interaction,
                _("There is no finished game #{id} in this server: `/games` lists them.",
                  id=game),
            )  # fmt: skip
            return None
        try:
            return finished, build(finished)
        except RecordError as error:  # a game whose dealt state was lost (set aside as damaged)
            await answer(interaction, _("Game #{id} cannot be replayed: {reason}", id=game,
                                        reason=str(error)))  # fmt: skip
            return None

    @app_commands.command(
        name="replay", description="Post one hand of a finished game as an animated picture"
    )
    @app_commands.describe(game="The game's # (see /games)", hand="Which hand (default: the first)")
    @app_commands.guild_only()
    @answers_refusals
    async def replay(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, 2**53],
        hand: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        guild = guild_of(interaction)
        found = await self.record_of(interaction, guild, game)
        if found is None:
            return
        finished, record = found
        names = [str(seat["name"]) for seat in record["seats"]]
        language = bot_of(interaction).table_publisher.languages.of(guild)
        try:
            with use_locale(language):  # posted for everyone: the server's language
                stills = replay.frames(record, hand, names)
                caption = _("Game #{id} ({game}), hand {hand}: every hand shown.", id=game,
                            game=title_of(finished.game), hand=hand)  # fmt: skip
        except replay.NoSuchHand:
            count = replay.hands_in(record)
            await answer(
                interaction,
                _n("Game #{id} had {n} hand: choose it by its number.",
                   "Game #{id} had {n} hands: choose one from 1 to {n}.", count, id=game),
            )  # fmt: skip
            return
        await interaction.response.defer(thinking=True)  # drawing takes a second or two
        gif = await pool.render(replay.draw, tuple(stills))
        links = replay_links(interaction)
        viewer = discord.ui.View(timeout=None)
        if links is not None:
            label = _p("button", "Step through it in the browser")
            viewer.add_item(replay_button(links(guild, game), label))
        if len(gif) > replay.UPLOAD_LIMIT:
            await interaction.edit_original_response(
                content=_("That hand is too long to draw as one picture."),
                view=custom_ids.sealed(viewer),
            )
            return
        file = discord.File(io.BytesIO(gif), filename=f"replay-{game}-{hand}.gif")
        await interaction.followup.send(caption, file=file, view=custom_ids.sealed(viewer))

    @replay.autocomplete("hand")
    async def complete_hand(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The hands of the game chosen in the ``game`` option (none before it is chosen)."""
        game = getattr(interaction.namespace, "game", None)
        if interaction.guild_id is None or not isinstance(game, int):
            return []
        guild = interaction.guild_id
        finished = await self.service.db.run(lambda conn: finished_game(conn, guild, game))
        if finished is None:
            return []
        try:
            count = replay.hands_in(build(finished))
        except RecordError:
            return []
        typed = current.strip()
        hands = [n for n in range(1, count + 1) if not typed or str(n).startswith(typed)]
        return [app_commands.Choice(name=_("hand {n}", n=n), value=n) for n in hands[:CHOICES]]

    @replay.autocomplete("game")
    @export.autocomplete("game")
    async def complete_game(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        guild = interaction.guild_id
        games, _total = await self.service.db.run(
            lambda conn: recent_games(conn, guild, user_id=None, limit=CHOICES, offset=0)
        )
        typed = current.strip().lstrip("#")
        return [
            app_commands.Choice(
                name=f"#{g.table_id} {title_of(g.game)} · "
                + ", ".join(short(p[1]) for p in g.players)[:70],
                value=g.table_id,
            )
            for g in games
            if not typed or str(g.table_id).startswith(typed)
        ]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Records(bot))
