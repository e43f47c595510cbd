"""A loopback stand-in for the parts of Discord's HTTP API an Activity's sign-in asks: the OAuth2
token endpoint, ``/oauth2/@me``, ``/users/@me`` and an application's activity instances.

Codes are granted by the test (``grant``), each good once, for one user and one application;
instances are opened by the test (``open_instance``) in a channel with their users. Every
request is recorded (``calls``) so a test can say what Discord was asked.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

APP_ID = "100000000000000001"
OTHER_APP = "100000000000000002"
CLIENT_SECRET = "client-secret-for-tests"
BOT_TOKEN = "bot-token-for-tests"


@dataclass
class FakeDiscord:
    users: dict[int, str] = field(default_factory=dict)
    codes: dict[str, tuple[int, str]] = field(default_factory=dict)  # code: (user, application)
    tokens: dict[str, tuple[int, str]] = field(default_factory=dict)
    instances: dict[str, tuple[int, list[int], int]] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    #: Seconds every answer waits (a Discord that does not answer in time).
    delay: float = 0.0

    def grant(self, user: int, application: str = APP_ID) -> str:
        """A fresh code, as the client's ``authorize`` gives the page."""
        code = secrets.token_urlsafe(20)
        self.codes[code] = (user, application)
        return code

    def open_instance(self, channel: int, users: list[int], guild: int = 99) -> str:
        instance = f"i-{secrets.randbelow(10**12)}-gc-{guild}-{channel}"
        self.instances[instance] = (channel, users, guild)
        return instance

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._record])
        app.router.add_post("/api/oauth2/token", self._token)
        app.router.add_get("/api/oauth2/@me", self._oauth_me)
        app.router.add_get("/api/users/@me", self._user_me)
        app.router.add_get("/api/applications/{app}/activity-instances/{instance}", self._instance)
        return app

    @web.middleware
    async def _record(self, request: web.Request, handler: Any) -> web.StreamResponse:
        self.calls.append(f"{request.method} {request.path}")
        if self.delay:
            await asyncio.sleep(self.delay)
        response: web.StreamResponse = await handler(request)
        return response

    async def _token(self, request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("client_id") != APP_ID or form.get("client_secret") != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        granted = self.codes.pop(str(form.get("code")), None)  # a code is good once
        if granted is None:
            return web.json_response({"error": "invalid_grant"}, status=400)
        token = secrets.token_urlsafe(24)
        self.tokens[token] = granted
        return web.json_response(
            {"access_token": token, "token_type": "Bearer", "expires_in": 604800,
             "scope": "identify"}
        )  # fmt: skip

    def _bearer(self, request: web.Request) -> tuple[int, str] | None:
        header = request.headers.get("Authorization", "")
        return (
            self.tokens.get(header.removeprefix("Bearer "))
            if header.startswith("Bearer ")
            else None
        )

    async def _oauth_me(self, request: web.Request) -> web.Response:
        found = self._bearer(request)
        if found is None:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        user, application = found
        return web.json_response(
            {"application": {"id": application, "name": "Cards"}, "scopes": ["identify"],
             "user": {"id": str(user), "username": self.users.get(user, "someone")}}
        )  # fmt: skip

    async def _user_me(self, request: web.Request) -> web.Response:
        found = self._bearer(request)
        if found is None:
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        user = found[0]
        name = self.users.get(user, f"user{user}")
        return web.json_response(
            {"id": str(user), "username": name.lower(), "global_name": name, "discriminator": "0"}
        )

    async def _instance(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        if request.match_info["app"] != APP_ID:
            return web.json_response({"message": "Unknown Application"}, status=404)
        found = self.instances.get(request.match_info["instance"])
        if found is None:
            return web.json_response({"message": "Unknown Activity Instance"}, status=404)
        channel, users, guild = found
        return web.json_response(
            {
                "application_id": APP_ID,
                "instance_id": request.match_info["instance"],
                "launch_id": "1",
                "location": {"id": f"gc-1-{channel}", "kind": "gc", "channel_id": str(channel),
                             "guild_id": str(guild)},
                "users": [str(u) for u in users],
            }
        )  # fmt: skip
