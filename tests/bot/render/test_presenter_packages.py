"""Each game's presenter is a package, ``bot/render/games/<game>/``, split by the surface it
draws, and the shared rendering modules import none. That no game's package imports another's
(nor a helper beside them imports one) is an import contract of ``pyproject.toml``
(``presenters-stand-alone``, checked by tests/engine/test_import_contracts.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine
from bot.render.presenter import presenter_for

ROOT = Path(__file__).resolve().parents[3]
GAMES_DIR = ROOT / "bot" / "render" / "games"
#: The surfaces every game's presenter is split into, at least (``words``, what they share, and
#: ``history`` are there when the game needs them).
SURFACES = {"table", "hand", "narration", "verdict", "rules", "presenter"}
#: The games whose presenter package is in the bot (a game a test defines lives elsewhere).
BUILT_IN = sorted(name for name in engine.GAMES if (GAMES_DIR / name / "__init__.py").exists())


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def game_packages_named(modules: set[str]) -> set[str]:
    prefix = "bot.render.games."
    return {
        m[len(prefix) :].split(".")[0]
        for m in modules
        if m.startswith(prefix) and m[len(prefix) :].split(".")[0] in engine.GAMES
    }


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_game_presenter_is_its_package_split_by_surface(name: str) -> None:
    package = GAMES_DIR / name
    assert {p.stem for p in package.glob("*.py")} >= SURFACES
    presenter = presenter_for(name)
    assert type(presenter).__module__ == f"bot.render.games.{name}.presenter"


def test_the_four_games_presenters_are_packages_here() -> None:
    assert {"troika", "troeven", "troggu", "troikuntza"} <= set(BUILT_IN)


def test_the_shared_rendering_modules_import_no_game() -> None:
    shared = [*GAMES_DIR.glob("*.py"), *(ROOT / "bot" / "render").glob("*.py")]
    assert len(shared) > 8
    for path in shared:
        games = game_packages_named(imported_modules(path))
        assert not games, f"{path.relative_to(ROOT)} imports {sorted(games)}"
