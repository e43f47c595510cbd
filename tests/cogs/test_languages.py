"""Each message in its reader's language, through Discord: a player's replies, refusals and hand
panel in his client's language; the table message, pings and lobby in the server's.

The French catalog is still empty (translations land later): here "French" answers with the
pseudo-language (every marked string wrapped in ⟦ ⟧), so "not English" is checked robustly: a
French reply is wrapped, an English one is not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
import simcord
from cog_world import World
from test_admin import make_admin

from bot.i18n import _, use_locale
from bot.i18n import core as i18n_core
from bot.i18n.core import PseudoTranslations
from bot.i18n.pseudo import CLOSE, OPEN, pseudo
from bot.i18n.translator import CatalogTranslator


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Each member's Discord client language (user id -> locale; en-US when absent)."""
    chosen: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        if kwargs["user_id"] in chosen:
            payload["locale"] = chosen[kwargs["user_id"]]
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return chosen


@pytest.fixture
def french(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """French speaks the pseudo-language in these tests."""
    monkeypatch.setitem(i18n_core._catalogs, "fr", PseudoTranslations())
    yield


def is_french(text: str | None) -> bool:
    return bool(text) and text.lstrip().startswith(OPEN) and text.rstrip().endswith(CLOSE)  # type: ignore[union-attr]


def embed_texts(message: discord.Message) -> list[str]:
    texts = [message.content or ""]
    for embed in message.embeds:
        texts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        texts += [f"{field.name}\n{field.value}" for field in embed.fields]
    return [t for t in texts if t]


def labels(message: discord.Message) -> list[str]:
    return [
        child.label or ""
        for row in message.components
        for child in getattr(row, "children", [])
        if getattr(child, "label", None)
    ]


async def test_a_french_player_reads_french_while_the_table_speaks_the_servers_language(
    world: World, locales: dict[int, str], french: None
) -> None:
    ann, bob = world.members[:2]
    locales[bob.id] = "fr"
    opened = await world.slash(ann, "new troika")
    assert opened.response.content.startswith("You opened a Troika table")
    joined = await world.slash(bob, "join")
    assert joined.ephemeral and is_french(joined.response.content), joined.response.content
    assert pseudo("Troika") in joined.response.content, "the game's title in his language too"
    # A refusal raised by the service, in his language: only the host starts.
    refused = await world.slash(bob, "start")
    assert refused.ephemeral and is_french(refused.response.content), refused.response.content
    assert "ann" in refused.response.content, "the host's name"
    # A button of the public message answers him in French too (he is seated already).
    lobby = world.table_messages()[-1]
    pressed = await bob.click(lobby, custom_id=f"tt:join:{world.channel.id}")
    assert is_french(pressed.response.content), pressed.response.content
    # The table message (the server is en-US) stays English, bob's doing included.
    lobby = world.table_messages()[-1]
    text = "\n".join(embed_texts(lobby))
    assert OPEN not in text and "bob" in text, text
    assert labels(lobby) == ["Join", "Start"]


async def test_engine_refusals_and_the_live_panel_keep_the_players_language(
    world: World, locales: dict[int, str], french: None
) -> None:
    await world.open("troika", humans=4)
    turn = world.human_to_act()
    assert turn is not None
    member, legal = turn
    locales[member.id] = "fr"
    # An engine refusal (a card at bidding time, or a card that is no card).
    refused = await world.slash(member, "play", card="ZZ")
    assert refused.ephemeral and is_french(refused.response.content), refused.response.content
    # His panel, opened in French, is redrawn in French when an English player moves.
    others = [m for m in world.members[:4] if m is not member]
    watcher = others[0]
    locales[watcher.id] = "fr"
    panel = await watcher.click(world.live_table_message(), custom_id=f"tt:hand:{world.channel.id}")
    assert panel.ephemeral
    assert any(is_french(label) for label in labels(panel.response.message)), "Refresh"
    since = len(world.env.http_requests)
    locales.pop(member.id)
    await world.by_command(member, legal[0])
    redrawn = [
        entry.json
        for entry in world.env.http_requests[since:]
        if entry.method == "PATCH" and "/webhooks/" in entry.path and "@original" in entry.path
    ]
    assert redrawn, "the watcher's panel was redrawn"
    buttons = [
        c.get("label", "")
        for body in redrawn
        for row in body.get("components", [])
        for c in row.get("components", [])
        if c.get("label")
    ]
    assert any(is_french(b) for b in buttons), buttons
    # The mover's own (English) answer and the public table stay English.
    assert not any(OPEN in t for m in world.table_messages() for t in embed_texts(m))


async def test_admin_defaults_language_sets_the_language_of_public_messages(
    world: World, french: None
) -> None:
    ada = make_admin(world)
    answer = await world.slash(ada, "admin defaults", language="fr")
    assert "**Language:** Français" in answer.response.content, answer.response.content
    ann = world.members[0]
    await world.slash(ann, "new troika")
    lobby = world.table_messages()[-1]
    assert all(is_french(label) for label in labels(lobby)), labels(lobby)
    joined = await world.slash(world.members[1], "join")
    assert not is_french(joined.response.content), "bob's own answer: his client's English"
    # Back to the server's own language (en-US here).
    back = await world.slash(ada, "admin defaults", language="server")
    assert "(the server's)" in back.response.content
    await world.slash(world.members[2], "join")
    assert labels(world.table_messages()[-1]) == ["Join", "Start"]
    # The choice is stored: it outlives a restart.
    await world.slash(ada, "admin defaults", language="fr")
    await world.restart()
    await world.slash(world.members[3], "join")
    assert all(is_french(label) for label in labels(world.table_messages()[-1]))
    started = await world.slash(ann, "start")
    assert not is_french(started.response.content)
    with use_locale("fr"):
        starts = _("**The game starts.**")
    playing = world.table_messages()[-1]
    assert all(is_french(label) for label in labels(playing)), labels(playing)
    assert any(starts in t for t in embed_texts(playing)), embed_texts(playing)


async def test_a_french_server_speaks_french_by_its_preferred_locale(
    world: World, french: None
) -> None:
    guild = world.env.create_guild(name="Club de cartes", preferred_locale="fr")
    channel = guild.create_text_channel("cartes")
    host = guild.add_member(world.env.create_user("zoe"))
    opened = await host.slash(channel, "new troika")
    assert not is_french(opened.response.content), "zoe's own client speaks English"
    posted = [m for m in channel.history() if m.embeds]
    assert posted and all(is_french(label) for label in labels(posted[-1])), labels(posted[-1])


async def test_the_slash_commands_are_synced_through_the_catalog_translator(world: World) -> None:
    assert isinstance(world.bot.tree.translator, CatalogTranslator)


async def test_with_the_real_catalogs_a_french_player_reads_french_and_the_table_english(
    world: World, locales: dict[int, str]
) -> None:
    """The shipped French catalog, not a stand-in: bob's client is French, the server en-US."""
    ann, bob, cid = world.members[:3]
    locales[bob.id] = "fr"
    await world.slash(ann, "new troika")
    await world.slash(bob, "join")
    refused = await world.slash(bob, "start")
    english = "Only the host (ann) can start the game."
    with use_locale("fr"):
        french = _("Only the host ({name}) can start the game.", name="ann")
    assert french != english
    assert refused.ephemeral and refused.response.content == french
    # cid's client is English: the same refusal in English.
    assert (await world.slash(cid, "start")).response.content == english
    # The table message follows the server (en-US), bob's doing included.
    lobby = world.table_messages()[-1]
    assert labels(lobby) == ["Join", "Start"]
    assert (lobby.embeds[0].footer.text or "").startswith("Table #")


async def test_a_french_player_types_the_words_after_a_bid_in_french(
    world: World, locales: dict[int, str]
) -> None:
    """``/bid 7 sans`` is ``bid 7 no`` (the real French catalog); a refusal quotes the bids in
    his words (``miser 7 sans``), never the engine's ``no``."""
    await world.open("troika", humans=4)
    turn = world.human_to_act()
    assert turn is not None
    member, legal = turn
    locales[member.id] = "fr"
    wrong = await world.slash(member, "bid", bid="7 xx")
    assert wrong.ephemeral and "miser 7 sans" in wrong.response.content, wrong.response.content
    assert "7 no" not in wrong.response.content
    bid = next(a for a in legal if a.endswith(" no")).split(" ", 1)[1]  # the lowest: "6 no"
    number = bid.split()[0]
    made = await world.slash(member, "bid", bid=f"{number} sans")
    assert made.ephemeral
    assert world.service.public_view(world.channel.id)["high_bid"] == bid
