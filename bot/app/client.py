"""``TroikaBot``: an ``AutoShardedBot`` that owns the table service and loads the cogs.

Sharding: with ``SHARD_COUNT`` > 1 the bot connects the shards ``SHARD_IDS`` of that many (each
process of the bot a range of them) and its service serves only their servers' tables; with 1
(the default) this process serves every server, over as many gateway shards as discord.py
asks Discord for. Only the process that runs shard 0 syncs the slash commands.

Start-up order (``setup_hook``): build the service (clock = ``discord.utils.utcnow``, which
SimCord virtualises in tests), attach the table publisher as its listener, load the cogs from
the explicit ``EXTENSIONS`` list, restore every table from the database (``service.start``),
then sync the slash commands (to ``DEV_GUILD_ID`` when set: instant; globally otherwise), start
the scheduled backups (``BACKUP_HOURS``; stopped in ``close``) and ``/healthz`` and
``/metrics`` (``METRICS_PORT``; see health.py). ``service.start`` raises
``StartupError`` if the database fails its checks: ``run`` prints its one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import Any

import discord
from discord import AppCommandType, app_commands
from discord.ext import commands

from bot.app import entry_point
from bot.app.budget import RequestBudget, share_of_rate
from bot.app.decks import PlayerDecks
from bot.app.digests import DigestSender
from bot.app.errors import report_error
from bot.app.health import HealthServer
from bot.app.publisher import TablePublisher
from bot.app.threads import TableThreads
from bot.i18n.core import set_locale
from bot.i18n.translator import CatalogTranslator
from bot.leaderboard import GuildRules
from bot.render.pool import default_pool
from bot.service import TableService
from bot.settings import Settings
from bot.storage.backup import backup_loop
from bot.storage.db import Database
from bot.storage.startup import StartupError
from bot.web.activity import ActivityConfig
from bot.web.links import load_secret
from bot.web.server import WebServer

log = logging.getLogger(__name__)

#: Every cog, loaded in this order (no directory scanning: what runs is what is listed).
EXTENSIONS: tuple[str, ...] = ("cogs.lobby", "cogs.play", "cogs.panels", "cogs.info")
EXTENSIONS += ("cogs.leaderboard", "cogs.admin")  # ratings, boards, /stats and /admin
EXTENSIONS += ("cogs.records",)  # /games, /replay and /export: finished games, their records
EXTENSIONS += ("cogs.web_link",)  # /tablelink: the table in the browser (bot/web)
EXTENSIONS += ("cogs.activity",)  # Play in Discord: the table as a Discord Activity
EXTENSIONS += ("cogs.my_tables",)  # /mytables and /notify: a player's tables and turn messages

#: The smallest permission set: post and edit the table message with its picture, read it
#: back after a restart, and open each table in its own public thread and post there
#: (``bot.app.threads``; no Manage Threads: the bot archives and brings back only the threads
#: it started). Interactions need no permission.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    create_public_threads=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)


def invite_url(client_id: int) -> str:
    return discord.utils.oauth_url(
        client_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")
    )


def utc_clock() -> float:
    """Wall-clock now for stored deadlines; SimCord virtualises ``utcnow`` in tests."""
    return discord.utils.utcnow().timestamp()


class TroikaTree(app_commands.CommandTree):
    """Answers each command in its user's language, and turns any error that escapes a command
    into a short ephemeral answer."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # Runs first in the command's (or autocomplete's) own task: its replies, refusals
        # and error answers are written in the user's client language.
        set_locale(interaction.locale)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)

    #: Sync the Activity's Entry Point command with the global commands (``entry_point``).
    entry_point = False

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        if guild is not None or not self.entry_point:
            return await super().sync(guild=guild)
        # The global commands as discord.py's sync sends them, and the Entry Point command,
        # in one bulk overwrite (without it Discord refuses the overwrite: see entry_point).
        app_id = self.client.application_id
        if app_id is None:
            raise app_commands.MissingApplicationID
        translator = self.translator
        found: list[Any] = []
        for kind in (AppCommandType.chat_input, AppCommandType.user, AppCommandType.message):
            found.extend(self.get_commands(type=kind))
        if translator is not None:
            body = [await command.get_translated_payload(self, translator) for command in found]
        else:
            body = [command.to_dict(self) for command in found]
        body.append(entry_point.payload())
        data = await self.client.http.bulk_upsert_global_commands(app_id, payload=body)
        return [app_commands.AppCommand(data=d, state=self.client._connection) for d in data]


