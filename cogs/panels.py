"""The private hand panel and every button of the bot.

Pressing **Show my hand** on the public table message answers ephemerally with the player's hand
and his legal actions as buttons (or select menus when there are many), so he can play without
typing. All components are ``DynamicItem``s whose custom ids carry the channel (see
``bot.app.custom_ids``): they keep working after a restart. The buttons carry the engine's action
words; what is legal comes from the service, and the service checks every press again.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.app import custom_ids
from bot.app.decks import DEFAULT_DECK, PlayerDecks
from bot.app.errors import answer
from bot.app.limits import fit_clipped
from bot.i18n import _, _p, current
from bot.i18n.refusals import typed_move
from bot.render import embeds, pictures
from bot.render.one_state import one_state
from bot.render.presenter import Picture
from bot.service import (
    NoTable,
    NotAtTable,
    Table,
    TableService,
    TableStatus,
    TableView,
    WrongPhase,
)
from bot.service.rematch_wait import REMATCH_CONFIRM_SECONDS
from bot.service.table_settings import thread_of
from cogs import card_picks
from cogs.action_rows import in_hand_order, shared_actions_view
from cogs.common import display_name, fail, joined_text, move_note, service_of, speak_to, table_here
from cogs.live_panels import Builder, LivePanels
from cogs.web_link import linked, personal_link, with_link

log = logging.getLogger(__name__)

HAND_IMAGE = "hand.png"


@dataclass(frozen=True)
class Panel:
    """A private panel as drawn, its hand picture not yet made into PNG bytes."""

    embed: discord.Embed
    components: custom_ids.Sealed
    picture: Picture | None


def deck_of(interaction: discord.Interaction) -> str:
    """The card colours the user chose for his own pictures (``/deck``)."""
    decks: PlayerDecks | None = getattr(interaction.client, "player_decks", None)
    return DEFAULT_DECK if decks is None else decks.of(interaction.user.id)


def in_colours(picture: Picture | None, deck: str) -> Picture | None:
    """``picture`` drawn in the player's deck (the drawing functions' ``colours``)."""
    if picture is None or deck == DEFAULT_DECK:
        return picture
    return Picture.of(picture.draw, **{**picture.kwargs(), "colours": deck})


def draw_panel(
    service: TableService,
    channel: int,
    user_id: int,
    note: str | None = None,
    picks: str | None = None,
    deck: str = DEFAULT_DECK,
) -> Panel:
    """The user's private panel: his hand, the table, and his legal moves as components (all
    read from one snapshot of the table, so they agree). ``picks``: instead of his moves, the
    pick of his own cards for a move (``card_picks``), with these cards picked so far.
    ``deck``: his cards' colours (``/deck``), for his hand picture."""
    state = service.snapshot(channel)
    if state is None:
        raise NoTable()
    table = state.table
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotAtTable(_("You are not playing at this table: you have no hand to show."))
    if table.status is not TableStatus.PLAYING:
        raise NotAtTable(_("The game has not started yet: the host starts it with /start."))
    index = seat.index if seat.is_human else None
    if state.current:
        try:
            tv = state.table_view(index)
        except Exception:  # (a damaged game: the service's own path reports it, below)
            pass
        else:
            # The parts every seat's panel of this state shows alike are made once.
            with one_state(channel, state):
                return _draw_panel(tv, channel, note, picks, deck)
    return _draw_panel(service.view(channel, user_id), channel, note, picks, deck)


def _draw_panel(
    tv: TableView, channel: int, note: str | None, picks: str | None, deck: str
) -> Panel:
    table = tv.table
    view = dict(tv.game or {})
    legal = list(in_hand_order(tv.legal, view.get("hand") or ()))
    presenter = embeds.presenter_of(table)
    seating = embeds.seating_of(table, tv.seat)
    picture = presenter.hand_picture_for(view, legal, seating)
    picture = in_colours(picture, deck)
    embed = embeds.hand_embed(
        table, view, legal, image_name=HAND_IMAGE if picture else None, seating=seating
    )
    spec = presenter.card_groups(view, legal)
    own = None if spec is None else spec.label
    components, left_out = shared_actions_view(channel, table.game, tuple(legal), current(), own)
    if picks is not None:
        if spec is None:
            raise WrongPhase(_("You have no cards to pick for a move now."))
        groups = card_picks.parse(picks, len(spec.groups))
        hand = [str(c) for c in view.get("hand") or ()]
        components = custom_ids.sealed(card_picks.picker(channel, hand, spec, groups))
        left_out = ()
        note = note or spec.prompt
    if left_out:
        embed.add_field(
            name=_("More moves (type them)"),
            value=", ".join(f"`{typed_move(a)}`" for a in left_out)[:1024],
            inline=False,
        )
    if note:
        embed.set_author(name=note[:250])
    # Every part of the embed is clipped as it is made (``hand_embed``, the lines above): only
    # its total is left to check.
    return Panel(fit_clipped(embed, what="hand panel"), components, picture)


