"""``/new <game>``: one subcommand per game, its parameters built from ``engine.GAMES``.

Each ``GameSpec.options`` entry becomes a typed, validated parameter: on/off options offer
``on``/``off``; options with at most 25 values offer them as choices (ints stay ints); longer
integer ranges become a bounded integer; ranges with extra words (``auto``) get autocomplete.
``preset`` offers the game's presets. Discord allows 25 parameters: options beyond that are set
afterwards with ``/options``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from engine.options import GameSpec, Option, format_value

MAX_PARAMETERS = 25
MAX_CHOICES = 25
#: Longest value typed for an option (the longest real one is a word like ``unlimited``).
MAX_TEXT = 40

Callback = Callable[..., Coroutine[Any, Any, None]]
Opener = Callable[[discord.Interaction, str, str | None, dict[str, Any]], Coroutine[Any, Any, None]]


def _describe(option: Option) -> str:
    text = f"{option.description} (default {format_value(option.default)})"
    return text if len(text) <= 100 else option.description[:99] + "…"


def option_parameter(option: Option) -> tuple[Any, list[app_commands.Choice[Any]] | None, bool]:
    """(annotation, choices, autocomplete?) for one option."""
    if option.is_bool:
        return str, [app_commands.Choice(name=v, value=v) for v in ("on", "off")], False
    values = option.values()
    if len(values) <= MAX_CHOICES:
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return int, [app_commands.Choice(name=str(v), value=int(v)) for v in values], False
        names = [format_value(v) for v in values]
        return str, [app_commands.Choice(name=n, value=n) for n in names], False
    if not option.extra and option.minimum is not None and option.maximum is not None:
        return app_commands.Range[int, option.minimum, option.maximum], None, False
    # Free text (autocomplete only suggests): bounded, so no one sends 6,000 characters.
    return app_commands.Range[str, 1, MAX_TEXT], None, True


def build_new_command(spec: GameSpec, open_table: Opener) -> app_commands.Command[Any, ..., None]:
    """The ``/new <spec.name>`` subcommand; ``open_table(interaction, game, preset, options)``."""
    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    choices: dict[str, list[app_commands.Choice[Any]]] = {}
    descriptions: dict[str, str] = {}
    autocomplete: dict[str, Any] = {}
    option_names: list[str] = []
    if spec.presets:
        parameters.append(_parameter("preset", str))
        choices["preset"] = [app_commands.Choice(name=p, value=p) for p in spec.presets][:25]
        descriptions["preset"] = "A named set of options (each option below still overrides it)"
    for option in spec.options:
        if len(parameters) - 1 >= MAX_PARAMETERS:
            break
        annotation, option_choices, complete = option_parameter(option)
        parameters.append(_parameter(option.name, annotation))
        descriptions[option.name] = _describe(option)
        option_names.append(option.name)
        if option_choices is not None:
            choices[option.name] = option_choices
        if complete:
            autocomplete[option.name] = _value_completer(option)

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        preset = values.pop("preset", None)
        overrides = {k: v for k, v in values.items() if v is not None}
        await open_table(interaction, spec.name, preset, overrides)

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_choices__ = choices  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_autocomplete__ = autocomplete  # type: ignore[attr-defined]
    summary = spec.summary or f"Open a {spec.title} table"
    return app_commands.Command(
        name=spec.name,
        # (Translated whole by the command tree's translator: see bot.i18n.sources.)
        description=f"Open a {spec.title} table: {summary}"[:100],
        callback=callback,
    )


def _parameter(name: str, annotation: Any) -> inspect.Parameter:
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation | None
    )


def _value_completer(option: Option) -> Callable[..., Coroutine[Any, Any, list[Any]]]:
    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        names = [format_value(v) for v in option.values()]
        hits = [n for n in names if n.lower().startswith(typed)] if typed else names
        return [app_commands.Choice(name=n, value=n) for n in hits[:MAX_CHOICES]]

    return complete