class TroikaBot(commands.AutoShardedBot):
    def __init__(
        self,
        settings: Settings,
        *,
        service: TableService | None = None,
        shard_count: int | None = None,
        shard_ids: list[int] | None = None,
        edit_interval: float = 1.0,
        sync_commands: bool = True,
        handle_signals: bool = False,
    ) -> None:
        if shard_count is None and settings.shard_count > 1:
            shard_count, shard_ids = settings.shard_count, list(settings.shards.owned)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            shard_count=shard_count,
            shard_ids=shard_ids,
            tree_cls=TroikaTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            # Tables live in server channels: no command is offered in DMs.
            allowed_contexts=app_commands.AppCommandContext(guild=True),
        )
        self.settings = settings
        self._service = service
        self.edit_interval = edit_interval
        self.sync_commands = sync_commands
        #: Handle SIGTERM/SIGINT gracefully (the real process; not under a test harness).
        self.handle_signals = handle_signals
        self.publisher: TablePublisher | None = None
        #: Tables in their own threads: the threads and the lobby posts (bot/app/threads.py).
        self.threads: TableThreads | None = None
        #: Each player's card colours in his own hand pictures (``/deck``).
        self.player_decks = PlayerDecks()
        self._service_started = False
        self._backups: asyncio.Task[None] | None = None
        self.health: HealthServer | None = None
        #: The table in the browser (``WEB_PORT``; None: off). Cogs read it for the links.
        self.web: WebServer | None = None
        #: Shards whose session is ready (READY or RESUMED seen, no disconnect since).
        self._ready_shards: set[int] = set()
        #: Why the bot stopped on its own (its hold on its shards was lost); ``run`` exits 1.
        self.stopped_because: str | None = None

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("the table service starts in setup_hook")
        return self._service

    @property
    def table_publisher(self) -> TablePublisher:
        if self.publisher is None:
            raise RuntimeError("the publisher starts in setup_hook")
        return self.publisher

    async def setup_hook(self) -> None:
        if self._service is None:
            self._service = TableService.from_settings(self.settings, clock=utc_clock)
        self._service.on_shards_lost = self._shards_lost
        # Real Discord: one budget for every channel's edits and posts (below the 50/s limit,
        # which holds for the bot's token: a process running some of the shards takes its share).
        shards = self.settings.shards
        rate = share_of_rate(len(shards.owned), shards.count)
        budget = RequestBudget(rate=rate) if self.edit_interval > 0 else None
        self.publisher = TablePublisher(
            self, self._service, interval=self.edit_interval, budget=budget
        )
        self._service.add_listener(self.publisher)
        self.threads = TableThreads(
            self, self._service, self.publisher, interval=self.edit_interval, budget=budget
        )
        self._service.add_listener(self.threads)
        self.add_listener(self.threads.on_raw_thread_update, "on_raw_thread_update")
        self.add_listener(self.threads.on_raw_thread_delete, "on_raw_thread_delete")
        self.add_listener(self.threads.on_guild_channel_delete, "on_guild_channel_delete")
        # The Activity is there when its credentials are and the web table serves its page.
        activity = self.activity_config() is not None and self.settings.web_port > 0
        self.publisher.activity = activity
        if isinstance(self.tree, TroikaTree):
            self.tree.entry_point = activity
        # Turn digests: direct messages within the same budget (bot/app/digests.py).
        self._service.digest_sender = DigestSender(self, budget)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await default_pool().start()
        await self._service.start()
        self._service_started = True
        await self.publisher.languages.load(GuildRules(self._service.db))
        await self.player_decks.load(self._service.db)
        log.info(
            "restored %d open table(s) of %s", len(self._service.tables()), self._service.shards
        )
        # The channels show what the database holds (the bot may have stopped mid-update).
        self.publisher.refresh_all()
        if self.handle_signals:
            self._install_signal_handlers()
        if self.sync_commands and self.syncs_commands():
            await self.sync_app_commands()
        elif self.sync_commands:
            log.info(
                "not syncing the slash commands: this process runs %s; the process that runs "
                "shard 0 syncs them",
                self.settings.shards,
            )
        self.start_backups()
        await self.start_health()
        await self.start_web()

    async def start_health(self) -> None:
        """``/healthz`` and ``/metrics`` on ``METRICS_HOST:METRICS_PORT`` (none if 0); a port
        already taken stops the start-up with one line."""
        port = self.settings.metrics_port
        if port <= 0 or self.health is not None:
            return
        publisher = self.publisher
        health = HealthServer(
            self.service,
            self.shard_states,
            host=self.settings.metrics_host,
            port=port,
            backlog=publisher.backlog if publisher is not None else None,
        )
        try:
            await health.start()
        except OSError as error:
            raise StartupError(
                f"METRICS_PORT {port} on {self.settings.metrics_host}: {error.strerror or error}"
                " (another process listens there? choose another port, or 0 for none)"
            ) from error
        self.health = health

    async def start_web(self) -> None:
        """The table in the browser on ``WEB_HOST:WEB_PORT`` (none if 0); a port already taken
        stops the start-up with one line."""
        port = self.settings.web_port
        if port <= 0 or self.web is not None:
            return
        web = WebServer(
            self.service,
            load_secret(self.settings),
            host=self.settings.web_host,
            port=port,
            public_url=self.settings.web_public_url,
            activity_config=self.activity_config(),
            shards=self.settings.shards,
        )
        try:
            await web.start()
        except OSError as error:
            raise StartupError(
                f"WEB_PORT {port} on {self.settings.web_host}: {error.strerror or error}"
                " (another process listens there? choose another port, or 0 for none)"
            ) from error
        self.web = web

    def activity_config(self) -> ActivityConfig | None:
        """The Discord Activity's credentials, when it is configured (docs/activity.md): the
        application's id and OAuth2 secret, and the bot's token for its instances."""
        settings = self.settings
        if not (
            settings.discord_client_id and settings.discord_client_secret and settings.discord_token
        ):
            return None
        return ActivityConfig(
            settings.discord_client_id,
            settings.discord_client_secret,
            settings.discord_token,
            settings.discord_api_url,
        )

    def shard_states(self) -> dict[int, bool]:
        """Each shard this process runs and whether it is ready (``/healthz``)."""
        expected = self.shard_ids if self.shard_ids is not None else list(self.shards)
        return {shard: shard in self._ready_shards for shard in expected}

    async def on_shard_ready(self, shard_id: int) -> None:
        self._ready_shards.add(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._ready_shards.add(shard_id)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self._ready_shards.discard(shard_id)

    def start_backups(self) -> None:
        """Every ``backup_hours`` a copy of the database in ``settings.backups`` (none if 0)."""
        hours, keep = self.settings.backup_hours, self.settings.backup_keep
        if hours <= 0 or self._backups is not None:
            return
        if not isinstance(self.service.db, Database):  # PostgreSQL: the server's own tools
            log.info("no scheduled backups on PostgreSQL: use pg_dump (docs/postgresql.md)")
            return
        database = self.service.db.path
        self._backups = asyncio.create_task(
            backup_loop(database, self.settings.backups, hours=hours, keep=keep),
            name="tt-backups",
        )
        log.info("backups every %g h in %s, the newest %d kept", hours, self.settings.backups, keep)

    def syncs_commands(self) -> bool:
        """This process runs shard 0: it alone syncs the slash commands (one sync per bot,
        however many processes start; they all hold the same commands)."""
        return 0 in self.settings.shards.owned

    async def sync_app_commands(self) -> None:
        # Command names and descriptions in each user's client language (bot/i18n/translator).
        await self.tree.set_translator(CatalogTranslator())
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %d (we run shard 0)", len(synced), guild_id)
            if isinstance(self.tree, TroikaTree) and self.tree.entry_point and self.application_id:
                # An Entry Point command is global only: created or updated on its own.
                await self.http.upsert_global_command(self.application_id, entry_point.payload())
        else:
            synced = await self.tree.sync()
            log.info(
                "synced %d global commands (we run shard 0; may take up to an hour to appear)",
                len(synced),
            )

    async def on_ready(self) -> None:
        user = self.user
        if user is None:
            return
        log.info("logged in as %s (%d) in %d guild(s)", user, user.id, len(self.guilds))
        app_id = self.application_id or user.id
        print(f"Invite the bot: {invite_url(app_id)}", flush=True)

    def _install_signal_handlers(self) -> None:
        """SIGTERM (a service manager's stop) and SIGINT stop the bot gracefully: pending
        table messages are sent, the database is closed, then the process exits."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self._stop_on_signal, sig)

    def _stop_on_signal(self, sig: signal.Signals) -> None:
        log.info("%s: stopping gracefully", sig.name)
        if not self.is_closed():
            asyncio.get_running_loop().create_task(self.close(), name="tt-graceful-stop")

    def _shards_lost(self, reason: str) -> None:
        # Another process may serve our shards from now on: stop at once, and let the process
        # manager (systemd's Restart=on-failure) start us again to take them back or be refused.
        self.stopped_because = (
            f"the database connection holding the shard locks was lost ({reason})"
        )
        asyncio.get_running_loop().create_task(self.close())

    async def close(self) -> None:
        if self.web is not None:
            await self.web.stop()
            self.web = None
        if self.health is not None:
            await self.health.stop()
            self.health = None
        if self.threads is not None:
            await self.threads.close()
        if self.publisher is not None:
            try:
                await self.publisher.flush()
            except Exception:
                log.exception("sending the last table updates failed")
        if self._backups is not None:
            self._backups.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._backups
            self._backups = None
        if self._service is not None and self._service_started:
            self._service_started = False
            try:
                await self._service.close()
            except Exception:
                log.exception("closing the table service failed")
        await super().close()
