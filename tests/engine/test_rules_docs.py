"""docs/rules/ matches the engine: every game has its page, with every option and preset as coded.

Each page has an ``## Options`` table (option, values, default, effect) and a ``## Presets``
table (preset, settings); these tests read them and compare them with ``engine.GAMES``.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from engine import GAMES
from engine.options import TIMER, Option, format_value

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
NAMES = sorted(GAMES)


def page_path(name: str) -> Path:
    """A game's page: ``docs/rules/<game>.md`` beside the ``engine/`` folder that holds its
    package (the repository's, or a game kept elsewhere with its own ``docs/rules/``)."""
    package = Path(importlib.import_module(f"engine.{name}").__file__ or "").resolve()
    return package.parents[2] / "docs" / "rules" / f"{name}.md"


def _page(name: str) -> str:
    return page_path(name).read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    """The body of ``## heading`` (up to the next ``##`` heading)."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match is not None, f"no section `## {heading}`"
    return match.group(1)


def _table(section: str) -> dict[str, list[str]]:
    """Rows of the section's table keyed by their first cell's `name`; the other cells after."""
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        match = re.match(r"\| `([^`]+)` \|(.*)\|\s*$", line)
        if match:
            assert match.group(1) not in rows, f"`{match.group(1)}` listed twice"
            rows[match.group(1)] = [cell.strip() for cell in match.group(2).split("|")]
    return rows


def _documented_values(cell: str) -> set[str]:
    """``0-5, unlimited`` -> {"0", ..., "5", "unlimited"}."""
    values: set[str] = set()
    for token in (t.strip().strip("`") for t in cell.split(",")):
        span = re.fullmatch(r"(\d+)-(\d+)", token)
        if span:
            values.update(str(v) for v in range(int(span[1]), int(span[2]) + 1))
        else:
            values.add(token)
    return values


def _check_option_row(option: Option, cells: list[str]) -> None:
    values, default = cells[0], cells[1]
    assert default == format_value(option.default), f"`{option.name}`: default"
    coded = {format_value(v) for v in option.values()}
    missing = coded - _documented_values(values)
    assert not missing, f"`{option.name}`: values {sorted(missing)} are not documented"


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_a_page_listed_in_the_index(name: str) -> None:
    assert page_path(name) == DOCS / f"{name}.md"
    assert page_path(name).is_file()
    assert f"]({name}.md)" in (DOCS / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_page_mentions_every_option(name: str) -> None:
    page = _page(name)
    for option in GAMES[name].options:
        assert f"`{option.name}`" in page, f"{name}.md does not mention `{option.name}`"


@pytest.mark.parametrize("name", NAMES)
def test_options_table_matches_the_spec(name: str) -> None:
    spec = GAMES[name]
    rows = _table(_section(_page(name), "Options"))
    assert set(rows) == {o.name for o in spec.options}
    for option in spec.options:
        _check_option_row(option, rows[option.name])


@pytest.mark.parametrize("name", NAMES)
def test_presets_table_matches_the_spec(name: str) -> None:
    spec = GAMES[name]
    rows = _table(_section(_page(name), "Presets"))
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


def test_index_documents_the_timer_every_game_has() -> None:
    assert all(TIMER in spec.options for spec in GAMES.values())
    rows = _table(
        _section((DOCS / "README.md").read_text(encoding="utf-8"), "The turn timer (every game)")
    )
    _check_option_row(TIMER, rows["timer"])


@pytest.mark.parametrize("name", NAMES)
def test_engine_package_points_at_its_page(name: str) -> None:
    doc = importlib.import_module(f"engine.{name}").__doc__ or ""
    assert f"docs/rules/{name}.md" in doc


def test_the_table_reader_sees_wrong_defaults_and_missing_values() -> None:
    option = Option("deals", "auto", "", minimum=1, maximum=50, extra=("auto",))
    _check_option_row(option, ["1-50, auto", "auto"])
    with pytest.raises(AssertionError, match="default"):
        _check_option_row(option, ["1-50, auto", "5"])
    with pytest.raises(AssertionError, match=r"\['50'\]"):
        _check_option_row(option, ["1-49, auto", "auto"])
