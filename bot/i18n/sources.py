"""Strings that live in declarations rather than in ``_()`` calls, registered with
``catalogs.SOURCES`` (each source yields ``(context or None, text)``)."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from typing import Any

from discord import app_commands
from discord.ext import commands

from bot.i18n.catalogs import SOURCES
from bot.i18n.translator import CONTEXTS

Where = app_commands.TranslationContextLocation


def refusal_templates() -> Iterator[tuple[str | None, str]]:
    """Every refusal the engine can give (``engine.messages.TEMPLATES``) and the words of its
    styles, rendered by ``bot.i18n.refusals``."""
    from bot.i18n.refusals import catalog_strings

    yield from catalog_strings()


def option_descriptions() -> Iterator[tuple[str | None, str]]:
    """What each game's options are for (shown with ``_()`` in the host's option editor)."""
    import engine

    for spec in engine.GAMES.values():
        for option in spec.options:
            yield None, option.description


def game_titles() -> Iterator[tuple[str | None, str]]:
    """The games' titles, shown with ``_(table.title)``."""
    import engine

    for spec in engine.GAMES.values():
        yield None, spec.title


def web_strings() -> Iterator[Declared]:
    """The words each game's web page asks for (``<game package>/web/strings.json``, each
    ``"msgid"`` or ``"context|msgid"``): its own catalog keeps them even when no Python code of
    the game says them any more."""
    import json

    from bot.i18n.core import own_catalog_packages

    for package in own_catalog_packages():
        listed = package / "web" / "strings.json"
        if not listed.is_file():
            continue
        for text in json.loads(listed.read_text()):
            context, bar, msgid = str(text).partition("|")
            yield (context, msgid, package.name) if bar else (None, str(text), package.name)


def loaded_commands() -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    """Every top-level slash command the bot's cogs add to the tree: those declared in the cog
    classes, the ``/new <game>`` group and the move commands generated from the games' verbs."""
    from bot.app.client import EXTENSIONS

    found: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []
    for extension in EXTENSIONS:
        module = importlib.import_module(extension)
        for value in vars(module).values():
            if not (isinstance(value, type) and issubclass(value, commands.Cog)):
                continue
            if value.__module__ != module.__name__:
                continue
            cog = value(None)  # type: ignore[arg-type]  # (the cogs only keep the bot)
            found.extend(cog.get_app_commands())
            for attribute in vars(cog).values():  # commands a cog builds when it is made
                items = attribute if isinstance(attribute, list) else [attribute]
                found.extend(
                    item
                    for item in items
                    if isinstance(item, app_commands.Command | app_commands.Group)
                    and item.parent is None
                    and item not in found
                )
    return found


#: A declared string: ``(context, text)``, or ``(context, text, game)`` when it is that game's
#: own (``catalogs.split`` puts it in the game's catalog unless another game declares it too).
Declared = tuple[str | None, str] | tuple[str | None, str, str]


def command_strings(
    items: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group],
) -> Iterator[Declared]:
    """``(context, text)`` of every name, description, option and choice the translator is
    asked for; those of a command named after a game (``/new <game>``) are that game's."""
    for item in items:
        if isinstance(item, app_commands.Group):
            yield CONTEXTS[Where.group_name], item.name
            yield CONTEXTS[Where.group_description], item.description
            yield from command_strings(item.commands)
            continue
        owner = _game_named(item.name)
        for context, text in _command_strings(item):
            yield (context, text) if owner is None else (context, text, owner)


def _game_named(name: str) -> str | None:
    import engine

    return name if name in engine.GAMES else None


def _command_strings(item: app_commands.Command[Any, ..., Any]) -> Iterator[tuple[str, str]]:
    yield CONTEXTS[Where.command_name], item.name
    yield CONTEXTS[Where.command_description], item.description
    for parameter in item.parameters:
        yield CONTEXTS[Where.parameter_name], parameter.display_name
        if parameter.description and parameter.description != "…":
            yield CONTEXTS[Where.parameter_description], str(parameter.description)
        for choice in parameter.choices:
            if not str(choice.name).isdigit():  # numbers read the same everywhere
                yield CONTEXTS[Where.choice_name], str(choice.name)


def slash_commands() -> Iterator[Declared]:
    yield from command_strings(loaded_commands())
    # The Activity's Entry Point command, which the tree does not hold (bot.app.entry_point).
    from bot.app import entry_point

    yield CONTEXTS[Where.command_name], entry_point.NAME
    yield CONTEXTS[Where.command_description], entry_point.DESCRIPTION


SOURCES.extend([refusal_templates, option_descriptions, game_titles, slash_commands, web_strings])
