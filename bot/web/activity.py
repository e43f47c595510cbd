"""The table as a Discord Activity: the page inside Discord's frame proves who reads it and
where it runs, and gets a session for the table's websocket (docs/activity.md).

``POST /api/token`` with ``{"code", "instance_id"}`` (the code from the SDK's ``authorize``):

1. the code is exchanged at Discord's OAuth2 token endpoint under ``DISCORD_CLIENT_ID`` and
   ``DISCORD_CLIENT_SECRET`` (a forged, used or foreign code is refused there; a code seen here
   before is refused without asking);
2. ``/oauth2/@me`` says which application the token is for (another application's: refused) and
   ``/users/@me`` who the user is;
3. the instance is read with the bot's token at ``/applications/{id}/activity-instances/{id}``:
   its channel is the table's, and the user must be one of its users. The page never names a
   channel or a user: both come from Discord.

With several processes (``SHARD_IDS``), the instance is read first: a server of another
process's shard is answered ``409 {"shard": k}`` before the code is used, and the page asks
again under ``s/<k>/``, which the reverse proxy routes to that process (docs/activity.md).

The answer holds the access token (the page passes it to the SDK's ``authenticate``) and an
opaque session kept here, naming the user, the channel and his name: the websocket opens with
it as a table link would. Tokens, codes and sessions are never logged: a refusal logs its kind.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.i18n import N_

log = logging.getLogger(__name__)

#: How long a session opens its table: an evening's game (the page asks again when it reopens).
SESSION_SECONDS = 12 * 3600
#: Sessions kept at most (the oldest forgotten first): a page whose session is gone reopens.
MAX_SESSIONS = 20_000
#: Codes remembered, so that a code replayed here is refused without Discord.
MAX_CODES = 20_000
#: Longest code and instance id accepted (Discord's are ~30 and ~60 characters).
MAX_FIELD = 200
#: Every call to Discord gives up after this long (the page says so and may retry).
DISCORD_TIMEOUT = 10.0
#: A session token starts with this, which no table link does (a link starts with digits).
SESSION_PREFIX = "a-"


class Elsewhere(Exception):
    """The instance's server is served by another process of the bot (another shard): the page
    asks again under ``s/<shard>/``, which the reverse proxy sends to that process. Said before
    the code is used, so the owner can still exchange it."""

    def __init__(self, shard: int) -> None:
        super().__init__(shard)
        self.shard = shard


class Refused(Exception):
    """The Activity is not let in; ``str()`` is the msgid the page shows, ``status`` the HTTP
    status, ``kind`` what the log says (never a token)."""

    def __init__(self, message: str, status: int, kind: str) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind


@dataclass(frozen=True)
class ActivityConfig:
    """The application's credentials (never in repr()) and where Discord's API is."""

    client_id: str
    client_secret: str = field(repr=False)
    bot_token: str = field(repr=False)
    api_url: str = "https://discord.com/api/v10"


@dataclass(frozen=True)
class Session:
    user_id: int
    channel_id: int
    name: str
    expires: float


@dataclass(frozen=True)
class Admitted:
    """What ``/api/token`` answers: the page's access token and its session."""

    access_token: str = field(repr=False)
    session: str = field(repr=False)
    user_id: int
    channel_id: int
    name: str


class Sessions:
    """The open Activity sessions of this process (a restart asks each page to sign in again)."""

    def __init__(self) -> None:
        self._by_token: OrderedDict[str, Session] = OrderedDict()

    def issue(self, user_id: int, channel_id: int, name: str, now: float) -> str:
        token = SESSION_PREFIX + secrets.token_urlsafe(32)
        self._by_token[token] = Session(user_id, channel_id, name, now + SESSION_SECONDS)
        while len(self._by_token) > MAX_SESSIONS:
            self._by_token.popitem(last=False)
        return token

    def get(self, token: str, now: float) -> Session | None:
        session = self._by_token.get(token)
        if session is None or session.expires <= now:
            return None
        return session


def _digest(code: str) -> str:
    # Codes are remembered by their hash: the memory of used codes holds no usable secret.
    return hashlib.sha256(code.encode()).hexdigest()


def _snowflake(value: Any) -> int | None:
    text = str(value) if isinstance(value, (str, int)) else ""
    return int(text) if text.isdigit() and len(text) < 24 else None


