"""Secrets out of log lines: interaction tokens, webhook tokens, the bot token.

At DEBUG discord.py logs every gateway event in full ("WebSocket Event: {...}"): an
INTERACTION_CREATE carries the interaction's token, which lets whoever reads the log answer or
edit the bot's reply for 15 minutes. Its rate-limit warnings name request URLs, and interaction
callbacks and follow-ups put that token in the URL (``/interactions/<id>/<token>/callback``,
``/webhooks/<application>/<token>``). ``RedactingFormatter`` rewrites the whole formatted line,
traceback included, so a secret is cut wherever it appears; the record itself is not touched
(other handlers, e.g. pytest's capture, see what they always saw).
"""

from __future__ import annotations

import logging
import re

REDACTED = "<redacted>"

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # 'token': '...' in a logged dict, or "token": "..." in logged JSON (any quoting).
    (re.compile(r"""(['"]token['"]\s*:\s*)(['"])[^'"]*\2"""), rf"\1\2{REDACTED}\2"),
    (re.compile(r"(/interactions/\d+/)[^/\s'\"?]+"), rf"\1{REDACTED}"),
    (re.compile(r"(/webhooks/\d+/)[^/\s'\"?]+"), rf"\1{REDACTED}"),
    # An interaction token on its own: base64 of "interaction:" then the rest.
    (re.compile(r"aW50ZXJhY3Rpb246[A-Za-z0-9_\-.=]+"), REDACTED),
)


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactingFormatter(logging.Formatter):
    """A ``logging.Formatter`` whose output never holds a token (see the module docstring).
    ``secrets``: literal strings to cut too (the bot token)."""

    def __init__(self, *args: object, secrets: tuple[str, ...] = (), **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.secrets = tuple(s for s in secrets if s)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self.secrets)
