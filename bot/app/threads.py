"""Tables in their own threads: ``/new`` opens the table in a new public thread of the channel,
with a short lobby post in the channel that links to it and follows its state.

How a table lives in a thread (``TableThreads``, a listener of the service beside the
publisher):
- ``/new`` used in a thread (a table's) opens the new table in another thread of its channel.
- The lobby post is a message of the bot in the channel, and the thread is started from it
  (Discord shows the thread under the post); the table's channel is the thread (the service
  keys tables by channel, so a channel holds as many tables as it has threads). The table's
  settings record the thread's parent and the post (``table_settings.thread_of``), so a
  restart and a rematch in the thread keep them.
- The post is edited as the table changes (open, playing, finished, closed and why). Edits are
  coalesced per channel, as the publisher's are: one worker per channel edits the posts that
  changed, at most one edit per ``interval``, through the publisher's request budget.
- Each human who sits down is added to the thread (once per thread and process).
- The thread is created with the longest auto-archive duration (a week). When Discord archives
  it while the table lives (an idle turn-based game, or a moderator), the publisher's requests
  wait for ``before_post``, which brings it back first. Archiving cannot tell Discord's idle
  archive from a moderator's, and the players still want their game: archived means "bring it
  back", never "close".
- When the table ends the thread is archived once the final message is sent: at once for a
  closed table, ``ARCHIVE_AFTER_FINISH`` after a finished game (its final message offers a
  rematch; one pressed meanwhile keeps the thread open, and a Rematch pressed later in the
  archived thread brings it back like any post).
- A thread deleted by a moderator (or with its channel) closes its table (abandoned, recorded,
  its jobs cancelled; nothing is posted into the deleted thread). A locked thread closes it
  too: the bot asks for no Manage Threads permission, so it cannot post in a locked thread, and
  a table nobody can see move would only run out its timers. The lobby post says what happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

import engine
from bot.app import custom_ids
from bot.app.budget import RequestBudget
from bot.app.limits import excerpt
from bot.i18n import _, _p, use_locale
from bot.i18n.later import Later, later, said
from bot.render import embeds
from bot.service import (
    TableAbandoned,
    TableClosed,
    TableEvent,
    TableService,
    TableSetAside,
    TableStatus,
)
from bot.service.models import Table
from bot.service.table_settings import thread_of

if TYPE_CHECKING:
    from bot.app.publisher import TablePublisher

log = logging.getLogger(__name__)

#: Discord's longest thread name.
THREAD_NAME_CHARS = 100
#: The longest auto-archive duration Discord offers (minutes: a week): a turn-based game
#: lives for days, and a thread archived meanwhile is brought back anyway (``before_post``).
ARCHIVE_MINUTES = 10080
#: How long a finished game's thread stays open: the players read the final message and press
#: Rematch within seconds (``REMATCH_CONFIRM_SECONDS`` waits a minute for the others once the
#: rematch lobby opened); a few minutes more leave room to talk about the game.
ARCHIVE_AFTER_FINISH = 300.0
#: The permissions a table in a thread needs in the channel (besides posting there).
NEEDED = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)
#: Why a table closed when its thread went away (said in each server's language later).
DELETED = later("its thread was deleted")
LOCKED = later("a moderator locked its thread")
CHANNEL_DELETED = later("its channel was deleted")


class ThreadRefused(Exception):
    """Discord refused the lobby post or the thread (a permission the interaction did not
    show, the server's thread limit...): ``/new`` opens the table in the channel and says
    why (``str()``, in the host's language)."""


def _refused(error: discord.HTTPException) -> str:
    log.info("could not open a table thread: %s", error)
    return _(
        "Discord refused to create the table's thread here ({error}): the table opens in the"
        " channel itself.",
        error=excerpt(error.text or str(error.status)),
    )


@dataclass
class _Post:
    """A lobby post to edit: the table as it is now, and why it closed, if it did."""

    table: Table
    reason: str | None = None


@dataclass
class _Parent:
    """The lobby posts of one channel waiting for their edit (post id -> what to show)."""

    posts: dict[int, _Post] = field(default_factory=dict)
    worker: asyncio.Task[None] | None = None
    last_edit: float = float("-inf")


def thread_name(title: str, host: str) -> str:
    """The thread's name: the game and its host, within Discord's 100 characters."""
    name = f"{title} · {host}".strip()
    return name if len(name) <= THREAD_NAME_CHARS else name[: THREAD_NAME_CHARS - 1] + "…"


def thread_home(interaction: discord.Interaction) -> discord.TextChannel | None:
    """The channel ``/new`` opens a table's thread in: the channel it was used in, or, used in
    a thread (a table's, say), that thread's channel. None: a kind of channel without
    threads."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        channel = channel.parent
    return channel if isinstance(channel, discord.TextChannel) else None


def why_not_thread(
    interaction: discord.Interaction, home: discord.TextChannel | None
) -> str | None:
    """Why ``/new`` cannot open a thread in ``home`` (None: it can). Said to the host,
    privately, before the table opens in the channel itself."""
    if home is None:
        return _("Tables open in threads, but this kind of channel has none: the table opens here.")
    if home.id == interaction.channel_id:
        have = interaction.app_permissions
    else:  # (used in a thread: the bot's permissions in its channel)
        have = home.permissions_for(home.guild.me)
    if have.create_public_threads and have.send_messages_in_threads:
        return None
    return _(
        "Tables open in their own threads, but the bot may not create public threads or send"
        " messages in them in this channel: the table opens in the channel itself. A server"
        " admin can grant the bot Create Public Threads and Send Messages in Threads here, or"
        " choose `/admin defaults tables:channel`."
    )


class TableThreads:
    """Keeps thread tables' threads and lobby posts (see the module's docstring)."""

    def __init__(
        self,
        bot: discord.Client,
        service: TableService,
        publisher: TablePublisher,
        *,
        interval: float = 1.0,
        budget: RequestBudget | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.publisher = publisher
        self.interval = interval
        self.budget = budget
        #: Threads of live tables seen archived (also read from Discord's cache, which drops
        #: archived threads: ``before_post``).
        self._archived: set[int] = set()
        #: Threads deleted or locked (nothing more is sent there).
        self._gone: set[int] = set()
        #: The users added to each thread (by this process).
        self._members: dict[int, set[int]] = {}
        self._parents: dict[int, _Parent] = {}
        #: What each lobby post shows (``_shown``), to edit it only when that changes.
        self._shown: dict[int, tuple[Any, ...]] = {}
        #: Threads this process started for live tables: it follows their archiving itself
        #: (Discord's cache may not hold a new thread yet when its table first posts).
        self._created: set[int] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        publisher.gate = self.before_post

    # -- opening ------------------------------------------------------------------------------
    async def open_in_thread(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel,
        game: str,
        preset: str | None,
        options: Mapping[str, Any],
        host_name: str,
    ) -> Table:
        """Post the lobby post in ``channel``, start the table's thread from it, and open the
        table there. What failed is taken back (the post deleted, the thread too when the bot
        may), and the service's refusal raised as it is."""
        # The lobby limits refuse before anything is made (the bot may not delete a thread).
        self.service.check_open(interaction.guild_id, interaction.user.id)
        spec = engine.GAMES.get(str(game).strip().lower())
        title = spec.title if spec is not None else str(game)
        # (In the server's language, as the table's messages: the thread is everyone's.)
        with use_locale(self.publisher.languages.of(interaction.guild_id)):
            waiting = discord.Embed(title=_(title), color=embeds.COLOR_LOBBY)
            name = thread_name(_(title), host_name)
        # (Not through the request budget: the host's command waits for it, and Discord
        # gives an interaction three seconds.)
        try:
            post = await channel.send(embed=waiting)
        except discord.HTTPException as error:
            raise ThreadRefused(_refused(error)) from error
        thread: discord.Thread | None = None
        try:
            try:
                thread = await post.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
            except discord.HTTPException as error:
                raise ThreadRefused(_refused(error)) from error
            self._members[thread.id] = set()
            self._created.add(thread.id)
            return await self.service.open_table(
                thread.id,
                interaction.guild_id,
                interaction.user.id,
                host_name,
                game,
                preset,
                dict(options),
                settings={"thread": {"parent": channel.id, "post": post.id}},
            )
        except BaseException:
            if thread is not None:
                try:
                    await thread.delete()  # (Manage Threads: the bot is not asked for it)
                except discord.HTTPException:
                    with contextlib.suppress(discord.HTTPException):
                        await thread.edit(archived=True)  # (its creator may)
            with contextlib.suppress(discord.HTTPException):
                await post.delete()
            raise

    # -- the service's events -----------------------------------------------------------------
    async def on_table_event(self, event: TableEvent) -> None:
        table = event.table
        where = thread_of(table.settings)
        if where is None:
            return
        parent, post = where
        reason: str | None = None
        if isinstance(event, TableAbandoned):
            reason = event.reason or None
        elif isinstance(event, TableClosed):
            reason = later("the lobby emptied")
        elif isinstance(event, TableSetAside):
            reason = later("its saved game cannot be read")
        shown = _shown(table, reason)
        if self._shown.get(post) != shown:
            # (Only what the post shows: a move changes nothing there, and costs no edit.)
            self._shown[post] = shown
            self._mark(parent, post, _Post(table, reason))
        thread = table.channel_id
        if thread in self._gone:
            return
        added = self._members.setdefault(thread, set())
        joining = [s.user_id for s in table.seats if s.is_human and s.user_id not in added]
        if joining and table.status in (TableStatus.LOBBY, TableStatus.PLAYING):
            added.update(u for u in joining if u is not None)
            self._spawn(self._add_members(thread, [u for u in joining if u is not None]))
        if table.status not in (TableStatus.LOBBY, TableStatus.PLAYING):
            self._shown.pop(post, None)  # (its last state is marked: nothing more to compare)
        if table.status is TableStatus.FINISHED:
            self._spawn(self._archive(thread, table.id, ARCHIVE_AFTER_FINISH))
        elif table.status in (TableStatus.ABANDONED, TableStatus.BROKEN):
            self._spawn(self._archive(thread, table.id, 0.0))

    def _mark(self, parent: int, post: int, shown: _Post) -> None:
        state = self._parents.setdefault(parent, _Parent())
        previous = state.posts.get(post)
        if previous is not None and shown.reason is None and previous.table.id == shown.table.id:
            shown.reason = previous.reason
        state.posts[post] = shown
        if state.worker is None or state.worker.done():
            state.worker = asyncio.get_running_loop().create_task(
                self._edit_posts(parent, state), name=f"lobby-posts-{parent}"
            )

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the lobby posts ----------------------------------------------------------------------
    async def _edit_posts(self, parent: int, state: _Parent) -> None:
        loop = asyncio.get_running_loop()
        while state.posts:
            wait = state.last_edit + self.interval - loop.time()
            if self.interval > 0 and wait > 0:
                await asyncio.sleep(wait)
            post, shown = next(iter(state.posts.items()))
            del state.posts[post]
            try:
                await self._request(parent)
                with use_locale(self.publisher.language(shown.table)):
                    embed, view = lobby_post(shown.table, shown.reason)
                message = self.bot.get_partial_messageable(parent).get_partial_message(post)
                await message.edit(embed=embed, view=view)
            except discord.NotFound:
                pass  # (a moderator deleted the post: the table goes on in its thread)
            except Exception:
                log.exception("could not edit the lobby post %d in channel %d", post, parent)
            state.last_edit = loop.time()

    # -- the thread ---------------------------------------------------------------------------
    async def before_post(self, channel_id: int) -> None:
        """The publisher's gate: a live table's thread that Discord archived comes back before
        the table posts in it. Known archived from the gateway's thread updates; after a
        restart, a thread table whose thread is not among the active threads Discord sent
        (its cache) is archived too, or gone (then its table closes)."""
        table = self.service.get_table(channel_id)
        if table is None or thread_of(table.settings) is None or channel_id in self._gone:
            return
        cached = self.bot.get_channel(channel_id)
        if isinstance(cached, discord.Thread):
            archived = cached.archived
        else:  # (not cached: archived, or a thread of ours Discord has not announced yet)
            archived = channel_id not in self._created
        if channel_id not in self._archived and not archived:
            return
        self._archived.discard(channel_id)
        try:
            await self.bot.http.edit_channel(channel_id, archived=False)
        except discord.NotFound:
            self._gone.add(channel_id)
            self._spawn(self._close(channel_id, DELETED))
        except discord.HTTPException:
            log.warning("could not bring back the archived thread %d", channel_id)

    async def _add_members(self, thread: int, users: list[int]) -> None:
        for user in users:
            try:
                await self.before_post(thread)
                await self._request(thread)
                await self.bot.http.add_user_to_thread(thread, user)
            except discord.HTTPException:
                log.info("could not add user %d to the thread %d", user, thread)

    async def _archive(self, thread: int, table_id: int, delay: float) -> None:
        """Archive the ended table's thread after ``delay`` seconds, once its final message is
        sent, unless a new table (a rematch) opened in it meanwhile."""
        if delay > 0:
            await self.service.sleep(delay)
        live = self.service.get_table(thread)
        if live is not None or thread in self._gone:
            return
        await self.publisher.settled(thread)
        if self.service.get_table(thread) is not None or thread in self._gone:
            return
        try:
            await self._request(thread)
            await self.bot.http.edit_channel(thread, archived=True)
            # (Not kept in ``_archived``: Discord's cache drops archived threads, which
            # ``before_post`` reads as archived if a rematch posts there later.)
            self._members.pop(thread, None)
            self._created.discard(thread)
        except discord.HTTPException:
            log.info("could not archive the thread %d of table %d", thread, table_id)

    async def _request(self, channel_id: int) -> None:
        if self.budget is not None:
            await self.budget.acquire(channel_id)

    # -- the gateway's thread events ----------------------------------------------------------
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        meta = payload.data.get("thread_metadata") or {}
        thread = payload.thread_id
        if self._thread_table(thread) is None:  # (not a live table's: not ours to follow)
            self._archived.discard(thread)
            return
        if meta.get("archived"):
            self._archived.add(thread)
        else:
            self._archived.discard(thread)
        if meta.get("locked"):
            self._gone.add(thread)  # (nothing more can be sent there)
            self._spawn(self._close(thread, LOCKED))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        thread = payload.thread_id
        self._archived.discard(thread)
        self._members.pop(thread, None)
        self._created.discard(thread)
        if self._thread_table(thread) is None:
            return
        self._gone.add(thread)
        self._spawn(self._close(thread, DELETED))

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel takes its threads along (Discord sends no event for each): their
        tables close as a deleted thread's do, and so does a table in the channel itself."""
        gone = [t.channel_id for t in self.threads_of(channel.id)]
        if self.service.get_table(channel.id) is not None:
            gone.append(channel.id)
        for thread in gone:
            self._gone.add(thread)
            self._spawn(self._close(thread, CHANNEL_DELETED))

    def _thread_table(self, thread: int) -> Table | None:
        table = self.service.get_table(thread)
        return table if table is not None and thread_of(table.settings) is not None else None

    async def _close(self, thread: int, reason: Later) -> None:
        """End the thread's table (abandoned, recorded; the service cancels its jobs); the bot
        cannot post in the thread any more, so the publisher drops what it had to send."""
        me = self.bot.user
        try:
            await self.service.force_end(thread, me.id if me is not None else 0, reason)
        except Exception:  # (it ended meanwhile, or the database refused: logged)
            log.warning("could not close the table of thread %d", thread, exc_info=True)
        self.publisher.forget(thread)

    # -- the parent channel ---------------------------------------------------------------------
    def threads_of(self, channel_id: int | None) -> list[Table]:
        """The live tables in threads of ``channel_id``, oldest first."""
        found = []
        for table in self.service.tables():
            where = thread_of(table.settings)
            if where is not None and where[0] == channel_id:
                found.append(table)
        return sorted(found, key=lambda t: t.id)

    def hint(self, channel_id: int | None) -> str | None:
        """For a command that needs "the table here" in a channel whose tables are in threads:
        where they are (None: no thread table here). It names them all rather than guess."""
        tables = self.threads_of(channel_id)
        if not tables:
            return None
        where = ", ".join(f"<#{t.channel_id}>" for t in tables[:10])
        return _(
            "This channel's tables are in their own threads: {threads}. Use the command in the"
            " table's thread.",
            threads=where,
        )

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for state in self._parents.values():
            if state.worker is not None and not state.worker.done():
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(state.worker), 5.0)


