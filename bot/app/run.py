"""``python -m bot``: settings, logging, the one-instance lock, and the bot's life until Ctrl-C."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.app.log_redaction import RedactingFormatter
from bot.settings import Settings, SettingsError
from bot.storage.backends import check_database
from bot.storage.instance_lock import InstanceLock
from bot.storage.lost_database import check_not_lost
from bot.storage.startup import StartupError

log = logging.getLogger("bot")


def configure_logging(level: str, secrets: tuple[str, ...] = ()) -> None:
    """Levelled lines to stderr. No token reaches a log line: the bot token is only handed to
    ``bot.run``, and the formatter cuts interaction and webhook tokens (discord.py logs whole
    gateway events at DEBUG) and ``secrets`` from every line."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        RedactingFormatter(
            "%(asctime)s %(levelname)-8s %(name)s: %(message)s",
            "%Y-%m-%d %H:%M:%S",
            secrets=secrets,
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    # discord.http at DEBUG echoes request bodies; keep it at INFO even when debugging us.
    logging.getLogger("discord.http").setLevel(max(root.level, logging.INFO))
    # aiosqlite at DEBUG logs every database operation (thousands a second): it would drown ours.
    logging.getLogger("aiosqlite").setLevel(max(root.level, logging.INFO))


def run(settings: Settings | None = None, *, fresh_start: bool = False) -> int:
    """Run the bot until it stops; the exit status. ``fresh_start``: the operator says that an
    empty or missing database where the bot ran before is what he wants (``--fresh-start``)."""
    try:
        settings = settings or Settings.load()
    except SettingsError as error:
        print(f"{error} (see .env.example)", file=sys.stderr)
        return 2
    if not settings.discord_token:
        print(
            "DISCORD_TOKEN is not set: put it in the environment or in .env "
            "(see .env.example and the README's Discord setup).",
            file=sys.stderr,
        )
        return 2
    # One bot per SQLite file, for the whole process: taken before connecting to Discord.
    # (On PostgreSQL several processes share the database, each on its own shards.)
    lock = InstanceLock(settings.database_path)
    try:
        if settings.database_url is None:
            if not fresh_start:  # (before the lock: taking it creates the lock file)
                check_not_lost(settings.database_path, settings.backups)
            lock.acquire()
    except StartupError as error:
        print(error, file=sys.stderr)
        return 1
    try:
        configure_logging(settings.log_level, secrets=(settings.discord_token,))
        try:  # before connecting to Discord: a database that cannot serve is refused at once
            asyncio.run(check_database(settings.database))
        except StartupError as error:
            print(error, file=sys.stderr)
            return 1
        from bot.app.client import TroikaBot  # discord.py is imported only when we really run

        bot = TroikaBot(settings, handle_signals=True)
        try:
            bot.run(settings.discord_token, log_handler=None)
        except StartupError as error:  # (the service's own open, in setup_hook)
            print(error, file=sys.stderr)
            return 1
        except Exception as error:  # a bad token, no network: one line, not a traceback
            log.error("the bot stopped: %s", type(error).__name__)
            print(f"The bot stopped: {error}", file=sys.stderr)
            return 1
        if bot.stopped_because:
            print(f"The bot stopped: {bot.stopped_because}.", file=sys.stderr)
            return 1
        return 0
    finally:
        lock.release()
