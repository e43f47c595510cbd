"""Playing: /table, /hand, /score and the move commands.

A move command only turns into the engine's action words (``/bid 7 no`` -> ``bid 7 no``,
``/play 10H`` -> ``play 10h``) and hands them to the service, which checks everything; its refusal
is the answer. Autocomplete offers exactly the user's legal actions from the service.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import embeds
from bot.render.cards import pretty_action
from bot.service import NoTable, TableStatus
from cogs.common import bot_of, channel_id, ok, service_of
from cogs.panels import send_panel

#: Verbs that have their own command; any other legal word (``tapp``, ``solo``) is a kind of
#: bid for autocomplete purposes.
VERBS = frozenset(
    {"bid", "pass", "trump", "call", "discard", "play", "take", "draw", "mayi", "meld", "layoff"}
)
MAX_CHOICES = 25
log = logging.getLogger(__name__)


def resolve(legal: Sequence[str], verb: str, argument: str = "") -> str:
    """The action words for ``/verb argument``: the legal action it names, else the literal
    words (the engine then explains what is wrong with them)."""
    argument = " ".join(argument.lower().split())
    literal = f"{verb} {argument}".strip()
    candidates = [literal] + ([argument] if argument else [])
    for candidate in candidates:
        if candidate in legal:
            return candidate
    if not argument:
        # ``/draw`` when the engine's word is ``draw stock``: the one legal action of that verb.
        longer = [a for a in legal if a.startswith(verb + " ")]
        if len(longer) == 1:
            return longer[0]
    return literal


def completions(legal: Sequence[str], verb: str, current: str, word: int | None = None,
                after: str = "") -> list[str]:  # fmt: skip
    """Argument texts of the user's legal ``verb`` actions that match what he typed.

    ``word`` picks one word of the argument (``/layoff <card> <meld>``); ``after`` keeps only
    actions whose argument starts with it (the card already chosen).
    """
    out: list[str] = []
    for action in legal:
        head, _, rest = action.partition(" ")
        if head == verb and rest:
            argument = rest
        elif verb == "bid" and (head not in VERBS or action == "pass"):
            argument = action  # ``pass``, and Troggu's ``tapp``/``solo`` and similar bid words
        else:
            continue
        if after and not argument.startswith(after.lower().strip() + " "):
            continue
        if word is not None:
            words = argument.split(" ")
            argument = " ".join(words[word:]) if word > 0 else words[0]
        if argument not in out:
            out.append(argument)
    typed = " ".join(current.lower().split())
    if typed:
        out = [a for a in out if a.startswith(typed) or typed in a]
    return out[:MAX_CHOICES]


def completer(
    verb: str, word: int | None = None, after_param: str | None = None
) -> Callable[..., Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        try:
            legal = service_of(interaction).legal_actions(
                interaction.channel_id, interaction.user.id
            )
        except Exception:  # autocomplete never errors at the user; the command will explain
            return []
        after = str(getattr(interaction.namespace, after_param, "") or "") if after_param else ""
        return [
            app_commands.Choice(name=pretty_action(a)[:100], value=a[:100])
            for a in completions(legal, verb, current, word, after)
        ]

    return complete


async def act(interaction: discord.Interaction, verb: str, argument: str = "") -> None:
    """Act for the user; answer with his panel if he is still to move, else a short note."""
    service = service_of(interaction)
    channel = channel_id(interaction)
    legal = service.legal_actions(channel, interaction.user.id)
    action = resolve(legal, verb, argument)
    await service.act(channel, interaction.user.id, action)
    note = f"You: {pretty_action(action)}"
    try:
        if service.legal_actions(channel, interaction.user.id):
            await send_panel(interaction, note)
            return
    except Exception:  # the move is made: never answer it with "the table is unchanged"
        log.exception("could not show the panel after %r", action)
    await ok(interaction, note + ".")


class Play(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    # -- looking --------------------------------------------------------------------------------
    @app_commands.command(name="table", description="Show the table (re-posts the table message)")
    async def table(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        table = service.get_table(channel)
        if table is None:
            raise NoTable()
        publisher = bot_of(interaction).table_publisher
        embed, view, file = publisher.render(table)
        kwargs: dict[str, Any] = {"embed": embed}
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        await interaction.response.send_message(**kwargs)
        message = await interaction.original_response()
        hand = None
        if table.status is TableStatus.PLAYING:
            hand = (service.public_view(channel) or {}).get("hand_number")
        publisher.adopt(channel, table, message.id, hand)

    @app_commands.command(name="hand", description="Your hand and your moves (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await send_panel(interaction)

    @app_commands.command(name="score", description="The scores of this table")
    async def score(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        table = service.get_table(channel)
        if table is None:
            raise NoTable()
        view = service.public_view(channel) if table.status is TableStatus.PLAYING else None
        await interaction.response.send_message(
            embed=embeds.scores_embed(table, view), ephemeral=True
        )

    # -- moves ----------------------------------------------------------------------------------
    @app_commands.command(name="bid", description="Bid (e.g. 7, 7 no, pass; Troggu: tapp, solo)")
    @app_commands.describe(bid="Your bid; the list shows your legal bids")
    @app_commands.autocomplete(bid=completer("bid"))
    async def bid(self, interaction: discord.Interaction, bid: str) -> None:
        await act(interaction, "bid", bid)

    @app_commands.command(name="pass", description="Pass")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await act(interaction, "pass")

    @app_commands.command(name="trump", description="Name trumps")
    @app_commands.describe(suit="The trump suit")
    @app_commands.autocomplete(suit=completer("trump"))
    async def trump(self, interaction: discord.Interaction, suit: str) -> None:
        await act(interaction, "trump", suit)

    @app_commands.command(name="call", description="Call a partner by a card (Troggu)")
    @app_commands.describe(card="The card whose holder will be your partner, or none")
    @app_commands.autocomplete(card=completer("call"))
    async def call(self, interaction: discord.Interaction, card: str) -> None:
        await act(interaction, "call", card)

    @app_commands.command(name="discard", description="Discard a card")
    @app_commands.describe(card="The card to discard")
    @app_commands.autocomplete(card=completer("discard"))
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        await act(interaction, "discard", card)

    @app_commands.command(name="play", description="Play a card")
    @app_commands.describe(card="The card to play, e.g. AH, 10S, K-CU")
    @app_commands.autocomplete(card=completer("play"))
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        await act(interaction, "play", card)

    @app_commands.command(name="take", description="Take the top discard (TroiKuntza)")
    async def take(self, interaction: discord.Interaction) -> None:
        await act(interaction, "take")

    @app_commands.command(name="draw", description="Draw from the stock (TroiKuntza)")
    async def draw(self, interaction: discord.Interaction) -> None:
        await act(interaction, "draw")

    @app_commands.command(name="mayi", description='Call "May I" for the top discard (TroiKuntza)')
    async def mayi(self, interaction: discord.Interaction) -> None:
        await act(interaction, "mayi")

    @app_commands.command(name="meld", description="Lay down your contract (TroiKuntza)")
    @app_commands.describe(melds="The melds; the list offers the contracts you can make")
    @app_commands.autocomplete(melds=completer("meld"))
    async def meld(self, interaction: discord.Interaction, melds: str) -> None:
        await act(interaction, "meld", melds)

    @app_commands.command(name="layoff", description="Lay off a card on a meld (TroiKuntza)")
    @app_commands.describe(card="The card to lay off", meld="The meld to put it on")
    @app_commands.autocomplete(
        card=completer("layoff", word=0), meld=completer("layoff", word=1, after_param="card")
    )
    async def layoff(self, interaction: discord.Interaction, card: str, meld: str) -> None:
        await act(interaction, "layoff", f"{card} {meld}")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
