"""The Discord application: the bot client, the live table messages, start-up.

``python -m bot`` calls ``run()``; tests build ``TroikaBot(settings, shard_count=1)`` and run it
under SimCord.
"""

from bot.app.client import EXTENSIONS, PERMISSIONS, TroikaBot, invite_url
from bot.app.publisher import TablePublisher
from bot.app.run import configure_logging, run

__all__ = [
    "EXTENSIONS",
    "PERMISSIONS",
    "TablePublisher",
    "TroikaBot",
    "configure_logging",
    "invite_url",
    "run",
]
