"""The command set: every cog loads, names are unique and Discord's limits hold; /new is built
from the engines' option schemas; /rules, /help and /invite answer."""

from __future__ import annotations

import re

from cog_world import World
from discord import app_commands

import engine
from bot.app import EXTENSIONS, PERMISSIONS
from cogs.moves import declared_verbs

PRODUCT_COMMANDS = {
    "new", "join", "leave", "addbot", "kick", "start", "options", "table", "hand", "abandon",
    "score", "bid", "pass", "trump", "call", "discard", "play", "take", "draw", "mayi", "meld",
    "layoff", "rules", "help", "invite",
}  # fmt: skip
NAME = re.compile(r"^[-_a-z0-9]{1,32}$")


def _leaves(world: World) -> list[app_commands.Command]:
    return [c for c in world.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]


async def test_all_cogs_load_and_no_two_commands_share_a_name(world: World) -> None:
    bot = world.bot
    assert set(bot.extensions) == set(EXTENSIONS)
    assert {"Lobby", "Play", "Panels", "Info"} <= set(bot.cogs)  # and any cog added since
    top = [c.name for c in bot.tree.get_commands()]
    assert len(top) == len(set(top))
    qualified = [c.qualified_name for c in bot.tree.walk_commands()]
    assert len(qualified) == len(set(qualified))
    assert set(top) >= PRODUCT_COMMANDS
    seen = set(world.members[0].available_commands(world.channel))
    assert {f"new {game}" for game in engine.GAMES} <= seen


async def test_every_command_fits_discords_limits(world: World) -> None:
    for command in _leaves(world):
        assert NAME.match(command.name) and 1 <= len(command.description) <= 100
        assert len(command.parameters) <= 25
        for parameter in command.parameters:
            assert NAME.match(parameter.name), parameter.name
            assert len(parameter.description) <= 100
            assert len(parameter.choices) <= 25


async def test_new_offers_each_games_options_as_typed_choices(world: World) -> None:
    new = world.bot.tree.get_command("new")
    assert isinstance(new, app_commands.Group)
    assert {c.name for c in new.commands} == set(engine.GAMES)
    for command in new.commands:
        spec = engine.GAMES[command.name]
        params = {p.name: p for p in command.parameters}
        if spec.presets:
            assert {c.value for c in params["preset"].choices} == set(spec.presets)
        for option in spec.options:
            param = params[option.name]
            assert not param.required
            if option.is_bool:
                assert [c.value for c in param.choices] == ["on", "off"]
            elif len(option.values()) <= 25:
                assert len(param.choices) == len(option.values())
            elif not option.extra:
                assert (param.min_value, param.max_value) == (option.minimum, option.maximum)
            else:
                assert param.autocomplete


async def test_new_with_options_opens_a_table_with_them(world: World) -> None:
    if "troika" not in engine.GAMES:
        return
    result = await world.slash(world.members[0], "new troika", preset="saskatchewan", min_bid=8,
                               kitty="off", target=62)  # fmt: skip
    assert result.ephemeral
    table = world.table()
    assert table is not None and table.preset == "saskatchewan"
    assert (table.options["min_bid"], table.options["kitty"], table.options["target"]) == (
        8,
        False,
        62,
    )


async def test_range_options_with_words_autocomplete(world: World) -> None:
    if "troggu" not in engine.GAMES:
        return
    choices = await world.members[0].autocomplete(world.channel, "new troggu", "deals", "1")
    values = [c["value"] for c in choices]
    assert values and all(v.startswith("1") for v in values) and "1" in values


async def test_rules_help_and_invite(world: World) -> None:
    host = world.members[0]
    for game in engine.GAMES:
        rules = await world.slash(host, "rules", game=game)
        assert rules.ephemeral
        summary = engine.registry.CLASSES[game].rules_summary(None)
        assert rules.response.embeds[0].description[:50] == summary[:50]
    helped = await world.slash(host, "help")
    text = helped.response.embeds[0].description
    assert helped.ephemeral and all(name in text for name in engine.GAMES)
    invite = await world.slash(host, "invite")
    text = invite.response.content
    assert "scope=bot+applications.commands" in text
    assert f"permissions={PERMISSIONS.value}" in text


async def test_rules_without_a_game_tells_this_tables_rules(world: World) -> None:
    if "troeven" not in engine.GAMES:
        return
    await world.slash(world.members[0], "new troeven", version="stock")
    rules = await world.slash(world.members[1], "rules")
    summary = engine.registry.CLASSES["troeven"].rules_summary(dict(world.table().options))
    assert rules.response.embeds[0].description[:80] == summary[:80]


async def test_autocomplete_offers_the_users_legal_moves(world: World) -> None:
    if "troika" not in engine.GAMES:
        return
    await world.open("troika", humans=4)
    turn = world.human_to_act()
    assert turn is not None
    member, legal = turn
    offered = await member.autocomplete(world.channel, "bid", "bid", "")
    values = [c["value"] for c in offered]
    # Every legal move /bid makes (bids, and the declared aliases: pass, a misdeal when the
    # hand allows one), in the legal list's order, as many as Discord shows.
    bid = declared_verbs()["bid"]
    expected = [bid.argument_of(a) for a in legal if bid.makes(a)]
    assert values == expected[:25]
    assert "pass" in values
    typed = await member.autocomplete(world.channel, "bid", "bid", "7")
    assert typed and all("7" in c["value"] for c in typed)
    someone_else = world.members[(world.member_index(member) + 1) % 4]
    assert await someone_else.autocomplete(world.channel, "play", "card", "") == []


async def test_commands_sync_to_the_dev_guild_when_set(world: World) -> None:
    from dataclasses import replace

    world.settings = replace(world.settings, dev_guild_id=world.guild.id)
    cursor = len(world.env.http_requests)
    await world.restart()
    synced = [e.path for e in world.env.http_requests[cursor:] if e.method == "PUT"]
    assert synced == [f"/applications/{world.bot.application_id}/guilds/{world.guild.id}/commands"]
    commands = set(world.members[0].available_commands(world.channel))
    assert "new troika" in commands and "play" in commands
    result = await world.slash(world.members[0], "help")
    assert result.ephemeral
