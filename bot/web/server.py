"""The table in the browser: an aiohttp server in the bot's process (``WEB_PORT``).

Routes:
- ``GET /t/<token>``: the table page (one HTML page; its scripts are plain modules, no build).
- ``GET /t/<token>/tables``: the link's user's tables in that table's server, whose turn it is
  and until when (``/mytables`` as JSON: ``bot.render.my_tables.web_list``), for the page.
- ``GET /ws/<token>``: the page's websocket. On connect a whole ``state`` frame, then one after
  every committed change of the table (``hub.py``); the page sends ``{"type": "act", "action":
  "play 5h", "move": 12}`` and gets an ``error`` frame when the move is refused.
- ``GET /r/<token>``: the replay viewer of a finished game (``replay.html``), and
  ``GET /r/<token>/step/<k>``: its step ``k`` as JSON (``replay.py``). A replay link names a
  server and a game, anyone may open it, and it never expires (a finished game never changes);
  a running game, another server's game or a step out of range is refused (404/409).
- ``GET /?frame_id=...``: the same page as a Discord Activity (``activity.py``; only with
  ``DISCORD_CLIENT_ID`` set), and ``POST /api/token``: its sign-in; ``/s/<shard>/api/token`` and
  ``/s/<shard>/ws/<token>`` the same, named by the shard of the table's server (several
  processes: the reverse proxy sends ``/s/<shard>/`` to the process running it). Every address
  the page uses is relative, so that it loads at ``/`` and under Discord's ``/.proxy/`` path.
- ``/static/...``: the generic page; ``/games/<game>/...``: a game's own web folder
  (``bot/render/games/<game>/web/``, static files only).
- ``/s/<shard>/t/<token>`` and ``/s/<shard>/ws/<token>``: the same page and socket, named by the
  shard of the table's server. A bot run as several processes (``SHARD_COUNT`` > 1) makes its
  links so, and the reverse proxy sends ``/s/<shard>/`` to the process running that shard
  (``deploy/nginx/``, ``deploy/Caddyfile``); anything else (files, replays: every process has
  them) may go to any process.

Bad input changes nothing: a link that is forged, expired or for another table opens nothing
(403); a websocket from another site's page is refused (Origin); a frame that is not JSON, too
big (the socket closes, 1009), or not a move of the reader's own seat at the table's current
move number gets an error frame; a page that floods is closed (1008). Each page has its own
limits, so one bad page never slows the others.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web

import engine
from bot.i18n import N_, _, language_of, use_locale
from bot.records import RecordError, build, finished_game
from bot.records.store import running_here
from bot.render import my_tables
from bot.service import TableError, TableService
from bot.shards import Shards, shard_of
from bot.web import activity, frames, links, replay
from bot.web.adapter import ServiceAdapter
from bot.web.hub import Hub, Page
from bot.web.limits import FrameBudget

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
#: Largest frame a page may send (a move is a few dozen bytes; the longest, laying down
#: many cards, a few hundred).
MAX_MESSAGE = 4096
#: Longest action text accepted (the longest real move is ~60 characters).
MAX_ACTION = 200
#: Headers of every page and file: nothing from another origin, no referrer (the path holds the
#: personal token), no framing by another site.
SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
}
#: Scripts, styles and the socket from this origin only.
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
#: The Activity's page: framed by Discord's client (its web, desktop and phone apps all frame it
#: from these origins), and by itself (a test's stand-in for Discord serves both).
ACTIVITY_ANCESTORS = (
    "'self' https://discord.com https://*.discord.com https://discordapp.com "
    "https://*.discordapp.com https://*.discordsays.com"
)
ACTIVITY_POLICY = PAGE_POLICY.replace(
    "frame-ancestors 'none'", f"frame-ancestors {ACTIVITY_ANCESTORS}"
)
#: The Activity's words the page shows before it has a table (its sign-in and its refusals).
ACTIVITY_STRINGS = (
    N_("Waiting for Discord…"),
    N_("Discord does not answer: this page works inside Discord's Activity frame only."),
    N_("Signing in…"),
    N_("Discord refused this sign-in: close the Activity and open it again."),
    N_("Discord did not answer: close the Activity and open it again."),
)
#: Records of finished games kept in memory for their viewers (a viewer asks for one step at a
#: time; a finished game never changes, so a kept record is never stale).
CACHED_RECORDS = 16
#: Replay steps a reader's address may ask for: a held arrow key repeats ~30 times a second,
#: a person reads a step in a second or more. Past the budget a step is refused (429) and the
#: page stays where it is; addresses remembered at most (the oldest forgotten first).
STEP_RATE, STEP_BURST = 10.0, 40.0
STEP_READERS = 4096


def step_budget() -> FrameBudget:
    return FrameBudget(rate=STEP_RATE, burst=STEP_BURST, tokens=STEP_BURST)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


@functools.cache
def _index(root: str) -> str:
    """The page (the same for every table: its script reads the token from the address), its
    addresses relative to ``root``: the folder of ``/`` from the page's own address."""
    return (STATIC / "index.html").read_text().replace("{root}", root)