def _shown(table: Table, reason: str | None) -> tuple[Any, ...]:
    """What a lobby post shows of the table (``lobby_post``)."""
    return (table.id, table.status, table.host_id, tuple(s.name for s in table.seats), reason)


def lobby_post(
    table: Table, reason: str | None = None
) -> tuple[discord.Embed, custom_ids.Sealed | discord.ui.View]:
    """The lobby post of a table in its thread: the game, its host, its state, who sits, and
    the thread's link; a Join button while the lobby is open."""
    thread = f"<#{table.channel_id}>"
    seated = ", ".join(s.name for s in table.seats) or _("nobody yet")
    if table.status is TableStatus.LOBBY:
        state = _("**Open**: {count} of {max} seats taken. Join in {thread} or with the button.",
                  count=len(table.seats), max=table.max_players, thread=thread)  # fmt: skip
        color = embeds.COLOR_LOBBY
    elif table.status is TableStatus.PLAYING:
        state = _("**Playing** in {thread}.", thread=thread)
        color = embeds.COLOR_PLAY
    elif table.status is TableStatus.FINISHED:
        state = _("**Finished**: the scores are in {thread}.", thread=thread)
        color = embeds.COLOR_OVER
    else:
        shown = said(reason) if reason else _("closed")
        state = _("**Closed** ({reason}). {thread}", reason=shown, thread=thread)
        color = embeds.COLOR_GONE
    host = next((s.name for s in table.seats if s.user_id == table.host_id), None)
    title = _(table.title)
    if host:
        title = _("{game} · hosted by {host}", game=_(table.title), host=host)
    embed = discord.Embed(title=title[:256], description=state, color=color)
    embed.add_field(name=_("At the table"), value=seated[:1024], inline=False)
    view = discord.ui.View(timeout=None)
    if table.status is TableStatus.LOBBY:
        view.add_item(discord.ui.Button(label=_p("button", "Join"),
                                        style=discord.ButtonStyle.success,
                                        custom_id=custom_ids.join(table.channel_id)))  # fmt: skip
    return embed, custom_ids.sealed(view)