def _file(png: bytes | None) -> list[discord.File]:
    return [] if png is None else [discord.File(io.BytesIO(png), HAND_IMAGE)]


async def build_panel(
    service: TableService,
    channel: int,
    user_id: int,
    note: str | None = None,
    deck: str = DEFAULT_DECK,
) -> tuple[discord.Embed, custom_ids.Sealed, discord.File | None]:
    """``draw_panel`` with its hand picture drawn (in the render pool, or from its cache)."""
    panel = draw_panel(service, channel, user_id, note, deck=deck)
    png = None if panel.picture is None else await pictures.render(panel.picture)
    files = _file(png)
    return panel.embed, panel.components, files[0] if files else None


def live_panels_of(interaction: discord.Interaction) -> LivePanels | None:
    live: LivePanels | None = getattr(interaction.client, "live_panels", None)
    return live


def _drawn(interaction: discord.Interaction, channel: int) -> Any:
    """What the user's live panel shows of the table now (``LivePanels.key``): taken just
    before ``build_panel`` reads the table, so a change while the answer is drawn and sent is
    redrawn (``remember``)."""
    live = live_panels_of(interaction)
    return None if live is None else live.key(channel, interaction.user.id)


def _remember(interaction: discord.Interaction, channel: int, drawn: Any = None) -> None:
    """This interaction now shows the user's panel: keep it live (see live_panels), with his
    Open table button."""
    build = _live_panel(deck_of(interaction))
    remember_live(interaction, channel, linked(interaction, channel, build), drawn)


def remember_live(
    interaction: discord.Interaction, channel: int, build: Builder, drawn: Any = None
) -> None:
    live = live_panels_of(interaction)
    if live is not None:
        live.remember(interaction, channel, build, drawn)


def _live_panel(deck: str) -> Builder:
    """The live panel's builder, in the player's deck as it was when he opened the panel."""

    async def build(
        service: TableService, channel: int, user_id: int
    ) -> tuple[list[discord.Embed], custom_ids.Sealed | None, discord.File | None]:
        embed, view, file = await build_panel(service, channel, user_id, deck=deck)
        return [embed], view, file

    return build


async def send_panel(interaction: discord.Interaction, note: str | None = None) -> None:
    assert interaction.channel_id is not None
    drawn = _drawn(interaction, interaction.channel_id)
    embed, view, file = await build_panel(service_of(interaction), interaction.channel_id,
                                    interaction.user.id, note, deck_of(interaction))  # fmt: skip
    view = with_link(view, personal_link(interaction, interaction.channel_id))
    kwargs: dict[str, Any] = {"embed": embed, "view": view, "ephemeral": True}
    if file is not None:
        kwargs["file"] = file
    await interaction.response.send_message(**kwargs)
    _remember(interaction, interaction.channel_id, drawn)


async def edit_panel(
    interaction: discord.Interaction, channel: int, note: str | None, picks: str | None = None
) -> None:
    """Redraw the panel whose button was pressed, in place. When its hand picture is not drawn
    yet (the hand changed: most moves), the press is acknowledged at once and the panel shown
    as soon as the render pool has drawn it: the player's click is not kept waiting on the
    picture. ``picks``: see ``draw_panel``."""
    drawn = _drawn(interaction, channel)
    panel = draw_panel(
        service_of(interaction), channel, interaction.user.id, note, picks, deck_of(interaction)
    )
    components = with_link(panel.components, personal_link(interaction, channel))
    png = None if panel.picture is None else pictures.ready(panel.picture)
    if panel.picture is not None and png is None:
        await interaction.response.defer()
        png = await pictures.render(panel.picture)
        await interaction.edit_original_response(
            embed=panel.embed, view=components, attachments=_file(png)
        )
    else:
        await interaction.response.edit_message(
            embed=panel.embed, view=components, attachments=_file(png)
        )
    _remember(interaction, channel, drawn)


