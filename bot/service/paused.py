"""A command whose change the database cannot store now becomes the ``TablePaused`` refusal.

A full disk, a read-only or locked file, a lost server: the service put the table back as it
was (memory never disagrees with the disk), and the player reads the same clear words as the
players of a table whose AI moves wait for the database (``TableStalled``), never the
database's own (those go to the log). The driver's moves do not pass here: it retries them.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from bot.service.errors import TablePaused
from bot.storage.connection import UNAVAILABLE_ERRORS

log = logging.getLogger(__name__)


@contextlib.asynccontextmanager
async def refused_writes(channel_id: int) -> AsyncIterator[None]:
    """Around a command of the channel's table: a refused write raises ``TablePaused``."""
    try:
        yield
    except UNAVAILABLE_ERRORS as exc:
        raise refusal(channel_id, exc) from exc


def refusal(channel_id: int, exc: BaseException) -> TablePaused:
    """The refusal of a command whose write ``exc`` refused (an ``UNAVAILABLE_ERRORS``), logged:
    raise it from ``exc``."""
    log.warning("channel %s: a change could not be stored (%s): refused", channel_id, exc)
    return TablePaused()
