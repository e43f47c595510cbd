"""The import contracts of ``pyproject.toml`` (``[tool.importlinter]``) hold, checked by
import-linter: the engine imports neither the bot nor the cogs, no game package imports another,
the shared engine modules import no game, no game's presenter package imports another nor do
the helpers they share import one, and no import cycle joins the engine's modules.

``lint-imports`` runs in a subprocess, from the directory whose packages it reads: in this
process ``engine`` is already imported, and import-linter would find that one.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ROOT / "pyproject.toml"

_RUN = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"


def lint_imports(where: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` over the packages under ``where`` with the project's contracts (no cache:
    it would be written where it runs)."""
    return subprocess.run(
        [sys.executable, "-c", _RUN, "--no-cache", "--no-logo", str(CONTRACTS)],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_import_contracts_are_kept() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 4 kept, 0 broken." in done.stdout, done.stdout


def test_each_contract_catches_what_it_forbids(tmp_path: Path) -> None:
    # A copy of the engine with one forbidden import of each kind (and empty bot and cogs
    # packages for the engine to reach into): every contract must break, naming that import.
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("*.pyc"))
    for package in ("bot", "cogs"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    troggu_spec = tmp_path / "engine" / "troggu" / "spec.py"
    troggu_spec.write_text(
        troggu_spec.read_text() + "\nimport bot\nfrom engine.troika import cards\n"
    )
    options = tmp_path / "engine" / "options.py"
    options.write_text(options.read_text() + "\nfrom engine.troeven import cards as _cards\n")

    done = lint_imports(tmp_path)

    assert done.returncode != 0
    out = done.stdout
    assert "Contracts: 1 kept, 3 broken." in out, out
    assert "engine.troggu.spec -> bot" in out, out
    assert "engine.troggu is not allowed to import engine.troika" in out, out
    assert "engine.options is not allowed to import engine.troeven" in out, out
    assert "No cycles are allowed in engine." in out, out


def test_the_presenter_contract_catches_a_game_importing_another(tmp_path: Path) -> None:
    # A copy of the bot's code (not its catalogs or fonts) and of the engine, with a game's
    # presenter importing another's and a shared helper importing a game's.
    skip = shutil.ignore_patterns("*.pyc", "__pycache__", "locale", "fonts", "*.png", "*.ttf")
    for package in ("engine", "bot"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=skip)
    (tmp_path / "cogs").mkdir()
    (tmp_path / "cogs" / "__init__.py").write_text("")
    games = tmp_path / "bot" / "render" / "games"
    table = games / "troeven" / "table.py"
    table.write_text(table.read_text() + "\nfrom bot.render.games.troika import words as _w\n")
    cards = games / "cards.py"
    cards.write_text(cards.read_text() + "\nfrom bot.render.games.troggu import words as _t\n")

    done = lint_imports(tmp_path)

    out = done.stdout
    assert "Contracts: 3 kept, 1 broken." in out, out + done.stderr
    assert "bot.render.games.troeven is not allowed to import bot.render.games.troika" in out, out
    assert "bot.render.games.cards is not allowed to import bot.render.games.troggu" in out, out