async def act_from_panel(interaction: discord.Interaction, channel: int, action: str) -> None:
    """A panel button or select: act, then redraw the panel in place (or explain why not).
    Meanwhile the panel is not redrawn live (``LivePanels.pause``): the answer draws it."""
    service = service_of(interaction)
    live = live_panels_of(interaction)
    user = interaction.user.id
    if live is not None:
        live.pause(channel, user)
    try:
        result = await service.act(channel, user, action)
    except Exception as error:
        if live is not None:
            live.resume(channel, user)
        await fail(interaction, error)
        return
    note = move_note(result)
    try:
        # The state his move left (the current one if the table moved on since).
        state = result.snapshot
        if state is None or not state.current:
            state = service.snapshot(channel)
        table = None if state is None else state.table
        if table is None or table.status is not TableStatus.PLAYING:
            await interaction.response.edit_message(
                content=_("{note}. The game is over.", note=note),
                embed=None,
                view=None,
                attachments=[],
            )
            return
        await edit_panel(interaction, channel, note)
    except Exception:  # the move is made; only the redraw failed: say so, not "unchanged"
        log.exception("could not redraw the panel after %r", action)
        if live is not None:
            live.resume(channel, user)
        await answer(interaction, _("{note}.", note=note))


# -- dynamic items (persistent across restarts) ---------------------------------------------
def check_channel(interaction: discord.Interaction, channel: int) -> None:
    """A component acts on the table of the channel in its custom id: only from that channel
    (a forged or copied id must not reach another channel's table), or, for a table in its own
    thread, from the channel of its lobby post (its Join button)."""
    if interaction.channel_id == channel:
        return
    table = service_of(interaction).get_table(channel)
    where = thread_of(table.settings) if table is not None else None
    if where is None or where[0] != interaction.channel_id:
        raise NotAtTable(_("This button belongs to a table in another channel."))


class InChannel:
    """What every persistent component of a channel's table does first: speak the presser's
    language, act only from its own channel, and answer any refusal privately. Subclasses say
    what it does in ``act``."""

    channel: int

    async def callback(self, interaction: discord.Interaction) -> None:
        speak_to(interaction)
        try:
            check_channel(interaction, self.channel)
            await self.act(interaction)
        except Exception as error:
            await fail(interaction, error)

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class HandButton(
    InChannel, discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.HAND
):
    def __init__(self, channel: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_p("button", "Show my hand"), custom_id=custom_ids.hand(channel)
            )
        )
        self.channel = channel

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["channel"]))

    async def act(self, interaction: discord.Interaction) -> None:
        await send_panel(interaction)


class RefreshButton(
    InChannel, discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.REFRESH
):
    def __init__(self, channel: int) -> None:
        super().__init__(
            discord.ui.Button(label=_p("button", "Refresh"), custom_id=custom_ids.refresh(channel))
        )
        self.channel = channel

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RefreshButton:
        return cls(int(match["channel"]))

    async def act(self, interaction: discord.Interaction) -> None:
        await edit_panel(interaction, self.channel, None)


class ActButton(InChannel, discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.ACT):
    def __init__(self, channel: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(label=action[:80], custom_id=custom_ids.act(channel, action))
        )
        self.channel = channel
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActButton:
        return cls(int(match["channel"]), match["action"])

    async def act(self, interaction: discord.Interaction) -> None:
        await act_from_panel(interaction, self.channel, self.action)


class PickSelect(
    InChannel, discord.ui.DynamicItem[discord.ui.Select[Any]], template=custom_ids.PICK
):
    def __init__(self, channel: int, group: str, part: int) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_ids.pick(channel, group, part)))
        self.channel = channel

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickSelect:
        return cls(int(match["channel"]), match["group"], int(match["part"]))

    async def act(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        if not values:
            await answer(interaction, _("Pick one of the moves in the list."))
            return
        await act_from_panel(interaction, self.channel, str(values[0]))


class CardsSelect(
    InChannel, discord.ui.DynamicItem[discord.ui.Select[Any]], template=custom_ids.CARDS
):
    """The cards of one group of a pick (``card_picks``): the panel is redrawn with them."""

    def __init__(self, channel: int, group: int, picks: str) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_ids.cards(channel, group, picks)))
        self.channel = channel
        self.group = group
        self.picks = picks

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CardsSelect:
        return cls(int(match["channel"]), int(match["group"]), match["picks"])

    async def act(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        count = max(self.group + 1, self.picks.count(card_picks.GROUPS) + 1)
        groups = card_picks.parse(self.picks, count)
        groups[self.group] = card_picks.values_as_cards(values)
        if not card_picks.fits(self.channel, groups):
            raise WrongPhase(_("Too many cards to pick here: type the move with its command."))
        await edit_panel(interaction, self.channel, None, card_picks.text(groups))


class CardsDo(
    InChannel, discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.CARDS_DO
):
    """Opens a pick of the player's own cards, or makes the move of the cards picked."""

    def __init__(self, channel: int, step: str, picks: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_ids.cards_do(channel, step, picks)))
        self.channel = channel
        self.step = step
        self.picks = picks

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CardsDo:
        return cls(int(match["channel"]), match["step"], match["picks"])

    async def act(self, interaction: discord.Interaction) -> None:
        if self.step == "open":
            await edit_panel(interaction, self.channel, None, self.picks)
            return
        service = service_of(interaction)
        table = table_here(service, self.channel)
        tv = service.view(self.channel, interaction.user.id)
        spec = embeds.presenter_of(table).card_groups(dict(tv.game or {}), tv.legal)
        if spec is None:
            raise WrongPhase(_("You have no cards to pick for a move now."))
        groups = card_picks.parse(self.picks, len(spec.groups))
        await act_from_panel(interaction, self.channel, card_picks.action(spec, groups))


