"""A fifth game, Trinket, laid out exactly as a real one and found by its folders alone.

Its folders here are those a fifth game adds to the repository: ``engine/trinket/`` (rules,
events, refusals, AI), ``bot/render/games/trinket/`` (presenter, narration, its own catalog in
``locale/``) and ``docs/rules/trinket.md``; this test is its ``tests/games/trinket/``. Nothing
registers it by hand: the test only adds its two package folders to ``engine.__path__`` and
``bot.render.games.__path__`` (nothing is copied into the source tree), and the discoveries
the bot runs for every game (``engine.registry.discover``, ``bot.render.games.discover``, the
catalogs' ``own_catalog_packages``, the rules pages beside the engine folder) find it. Then
it plays to the end through the table service at each AI level and through SimCord's slash
commands and buttons, refuses in its own words in French, speaks each language from its own
catalog, shows its rules with ``/rules``, and ``python -m bot.i18n check`` finds its catalog
complete without any string added to the shared one.
"""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, get_type_hints

import pytest
import simcord

import bot.render.games
import engine
from bot.i18n import use_locale
from bot.i18n.core import LOCALE_DIR, forget_catalogs, own_catalog_packages
from bot.render.presenter import PRESENTERS, Seating, presenter_for
from bot.service import TableService, TableStatus
from engine import messages
from engine.ai import LEVELS, make_player
from tests.cogs.cog_world import World, make_settings, run_world

NAME = "trinket"
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
#: Where each of the game's folders lies in the repository (``git diff`` of a fifth game).
FOLDERS = {
    HERE / "engine" / NAME: f"engine/{NAME}/",
    HERE / "bot" / "render" / "games" / NAME: f"bot/render/games/{NAME}/",
    HERE / "docs" / "rules" / f"{NAME}.md": f"docs/rules/{NAME}.md",
}
ALLOWED = (*FOLDERS.values(), f"tests/games/{NAME}/")
#: The two package folders the discoveries are given.
PATHS = {engine: HERE / "engine", bot.render.games: HERE / "bot" / "render" / "games"}


@pytest.fixture
def trinket() -> Iterator[None]:
    """Trinket's folders on the packages' paths, then discovery; everything undone after."""
    assert NAME not in engine.GAMES, "nothing but its folders makes the game known"
    for package, folder in PATHS.items():
        package.__path__.append(str(folder))
    templates = set(messages.TEMPLATES)
    forget_catalogs()
    try:
        assert NAME in engine.registry.discover()
        yield
    finally:
        for package, folder in PATHS.items():
            package.__path__.remove(str(folder))
        engine.unregister(NAME)
        PRESENTERS.pop(NAME, None)
        for key in set(messages.TEMPLATES) - templates:
            messages.TEMPLATES.pop(key)
            messages.FIELDS.pop(key, None)
        # Forgotten, so that the next discovery runs its packages' registrations again.
        for package in PATHS:
            ours = f"{package.__name__}.{NAME}"
            for module in [m for m in sys.modules if m == ours or m.startswith(f"{ours}.")]:
                del sys.modules[module]
            if hasattr(package, NAME):
                delattr(package, NAME)
        forget_catalogs()


