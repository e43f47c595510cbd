"""Entry point.

``python -m bot`` runs the Discord bot; ``python -m bot local <game> ...`` plays a table in the
terminal (``bot.terminal.main`` gets the arguments after ``local``).
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "local":
        # Imported lazily: the terminal table must not need discord.py at all.
        from bot.terminal import main as terminal_main

        return int(terminal_main(args[1:]) or 0)
    if args and args[0] in {"-h", "--help", "help"}:
        print(
            "usage: python -m bot            run the Discord bot (needs DISCORD_TOKEN)\n"
            "       python -m bot local GAME  play GAME at a table in this terminal"
        )
        return 0
    if args:
        print(f"unknown command {args[0]!r}; try `python -m bot --help`", file=sys.stderr)
        return 2
    from bot.app import run

    return run()


if __name__ == "__main__":
    sys.exit(main())
