"""docs/rules/ matches the engine: every game has its page, with every option and preset as coded.

Each page has an ``## Options`` table (option, values, default, effect) and a ``## Presets``
table (preset, settings); these tests read them (``rules_pages``) and compare them with
``engine.GAMES``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_pages import (
    check_mentions,
    check_option_row,
    check_options,
    check_package_points_at_page,
    check_presets,
    page_path,
    section,
    table,
)

from engine import GAMES
from engine.options import TIMER, Option

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_a_page_listed_in_the_index(name: str) -> None:
    assert page_path(name) == DOCS / f"{name}.md"
    assert page_path(name).is_file()
    assert f"]({name}.md)" in (DOCS / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_page_mentions_every_option(name: str) -> None:
    check_mentions(name)


@pytest.mark.parametrize("name", NAMES)
def test_options_table_matches_the_spec(name: str) -> None:
    check_options(name)


@pytest.mark.parametrize("name", NAMES)
def test_presets_table_matches_the_spec(name: str) -> None:
    check_presets(name)


def test_index_documents_the_timer_every_game_has() -> None:
    assert all(TIMER in spec.options for spec in GAMES.values())
    rows = table(
        section((DOCS / "README.md").read_text(encoding="utf-8"), "The turn timer (every game)")
    )
    check_option_row(TIMER, rows["timer"])


@pytest.mark.parametrize("name", NAMES)
def test_engine_package_points_at_its_page(name: str) -> None:
    check_package_points_at_page(name)


def test_the_table_reader_sees_wrong_defaults_and_missing_values() -> None:
    option = Option("deals", "auto", "", minimum=1, maximum=50, extra=("auto",))
    check_option_row(option, ["1-50, auto", "auto"])
    with pytest.raises(AssertionError, match="default"):
        check_option_row(option, ["1-50, auto", "5"])
    with pytest.raises(AssertionError, match=r"\['50'\]"):
        check_option_row(option, ["1-49, auto", "auto"])
