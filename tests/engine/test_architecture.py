"""The bot knows a game only by what the game declares and by its presenter.

Beside ``test_purity.py`` (the engine imports no Discord, asyncio, SQL or I/O): nothing in
``bot/`` or ``cogs/`` outside ``bot/render/games/`` (the presenters) names a game or one of its
own words, so a fifth game touches only ``engine/<game>/`` and its presenter.
"""

from __future__ import annotations

import re
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[2]
PRESENTERS = ROOT / "bot" / "render" / "games"

#: Words of one game or another (besides the games' names and titles).
GAME_WORDS = (
    "mayi", "may i", "trump", "meld", "tapp", "kitty", "fool", "layoff", "lay off", "misdeal",
    "tarot", "misère", "misere", "solo", "rummy", "kaiser",
)  # fmt: skip
#: The product is called Troika Table: its name is not a game's.
PRODUCT = re.compile(r"troika[ _-]?table|troika(bot|tree)\b|troika\.db", re.IGNORECASE)


def forbidden_words() -> list[str]:
    names = {name.lower() for name in engine.GAMES}
    titles = {word.lower() for spec in engine.GAMES.values() for word in spec.title.split()}
    generic = {"2-player", "player", "the"}
    return sorted((names | titles | set(GAME_WORDS)) - generic)


def offending_lines(path: Path, words: list[str], root: Path = ROOT) -> list[str]:
    """The lines of ``path`` (named relative to ``root``) that name one of ``words``."""
    pattern = re.compile(r"(?<![a-z])(" + "|".join(map(re.escape, words)) + r")", re.IGNORECASE)
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = PRODUCT.sub("", line)
        match = pattern.search(text)
        if match:
            found.append(f"{path.relative_to(root)}:{number}: {match.group(1)!r} in {line.strip()}")
    return found


def application_files() -> list[Path]:
    files = [*sorted((ROOT / "bot").rglob("*.py")), *sorted((ROOT / "cogs").rglob("*.py"))]
    return [f for f in files if PRESENTERS not in f.parents]


def test_no_file_outside_the_presenters_names_a_game_or_its_words() -> None:
    words = forbidden_words()
    assert {"mayi", "trump", "meld", "tapp", "kitty", "fool"} <= set(words)
    assert len(words) > len(GAME_WORDS), "the games' own names are checked too"
    offending = [line for f in application_files() for line in offending_lines(f, words)]
    assert not offending, "game words outside bot/render/games/:\n" + "\n".join(offending)


def test_the_check_finds_a_game_word(tmp_path: Path) -> None:
    # The sample stands in a copy of the tree's shape under tmp_path: no test writes into bot/.
    sample = tmp_path / "bot" / "sample.py"
    sample.parent.mkdir()
    sample.write_text('X = "MayI"\nY = "the Troika Table bot"\nZ = "a Meld"\n', encoding="utf-8")
    found = offending_lines(sample, forbidden_words(), root=tmp_path)
    assert [line.split(":")[1] for line in found] == ["1", "3"], found
    assert found[0].startswith("bot/sample.py:1: 'MayI'"), found
