"""The live public table message of each channel, kept up to date from the service's events.

One message per hand, edited in place as play goes on; when a hand ends the message is frozen
with the hand's result and the next hand gets a new message. When it becomes a human player's
turn he is mentioned (the previous mention is deleted, so the channel does not fill up), at
every table, live or turn-based, coalesced (``turn_pings``): not again while his last mention is
unanswered, nor when the turn comes back within minutes of his own move (he is looking).

Edits are coalesced per channel: events only mark the channel dirty; one worker task per channel
renders the latest state, then waits ``interval`` seconds before the next edit, so a burst of AI
moves costs one edit per interval, within Discord's rate limits. The message only ever shows the
*spectator* view and public events (never an event with ``private_to``).

After a restart the publisher finds its message again in the channel's recent history (by the
table id and hand number in the footer), so the same message keeps being edited.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import math
import re
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
import orjson

from bot import metrics
from bot.app import custom_ids, turn_pings
from bot.app.budget import RequestBudget
from bot.app.languages import ServerLanguages
from bot.app.limits import fit
from bot.i18n import DEFAULT, LANGUAGES, N_, _, _p, current, use_locale
from bot.i18n.core import catalog, set_locale
from bot.i18n.later import said
from bot.render import embeds, pictures
from bot.render.presenter import Seating, Section, UnknownEvent
from bot.service import (
    ActionApplied,
    ActionSource,
    GameOver,
    GameStarted,
    HostChanged,
    OptionsChanged,
    PlayerAway,
    PlayerBack,
    PlayerJoined,
    PlayerKicked,
    PlayerLeft,
    RematchConfirmed,
    SeatTaken,
    SettingsChanged,
    Table,
    TableAbandoned,
    TableClosed,
    TableEvent,
    TableService,
    TableSetAside,
    TableStalled,
    TableStatus,
    TurnChanged,
)
from bot.service.snapshot import TableSnapshot

if TYPE_CHECKING:
    from discord.abc import Messageable

log = logging.getLogger(__name__)

IMAGE_NAME = "table.png"
#: How many of a hand's first public events a channel keeps for its summary (an auction of
#: eight players, the contract fits well within).
HAND_EVENTS = 64
#: The footer the message is found by after a restart (its words in any of our languages).
_FOOTER = re.compile(r"#(?P<table>\d+) · \S+ (?P<hand>\S+)")
#: Why a lobby closes when no reason is given.
NO_REASON = N_("the lobby emptied")


@dataclass
class _Freeze:
    """Close the current message with these words (a hand ended, the game ended...)."""

    table: Table
    title: str
    lines: list[str]
    sections: list[Section]
    color: discord.Color
    final: bool = False


@dataclass
class _Channel:
    table_id: int | None = None
    message_id: int | None = None
    hand: Any = None
    lines: deque[str] = field(default_factory=lambda: deque(maxlen=12))
    dirty: bool = False
    jobs: list[_Freeze] = field(default_factory=list)
    pings: list[int] = field(default_factory=list)
    awaited: set[int] = field(default_factory=set)
    #: Who was mentioned or moved, when (see ``turn_pings``).
    pinging: turn_pings.Pings = field(default_factory=turn_pings.Pings)
    ping_message_id: int | None = None
    worker: asyncio.Task[None] | None = None
    searched: bool = False
    last_edit: float = float("-inf")
    #: The language the channel's messages are written in (its server's).
    language: str = DEFAULT
    #: The table's newest state as its last event told it (see ``_newest``).
    snapshot: TableSnapshot | None = None
    #: The hand's first public events: its end's summary names the contract from them (the
    #: parts the engine's ``hand_over`` does not carry); the contract comes first. Kept as
    #: their JSON when it gives them back exactly (``_kept``): a hand lasts minutes, and its
    #: events' dicts and lists kept that long are scanned by the garbage collector at the next
    #: generation-1 collection (thousands of them at 1,000 tables); bytes are not scanned.
    hand_events: list[Mapping[str, Any] | bytes] = field(default_factory=list)


class TablePublisher:
    """A ``TableListener`` that renders tables into their channels."""

    def __init__(
        self,
        bot: discord.Client,
        service: TableService,
        interval: float = 1.0,
        budget: RequestBudget | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.interval = interval
        #: Shared by every channel (see budget.py); None: no limit (tests without real time).
        self.budget = budget
        self._channels: dict[int, _Channel] = {}
        #: The language of each server's public messages (see ``bot.app.languages``).
        self.languages = ServerLanguages(bot)
        #: Awaited before each request of a channel (``bot.app.threads``: a table's thread that
        #: Discord archived is brought back before the table posts in it).
        self.gate: Callable[[int], Awaitable[None]] | None = None
        #: The Discord Activity is configured: the table message offers Play in Discord.
        self.activity = False

    def language(self, table: Table) -> str:
        """The language ``table``'s public messages are written in: its server's."""
        return self.languages.of(table.guild_id)

    # -- listener -----------------------------------------------------------------------------
    async def on_table_event(self, event: TableEvent) -> None:
        # Called in the task of whoever acted (in his language): the channel's lines are
        # written in the server's.
        table = event.table
        # (Not ``setdefault(..., _Channel())``: that made a channel's record, with its deque,
        # lists and sets, at every event, to throw it away but at a table's first.)
        state = self._channels.get(table.channel_id)
        if state is None:
            state = self._channels[table.channel_id] = _Channel()
        if state.table_id != table.id:
            fresh = _Channel(table_id=table.id)
            fresh.ping_message_id = state.ping_message_id
            state = self._channels[table.channel_id] = fresh
        if event.snapshot is not None:
            state.snapshot = event.snapshot
        state.language = self.language(table)
        with use_locale(state.language):
            self._take(state, table, event)

    def _take(self, state: _Channel, table: Table, event: TableEvent) -> None:
        if isinstance(event, ActionApplied):
            self._on_action(state, table, event)
        elif isinstance(event, TurnChanged):
            self._on_turn(state, table, event.to_act)
        elif isinstance(event, GameOver):
            self._freeze(state, table, final=True)
        elif isinstance(event, TableStalled):
            log.error("table %s in channel %s stalled: %s", table.id, table.channel_id,
                      event.reason)  # fmt: skip
            state.lines.append(
                _(
                    "⚠️ **The table is paused:** its moves can't be saved right now. The bot keeps"
                    " trying and the game goes on by itself once it can; if this lasts, ask a"
                    " server admin (`/admin tables`)."
                )
            )
        elif isinstance(event, TableSetAside):
            state.lines.append(
                _(
                    "⚠️ **This table can't go on** (an error in its saved game). A server admin"
                    " can close it with `/admin end`; `/new` opens a new table here."
                )
            )
            self._freeze(state, table, final=True, color=embeds.COLOR_GONE)
        elif isinstance(event, TableAbandoned | TableClosed):
            # (The service gives its reasons in English, marked: said here in this language.)
            reason = said(getattr(event, "reason", "") or NO_REASON)
            state.lines.append(_("**Table abandoned** ({reason}).", reason=reason))
            self._freeze(state, table, final=True, color=embeds.COLOR_GONE)
        else:
            line = _lobby_line(event, embeds.names_of(table))
            if line:
                state.lines.append(line)
        state.dirty = True
        self._kick(table.channel_id, state)

    def _on_action(self, state: _Channel, table: Table, event: ActionApplied) -> None:
        presenter, seating = embeds.presenter_of(table), embeds.seating_of(table)
        for engine_event in event.events:
            if engine_event.private_to is not None:
                continue  # a private card (a draw, a discard face down) is never public
            data = engine_event.data
            kind = data.get("type")
            if kind == "hand_over":
                told = {**data, "hand_events": tuple(map(_given_back, state.hand_events))}
                state.hand_events.clear()
                summary = _told(presenter.summary, told, seating, table)
                self._freeze(state, table, final=False, data=data, sections=summary or [])
                continue
            if kind == "game_over":
                continue  # told when the game-over message is frozen
            if len(state.hand_events) < HAND_EVENTS:
                state.hand_events.append(_kept(data))
            line = _told(presenter.narrate, data, seating, table)
            if line:
                state.lines.append(line)
        if event.source is ActionSource.PLAYER:
            state.pinging.moved(event.seat, self.service.clock())
        if event.source is ActionSource.TIMEOUT:
            who = seating.name(event.seat)
            state.lines.append(_("⏰ {who} ran out of time: the AI moved for them.", who=who))

    def _on_turn(self, state: _Channel, table: Table, to_act: Sequence[int]) -> None:
        # (An away player is not pinged: the AI moves for him at once.)
        humans = {s.index for s in table.seats if s.is_human and not s.away}
        # The first awaited seat is the one whose turn it is; the others (players who may call
        # out of turn meanwhile, in a timed window) are not pinged for every move.
        awaited = {to_act[0]} & humans if to_act else set()
        now = self.service.clock()
        for seat in sorted(awaited - state.awaited):
            if state.pinging.due(seat, now):
                state.pings.append(seat)
        state.awaited = awaited

    def _freeze(
        self,
        state: _Channel,
        table: Table,
        *,
        final: bool,
        data: Mapping[str, Any] | None = None,
        sections: Sequence[Section] = (),
        color: discord.Color | None = None,
    ) -> None:
        hand = (data or {}).get("hand_number") or state.hand
        sections = list(sections)
        if final:
            finished = table.status is TableStatus.FINISHED
            if finished:
                title = _("{game} — game over", game=_(table.title))
            else:
                title = _("{game} — table closed", game=_(table.title))
            if finished and table.result:
                presenter, seating = embeds.presenter_of(table), embeds.seating_of(table)
                sections = presenter.final(table.result, seating) + sections
            pending = state.jobs[-1] if state.jobs else None
            if pending is not None and not pending.final:
                # The last hand's message is not written yet: it becomes the final message.
                pending.title, pending.final, pending.table = title, True, table
                pending.lines.extend(line for line in state.lines if line not in pending.lines)
                pending.sections = sections + pending.sections
                pending.color = color or embeds.COLOR_OVER
                state.lines.clear()
                state.pings.clear()
                state.awaited = set()
                return
        else:
            title = _hand_over(table, hand)
        job = _Freeze(
            table=table,
            title=title,
            lines=list(state.lines),
            sections=sections,
            color=color or (embeds.COLOR_OVER if final else embeds.COLOR_PLAY),
            final=final,
        )
        state.jobs.append(job)
        state.lines.clear()
        if final:
            state.pings.clear()
            state.awaited = set()

    # -- worker -------------------------------------------------------------------------------
    def _kick(self, channel_id: int, state: _Channel) -> None:
        if state.worker is None or state.worker.done():
            state.worker = asyncio.get_running_loop().create_task(
                self._work(channel_id, state), name=f"table-publisher-{channel_id}"
            )

    async def _work(self, channel_id: int, state: _Channel) -> None:
        set_locale(state.language)  # (this task's own: the server's language)
        loop = asyncio.get_running_loop()
        try:
            while state.jobs or state.dirty or state.pings:
                # Throttle: at most one edit per ``interval``; what arrives meanwhile is
                # rendered together by the next edit.
                wait = state.last_edit + self.interval - loop.time()
                if self.interval > 0 and wait > 0:
                    await asyncio.sleep(wait)
                if state.jobs:
                    # Hands that ended while we waited are frozen together: the channel jumps
                    # to the latest state instead of replaying every hand one edit at a time.
                    job = _merged(state.jobs)
                    state.jobs.clear()
                    await self._run_freeze(channel_id, state, job)
                    state.last_edit = loop.time()
                    continue
                if state.dirty:
                    state.dirty = False
                    await self._refresh(channel_id, state)
                    state.last_edit = loop.time()
                if state.pings:
                    await self._ping(channel_id, state)
        except Exception:
            log.exception("could not update the table message in channel %d", channel_id)
        finally:
            # A task only while there is work: kept once done (1,000 channels), it kept its
            # coroutine and context alive for the garbage collector to scan.
            if state.worker is asyncio.current_task():
                state.worker = None

    async def _request(self, channel_id: int) -> None:
        """Wait for the budget's go before a request of this channel."""
        if self.gate is not None:
            await self.gate(channel_id)
        if self.budget is not None:
            await self.budget.acquire(channel_id)
        metrics.PUBLISHER_REQUESTS.inc()

    def _public_view(self, channel_id: int) -> Mapping[str, Any] | None:
        return self.service.public_view(channel_id)

    def _view_of(self, snap: TableSnapshot) -> Mapping[str, Any] | None:
        """The public view of a snapshot in play (else None)."""
        if snap.table.status is not TableStatus.PLAYING:
            return None
        try:
            return snap.public_view
        except Exception:  # a damaged game: the service's own read has it checked
            return self._public_view(snap.table.channel_id)

    def _newest(self, channel_id: int, state: _Channel) -> TableSnapshot | None:
        """The channel's open table as it is now, from its last event's snapshot; from the
        service only if the table changed since without telling (a spectator left, a refused
        write put it back). None: no open table (it ended)."""
        snap = state.snapshot
        if snap is None or not snap.current:
            snap = state.snapshot = self.service.snapshot(channel_id)
        if snap is None or snap.table.status not in _OPEN:
            return None
        return snap

    def _channel(self, channel_id: int) -> Messageable:
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)  # type: ignore[return-value]

    async def _refresh(self, channel_id: int, state: _Channel) -> None:
        # No snapshot is held across a wait (``snap = None`` before each): the table moves on
        # meanwhile, and a past state held here (its table, every view read of it) is what the
        # garbage collector scans at each generation-1 collection (1,000 of them at 1,000
        # tables waiting for the request budget).
        snap = self._newest(channel_id, state)
        if snap is None or snap.table.id != state.table_id:
            return
        if state.message_id is None and not state.searched:
            state.searched = True
            hand = (self._view_of(snap) or {}).get("hand_number")
            table_id, snap = snap.table.id, None
            state.message_id = await self._find_message(channel_id, table_id, hand)
        snap = None
        # The edit's turn first, then the table as it is by then: a busy budget makes the
        # message skip the states in between, drawn once, instead of showing the state it had
        # when the wait began (at 1,000 tables a turn comes every ~25 s).
        await self._request(channel_id)
        snap = self._newest(channel_id, state)
        if snap is None or snap.table.id != state.table_id:
            return
        table = snap.table
        view = self._view_of(snap)
        snap = None
        hand = view.get("hand_number") if view else None
        if state.message_id is not None and state.hand is not None and hand != state.hand:
            # A new deal without a scored hand (a hand thrown in): close the old message.
            title = _hand_over(table, state.hand)
            job = _Freeze(table, title, list(state.lines), [], embeds.COLOR_PLAY)
            await self._run_freeze(channel_id, state, job)
        state.hand = hand
        file = await self._picture(table, view)
        shown = embeds.table_embeds(
            table, view, list(state.lines), image_name=IMAGE_NAME if file else None
        )
        await self._show(channel_id, state, shown, table_components(table, self.activity), file,
                         granted=True)  # fmt: skip

    async def _show(
        self,
        channel_id: int,
        state: _Channel,
        shown: list[discord.Embed],
        view: custom_ids.Sealed | None,
        file: discord.File | None,
        *,
        granted: bool = False,
    ) -> None:
        """Edit the table message (or send it); ``granted``: the budget's go was taken."""
        channel = self._channel(channel_id)
        shown = fit(None, shown, what=f"table message of channel {channel_id}")[1]
        attachments = [file] if file else []
        if not granted:
            await self._request(channel_id)
        if state.message_id is not None:
            message = channel.get_partial_message(state.message_id)  # type: ignore[attr-defined]
            try:
                await message.edit(embeds=shown, view=view, attachments=attachments)
                return
            except discord.NotFound:
                state.message_id = None
                await self._request(channel_id)
        kwargs: dict[str, Any] = {"embeds": shown}
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        sent = await channel.send(**kwargs)
        state.message_id = sent.id

    async def _run_freeze(self, channel_id: int, state: _Channel, job: _Freeze) -> None:
        embed = discord.Embed(title=job.title, color=job.color)
        embeds.add_sections(embed, job.sections, room=embeds.FIELDS - 1)
        if job.lines:
            embed.add_field(name=_("Last moves"), value=embeds.latest_text(job.lines), inline=False)
        if not embed.fields:
            embed.description = "—"
        unit = _(embeds.presenter_of(job.table).unit)
        # i18n: the footer of a finished hand's message; keep "#{table} · {unit} {hand} ·" as is
        # (the bot finds its message again by it) and translate "Table" and "done"
        done = _p("footer", "done")
        footer = _("Table #{table} · {unit} {hand} · {done}", table=job.table.id, unit=unit,
                   hand=state.hand or "-", done=done)  # fmt: skip
        embed.set_footer(text=footer)
        if state.message_id is None and not job.final:
            state.message_id = await self._find_message(channel_id, job.table.id, state.hand)
        # A hand's message keeps nothing clickable once it is over: the next message has them;
        # the final message of a finished game offers a rematch (``table_components``).
        view = table_components(job.table, self.activity) if job.final else None
        await self._show(
            channel_id, state, [embed], view or custom_ids.sealed(discord.ui.View()), None
        )
        state.message_id = None
        state.hand = None
        if job.final:
            await self._delete_ping(channel_id, state)

    async def _picture(self, table: Table, view: Mapping[str, Any] | None) -> discord.File | None:
        if view is None:
            return None
        picture = embeds.presenter_of(table).table_picture(view, embeds.seating_of(table))
        if picture is None:
            return None
        return discord.File(io.BytesIO(await pictures.render(picture)), IMAGE_NAME)

    async def _find_message(self, channel_id: int, table_id: int, hand: Any) -> int | None:
        """After a restart: the message this table and hand were last shown in, if recent."""
        me = self.bot.user
        if me is None:
            return None
        await self._request(channel_id)
        try:
            async for message in self._channel(channel_id).history(limit=25):
                if message.author.id != me.id or not message.embeds:
                    continue
                footer = message.embeds[0].footer.text or ""
                match = _FOOTER.search(footer)
                if match is None or int(match["table"]) != table_id:
                    continue
                if footer.endswith(_done_words()):
                    return None
                if str(hand or "-") == match["hand"] or (hand == 1 and match["hand"] == "-"):
                    return message.id
                return None
        except discord.HTTPException:
            log.info("cannot read history of channel %d; posting a new table message", channel_id)
        return None

    async def _ping(self, channel_id: int, state: _Channel) -> None:
        # The turn may have come back to a seat several times while we waited: one mention each.
        seats, state.pings = list(dict.fromkeys(state.pings)), []
        snap = self._newest(channel_id, state)
        if snap is None:
            return
        table = snap.table
        mentions, pinged = [], []
        for index in seats:
            seat = table.seat(index)
            if seat is None or not seat.is_human or index not in table.to_act:
                continue
            pinged.append(index)
            deadline = table.deadlines.get(index)
            if deadline:
                mentions.append(
                    _("<@{user}>, your turn at {game} (time runs out {when}).", user=seat.user_id,
                      game=_(table.title), when=embeds.timestamp(deadline))
                )  # fmt: skip
            else:
                mentions.append(
                    _("<@{user}>, your turn at {game}.", user=seat.user_id, game=_(table.title))
                )
        if not mentions:
            return
        del snap, table  # (not held while waiting: see ``_refresh``)
        await self._delete_ping(channel_id, state)
        await self._request(channel_id)
        text = fit("\n".join(mentions), what=f"turn ping of channel {channel_id}")[0]
        sent = await self._channel(channel_id).send(
            text, allowed_mentions=discord.AllowedMentions(users=True)
        )
        state.ping_message_id = sent.id
        for index in pinged:
            state.pinging.pinged(index)

    async def _delete_ping(self, channel_id: int, state: _Channel) -> None:
        if state.ping_message_id is None:
            return
        message_id, state.ping_message_id = state.ping_message_id, None
        channel = self._channel(channel_id)
        await self._request(channel_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(message_id).delete()  # type: ignore[attr-defined]

    # -- start and stop -------------------------------------------------------------------------
    def refresh_all(self) -> int:
        """Bring every open table's message up to date (at start-up: what a channel shows is
        what the database holds, even if the bot stopped right after a move). Returns how many
        tables were queued; the budget paces the edits."""
        count = 0
        for table in self.service.tables():
            state = self._channels.setdefault(table.channel_id, _Channel(table_id=table.id))
            if state.table_id != table.id:
                state = self._channels[table.channel_id] = _Channel(table_id=table.id)
            state.language = self.language(table)
            state.dirty = True
            self._kick(table.channel_id, state)
            count += 1
        return count

    def backlog(self) -> int:
        """Channels whose table message has changes not yet sent (``/metrics``)."""
        return sum(1 for s in self._channels.values() if s.worker and not s.worker.done())

    async def flush(self, timeout: float = 10.0) -> bool:
        """Wait (at most ``timeout`` seconds) until every pending edit is sent: on a graceful
        stop, so the channels show the last moves. True if everything was sent."""
        workers = [s.worker for s in self._channels.values() if s.worker and not s.worker.done()]
        if not workers:
            return True
        done, pending = await asyncio.wait(workers, timeout=timeout)
        if pending:
            log.warning("stopping with %d table message(s) not brought up to date", len(pending))
        return not pending

    async def settled(self, channel_id: int) -> None:
        """Wait until the channel's pending edits are sent (its final message, before its
        thread is archived)."""
        state = self._channels.get(channel_id)
        worker = state.worker if state is not None else None
        if worker is not None and not worker.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(worker)

    def forget(self, channel_id: int) -> None:
        """The channel is gone (its thread was deleted): drop what was still to be sent."""
        state = self._channels.pop(channel_id, None)
        if state is not None and state.worker is not None and not state.worker.done():
            state.worker.cancel()

    # -- adopting a message -------------------------------------------------------------------
    def adopt(self, channel_id: int, table: Table, message_id: int, hand: Any) -> None:
        """``/table`` re-posted the table: keep editing that message from now on."""
        state = self._channels.setdefault(channel_id, _Channel(table_id=table.id))
        if state.table_id != table.id:
            state = self._channels[channel_id] = _Channel(table_id=table.id)
        state.language = self.language(table)
        state.message_id = message_id
        state.hand = hand
        state.searched = True

    async def render(
        self, table: Table
    ) -> tuple[list[discord.Embed], custom_ids.Sealed | None, discord.File | None]:
        """The table message as it should look now (for ``/table``), in the server's language."""
        with use_locale(self.language(table)):
            state = self._channels.get(table.channel_id)
            playing = table.status is TableStatus.PLAYING
            view = self._public_view(table.channel_id) if playing else None
            file = await self._picture(table, view)
            lines = list(state.lines) if state and state.table_id == table.id else []
            shown = embeds.table_embeds(table, view, lines, image_name=IMAGE_NAME if file else None)
            return shown, table_components(table, self.activity), file


#: The statuses of an open table (in lobby or play): the others have ended.
_OPEN = (TableStatus.LOBBY, TableStatus.PLAYING)


def table_components(table: Table, activity: bool = False) -> custom_ids.Sealed:
    """The public message's buttons: Join / Start in the lobby, Show my hand in play, Rematch
    once the game is over; with ``activity`` (the Discord Activity configured), Play in Discord
    while the table is open."""
    language = current()
    return _table_components(table.channel_id, table.status, activity, language,
                             catalog(language))  # fmt: skip


@functools.lru_cache(maxsize=4096)
def _table_components(
    channel: int, status: TableStatus, activity: bool, language: str, source: object
) -> custom_ids.Sealed:
    """``table_components`` made once per channel, status and language (``source``: the
    language's catalog, so that another one is read again): the message is edited at nearly
    every move, and a discord.py ``View`` costs a system call for its random id, which lets go
    of the GIL (the event loop then waits for the render and database threads)."""
    view = discord.ui.View(timeout=None)
    if status is TableStatus.LOBBY:
        view.add_item(discord.ui.Button(label=_p("button", "Join"),
                                        style=discord.ButtonStyle.success,
                                        custom_id=custom_ids.join(channel)))  # fmt: skip
        view.add_item(discord.ui.Button(label=_p("button", "Start"),
                                        style=discord.ButtonStyle.primary,
                                        custom_id=custom_ids.start(channel)))  # fmt: skip
    elif status is TableStatus.PLAYING:
        view.add_item(discord.ui.Button(label=_p("button", "Show my hand"),
                                        style=discord.ButtonStyle.primary,
                                        emoji="🂠", custom_id=custom_ids.hand(channel)))  # fmt: skip
    elif status is TableStatus.FINISHED:
        rematch = discord.ui.Button(label=_p("button", "Rematch"),
                                    style=discord.ButtonStyle.success,
                                    emoji="🔁", custom_id=custom_ids.rematch(channel))  # fmt: skip
        view.add_item(rematch)
    if activity and status in _OPEN:
        view.add_item(discord.ui.Button(label=_p("button", "Play in Discord"),
                                        style=discord.ButtonStyle.secondary,
                                        custom_id=custom_ids.play(channel)))  # fmt: skip
    return custom_ids.sealed(view)


def _lobby_line(event: TableEvent, names: Sequence[str]) -> str | None:
    if isinstance(event, PlayerJoined):
        return _("{name} sits down.", name=event.seat.name)
    if isinstance(event, PlayerLeft):
        if event.replaced_by_ai:
            return _("{name} leaves. The AI takes the seat.", name=event.seat.name)
        return _("{name} leaves.", name=event.seat.name)
    if isinstance(event, PlayerKicked):
        return _("{name} was removed by the host.", name=event.seat.name)
    if isinstance(event, HostChanged):
        return _("<@{user}> is the host now.", user=event.host_id)
    if isinstance(event, OptionsChanged):
        return _("The host changed the options.")
    if isinstance(event, GameStarted):
        return _("**The game starts.**")
    return _seat_line(event)


def _seat_line(event: TableEvent) -> str | None:
    """Who plays which seat changed during play, or the table's settings changed."""
    name = getattr(getattr(event, "seat", None), "name", "")
    if isinstance(event, PlayerAway):
        return _("💤 {name} is away: the AI plays for them until they are back.", name=name)
    if isinstance(event, PlayerBack):
        return _("👋 {name} is back.", name=name)
    if isinstance(event, SeatTaken):
        number = event.seat.index + 1
        if event.rejoined:
            return _("👋 {name} is back at seat {number}: the AI hands it over.", name=name,
                     number=number)  # fmt: skip
        return _("🪑 {name} takes seat {number} from {previous}.", name=name, number=number,
                 previous=event.previous.name)  # fmt: skip
    if isinstance(event, SettingsChanged):
        settings = event.table.settings
        # (Setting keys and values as typed in /tablesettings.)
        shown = ", ".join(f"{key} = {settings[key]}" for key in ("seats", "away_after")
                          if key in settings)  # fmt: skip
        return _("The host changed the table's settings ({settings}).",
                 settings=shown or _("defaults"))  # fmt: skip
    if isinstance(event, RematchConfirmed):
        if event.waiting:
            return _("🔁 {name} is in for the rematch. Waiting for {waiting}.", name=name,
                     waiting=", ".join(event.waiting))  # fmt: skip
        return _("🔁 {name} is in for the rematch.", name=name)
    return None


def _hand_over(table: Table, hand: Any) -> str:
    """The title of a hand's message once the hand is over."""
    unit = _(embeds.presenter_of(table).unit)
    if hand:
        # i18n: {unit} is the game's word for a hand ("hand", "deal", "round"), {hand} its number
        return _("{game} — {unit} {hand} over", game=_(table.title), unit=unit, hand=hand)
    return _("{game} — {unit} over", game=_(table.title), unit=unit)


def _done_words() -> tuple[str, ...]:
    """``· done`` as the footer of a finished hand's message says it in each language."""
    words = []
    for language in LANGUAGES:
        with use_locale(language):
            words.append("· " + _p("footer", "done"))
    return tuple(words)


def _merged(jobs: Sequence[_Freeze]) -> _Freeze:
    """Several hands' endings as one frozen message (the last job's table and colour)."""
    if len(jobs) == 1:
        return jobs[0]
    last = jobs[-1]
    lines = [line for job in jobs for line in job.lines]
    sections = [section for job in reversed(jobs) for section in job.sections]
    return _Freeze(last.table, last.title, lines, sections, last.color, any(j.final for j in jobs))


def _kept(event: Mapping[str, Any]) -> Mapping[str, Any] | bytes:
    """``event`` as its JSON if ``orjson.loads`` gives it back exactly (the same types: dicts
    with text keys, lists, text, ints, finite floats, bools, None); else the event itself."""
    return orjson.dumps(event) if _plain(event) else event


def _given_back(kept: Mapping[str, Any] | bytes) -> Mapping[str, Any]:
    if type(kept) is bytes:
        event: Mapping[str, Any] = orjson.loads(kept)
        return event
    return kept  # type: ignore[return-value]


def _plain(value: Any) -> bool:
    """``value`` comes back from its JSON as it is (see ``_kept``)."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return -(2**63) <= value < 2**64  # (orjson's integers)
    if kind is float:
        return math.isfinite(value)
    if kind is list:
        return all(_plain(v) for v in value)
    if kind is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())
    return False


def _told(tell: Any, event: Mapping[str, Any], seating: Seating, table: Table) -> Any:
    """A presenter's words for an event; an event it does not know is logged, never shown raw
    (the presenters' tests fail on it)."""
    try:
        return tell(event, seating)
    except UnknownEvent:
        log.error("table %s: no words for event %r", table.id, event.get("type"))
        return None