class DiscordGate:
    """The three questions to Discord (code, user, instance) and the answer to the page."""

    def __init__(self, config: ActivityConfig) -> None:
        self.config = config
        self._codes: OrderedDict[str, None] = OrderedDict()
        self._http: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    def _client(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            timeout = aiohttp.ClientTimeout(total=DISCORD_TIMEOUT)
            self._http = aiohttp.ClientSession(timeout=timeout)
        return self._http

    async def _call(
        self, method: str, path: str, *, kind: str, headers: Mapping[str, str], **kwargs: Any
    ) -> tuple[int, Any]:
        url = self.config.api_url.rstrip("/") + path
        try:
            async with self._client().request(method, url, headers=headers, **kwargs) as reply:
                try:
                    body = await reply.json(content_type=None)
                except ValueError:
                    body = None
                return reply.status, body
        except (aiohttp.ClientError, TimeoutError):
            log.warning("activity: Discord did not answer (%s)", kind)
            raise Refused(
                N_("Discord did not answer: close the Activity and open it again."), 502, kind
            ) from None

    async def exchange(self, code: str) -> str:
        """The access token of ``code`` (``identify``), from Discord's OAuth2 endpoint."""
        status, body = await self._call(
            "POST",
            "/oauth2/token",
            kind="token",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
            data={
                "client_id": self.config.client_id,
                "client_secret": self.config.client_secret,
                "grant_type": "authorization_code",
                "code": code,
            },
        )
        token = body.get("access_token") if isinstance(body, dict) else None
        if status != 200 or not isinstance(token, str) or not token:
            log.info("activity: a code was refused by Discord (HTTP %d)", status)
            raise Refused(
                N_("Discord refused this sign-in: close the Activity and open it again."),
                403,
                "bad_code",
            )
        return token

    async def user_of(self, token: str) -> tuple[int, str]:
        """The user an access token of this application is for, and his name."""
        bearer = {"Authorization": f"Bearer {token}"}
        status, body = await self._call("GET", "/oauth2/@me", kind="app", headers=bearer)
        application = body.get("application") if isinstance(body, dict) else None
        app_id = application.get("id") if isinstance(application, dict) else None
        if status != 200 or str(app_id) != self.config.client_id:
            log.info("activity: a token of another application (HTTP %d)", status)
            raise Refused(
                N_("This sign-in is not for this bot: close the Activity and open it again."),
                403,
                "other_application",
            )
        status, body = await self._call("GET", "/users/@me", kind="user", headers=bearer)
        user_id = _snowflake(body.get("id")) if isinstance(body, dict) else None
        if status != 200 or user_id is None:
            log.info("activity: Discord did not say who the user is (HTTP %d)", status)
            raise Refused(
                N_("Discord refused this sign-in: close the Activity and open it again."),
                403,
                "no_user",
            )
        assert isinstance(body, dict)
        name = body.get("global_name") or body.get("username") or str(user_id)
        return user_id, str(name)[:80]

    async def instance(self, instance_id: str) -> tuple[int, int | None, frozenset[int]]:
        """The channel an instance of this application runs in, its server, and its users
        (asked with the bot's token: the page's word is never taken for any)."""
        path = f"/applications/{self.config.client_id}/activity-instances/{instance_id}"
        headers = {"Authorization": f"Bot {self.config.bot_token}"}
        status, body = await self._call("GET", path, kind="instance", headers=headers)
        location = body.get("location") if isinstance(body, dict) else None
        channel = _snowflake(location.get("channel_id")) if isinstance(location, dict) else None
        if status != 200 or channel is None or not isinstance(body, dict):
            log.info("activity: an unknown instance (HTTP %d)", status)
            raise Refused(
                N_("Discord does not know this Activity: close it and open it again."),
                404,
                "unknown_instance",
            )
        if str(body.get("application_id", self.config.client_id)) != self.config.client_id:
            raise Refused(
                N_("Discord does not know this Activity: close it and open it again."),
                404,
                "unknown_instance",
            )
        users = body.get("users") if isinstance(body.get("users"), list) else []
        guild = _snowflake(location.get("guild_id")) if isinstance(location, dict) else None
        return channel, guild, frozenset(u for u in map(_snowflake, users) if u is not None)

    def fresh_code(self, code: str) -> None:
        """Refuses a code this process has seen before (a replay); remembers it."""
        key = _digest(code)
        if key in self._codes:
            log.info("activity: a code was replayed")
            raise Refused(
                N_("Discord refused this sign-in: close the Activity and open it again."),
                403,
                "replayed_code",
            )
        self._codes[key] = None
        while len(self._codes) > MAX_CODES:
            self._codes.popitem(last=False)


def parse_request(body: Any) -> tuple[str, str]:
    """The code and instance id of a ``/api/token`` body; raises ``Refused``."""
    code = body.get("code") if isinstance(body, dict) else None
    instance = body.get("instance_id") if isinstance(body, dict) else None
    for value in (code, instance):
        if (
            not isinstance(value, str)
            or not 0 < len(value) <= MAX_FIELD
            or not value.replace("-", "").replace("_", "").replace(".", "").isalnum()
            or not value.isascii()
        ):
            raise Refused(N_("Not a sign-in request."), 400, "bad_request")
    assert isinstance(code, str) and isinstance(instance, str)
    return code, instance
