"""Reading a game's rules page (``docs/rules/<game>.md``) and checking it against the engine.

A page lies in the ``docs/rules/`` beside the ``engine/`` folder that holds the game's package:
the repository's, or that of a game kept elsewhere (the fifth game of ``tests/games/``). Each
page has an ``## Options`` table (option, values, default, effect) and a ``## Presets`` table
(preset, settings). Used by ``test_rules_docs.py`` for every game and by a game's own tests.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from engine import GAMES
from engine.options import Option, format_value


def page_path(name: str) -> Path:
    """Game ``name``'s page: ``docs/rules/<game>.md`` beside its package's ``engine/`` folder."""
    package = Path(importlib.import_module(f"engine.{name}").__file__ or "").resolve()
    return package.parents[2] / "docs" / "rules" / f"{name}.md"


def page(name: str) -> str:
    return page_path(name).read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The body of ``## heading`` (up to the next ``##`` heading)."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match is not None, f"no section `## {heading}`"
    return match.group(1)


def table(text: str) -> dict[str, list[str]]:
    """Rows of the section's table keyed by their first cell's `name`; the other cells after."""
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        match = re.match(r"\| `([^`]+)` \|(.*)\|\s*$", line)
        if match:
            assert match.group(1) not in rows, f"`{match.group(1)}` listed twice"
            rows[match.group(1)] = [cell.strip() for cell in match.group(2).split("|")]
    return rows


def documented_values(cell: str) -> set[str]:
    """``0-5, unlimited`` -> {"0", ..., "5", "unlimited"}."""
    values: set[str] = set()
    for token in (t.strip().strip("`") for t in cell.split(",")):
        span = re.fullmatch(r"(\d+)-(\d+)", token)
        if span:
            values.update(str(v) for v in range(int(span[1]), int(span[2]) + 1))
        else:
            values.add(token)
    return values


def check_option_row(option: Option, cells: list[str]) -> None:
    values, default = cells[0], cells[1]
    assert default == format_value(option.default), f"`{option.name}`: default"
    coded = {format_value(v) for v in option.values()}
    missing = coded - documented_values(values)
    assert not missing, f"`{option.name}`: values {sorted(missing)} are not documented"


def check_mentions(name: str) -> None:
    text = page(name)
    for option in GAMES[name].options:
        assert f"`{option.name}`" in text, f"{name}.md does not mention `{option.name}`"


def check_options(name: str) -> None:
    spec = GAMES[name]
    rows = table(section(page(name), "Options"))
    assert set(rows) == {o.name for o in spec.options}
    for option in spec.options:
        check_option_row(option, rows[option.name])


def check_presets(name: str) -> None:
    spec = GAMES[name]
    rows = table(section(page(name), "Presets"))
    assert set(rows) == set(spec.presets)
    option_names = {o.name for o in spec.options}
    for preset, settings in spec.presets.items():
        cell = rows[preset][0]
        if not settings:
            assert cell == "all defaults", preset
            continue
        named = set(re.findall(r"`([^`]+)`", cell)) & option_names
        assert named == set(settings), preset
        for option, value in settings.items():
            assert f"`{option}` {format_value(value)}" in cell, f"{preset}: {option}"


def check_package_points_at_page(name: str) -> None:
    doc = importlib.import_module(f"engine.{name}").__doc__ or ""
    assert f"docs/rules/{name}.md" in doc


def check_page(name: str) -> None:
    """Every check of a game's page against its spec."""
    assert page_path(name).is_file(), page_path(name)
    check_mentions(name)
    check_options(name)
    check_presets(name)
    check_package_points_at_page(name)
