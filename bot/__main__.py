"""Entry point.

``python -m bot`` runs the Discord bot (``--fresh-start``: also on an empty or missing
database where it ran before, which it refuses otherwise: ``bot.storage.lost_database``);
``python -m bot local <game> ...`` plays a table in the terminal (``bot.terminal.main`` gets the
arguments after ``local``); ``python -m bot backup [PATH]`` copies the database (safe while the
bot runs).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

USAGE = (
    "usage: python -m bot               run the Discord bot (needs DISCORD_TOKEN)\n"
    "       python -m bot --fresh-start  the same, on an empty or missing database where the\n"
    "                                    bot ran before (it refuses that otherwise)\n"
    "       python -m bot local GAME     play GAME at a table in this terminal\n"
    "       python -m bot backup [PATH]  copy the database to PATH (a file or a folder;\n"
    "                                    default: BACKUP_DIR), also while the bot runs"
)


def backup(args: list[str]) -> int:
    """``python -m bot backup [PATH]``: one line saying where the copy went, or why not."""
    from bot.settings import Settings, SettingsError
    from bot.storage.backup import BackupError, resolve_target, take_backup

    if len(args) > 1 or (args and args[0].startswith("-")):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        settings = Settings.load()
    except SettingsError as error:
        print(f"{error} (see .env.example)", file=sys.stderr)
        return 2
    if settings.database_url is not None:
        print(
            "DATABASE_URL is set: the database is PostgreSQL's, which `python -m bot backup` "
            "(SQLite's online backup) does not copy: use pg_dump (see docs/postgresql.md).",
            file=sys.stderr,
        )
        return 2
    database = settings.database_path
    target = resolve_target(
        database, Path(args[0]) if args else None, settings.backups, time.time()
    )
    try:
        report = take_backup(database, target)
    except BackupError as error:
        print(error, file=sys.stderr)
        return 1
    print(report.line())
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "local":
        # Imported lazily: the terminal table must not need discord.py at all.
        from bot.storage.startup import StartupError
        from bot.terminal import main as terminal_main

        try:
            return int(terminal_main(args[1:]) or 0)
        except StartupError as error:  # the database refused: one line, not a traceback
            print(error, file=sys.stderr)
            return 1
    if args and args[0] == "backup":
        return backup(args[1:])
    if args and args[0] in {"-h", "--help", "help"}:
        print(USAGE)
        return 0
    fresh_start = args == ["--fresh-start"]
    if args and not fresh_start:
        print(f"unknown command {args[0]!r}; try `python -m bot --help`", file=sys.stderr)
        return 2
    from bot.app import run

    return run(fresh_start=fresh_start)


if __name__ == "__main__":
    sys.exit(main())