def _activity_words(language: str) -> str:
    """The Activity's words, as the JSON of a data block of its page (never run as a script;
    ``<`` escaped so no text can end the block)."""
    with use_locale(language):
        words = {text: _(text) for text in ACTIVITY_STRINGS}
    return json.dumps(words, ensure_ascii=True).replace("<", "\\u003c")


@functools.cache
def _replay_page() -> str:
    return (STATIC / "replay.html").read_text()


class WebServer:
    """Serves the table pages of one bot process's tables."""

    def __init__(
        self,
        service: TableService,
        secret: bytes,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        public_url: str | None = None,
        activity_config: activity.ActivityConfig | None = None,
        shards: Shards | None = None,
        clock: Callable[[], float] = time.time,
        max_message: int = MAX_MESSAGE,
        budget: Callable[[], FrameBudget] = FrameBudget,
        steps_budget: Callable[[], FrameBudget] = step_budget,
    ) -> None:
        self.service = service
        self.secret = secret
        self.host = host
        self.port = port
        self.public_url = public_url
        self.clock = clock
        self.max_message = max_message
        self.budget = budget
        self.adapter = ServiceAdapter(service)
        self.hub: Hub | None = None
        self._runner: web.AppRunner | None = None
        self._records: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()
        self.steps_budget = steps_budget
        self._readers: OrderedDict[str, FrameBudget] = OrderedDict()
        #: The Discord Activity (None: the page opens by signed links only).
        self.activity = activity_config
        self.gate = activity.DiscordGate(activity_config) if activity_config else None
        self.sessions = activity.Sessions()
        #: The shards this process serves (an Activity of another's server is sent there).
        self.shards = shards or Shards()

    # -- life -----------------------------------------------------------------------------------
    def app(self) -> web.Application:
        """The application (tests serve it with aiohttp's test client)."""
        if self.hub is None:
            self.hub = Hub(self.adapter, self.clock)
        app = web.Application(middlewares=[self._headers])
        app.router.add_get("/", self._root)
        app.router.add_get("/favicon.ico", self._no_icon)
        app.router.add_get("/t/{token}", self._page)
        app.router.add_get("/t/{token}/tables", self._my_tables)
        app.router.add_get(r"/s/{shard:\d+}/t/{token}/tables", self._my_tables)
        app.router.add_get("/ws/{token}", self._socket)
        app.router.add_get(r"/s/{shard:\d+}/t/{token}", self._page)
        app.router.add_post("/api/token", self._activity_token)
        # The same under the shard of the table's server: with several processes the reverse
        # proxy sends /s/<shard>/ to the one running it (docs/activity.md).
        app.router.add_post(r"/s/{shard:\d+}/api/token", self._activity_token)
        app.router.add_get(r"/s/{shard:\d+}/ws/{token}", self._socket)
        app.router.add_get("/r/{token}", self._replay_page)
        app.router.add_get("/r/{token}/step/{step}", self._replay_step)
        app.router.add_static("/static/", STATIC, append_version=False)
        for game in engine.GAMES:
            folder = frames.game_web_dir(game)
            if folder is not None:
                app.router.add_static(f"/games/{game}/", folder)
        app.on_shutdown.append(self._close_pages)
        return app

    async def start(self) -> int:
        """Listen; returns the port. Raises OSError if the address is taken."""
        runner = web.AppRunner(self.app(), access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = runner.addresses[0][1]
        log.info("the web table on http://%s:%d (links: %s)", self.host, self.port, self.base)
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.hub is not None:
            self.hub.close()
            self.hub = None
        if self.gate is not None:
            await self.gate.close()

    async def _close_pages(self, app: web.Application) -> None:
        if self.hub is None:
            return
        for pages in list(self.hub.pages.values()):
            for page in list(pages):
                await page.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")

    # -- links ----------------------------------------------------------------------------------
    @property
    def base(self) -> str:
        if self.public_url:
            return self.public_url.rstrip("/")
        return f"http://{self.host}:{self.port}"

    def link(self, user_id: int, channel_id: int, language: str | None = None) -> str:
        """The user's personal link to the channel's table, valid ``links.LINK_SECONDS``."""
        expires = int(self.clock()) + links.LINK_SECONDS
        token = links.sign(self.secret, user_id, channel_id, expires)
        url = f"{self.base}{self.shard_prefix(channel_id)}/t/{token}"
        return f"{url}?lang={language_of(language)}" if language else url

    def shard_prefix(self, channel_id: int) -> str:
        """``/s/<shard>`` of the channel's table when the bot runs several shards (the proxy
        routes by it to the process holding the table), else nothing."""
        shards = self.service.shards
        if shards.count <= 1:
            return ""
        table = self.service.get_table(channel_id)
        return f"/s/{shard_of(None if table is None else table.guild_id, shards.count)}"

    def replay_link(self, guild_id: int, table_id: int, language: str | None = None) -> str:
        """The link anyone of server ``guild_id`` may open to replay its finished game
        ``table_id`` (no expiry: the game never changes)."""
        url = f"{self.base}/r/{links.sign_replay(self.secret, guild_id, table_id)}"
        return f"{url}?lang={language_of(language)}" if language else url

    def _allowed_origins(self, request: web.Request) -> set[str]:
        allowed = {f"{request.scheme}://{request.host}".lower()}
        if self.public_url:
            allowed.add(_origin(self.public_url))
        if self.activity is not None:  # Discord's proxy of the Activity
            allowed.add(f"https://{self.activity.client_id}.discordsays.com")
        return allowed

    # -- HTTP -------------------------------------------------------------------------------------
    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    async def _root(self, request: web.Request) -> web.Response:
        if self.activity is not None and "frame_id" in request.query:
            return self._activity_page(request)
        return web.Response(text="Troika Table: open your table's link from the bot.\n")

    def _activity_page(self, request: web.Request) -> web.Response:
        """The table page inside Discord's frame: it signs in, then opens the table of the
        Activity's channel (``activity.py``)."""
        language = self._language(request)
        page = _index("").replace(
            '<main id="table"',
            '<script type="application/json" id="activity">'
            + json.dumps({"client_id": self.activity.client_id if self.activity else ""})
            + '</script>\n<script type="application/json" id="words">'
            + _activity_words(language)
            + '</script>\n<main id="table"',
        )
        response = web.Response(text=page, content_type="text/html")
        response.headers["Cache-Control"] = "no-store"
        response.headers["Content-Security-Policy"] = ACTIVITY_POLICY
        return response

    async def _activity_token(self, request: web.Request) -> web.Response:
        """The Activity's sign-in (``activity.py``): a code and an instance in, the access
        token and a session out; a refusal says why on the page and changes nothing."""
        language = self._language(request)
        if self.gate is None:
            return self._refusal(404, N_("This bot is not a Discord Activity."), language)
        if not self._reader_budget(request).take(time.monotonic()):
            return self._refusal(429, N_("Too many steps at once: slow down."), language)
        try:
            try:
                body = await request.json()
            except ValueError:
                body = None
            code, instance_id = activity.parse_request(body)
            admitted = await self._admit(code, instance_id)
        except activity.Refused as refused:
            return self._refusal(refused.status, str(refused), language)
        except activity.Elsewhere as elsewhere:
            return web.json_response({"type": "elsewhere", "shard": elsewhere.shard}, status=409)
        return web.json_response(
            {
                "access_token": admitted.access_token,
                "session": admitted.session,
                "user": str(admitted.user_id),
                "name": admitted.name,
            },
            headers={"Cache-Control": "no-store"},
        )

    async def _admit(self, code: str, instance_id: str) -> activity.Admitted:
        gate = self.gate
        assert gate is not None
        channel_id, guild_id, users = await gate.instance(instance_id)
        if not self.shards.owns(guild_id):
            raise activity.Elsewhere(shard_of(guild_id, self.shards.count))
        gate.fresh_code(code)
        token = await gate.exchange(code)
        user_id, name = await gate.user_of(token)
        if user_id not in users:
            log.info("activity: a user who is not in the instance")
            raise activity.Refused(
                N_("You are not in this Activity: join it in Discord first."), 403, "not_in"
            )
        if self.adapter.table(channel_id) is None:
            raise activity.Refused(
                N_("There is no table in this channel: open one with the bot first."),
                404,
                "no_table",
            )
        session = self.sessions.issue(user_id, channel_id, name, self.clock())
        return activity.Admitted(token, session, user_id, channel_id, name)

    async def _no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    def _language(self, request: web.Request) -> str:
        asked = request.query.get("lang") or request.headers.get("Accept-Language", "")
        return language_of(asked.split(",")[0].strip()[:16])

    async def _page(self, request: web.Request) -> web.Response:
        language = self._language(request)
        try:
            links.verify(self.secret, request.match_info["token"], self.clock())
        except links.BadLink as error:
            with use_locale(language):
                text = _(str(error))
            return web.Response(status=403, text=text + "\n")
        # Its files from the root, however deep the link (``/t/...``, a proxy's ``/s/<k>/t/...``).
        root = "../" * max(1, request.path.count("/") - 1)
        response = web.Response(text=_index(root), content_type="text/html")
        response.headers["Cache-Control"] = "no-store"
        response.headers["Content-Security-Policy"] = PAGE_POLICY
        return response

    async def _my_tables(self, request: web.Request) -> web.Response:
        """The link's user's tables in the server of the link's table (``/mytables`` as plain
        data: ``my_tables.web_list``), for the page's list of his tables."""
        language = self._language(request)
        try:
            link = links.verify(self.secret, request.match_info["token"], self.clock())
        except links.BadLink as error:
            return self._refusal(403, str(error), language)
        here = self.service.get_table(link.channel_id)
        tables = [] if here is None else self.service.tables_of(link.user_id, here.guild_id)
        with use_locale(language):
            body = my_tables.web_list(tables, link.user_id, link.channel_id)
        response = web.json_response({**body, "language": language})
        response.headers["Cache-Control"] = "no-store"
        return response

    # -- the replay viewer ------------------------------------------------------------------------
    def _refusal(self, status: int, message: str, language: str) -> web.Response:
        with use_locale(language):
            text = _(message)
        return web.json_response({"type": "error", "message": text}, status=status)

    async def _record(self, link: links.ReplayLink) -> dict[str, Any] | tuple[int, str]:
        """The record of the link's game, or why there is none (an HTTP status and a msgid)."""
        key = (link.guild_id, link.table_id)
        if key in self._records:
            self._records.move_to_end(key)
            return self._records[key]
        db = self.service.db
        found = await db.run(lambda conn: finished_game(conn, link.guild_id, link.table_id))
        if found is None:
            if await db.run(lambda conn: running_here(conn, link.guild_id, link.table_id)):
                return 409, N_("This game is still being played: only a finished game is replayed.")
            return 404, N_("There is no such finished game in this server.")
        try:
            record = build(found)
        except RecordError:
            return 404, N_("This game cannot be replayed: its record was lost.")
        self._records[key] = record
        while len(self._records) > CACHED_RECORDS:
            self._records.popitem(last=False)
        return record

    def _reader_budget(self, request: web.Request) -> FrameBudget:
        """The step budget of the request's address (behind the proxy of ``WEB_PUBLIC_URL``,
        the address it saw: the last one it appends; without a proxy the header is the client's
        own word and ignored)."""
        header = request.headers.get("X-Forwarded-For", "") if self.public_url else ""
        forwarded = header.split(",")[-1].strip()
        key = (forwarded or request.remote or "")[:64]
        budget = self._readers.get(key)
        if budget is None:
            budget = self._readers[key] = self.steps_budget()
            while len(self._readers) > STEP_READERS:
                self._readers.popitem(last=False)
        else:
            self._readers.move_to_end(key)
        return budget

    async def _replay_page(self, request: web.Request) -> web.Response:
        language = self._language(request)
        try:
            links.verify_replay(self.secret, request.match_info["token"])
        except links.BadLink as error:
            with use_locale(language):
                text = _(str(error))
            return web.Response(status=403, text=text + "\n")
        response = web.Response(text=_replay_page(), content_type="text/html")
        response.headers["Content-Security-Policy"] = PAGE_POLICY
        return response

    async def _replay_step(self, request: web.Request) -> web.Response:
        language = self._language(request)
        try:
            link = links.verify_replay(self.secret, request.match_info["token"])
        except links.BadLink as error:
            return self._refusal(403, str(error), language)
        if not self._reader_budget(request).take(time.monotonic()):
            return self._refusal(429, N_("Too many steps at once: slow down."), language)
        record = await self._record(link)
        if isinstance(record, tuple):
            return self._refusal(*record, language)
        try:
            step = int(request.match_info["step"])
            # Off the event loop: a late step of a long game replays ~1,000 moves (~50 ms).
            frame = await asyncio.to_thread(replay.step_frame, record, step, language)
        except (ValueError, IndexError):
            return self._refusal(404, N_("There is no such step in this game."), language)
        frame["strings"] = {**frames.strings(frame["game"], language), **replay.strings(language)}
        frame["lang"] = language
        return web.json_response(frame)

    # -- the websocket --------------------------------------------------------------------------
    async def _socket(self, request: web.Request) -> web.StreamResponse:
        language = self._language(request)
        origin = request.headers.get("Origin", "").lower()
        if origin not in self._allowed_origins(request):
            with use_locale(language):
                text = _("This page may not open the table here.")
            return web.Response(status=403, text=text + "\n")
        token = request.match_info["token"]
        name: str | None = None
        if token.startswith(activity.SESSION_PREFIX):  # an Activity's session
            session = self.sessions.get(token, self.clock())
            if session is None:
                with use_locale(language):
                    text = _("This Activity's sign-in has expired: close it and open it again.")
                return web.Response(status=403, text=text + "\n")
            user_id, channel_id, name = session.user_id, session.channel_id, session.name
        else:
            try:
                link = links.verify(self.secret, token, self.clock())
            except links.BadLink as error:
                with use_locale(language):
                    text = _(str(error))
                return web.Response(status=403, text=text + "\n")
            user_id, channel_id = link.user_id, link.channel_id
        # Uncompressed: a frame is encoded once and the same text written to every page that
        # sees it; per-message deflate (which browsers ask for) would compress it again for
        # each page, in the bot's loop, to save a kilobyte or two a move.
        ws = web.WebSocketResponse(max_msg_size=self.max_message, heartbeat=30.0, compress=False)
        await ws.prepare(request)
        assert self.hub is not None
        hub = self.hub
        page = Page(ws, user_id, channel_id, language, name, request.transport)
        first = hub.frame_for(page)
        if first is None:
            closed = hub.closed_frame(channel_id, language)
            if closed["lines"]:  # the game just ended: its result
                await ws.send_json(closed)
            else:
                with use_locale(language):
                    text = _("There is no table here. Open one first.")
                await ws.send_json(frames.error_frame("no_table", text))
            await ws.close()
            return ws
        first["type"] = "snapshot"
        first["strings"] = frames.strings(first["game"], language)
        first["lang"] = language
        await ws.send_str(frames.encode(first))
        hub.add(page)
        if hub.seq.get(page.channel_id, 0) != first["seq"]:  # a change while it was sent
            again = hub.frame_for(page)
            if again is not None:
                page.push(frames.encode(again))
        budget = self.budget()
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    if message.type == WSMsgType.BINARY:
                        await self._refuse(page, "bad_frame", N_("Not a frame."))
                    continue
                if not budget.take(time.monotonic()):
                    if budget.flooding:
                        await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too many")
                        break
                    await self._refuse(page, "slow_down", N_("Too many frames: slow down."))
                    continue
                await self._handle(page, message.data)
        finally:
            await hub.remove(page)
        return ws

    async def _refuse(self, page: Page, code: str, message: str) -> None:
        with use_locale(page.language):
            text = _(message)
        if not page.ws.closed:
            await page.ws.send_json(frames.error_frame(code, text))

    async def _handle(self, page: Page, data: str) -> None:
        try:
            frame = json.loads(data)
        except ValueError:
            await self._refuse(page, "bad_frame", N_("Not a frame."))
            return
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            await self._refuse(page, "bad_frame", N_("Not a frame."))
            return
        kind = frame["type"]
        if kind == "sync":  # the page asks for its whole state again
            assert self.hub is not None
            state = self.hub.frame_for(page)
            if state is not None:
                page.push(frames.encode(state))
            return
        if kind in ("sheet", "info"):  # asked for by the reader: the score sheet, the table
            seen = self.adapter.state(page.channel_id, page.user_id)
            if seen is not None:
                await page.ws.send_json(frames.sheet_frame(seen, page.language, kind))
            return
        if kind in ("join", "start"):
            await self._seat(page, kind)
            return
        if kind != "act":
            await self._refuse(page, "bad_frame", N_("Not a frame."))
            return
        action, move, seat = frame.get("action"), frame.get("move"), frame.get("seat")
        if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION:
            await self._refuse(page, "bad_frame", N_("Not a frame."))
            return
        if type(move) is not int:
            await self._refuse(page, "bad_frame", N_("Not a frame."))
            return
        state = self.adapter.state(page.channel_id, page.user_id)
        if state is None:
            await self._refuse(page, "no_table", N_("There is no table here. Open one first."))
            return
        if state.seat is None or (seat is not None and seat != state.seat):
            await self._refuse(page, "not_your_seat", N_("You do not play this seat."))
            return
        if move != state.table.move_number:
            await self._refuse(page, "stale", N_("The table has moved on: look again."))
            return
        with use_locale(page.language):
            try:
                await self.adapter.submit(page.channel_id, page.user_id, action)
            except TableError as error:
                await page.ws.send_json(frames.error_frame("refused", str(error)))

    async def _seat(self, page: Page, kind: str) -> None:
        """An Activity's reader takes a seat (the lobby's, or one the AI holds in play) or starts
        the game, by the calls the table message's buttons make: the service's refusals are
        his answer. A signed link's page has no name to sit under: it joins from Discord."""
        if page.name is None:
            await self._refuse(page, "bad_frame", N_("Not a frame."))
            return
        with use_locale(page.language):
            try:
                if kind == "join":
                    await self.adapter.service.join(page.channel_id, page.user_id, page.name)
                else:
                    await self.adapter.service.start_game(page.channel_id, page.user_id)
            except TableError as error:
                await page.ws.send_json(frames.error_frame("refused", str(error)))
