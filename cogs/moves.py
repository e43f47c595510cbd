"""Move commands generated from the games' declared verbs (``GameSpec.verbs``).

Every verb a game declares becomes a slash command (``/play card``, ``/bid bid``); two
games sharing a verb share its command. A command only turns its arguments into the engine's
action words and hands them to the service, which checks everything; its refusal is the answer.
Each argument autocompletes from the user's legal actions: argument ``i`` offers the ``i``-th
word of the matching actions (the last takes the rest), after the words already chosen.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import discord
from discord import app_commands

import engine
from bot.i18n import _
from bot.render.embeds import presenter_of
from bot.render.games.cards import typed_words
from cogs.common import channel_id, move_note, ok, service_of
from cogs.panels import send_panel
from engine.verbs import Verb, merge_verbs

MAX_CHOICES = 25
#: Longest argument a user may type (the longest real move, a whole contract, is ~60
#: characters); Discord refuses longer input before it reaches the bot.
MAX_ARGUMENT = 200
log = logging.getLogger(__name__)

Callback = Callable[..., Coroutine[Any, Any, None]]


def declared_verbs() -> dict[str, Verb]:
    """Every game's verbs, one per name."""
    return merge_verbs((name, verb) for name, spec in engine.GAMES.items() for verb in spec.verbs)


def completions(
    legal: Sequence[str], verb: Verb, index: int, current: str, before: Sequence[str] = ()
) -> list[str]:
    """Argument ``index`` of ``verb`` for the user's legal actions that match what he typed and
    the arguments ``before`` it he has already chosen."""
    last = index == len(verb.args) - 1
    chosen = [" ".join(str(b).lower().split()) for b in before]
    out: list[str] = []
    for action in legal:
        if not verb.makes(action):
            continue
        argument = verb.argument_of(action)
        if not argument:
            continue
        words = argument.split(" ")
        if chosen and words[: len(chosen)] != chosen:
            continue
        if len(words) <= index:
            continue
        value = " ".join(words[index:]) if last else words[index]
        if value not in out:
            out.append(value)
    typed = " ".join(current.lower().split())
    if typed:
        out = [a for a in out if a.startswith(typed) or typed in a]
    return out[:MAX_CHOICES]


def completer(verb: Verb, index: int) -> Callable[..., Coroutine[Any, Any, list[Any]]]:
    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        try:
            service = service_of(interaction)
            legal = service.legal_actions(interaction.channel_id, interaction.user.id)
            table = service.get_table(interaction.channel_id)
            label = presenter_of(table).action_label if table is not None else str
        except Exception:  # autocomplete never errors at the user; the command will explain
            return []
        before = [str(getattr(interaction.namespace, a.name, "") or "") for a in verb.args[:index]]
        choices = []
        for value in completions(legal, verb, index, current, before):
            action = verb.action([*before, value], legal)
            shown = label(action) if action in legal else value
            choices.append(app_commands.Choice(name=shown[:100], value=value[:100]))
        return choices

    return complete


async def act(interaction: discord.Interaction, verb: Verb, arguments: Sequence[str]) -> None:
    """Act for the user; answer with his panel if he is still to move, else a short note."""
    service = service_of(interaction)
    channel = channel_id(interaction)
    legal = service.legal_actions(channel, interaction.user.id)
    # A card typed in the player's letters (French ``dh``: the Dame of hearts) becomes the
    # engine's code (``QH``); suits stay S H D C; the game's words in his language become the
    # engine's (French ``7 sans``: ``7 no``).
    table = service.get_table(channel)
    words = presenter_of(table).move_words() if table is not None else {}
    action = verb.action(typed_words(list(arguments), words), legal)
    result = await service.act(channel, interaction.user.id, action)
    note = move_note(result)
    try:
        if service.legal_actions(channel, interaction.user.id):
            await send_panel(interaction, note)
            return
    except Exception:  # the move is made: never answer it with "the table is unchanged"
        log.exception("could not show the panel after %r", action)
    await ok(interaction, _("{note}.", note=note))


def build_move_command(verb: Verb) -> app_commands.Command[Any, ..., None]:
    """``/verb args...``, its parameters and autocomplete from the declaration."""
    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    descriptions: dict[str, str] = {}
    autocomplete: dict[str, Any] = {}
    for i, arg in enumerate(verb.args):
        parameters.append(
            inspect.Parameter(
                arg.name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=app_commands.Range[str, 1, MAX_ARGUMENT],
            )
        )
        descriptions[arg.name] = arg.description[:100]
        autocomplete[arg.name] = completer(verb, i)

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await act(interaction, verb, [str(values[a.name]) for a in verb.args])

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_autocomplete__ = autocomplete  # type: ignore[attr-defined]
    return app_commands.Command(name=verb.name, description=verb.description, callback=callback)
