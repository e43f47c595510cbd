"""A stand-in for Discord's client and its Activity proxy, for browser tests and screenshots.

One loopback origin serves, as Discord does for an Activity:

- ``/client/<user>?instance=...&platform=mobile&w=400&h=720``: the client's page, logged in as
  ``<user>``: it frames the Activity at ``/.proxy/?frame_id=...&instance_id=...&platform=...``
  and speaks the Embedded App SDK's postMessage protocol with it (``[opcode, payload]``:
  HANDSHAKE in, READY dispatched back; AUTHORIZE answered with a code the fake Discord grants to
  ``<user>``; AUTHENTICATE answered with the token's user, or an ERROR for a token it never
  issued). ``&silent=1``: a client that never answers the handshake.
  GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS answers the instance's users.
- ``/.proxy/<path>``: Discord's proxy to the URL mapping's target, the bot's web server (its
  HTTP and its websocket), the prefix stripped; ``/.proxy/s/<k>/<path>`` goes (as
  ``/s/<k>/<path>``) to the process of shard ``k`` when ``shards`` names it (the operator's
  reverse proxy's routes).

The client and the Activity share this origin (Discord's are discord.com and
<app>.discordsays.com): the SDK accepts messages from its own origin as from Discord's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from tests.web.fake_discord import APP_ID, FakeDiscord

CLIENT_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (stand-in)</title>
<style>
  html, body { margin: 0; background: #1e1f22; }
  iframe { border: 0; display: block; }
</style></head>
<body>
<script>
const APP_ID = %(app)s;
const params = new URLSearchParams(location.search);
const user = location.pathname.split("/").pop();
const frameId = "frame-" + user + "-" + Math.random().toString(36).slice(2);
const iframe = document.createElement("iframe");
const platform = params.get("platform") || "desktop";
iframe.src = "/.proxy/?frame_id=" + frameId + "&instance_id="
  + encodeURIComponent(params.get("instance")) + "&platform=" + platform;
iframe.width = params.get("w") || 1024;
iframe.height = params.get("h") || 640;
document.body.append(iframe);
window.handshakes = 0;
window.commands = [];
function reply(payload) { iframe.contentWindow.postMessage([1, payload], location.origin); }
window.addEventListener("message", async (event) => {
  if (event.source !== iframe.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  if (opcode === 0) {  // HANDSHAKE
    window.handshakes += 1;
    if (params.get("silent") || data.client_id !== APP_ID || data.frame_id !== frameId) return;
    reply({ cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1,
      config: { api_endpoint: "//discord.com/api", environment: "production",
                cdn_host: "cdn.discordapp.com" },
      user: { id: user, username: "user" + user, discriminator: "0" } } });
  } else if (opcode === 1) {  // FRAME: a command
    window.commands.push(data.cmd);
    if (data.cmd === "AUTHORIZE") {
      const answer = await (await fetch("/client-api/grant/" + user, { method: "POST" })).json();
      reply({ cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: { code: answer.code } });
    } else if (data.cmd === "AUTHENTICATE") {
      const answer = await fetch("/client-api/check", { method: "POST",
        body: (data.args && data.args.access_token) || "" });
      if (answer.ok) {
        reply({ cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: await answer.json() });
      } else {
        reply({ cmd: "AUTHENTICATE", evt: "ERROR", nonce: data.nonce,
                data: { code: 4009, message: "Invalid access token" } });
      }
    } else if (data.cmd === "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS") {
      const answer = await (await fetch("/client-api/participants?instance="
        + encodeURIComponent(params.get("instance")))).json();
      reply({ cmd: data.cmd, evt: null, nonce: data.nonce, data: answer });
    } else if (data.cmd === "SUBSCRIBE") {
      reply({ cmd: data.cmd, evt: null, nonce: data.nonce, data: { evt: data.evt } });
    } else {
      reply({ cmd: data.cmd, evt: null, nonce: data.nonce, data: {} });
    }
  }
});
</script>
</body></html>
"""

HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "upgrade", "content-length",
               "content-encoding"}  # fmt: skip


