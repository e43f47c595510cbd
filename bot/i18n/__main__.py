"""``python -m bot.i18n extract|update|compile|check``: the catalogs' build steps.

- ``extract``: write ``bot/locale/messages.pot`` (and each game package's own template,
  ``bot/render/games/<game>/locale/messages.pot``) from the code.
- ``update``: ``extract``, then merge it into every language's ``.po`` (new strings empty).
- ``compile``: the ``.mo`` files (the bot also compiles a stale one on first use).
- ``check``: list what keeps the catalogs from being complete; exit 1 if anything.

``--games-from DIR`` (after the command, repeatable) reads the games of a folder laid out as the
repository (``DIR/engine/<game>/``, ``DIR/bot/render/games/<game>/``) with the bot's own: their
folders join ``engine.__path__`` and ``bot.render.games.__path__``, where the discoveries look
(``python -m bot.i18n update --games-from tests/games/trinket`` writes the fifth game's catalog).
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.i18n import catalogs


def add_games_from(folder: Path) -> None:
    """Find the games of ``folder`` (laid out as the repository) as the bot finds its own."""
    import bot.render.games
    import engine

    engine.__path__.append(str(folder.resolve() / "engine"))
    bot.render.games.__path__.append(str(folder.resolve() / "bot" / "render" / "games"))
    engine.registry.discover()
    bot.render.games.discover()


def main(argv: list[str]) -> int:
    while "--games-from" in argv:
        at = argv.index("--games-from")
        if at + 1 >= len(argv):
            print("--games-from needs a folder")
            return 2
        add_games_from(Path(argv[at + 1]))
        argv = argv[:at] + argv[at + 2 :]
    command = argv[0] if argv else "check"
    if command == "extract":
        for path in catalogs.write_template():
            print(path)
    elif command == "update":
        for path in catalogs.update():
            print(path)
    elif command == "compile":
        for path in catalogs.compile_all():
            print(path)
    elif command == "check":
        found = catalogs.problems()
        for line in found:
            print(line)
        print(f"{len(found)} problem(s)")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
