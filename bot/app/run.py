"""``python -m bot``: settings, logging, and the bot's life until Ctrl-C."""

from __future__ import annotations

import logging
import sys

from bot.settings import Settings

log = logging.getLogger("bot")


def configure_logging(level: str) -> None:
    """Levelled lines to stderr. The token never reaches a log line: it is only handed to
    ``bot.run``; discord.py's own logging never prints it either."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    # discord.http at DEBUG echoes request bodies; keep it at INFO even when debugging us.
    logging.getLogger("discord.http").setLevel(max(root.level, logging.INFO))


def run(settings: Settings | None = None) -> int:
    settings = settings or Settings.load()
    if not settings.discord_token:
        print(
            "DISCORD_TOKEN is not set: put it in the environment or in .env "
            "(see .env.example and the README's Discord setup).",
            file=sys.stderr,
        )
        return 2
    configure_logging(settings.log_level)
    from bot.app.client import TroikaBot  # discord.py is imported only when we really run

    bot = TroikaBot(settings)
    try:
        bot.run(settings.discord_token, log_handler=None)
    except Exception as error:  # a bad token, no network: one line, not a traceback
        log.error("the bot stopped: %s", type(error).__name__)
        print(f"The bot stopped: {error}", file=sys.stderr)
        return 1
    return 0
