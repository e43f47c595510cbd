"""engine/ is pure: no Discord, asyncio, SQL, I/O or application imports."""

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"discord", "asyncio", "sqlite3", "aiosqlite", "aiohttp", "bot", "cogs", "socket"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: str(p.name))
def test_engine_module_imports_nothing_impure(path: Path) -> None:
    assert _imports(path) & FORBIDDEN == set()


def test_purity_check_sees_forbidden_imports(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nfrom discord import ui\n")
    assert _imports(bad) == {"asyncio", "discord"}
