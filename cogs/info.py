"""/rules [game], /help and /invite."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.app.client import invite_url
from bot.i18n import _, _p
from bot.i18n.refusals import typed_quotes
from bot.render import embeds
from bot.service import NoTable
from engine.registry import CLASSES


async def complete_game(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The games, by title (autocomplete: a game registered at any time is offered)."""
    typed = current.strip().lower()
    return [
        app_commands.Choice(name=spec.title, value=name)
        for name, spec in engine.GAMES.items()
        if typed in name or typed in spec.title.lower()
    ][:25]


def help_text() -> str:
    """``/help``, from what the games declare (their names and their moves)."""
    games = list(engine.GAMES)
    first, others = games[0], ", ".join(f"`{g}`" for g in games[1:])
    lines = [
        _(
            "**Open a table:** `/new {first}` (or {others}) with a preset and options.",
            first=first,
            others=others,
        ),  # fmt: skip
        _(
            "Each table opens in its own thread of the channel, with a lobby post in the channel"
            " that links to it: play in the thread (server admins may choose the channel itself"
            " with `/admin defaults tables`)."
        ),
        _(
            "**Lobby:** `/join [seat] [partner]`, `/leave`; the host `/addbot`, `/kick`,"
            " `/options`, `/tablesettings` (seats open, invite or closed in play, away after N"
            " timeouts, hints), `/tableinvite`, `/start`. During play `/join` takes back your"
            " seat, or an AI's seat when seats are open."
        ),
        _(
            "**Look:** `/table` re-posts the table, `/hand` shows your hand (only to you),"
            " `/score`, `/history` (what was played so far), `/rules`; `/watch` follows a table"
            " you don't play at; `/hint` shows you the hard AI's move when the host turned"
            " `/tablesettings hints` on (that game is not rated)."
        ),
        _(
            "**Your cards:** `/deck` draws the cards of your own pictures in four colours"
            " (♦ blue, ♣ green) or two."
        ),
        _("**Play:** press **Show my hand** on the table message and use its buttons, or type:"),
    ]
    for spec in engine.GAMES.values():
        moves = ", ".join(f"`/{_p('command name', verb.name)}`" for verb in spec.verbs)
        lines.append(f"· {_(spec.title)}: {moves}")
    lines += [
        _("The lists offer your legal moves."),
        _(
            "**Stop:** `/abandon` (the host at once; players vote). After the game, **Rematch**"
            " on the final message seats everyone again with a new deal."
        ),
        _(
            "**Rankings:** `/leaderboard [game] [sort]`, `/stats [member]`. Server admins"
            " (Manage Server) run seasons, defaults and allowed channels with `/admin`."
        ),
        _(
            "**Finished games:** `/games` lists them, `/replay` shows one of their hands again"
            " with every hand revealed, `/export` gives a game's record."
        ),
        _("A player who runs out of time has his move made by the AI."),
        _(
            "**Over days:** `timer` 1h, 8h, 24h or 72h makes a turn-based table; `/mytables`"
            " lists your tables and whose turn it is; `/notify` sends you one direct message"
            " when turns wait for you (quiet hours too)."
        ),
    ]
    return "\n".join(lines)


def rules_text(game: str, options: dict[str, object] | None = None) -> str:
    """The game's rules summary in the reader's language (its presenter's words), the moves it
    quotes as he types them (``call none`` -> French ``appeler aucun``)."""
    return typed_quotes(embeds.presenter_for(game).rules(options))


class Info(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="The rules and options of this table or a game")
    @app_commands.describe(game="A game (default: the game of this channel's table)")
    @app_commands.autocomplete(game=complete_game)
    async def rules(
        self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 40] | None = None
    ) -> None:
        options = None
        if game is None:
            service = self.bot.service  # type: ignore[attr-defined]
            table = service.get_table(interaction.channel_id or 0)
            if table is None:
                raise NoTable(_("There is no table here: name a game, with /rules game."))
            game, options = table.game, dict(table.options)
        game = game.strip().lower()
        if game not in CLASSES:
            raise NoTable(
                _("There is no such game. Games: {games}.", games=", ".join(engine.GAMES))
            )
        title = CLASSES[game].spec.title
        embed = embeds.text_embed(_("{game}: rules", game=title), rules_text(game, options))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="help", description="How to play with this bot")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            embed=embeds.text_embed("Troika Table", help_text()), ephemeral=True
        )

    @app_commands.command(name="invite", description="A link to add this bot to another server")
    async def invite(self, interaction: discord.Interaction) -> None:
        app_id = (
            interaction.client.application_id or (interaction.client.user or interaction.user).id
        )
        await interaction.response.send_message(
            _("Add me to a server: {url}", url=invite_url(app_id)), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Info(bot))
