"""Personal table links: signed, expiring, naming one user and one table.

A link is ``/t/<token>``, the token ``<user>.<channel>.<expires>.<signature>``: the signature is an
HMAC-SHA256, under the server's secret, of exactly those three numbers, so a link opens that
table for that user until then and nothing else (another user, another table, a later time or a
changed digit fails the check). The table is named by its channel id, the service's key: a
rematch at the same channel keeps the link working. The secret is ``WEB_SECRET``, or one
generated at first use and kept beside the database (mode 0600), so links survive a restart.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from bot.i18n import N_
from bot.settings import Settings

#: How long a link opens its table. Long enough for an evening's game; a new link is one press
#: (or one command) away.
LINK_SECONDS = 12 * 3600
SECRET_FILE = "web-secret"
#: Longest token accepted: four numbers and a signature (anything longer is not ours).
MAX_TOKEN = 120


class BadLink(ValueError):
    """The token is not a valid link now; ``str()`` says why, for the page."""


@dataclass(frozen=True)
class Link:
    user_id: int
    channel_id: int
    expires: int


def _signature(secret: bytes, user_id: int, channel_id: int, expires: int) -> str:
    message = f"table-link:v1:{user_id}:{channel_id}:{expires}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign(secret: bytes, user_id: int, channel_id: int, expires: int) -> str:
    """The token of a link for ``user_id`` at ``channel_id`` until ``expires`` (epoch s)."""
    return f"{user_id}.{channel_id}.{expires}.{_signature(secret, user_id, channel_id, expires)}"


def verify(secret: bytes, token: str, now: float) -> Link:
    """The link ``token`` names, if its signature is good and it has not expired; raises
    ``BadLink`` otherwise."""
    parts = token.split(".") if len(token) <= MAX_TOKEN else []
    if len(parts) != 4:
        raise BadLink(N_("This is not a table link."))
    try:
        user_id, channel_id, expires = (int(part) for part in parts[:3])
    except ValueError:
        raise BadLink(N_("This is not a table link.")) from None
    expected = _signature(secret, user_id, channel_id, expires)
    if not hmac.compare_digest(expected.encode(), parts[3].encode()):
        raise BadLink(N_("This table link is not valid."))
    if expires <= now:
        raise BadLink(N_("This table link has expired: ask the bot for a new one."))
    return Link(user_id, channel_id, expires)


def load_secret(settings: Settings) -> bytes:
    """``WEB_SECRET``, or the one kept beside the database (made on first use)."""
    if settings.web_key:
        return settings.web_key.encode()
    path = settings.database_path.parent / SECRET_FILE
    return _stored_secret(path)


def _stored_secret(path: Path) -> bytes:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        text = ""
    if len(text) >= 32:
        return text.encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = secrets.token_urlsafe(32)
    # Created private (0600) before the secret is written: no moment where others can read it.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text + "\n")
    return text.encode()


# -- replay links ---------------------------------------------------------------------------------
# A finished game never changes and anyone of its server may watch it: its link names the server
# and the game, not a user, and never expires. Signed under another prefix than a table link, so
# neither kind of token can pass for the other.


@dataclass(frozen=True)
class ReplayLink:
    guild_id: int
    table_id: int


def _replay_signature(secret: bytes, guild_id: int, table_id: int) -> str:
    message = f"replay-link:v1:{guild_id}:{table_id}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign_replay(secret: bytes, guild_id: int, table_id: int) -> str:
    """The token of the replay link of finished game ``table_id`` of server ``guild_id``."""
    return f"{guild_id}.{table_id}.{_replay_signature(secret, guild_id, table_id)}"


def verify_replay(secret: bytes, token: str) -> ReplayLink:
    """The game a replay token names, if its signature is good; raises ``BadLink`` otherwise."""
    parts = token.split(".") if len(token) <= MAX_TOKEN else []
    if len(parts) != 3:
        raise BadLink(N_("This is not a replay link."))
    try:
        guild_id, table_id = (int(part) for part in parts[:2])
    except ValueError:
        raise BadLink(N_("This is not a replay link.")) from None
    expected = _replay_signature(secret, guild_id, table_id)
    if not hmac.compare_digest(expected.encode(), parts[2].encode()):
        raise BadLink(N_("This replay link is not valid."))
    return ReplayLink(guild_id, table_id)
