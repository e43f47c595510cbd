"""Discord's markup as plain text, for the terminal table (and any surface that is not Discord).

The presenters write for Discord: ``**bold**``, ``*italics*``, ``__underline__``, ``` `code` ```,
``||spoilers||``, escaped characters and timestamps (``<t:1795641491:R>``, which each client shows
in its own time zone). A terminal shows those marks as they are; ``plain`` takes them out and
writes a timestamp as the time left or past (``in 52 s``, ``3 min ago``) or the local clock time.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from bot.i18n import _

_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
_MARKS = re.compile(r"(\*\*|__|\|\||`+)")
#: A single ``*`` or ``_`` around a word (italics), not one inside a word or a lone ``*``.
_ITALICS = re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_ESCAPED = re.compile(r"\\([*_`|~>\\])")


def _when(epoch: int, style: str | None, now: float) -> str:
    if style == "R" or style is None:
        seconds = round(epoch - now)
        amount = abs(seconds)
        if amount < 90:
            span = _("{n} s", n=amount)
        elif amount < 90 * 60:
            span = _("{n} min", n=round(amount / 60))
        elif amount < 48 * 3600:
            span = _("{n} h", n=round(amount / 3600))
        else:
            span = _("{n} d", n=round(amount / 86400))
        return _("in {span}", span=span) if seconds >= 0 else _("{span} ago", span=span)
    local = time.localtime(epoch)
    if style in {"t", "T"}:
        return time.strftime("%H:%M:%S" if style == "T" else "%H:%M", local)
    return time.strftime("%Y-%m-%d %H:%M", local)


def plain(text: str, clock: Callable[[], float] = time.time) -> str:
    """``text`` without Discord's markup; timestamps as words (see the module doc)."""
    now = clock()
    text = _TIMESTAMP.sub(lambda m: _when(int(m[1]), m[2], now), text)
    text = _MARKS.sub("", text)
    text = _ITALICS.sub(lambda m: m[2], text)
    return _ESCAPED.sub(lambda m: m[1], text)
