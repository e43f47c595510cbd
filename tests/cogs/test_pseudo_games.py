"""A complete game of each game with the server and every player in the pseudo-language: every
message, embed and component the bot sent fits Discord's limits, and no English word is left
outside the pseudo-language's ⟦ ⟧ (a string nobody marked), but names, codes and cards.

Pseudo-language strings are 40% longer than English: a message that fits here fits in French,
German and Dutch too.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
import simcord
from cog_world import World

import engine
from bot.app import limits
from bot.i18n import PSEUDO
from bot.i18n.pseudo import strip_pseudo
from bot.leaderboard import GuildRules
from bot.service import TableStatus

#: Discord's limits on components (bot/app/limits.py holds the message ones).
BUTTON_LABEL = 80
PLACEHOLDER = 150
OPTION_TEXT = 100
#: Words that are names or codes, not sentences: the games' titles, card codes that are words.
NAMES = {word for spec in engine.GAMES.values() for word in re.findall(r"[A-Za-z]+", spec.title)}
CODES = {"fool", "FOOL", "XXI"}
AI_NAME = re.compile(r"AI \d+ \(\w+\)")
KEPT = re.compile(r"`[^`]*`|<[@#:t][^>]*>|https?://\S+")


@pytest.fixture
def pseudo_users(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every member's client speaks the pseudo-language."""
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        payload["locale"] = PSEUDO
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)


async def open_game(world: World, game: str, humans: int, ais: int, **options: Any) -> None:
    host = world.members[0]
    assert (await world.slash(host, f"new {game}", **options)).ephemeral
    for member in world.members[1:humans]:
        assert (await world.slash(member, "join")).ephemeral
    for _seat in range(ais):
        await world.slash(host, "addbot")
    await world.slash(host, "start")
    table = world.table()
    assert table is not None and table.status is TableStatus.PLAYING


def sent_bodies(world: World) -> Iterator[dict[str, Any]]:
    """Every message body the bot sent or edited: channel messages, interaction responses,
    follow-ups and edits of them."""
    for entry in world.env.http_requests:
        body = entry.json
        if entry.method not in {"POST", "PATCH"} or not isinstance(body, dict):
            continue
        if entry.path.endswith("/callback"):
            body = body.get("data") or {}
        if "/messages" in entry.path or entry.path.endswith("/callback"):
            yield body


def over_limits(body: dict[str, Any]) -> list[str]:
    found = []
    if len(body.get("content") or "") > limits.CONTENT:
        found.append("content")
    shown = body.get("embeds") or []
    if len(shown) > limits.EMBEDS:
        found.append("embeds")
    total = 0
    for embed in shown:
        parts = {
            "title": (embed.get("title") or "", limits.TITLE),
            "description": (embed.get("description") or "", limits.DESCRIPTION),
            "footer": ((embed.get("footer") or {}).get("text") or "", limits.FOOTER),
            "author": ((embed.get("author") or {}).get("name") or "", limits.AUTHOR),
        }
        for field in embed.get("fields") or []:
            parts[f"field {field['name'][:20]!r}"] = (field["name"], limits.FIELD_NAME)
            parts[f"value of {field['name'][:20]!r}"] = (field["value"], limits.FIELD_VALUE)
        found += [name for name, (text, limit) in parts.items() if len(text) > limit]
        total += sum(len(text) for text, _limit in parts.values())
    if total > limits.EMBED_TOTAL:
        found.append("embeds' total")
    for component in components_of(body):
        if len(component.get("label") or "") > BUTTON_LABEL:
            found.append(f"button {component['label'][:20]!r}")
        if len(component.get("placeholder") or "") > PLACEHOLDER:
            found.append(f"placeholder {component['placeholder'][:20]!r}")
        for option in component.get("options") or []:
            if max(len(option.get("label") or ""), len(option.get("description") or "")) > 100:
                found.append(f"option {option['label'][:20]!r}")
    return found


def components_of(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for row in body.get("components") or []:
        yield from row.get("components") or []


def texts_of(body: dict[str, Any]) -> Iterator[str]:
    yield body.get("content") or ""
    for embed in body.get("embeds") or []:
        yield embed.get("title") or ""
        yield embed.get("description") or ""
        yield (embed.get("footer") or {}).get("text") or ""
        yield (embed.get("author") or {}).get("name") or ""
        for field in embed.get("fields") or []:
            yield field["name"]
            yield field["value"]
    for component in components_of(body):
        yield component.get("label") or ""
        yield component.get("placeholder") or ""
        for option in component.get("options") or []:
            yield option.get("label") or ""
            yield option.get("description") or ""


def english_left(text: str, names: set[str]) -> list[str]:
    """English words of ``text`` outside the pseudo-language: what nobody marked."""
    left = AI_NAME.sub(" ", KEPT.sub(" ", strip_pseudo(text)))
    words = re.findall(r"(?<![\w-])[A-Za-z]{3,}(?![\w-])", left)
    return [w for w in words if w not in names and w not in NAMES and w not in CODES]


GAMES: list[tuple[str, int, int, dict[str, Any]]] = [
    ("troika", 4, 0, {"end": "rounds", "rounds": 1}),
    ("troeven", 1, 1, {}),
    ("troggu", 3, 1, {"deals": "1"}),
    ("troikuntza", 3, 1, {}),
]


@pytest.mark.parametrize(("game", "humans", "ais", "options"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_complete_game_in_the_pseudo_language_is_all_translated_and_fits(
    world: World,
    pseudo_users: None,
    caplog: pytest.LogCaptureFixture,
    game: str,
    humans: int,
    ais: int,
    options: dict[str, Any],
) -> None:
    if game not in engine.GAMES:
        pytest.skip(f"{game} is not in engine.GAMES")
    languages = world.bot.table_publisher.languages
    await languages.choose(GuildRules(world.service.db), world.guild.id, PSEUDO)
    caplog.set_level(logging.WARNING, logger="bot.app.limits")
    await open_game(world, game, humans, ais, **options)
    moves = await world.play(via="mixed", rng=random.Random(5))
    assert moves > 0 and world.table() is None, "the game was played to its end"
    names = {n for m in world.members for n in (m.name, m.name.capitalize())}
    problems: dict[str, set[str]] = {}
    for body in sent_bodies(world):
        for limit in over_limits(body):
            problems.setdefault(f"over a limit: {limit}", set()).add(json.dumps(body)[:200])
        for text in texts_of(body):
            for word in english_left(text, names):
                problems.setdefault(word, set()).add(text[:160])
    assert not [r.message for r in caplog.records if "cut to fit" in r.message]
    assert not problems, "\n".join(f"{w}: {sorted(t)[:3]}" for w, t in sorted(problems.items()))