@pytest.fixture
async def world(
    trinket: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[World]:
    # (tests/cogs' quick settle: a database round trip is well under SimCord's 50 ms poll)
    original = simcord.Env._settle_internal

    async def settle(self: simcord.Env, **kwargs: Any) -> None:
        kwargs.setdefault("idle", 0.0005)
        await original(self, **kwargs)

    monkeypatch.setattr(simcord.Env, "_settle_internal", settle)
    # The bot is built after discovery: /new trinket and the move commands come from GAMES.
    async with run_world(make_settings(tmp_path)) as running:
        yield running


# -- found by its folders, which are all it adds --------------------------------------------------
def _added_files() -> list[str]:
    """Every file of the game as the repository would hold it (a ``git diff --name-only`` of
    adding it): its folders here mapped to their places, and this test folder itself."""
    added = []
    for path in sorted(HERE.rglob("*")):
        if path.is_dir() or "__pycache__" in path.parts or path.suffix in {".mo", ".pyc"}:
            continue
        added.append(_place(path))
    return added


def _place(path: Path) -> str:
    for folder, where in FOLDERS.items():
        if path == folder:
            return where
        if folder in path.parents:
            return where + path.relative_to(folder).as_posix()
    return path.relative_to(ROOT).as_posix()


def test_the_game_adds_files_only_in_its_four_folders() -> None:
    added = _added_files()
    outside = [f for f in added if not f.startswith(ALLOWED)]
    assert not outside, outside
    # Every part a game has, each in its folder.
    for expected in (
        f"engine/{NAME}/__init__.py",
        f"engine/{NAME}/events.py",
        f"engine/{NAME}/refusals.py",
        f"engine/{NAME}/ai/__init__.py",
        f"bot/render/games/{NAME}/presenter.py",
        f"bot/render/games/{NAME}/narration.py",
        f"bot/render/games/{NAME}/rules.py",
        f"bot/render/games/{NAME}/locale/fr/LC_MESSAGES/messages.po",
        f"docs/rules/{NAME}.md",
        f"tests/games/{NAME}/test_{NAME}_plays.py",
    ):
        assert expected in added, expected
    # And nothing of it sits in the repository's own folders (the game is found here only).
    assert not (ROOT / "engine" / NAME).exists() and not (ROOT / "bot/render/games" / NAME).exists()
    assert not (ROOT / "docs" / "rules" / f"{NAME}.md").exists()


def test_the_check_catches_a_file_outside_the_four_folders() -> None:
    assert _place(HERE / "engine" / NAME / "game.py") == f"engine/{NAME}/game.py"
    assert not "bot/locale/fr/LC_MESSAGES/messages.po".startswith(ALLOWED)
    assert not "engine/registry.py".startswith(ALLOWED)


def test_the_discoveries_find_the_game_by_its_folders(trinket: None) -> None:
    assert engine.GAMES[NAME].title == "Trinket"
    assert type(presenter_for(NAME)).__module__ == f"bot.render.games.{NAME}.presenter"
    assert HERE / "bot" / "render" / "games" / NAME in own_catalog_packages()
    from tests.engine.rules_pages import page_path

    assert page_path(NAME) == HERE / "docs" / "rules" / f"{NAME}.md"


def test_its_rules_page_documents_its_options(trinket: None) -> None:
    from tests.engine.rules_pages import check_page, page, section, table

    check_page(NAME)  # (what tests/engine/test_rules_docs.py checks of every game's page)
    assert set(table(section(page(NAME), "Options"))) == {"timer"}


# -- its engine: events, AI levels ----------------------------------------------------------------
def _whole_game(
    level: str, seed: int, players: int = 3
) -> tuple[engine.Game, list[dict[str, Any]]]:
    game = engine.new_game(NAME, players, seed=seed)
    events: list[dict[str, Any]] = []
    while not game.is_over():
        seat = game.to_act()[0]
        move = make_player(NAME, level, seed).choose(game.view(seat), game.legal_actions(seat))
        events += game.apply(seat, move)
    return game, events


def test_every_event_is_a_documented_typed_dict_and_narrated(trinket: None) -> None:
    kinds = importlib.import_module(f"engine.{NAME}.events").EVENTS
    presenter = presenter_for(NAME)
    seen = set()
    for seed in range(20):
        _game, events = _whole_game("easy", seed)
        for event in events:
            hints = get_type_hints(kinds[event["type"]])
            assert set(event) == set(hints), event
            seen.add(event["type"])
            for viewer in (None, 0, 1, 2):
                presenter.narrate(event, Seating(("ann", "bob", "cy"), viewer))
    assert seen == set(kinds)
    assert set(kinds) == presenter.quiet | presenter.narrators.kinds  # type: ignore[union-attr]


@pytest.mark.parametrize("players", [2, 3])
def test_it_keeps_the_contract_of_every_game(trinket: None, players: int) -> None:
    """The checks tests/engine/test_contract.py makes of each game of ``GAMES`` (collected
    before this game is found), step by step over random games."""
    from tests.engine.test_contract import (
        check_actions,
        check_events,
        check_private_events,
        check_views,
        random_move,
    )

    for seed in range(4):
        game = engine.new_game(NAME, players, seed=seed)
        rng, pool = random.Random(seed), set[str]()
        check_views(game, NAME)
        while not game.is_over():
            check_actions(game, pool)
            events = game.apply(*random_move(game, rng))
            check_events(game, events)
            views, public = check_views(game, NAME)
            check_private_events(events, views, public)
        assert game.result()["winners"] and engine.load(game.to_json()) == game


def test_the_ai_levels_really_differ(trinket: None) -> None:
    view = {"trick": [{"seat": 0, "card": "9H"}], "hand": ["AH", "KH", "10H"]}
    legal = ["play ah", "play kh", "play 10h"]
    # normal: the highest card; hard: the lowest card sure to win (no unseen heart beats KH).
    assert make_player(NAME, "normal").choose(view, legal) == "play ah"
    assert make_player(NAME, "hard").choose(view, legal) == "play kh"
    losing = {"trick": [{"seat": 0, "card": "AH"}], "hand": ["KH", "9H"]}
    assert make_player(NAME, "normal").choose(losing, ["play kh", "play 9h"]) == "play kh"
    assert make_player(NAME, "hard").choose(losing, ["play kh", "play 9h"]) == "play 9h"
    # easy: at random (over seeds it plays more than one card here).
    picks = {make_player(NAME, "easy", seed).choose(view, legal) for seed in range(20)}
    assert len(picks) > 1


@pytest.mark.parametrize("level", LEVELS)
async def test_the_service_plays_it_to_the_end_at_each_level(
    trinket: None, tmp_path: Path, level: str
) -> None:
    service = TableService(tmp_path / "trinket.db")
    await service.start()
    try:
        await service.open_table(1, 9, 100, "ann", NAME, options={"timer": "off"})
        await service.add_ai(1, 100, level)
        await service.add_ai(1, 100, level)
        await service.start_game(1, 100)
        moves = 0
        while service.get_table(1) is not None:
            await service.settle()
            legal = service.legal_actions(1, 100)
            if legal:
                await service.act(1, 100, legal[-1])
                moves += 1
        assert moves == 4, "ann plays one card a trick"
    finally:
        await service.close()
    reopened = TableService(tmp_path / "trinket.db")
    await reopened.start()
    assert reopened.get_table(1) is None, "the finished game is on record, not in play"
    await reopened.close()


# -- through Discord ------------------------------------------------------------------------------
@pytest.mark.parametrize("via", ["command", "button"])
async def test_it_plays_to_the_end_through_slash_commands_and_buttons(
    world: World, via: str
) -> None:
    table = await world.open(NAME, humans=2)
    assert table.game == NAME and table.status is TableStatus.PLAYING
    assert await world.play(via=via) == 8, "two players, four cards each"
    assert world.table() is None, "the game ended and freed the channel"
    final = world.table_messages()[-1].embeds[0]
    assert "game over" in (final.title or "")
    words = " ".join(f"{f.name} {f.value}" for f in final.fields)
    assert "won" in words and "Trinkets taken" in words
    lines = world.public_text()
    assert "takes the trinket" in lines or "take the trinket" in lines, "its narration"
    helped = await world.slash(world.members[0], "help")
    assert "Trinket: `/play`" in (helped.response.embeds[0].description or "")


async def test_its_refusals_come_in_its_words_in_french(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = simcord.interactions.base_payload

    def french(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        payload["locale"] = "fr"
        return record, payload

    await world.open(NAME, humans=2)
    member, legal = world.human_to_act() or (None, [])
    assert member is not None
    before = world.service.get_table(world.channel.id)
    monkeypatch.setattr(simcord.interactions, "base_payload", french)
    refused = await world.slash(member, "play", card="zz")
    assert refused.ephemeral
    assert "ZZ n'est pas parmi vos cartes" in refused.response.content, refused.response.content
    assert world.service.get_table(world.channel.id) == before, "a refusal changes nothing"


async def test_rules_shows_its_rules(world: World) -> None:
    rules = await world.slash(world.members[0], "rules", game=NAME)
    embed = rules.response.embeds[0]
    assert embed.title and "Trinket" in embed.title
    assert "the highest card of the suit led wins the trick" in (embed.description or "")
    # The same rules as its page says them.
    page = " ".join((HERE / "docs" / "rules" / f"{NAME}.md").read_text(encoding="utf-8").split())
    assert "The highest card of the suit led wins the trick" in page


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "Vous prenez le bibelot"),
        ("de", "Sie nehmen den Nippes"),
        ("nl", "Je neemt de snuisterij"),
    ],
)
def test_its_own_catalog_speaks_each_language(trinket: None, language: str, said: str) -> None:
    presenter = presenter_for(NAME)
    event = {"type": "trick", "seat": 1, "cards": ["AH", "9H"]}
    with use_locale(language):
        assert presenter.narrate(event, Seating(("ann", "bob"), 1)) == said
        assert "Trinket" in presenter.rules() and "four cards each" not in presenter.rules()
    with use_locale("en"):
        assert presenter.narrate(event, Seating(("ann", "bob"), 1)) == "You take the trinket"


# -- its strings: in its catalog, none in the shared one ----------------------------------------
def _check(*options: str) -> subprocess.CompletedProcess[str]:
    # A fresh interpreter, as tests/bot/test_catalogs.py runs it: nothing of this session leaks.
    return subprocess.run(
        [sys.executable, "-m", "bot.i18n", "check", *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_catalog_check_sees_its_strings_complete_in_its_own_catalog() -> None:
    done = _check("--games-from", str(HERE.relative_to(ROOT)))
    assert done.returncode == 0, done.stdout + done.stderr
    shared = (LOCALE_DIR / "messages.pot").read_text(encoding="utf-8")
    own = (HERE / "bot/render/games" / NAME / "locale/messages.pot").read_text(encoding="utf-8")
    for text in ('msgid "Trinket"', "not among your trinket cards", "You take the trinket"):
        assert text in own and text not in shared, text