class JoinButton(
    InChannel, discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.JOIN
):
    def __init__(self, channel: int) -> None:
        super().__init__(
            discord.ui.Button(label=_p("button", "Join"), custom_id=custom_ids.join(channel))
        )
        self.channel = channel

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["channel"]))

    async def act(self, interaction: discord.Interaction) -> None:
        table = await service_of(interaction).join(
            self.channel, interaction.user.id, display_name(interaction.user)
        )
        seat = table.seat_of(interaction.user.id)
        await answer(interaction, joined_text(table.title, seat.index if seat else None))


class StartButton(
    InChannel, discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.START
):
    def __init__(self, channel: int) -> None:
        super().__init__(
            discord.ui.Button(label=_p("button", "Start"), custom_id=custom_ids.start(channel))
        )
        self.channel = channel

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StartButton:
        return cls(int(match["channel"]))

    async def act(self, interaction: discord.Interaction) -> None:
        table = await service_of(interaction).start_game(self.channel, interaction.user.id)
        await answer(interaction, _("{game} has started. Good luck!", game=_(table.title)))


class RematchButton(
    InChannel, discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.REMATCH
):
    """On a finished game's final message: its players play it again (``service.rematch``)."""

    def __init__(self, channel: int) -> None:
        super().__init__(
            discord.ui.Button(label=_p("button", "Rematch"), custom_id=custom_ids.rematch(channel))
        )
        self.channel = channel

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["channel"]))

    async def act(self, interaction: discord.Interaction) -> None:
        user = interaction.user.id
        table = await service_of(interaction).rematch(
            self.channel, user, display_name(interaction.user)
        )
        seat = table.seat_of(user)
        await answer(interaction, rematch_text(table, user, seat.index if seat else None))


def rematch_text(table: Table, user: int, seat: int | None) -> str:
    """The answer to a player who pressed Rematch (``seat``: his seat's index)."""
    number = None if seat is None else seat + 1
    if table.status is TableStatus.PLAYING:
        if number is None:
            return _("You are in: everybody is, the rematch has started. Good luck!")
        return _("You are in at seat {number}: everybody is, the rematch has started. Good luck!",
                 number=number)  # fmt: skip
    if table.host_id == user:
        wait = round(REMATCH_CONFIRM_SECONDS)
        if number is None:
            return _(
                "Rematch! You are in and host the new table; the other players press Rematch too"
                " (it starts once they all have, or in {wait} s without them: the AI keeps their"
                " seats), or /start without them.",
                wait=wait,
            )
        return _(
            "Rematch! You are in at seat {number} and host the new table; the other players"
            " press Rematch too (it starts once they all have, or in {wait} s without them: the"
            " AI keeps their seats), or /start without them.",
            number=number,
            wait=wait,
        )
    if number is None:
        return _("You are in the rematch.")
    return _("You are in the rematch at seat {number}.", number=number)


DYNAMIC_ITEMS = (
    HandButton,
    RefreshButton,
    ActButton,
    PickSelect,
    CardsSelect,
    CardsDo,
    JoinButton,
    StartButton,
    RematchButton,
)


class Panels(commands.Cog):
    """Registers the persistent components and keeps the players' panels live (no slash
    command of its own)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.live: LivePanels | None = None

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        service: TableService = self.bot.service  # type: ignore[attr-defined]
        self.live = LivePanels(service)
        service.add_listener(self.live)
        self.bot.live_panels = self.live  # type: ignore[attr-defined]

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        if self.live is not None:
            self.bot.service.remove_listener(self.live)  # type: ignore[attr-defined]
            self.bot.live_panels = None  # type: ignore[attr-defined]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Panels(bot))