class DiscordClient:
    """The client's pages and the proxy to the bot at ``target`` (``http://host:port``)."""

    def __init__(
        self, fake: FakeDiscord, target: str, shards: dict[int, str] | None = None
    ) -> None:
        self.fake = fake
        self.target = target.rstrip("/")
        self.shards = {k: v.rstrip("/") for k, v in (shards or {}).items()}
        self._http: aiohttp.ClientSession | None = None
        self.proxied: list[str] = []
        self._sockets: set[Any] = set()

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/client/{user}", self._client)
        app.router.add_post("/client-api/grant/{user}", self._grant)
        app.router.add_post("/client-api/check", self._check)
        app.router.add_get("/client-api/participants", self._participants)
        app.router.add_route("*", "/.proxy/{tail:.*}", self._proxy)
        app.on_shutdown.append(self._close_sockets)
        app.on_cleanup.append(self._close)
        return app

    async def _close_sockets(self, app: web.Application) -> None:
        # Open Activities would hold the server's shutdown until its timeout.
        for socket in list(self._sockets):
            await socket.close()

    async def _close(self, app: web.Application) -> None:
        if self._http is not None:
            await self._http.close()

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None:
            self._http = aiohttp.ClientSession(auto_decompress=False)
        return self._http

    async def _client(self, request: web.Request) -> web.Response:
        return web.Response(
            text=CLIENT_PAGE % {"app": json.dumps(APP_ID)}, content_type="text/html"
        )

    async def _grant(self, request: web.Request) -> web.Response:
        return web.json_response({"code": self.fake.grant(int(request.match_info["user"]))})

    async def _check(self, request: web.Request) -> web.Response:
        found = self.fake.tokens.get(await request.text())
        if found is None:
            return web.Response(status=401)
        user, application = found
        return web.json_response(
            {
                "access_token": "(the page's)",
                "user": {"id": str(user), "username": f"user{user}", "discriminator": "0",
                         "public_flags": 0},
                "scopes": ["identify"],
                "expires": "2100-01-01T00:00:00Z",
                "application": {"id": application, "name": "Cards", "description": ""},
            }
        )  # fmt: skip

    async def _participants(self, request: web.Request) -> web.Response:
        found = self.fake.instances.get(request.query.get("instance", ""))
        users = found[1] if found else []
        return web.json_response(
            {"participants": [
                {"id": str(u), "username": f"user{u}", "global_name": self.fake.users.get(u),
                 "discriminator": "0", "flags": 0, "bot": False}
                for u in users
            ]}
        )  # fmt: skip

    async def _proxy(self, request: web.Request) -> web.StreamResponse:
        tail = request.match_info["tail"]
        url = f"{self.target}/{tail}"
        for shard, target in self.shards.items():
            if tail.startswith(f"s/{shard}/"):
                url = f"{target}/{tail}"
        if request.query_string:
            url += "?" + request.query_string
        self.proxied.append(f"{request.method} /{tail}")
        # The page's own origin and host pass through (a reverse proxy keeping the Host).
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS}
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._proxy_socket(request, url, headers)
        body = await request.read()
        async with self._session().request(
            request.method, url, headers=headers, data=body, allow_redirects=False
        ) as reply:
            data = await reply.read()
            out = {k: v for k, v in reply.headers.items() if k.lower() not in HOP_HEADERS}
            return web.Response(body=data, status=reply.status, headers=out)

    async def _proxy_socket(
        self, request: web.Request, url: str, headers: dict[str, str]
    ) -> web.StreamResponse:
        keep = {k: v for k, v in headers.items() if k.lower() in ("origin", "host", "cookie")}
        try:
            upstream = await self._session().ws_connect(url, headers=keep)
        except aiohttp.WSServerHandshakeError as error:
            return web.Response(status=error.status)
        page = web.WebSocketResponse()
        await page.prepare(request)
        self._sockets.update((page, upstream))

        async def pump(source: Any, sink: Any) -> None:
            async for message in source:
                if message.type == WSMsgType.TEXT:
                    await sink.send_str(message.data)
                elif message.type == WSMsgType.BINARY:
                    await sink.send_bytes(message.data)
                else:
                    break

        tasks = [
            asyncio.create_task(pump(page, upstream)),
            asyncio.create_task(pump(upstream, page)),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        code = upstream.close_code or 1000
        await upstream.close()
        await page.close(code=code)
        self._sockets.difference_update((page, upstream))
        return page
