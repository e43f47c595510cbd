"""A live private hand: the last panel a player opened is redrawn when the table changes for him.

Discord lets the bot edit an ephemeral message through the interaction that made it for 15
minutes (the interaction token's life). Each panel a player opens or presses replaces his
previous one here; on every table event the panels of that channel whose content would change
(his moves, his hand, a window he may act in, the table he sees) are redrawn in the background,
newest state only, so a waiting player sees his turn come, and a player who may call in a timed
window sees the button at once. An expired panel is forgotten: the turn ping (one per turn)
invites him to open a fresh one.

Interaction webhooks are not counted in the bot's global rate limit; a redraw per player per
change, coalesced while one is under way, stays far below their own limits.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.app.custom_ids import Sealed
from bot.i18n import DEFAULT, language_of
from bot.i18n.core import set_locale
from bot.service import TableEvent, TableService, TableSnapshot, TableStatus

log = logging.getLogger(__name__)

#: An interaction token lives 15 minutes; stop editing a little before that.
TOKEN_LIFE = 14 * 60.0

#: Redraws that only bring a panel up to date (his moves did not change: a card played, the
#: turn passing between others) start at most this many per turn of the event loop, oldest
#: first; one whose panel changes again while it waits draws the newest state once. An idle loop
#: turns in well under a millisecond, so they go at once; a busy one turns slowly, so under load
#: they merge instead of queueing ahead of the clicks, the AI moves and the redraws that bring a
#: player his turn (those start at once).
LATER_PER_TURN = 8

#: ``(service, channel, user_id) -> (embeds, view, file)``: draws what the message shows.
Drawn = tuple[list[discord.Embed], Sealed | None, discord.File | None]
Builder = Callable[[TableService, int, int], Awaitable[Drawn]]


@dataclass
class _Live:
    interaction: discord.Interaction
    opened_at: float
    build: Builder
    key: Any = None
    redraw: asyncio.Task[None] | None = field(default=None, repr=False)
    again: bool = False
    #: The language of the user who opened it (a redraw runs in whoever's task moved).
    language: str = DEFAULT
    #: The player pressed a button of this panel: its answer redraws it (``pause``).
    paused: bool = False
    #: The table snapshot ``key`` was last compared at: the events of one change share it.
    checked: Any = None


class LivePanels:
    """A ``TableListener`` keeping each player's last panel up to date."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        #: channel -> user -> his live message: an event looks only at its own channel's
        #: (looping over every panel of every table cost 12% of the CPU at 1,000 tables).
        self._panels: dict[int, dict[int, _Live]] = {}
        #: (channel, user) -> panel whose redraw may wait (``LATER_PER_TURN``), oldest first.
        self._later: dict[tuple[int, int], _Live] = {}
        self._pumping = False

    def remember(
        self, interaction: discord.Interaction, channel: int, build: Builder, drawn: Any = None
    ) -> None:
        """``interaction`` answered with what ``build`` draws for the user (his hand panel, or
        the table he watches): keep it live. ``drawn`` is ``key(channel, user)`` taken when the
        answer was drawn (default: now); a change since then is redrawn at once."""
        user = interaction.user.id
        old = self._panels.get(channel, {}).get(user)
        if old is not None and old.redraw is not None:
            old.redraw.cancel()
        live = _Live(
            interaction,
            self.service.clock(),
            build,
            self.key(channel, user),
            language=language_of(interaction.locale),
        )
        self._panels.setdefault(channel, {})[user] = live
        if drawn is not None and drawn != live.key:
            self._start(channel, user, live)

    def pause(self, channel: int, user: int) -> None:
        """The user pressed a button of his live panel: the answer to that press draws it, so
        the changes his move makes are not drawn a second time by a redraw racing the answer.
        ``remember`` (the answer shown) or ``resume`` (no answer drawn) ends the pause."""
        live = self._panels.get(channel, {}).get(user)
        if live is not None:
            live.paused = True

    def resume(self, channel: int, user: int) -> None:
        """The press changed nothing on the panel (a refused move, a failed redraw): it is live
        again, redrawn now if the table changed for him meanwhile."""
        live = self._panels.get(channel, {}).get(user)
        if live is None or not live.paused:
            return
        live.paused = False
        key = self.key(channel, user)
        if key != live.key:
            live.key = key
            self._start(channel, user, live)

    def forget(self, channel: int, user: int) -> None:
        panels = self._panels.get(channel)
        live = panels.pop(user, None) if panels is not None else None
        if panels is not None and not panels:
            del self._panels[channel]
        if live is not None and live.redraw is not None:
            live.redraw.cancel()

    def is_live(self, channel: int, user: int) -> bool:
        live = self._panels.get(channel, {}).get(user)
        return live is not None and self.service.clock() - live.opened_at < TOKEN_LIFE

    async def on_table_event(self, event: TableEvent) -> None:
        # Called with the table's lock held: only look, and redraw in the background.
        channel = event.table.channel_id
        now = self.service.clock()
        for user, live in list(self._panels.get(channel, {}).items()):
            if now - live.opened_at >= TOKEN_LIFE or event.table.status is not TableStatus.PLAYING:
                self.forget(channel, user)
                continue
            if live.paused or live.checked is event.table:
                continue
            live.checked = event.table
            key = self._key_at(event.snapshot, channel, user)
            if key == live.key:
                continue
            # His moves changed (his turn came or went, a window he may call in): at once.
            urgent = key is None or live.key is None or key[0] != live.key[0]
            live.key = key
            if urgent:
                self._later.pop((channel, user), None)
                self._start(channel, user, live)
            else:
                self._queue(channel, user, live)

    def _queue(self, channel: int, user: int, live: _Live) -> None:
        # Assigning an existing key keeps its place in the line: a waiting panel stays waiting.
        self._later[(channel, user)] = live
        if not self._pumping:
            self._pumping = True
            asyncio.get_running_loop().call_soon(self._pump)

    def _pump(self) -> None:
        """Start the next ``LATER_PER_TURN`` waiting redraws; again at the loop's next turn."""
        for _ in range(min(LATER_PER_TURN, len(self._later))):
            (channel, user), live = next(iter(self._later.items()))
            del self._later[(channel, user)]
            # Not if he opened another panel, it was forgotten, or his answer draws it now.
            if self._panels.get(channel, {}).get(user) is live and not live.paused:
                self._start(channel, user, live)
        if self._later:
            asyncio.get_running_loop().call_soon(self._pump)
        else:
            self._pumping = False

    def _start(self, channel: int, user: int, live: _Live) -> None:
        """Redraw ``live`` now, or once the redraw under way is done (newest state only)."""
        if live.redraw is not None and not live.redraw.done():
            live.again = True
            return
        live.redraw = asyncio.get_running_loop().create_task(
            self._redraw(channel, user, live), name=f"live-panel-{channel}-{user}"
        )

    def key(self, channel: int, user: int) -> Any:
        """What the message shows that can change: moves, hand, the table's move and turn."""
        try:
            seen = self.service.view(channel, user)
        except Exception:  # no table any more: nothing to show
            return None
        game = seen.game or {}
        table = seen.table
        hand = tuple(game.get("hand") or ())
        return (tuple(seen.legal), hand, table.move_number, table.to_act, table.window_deadline)

    def _key_at(self, state: TableSnapshot | None, channel: int, user: int) -> Any:
        """``key`` read from the event's snapshot while it is the table's current state (the
        listeners run with the table's lock held, and the service retires a snapshot when the
        table moves on): its views are cached there, so this skips the service's lookup of the
        table and its state (``public()``'s change key) per panel per event. Anything else
        (no snapshot, a retired one, a fault) goes through ``key``: the service sees faults."""
        if state is None or not state.current:
            return self.key(channel, user)
        table = state.table
        seat = table.seat_of(user)
        index = seat.index if seat is not None and seat.is_human else None
        try:
            game = state.view(index) or {}
            legal = state.legal(index)
        except Exception:  # a damaged game: the service's own path reports it
            return self.key(channel, user)
        hand = tuple(game.get("hand") or ())
        return (tuple(legal), hand, table.move_number, table.to_act, table.window_deadline)

    async def _redraw(self, channel: int, user: int, live: _Live) -> None:
        try:
            await self._redraw_while_changed(channel, user, live)
        finally:
            # A finished task kept by its panel (2,000 panels at 1,000 tables) kept its
            # coroutine and context alive for the garbage collector to scan.
            if live.redraw is asyncio.current_task():
                live.redraw = None

    async def _redraw_while_changed(self, channel: int, user: int, live: _Live) -> None:
        set_locale(live.language)  # (this task's own)
        while True:
            live.again = False
            try:
                shown, view, file = await live.build(self.service, channel, user)
                await live.interaction.edit_original_response(
                    embeds=shown, view=view, attachments=[file] if file else []
                )
            except discord.HTTPException as error:  # token expired, message gone...
                log.info("panel of %s in %s no longer editable: %s", user, channel, error)
                panels = self._panels.get(channel, {})
                if panels.get(user) is live:
                    del panels[user]
                return
            except Exception:  # the table ended meanwhile, or a drawing bug: stop, keep going
                log.debug("panel of %s in %s not redrawn", user, channel, exc_info=True)
                return
            if not live.again:
                return
