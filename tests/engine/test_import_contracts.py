"""The import contracts of ``pyproject.toml`` (``[tool.importlinter]``) hold, checked by
import-linter: the engine imports neither the bot nor the cogs, no game package imports another,
the shared engine modules import no game, and no import cycle joins the engine's modules.

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
    assert "Contracts: 3 kept, 0 broken." in done.stdout, done.stdout


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
    assert "Contracts: 0 kept, 3 broken." in out, out
    assert "engine.troggu.spec -> bot" in out, out
    assert "engine.troggu is not allowed to import engine.troika" in out, out
    assert "engine.options is not allowed to import engine.troeven" in out, out
    assert "No cycles are allowed in engine." in out, out
