"""The table in the browser at scale: two bot processes on one PostgreSQL database, each serving
its own shards (SHARD_COUNT=8: 0-3 and 4-7), each with its web table; the links each makes
carry its table's shard (``/s/<shard>/t/<token>``), and the reverse proxy of ``deploy/`` sends
each link, and its page's socket, to the process holding the table.

- the proxy rules of ``deploy/nginx/`` and ``deploy/Caddyfile`` send every shard to the process
  running it, and everything else (files, replays) to any;
- through a real nginx running ``deploy/nginx/`` (ports changed only), a link of each process
  opens its page and its socket gets its own table; the same link sent to the other process
  gets no table. nginx is Debian's ``nginx-light`` (``.ci/run`` installs it); without it that
  test skips, except in CI.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import TableService
from bot.shards import Shards, shard_of
from bot.web.server import WebServer
from tests.bot.conftest import TEST_LIMITS
from tests.bot.service.test_multiprocess import PATIENCE, ServiceProcess

ROOT = Path(__file__).resolve().parents[2]
NGINX = ROOT / "deploy" / "nginx"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
SHARDS = 8
#: The processes of the example configuration: their shard ranges and web ports.
PROCESSES = {"0-3": 8081, "4-7": 8082}
SECRET = "ab" * 32


def owner_of(shard: int) -> str:
    return next(r for r in PROCESSES if int(r[0]) <= shard <= int(r[-1]))


def nginx_rules() -> tuple[list[tuple[str, str]], dict[str, list[int]]]:
    """The locations' (regex, upstream) in order, and each upstream's ports."""
    locations = re.findall(
        r"location ~ (\S+) \{\s*proxy_pass http://(\w+);",
        (NGINX / "troika-locations.conf").read_text(),
    )
    upstreams = {
        name: [int(p) for p in re.findall(r"server 127\.0\.0\.1:(\d+);", body)]
        for name, body in re.findall(
            r"upstream (\w+) \{([^}]*)\}", (NGINX / "troika-upstreams.conf").read_text()
        )
    }
    return locations, upstreams


def nginx_route(path: str) -> list[int]:
    """The ports nginx may send ``path`` to: the first regex location matching (nginx's rule
    for regex locations), else ``location /``."""
    locations, upstreams = nginx_rules()
    for pattern, upstream in locations:
        if re.search(pattern, path):
            return upstreams[upstream]
    return upstreams["troika_any"]


def caddy_route(path: str) -> list[int]:
    text = CADDYFILE.read_text()
    matchers = dict(re.findall(r"@(\w+) path_regexp (\S+)", text))
    for name, ports in re.findall(r"handle @(\w+) \{\s*reverse_proxy ([^\n]+)", text):
        if re.search(matchers[name], path):
            return [int(p) for p in re.findall(r":(\d+)", ports)]
    [fallback] = re.findall(r"handle \{\s*reverse_proxy ([^\n]+)", text)
    return [int(p) for p in re.findall(r":(\d+)", fallback)]


@pytest.mark.parametrize("route", [nginx_route, caddy_route], ids=["nginx", "caddy"])
def test_the_proxy_rules_send_each_shard_to_the_process_running_it(
    route: Callable[[str], list[int]],
) -> None:
    for shard in range(SHARDS):
        for path in (f"/s/{shard}/t/1.2.3.sig", f"/s/{shard}/ws/1.2.3.sig"):
            assert route(path) == [PROCESSES[owner_of(shard)]], path
    # Every process serves the files and the replays.
    for path in ("/static/table.css", "/games/troika/game.js", "/r/9.8.sig", "/t/1.2.3.sig"):
        assert sorted(route(path)) == sorted(PROCESSES.values()), path
    # A shard past the configured ones is no process's: not sent to one by mistake.
    assert route("/s/12/t/1.2.3.sig") == sorted(PROCESSES.values())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def nginx() -> str | None:
    found = os.environ.get("TROIKA_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    return found if Path(found).exists() else None


@pytest.fixture
def processes(tmp_path: Path, pg_url: str) -> Iterator[dict[str, ServiceProcess]]:
    started = {
        shards: ServiceProcess(
            pg_url,
            shards,
            tmp_path,
            name=f"p{shards}",
            shards=SHARDS,
            extra=("--web-secret", SECRET),
        )  # fmt: skip
        for shards in PROCESSES
    }
    try:
        for process in started.values():
            process.started()
        yield started
    finally:
        for process in started.values():
            process.call_quietly("quit")
        for process in started.values():
            try:
                process.exit_code()
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture
def proxy(tmp_path: Path, processes: dict[str, ServiceProcess]) -> Iterator[int]:
    """nginx on a free port with deploy/nginx/ (the processes' real ports put in)."""
    binary = nginx()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("no nginx in CI: .ci/run installs Debian's nginx-light")
        pytest.skip("no nginx here (install nginx-light or set TROIKA_NGINX)")
    conf = tmp_path / "nginx"
    conf.mkdir()
    upstreams = (NGINX / "troika-upstreams.conf").read_text()
    for shards, port in PROCESSES.items():
        upstreams = upstreams.replace(f":{port};", f":{processes[shards].web_port};")
    (conf / "troika-upstreams.conf").write_text(upstreams)
    for name in ("troika-locations.conf", "troika-proxy.conf"):
        shutil.copy(NGINX / name, conf / name)
    port = free_port()
    (conf / "nginx.conf").write_text(
        f"daemon off;\nworker_processes 1;\npid {conf}/nginx.pid;\nerror_log {conf}/error.log;\n"
        "events {}\nhttp {\n  access_log off;\n"
        + "".join(
            f"  {kind}_temp_path {conf}/{kind};\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        + "  include troika-upstreams.conf;\n"
        f"  server {{\n    listen 127.0.0.1:{port};\n    include troika-locations.conf;\n  }}\n}}\n"
    )
    server = subprocess.Popen(
        [binary, "-p", str(conf), "-c", str(conf / "nginx.conf")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        give_up = time.monotonic() + PATIENCE
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, (conf / "error.log").read_text()
                assert time.monotonic() < give_up, "nginx did not start"
                time.sleep(0.05)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=PATIENCE)


async def first_frame(session: aiohttp.ClientSession, url: str, origin: str) -> dict[str, Any]:
    async with session.ws_connect(url, headers={"Origin": origin}, timeout=PATIENCE) as ws:
        message = await ws.receive(timeout=PATIENCE)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        return message.json()


async def test_a_link_of_each_process_reaches_its_table_through_nginx(
    processes: dict[str, ServiceProcess], proxy: int
) -> None:
    base = f"http://127.0.0.1:{proxy}"
    made: dict[str, tuple[int, str]] = {}
    for n, (shards, process) in enumerate(processes.items()):
        shard = int(shards[0]) + 2  # shard 2 (of 0-3), shard 6 (of 4-7)
        guild = shard << 22
        assert shard_of(guild, SHARDS) == shard
        channel, host, guest = guild + 7, 10 + 2 * n, 11 + 2 * n
        process.ok("open", channel=channel, guild=guild, user=host, game="troeven")
        process.ok("join", channel=channel, user=guest)
        process.ok("start", channel=channel, user=host)
        link = process.ok("link", channel=channel, user=host)
        path = urlsplit(link).path
        assert path.startswith(f"/s/{shard}/t/"), link
        made[shards] = (host, path)
    async with aiohttp.ClientSession() as session:
        for shards, (host, path) in made.items():
            async with session.get(base + path) as page:
                assert page.status == 200 and '<main id="table"' in await page.text()
            socket_path = path.replace("/t/", "/ws/")
            frame = await first_frame(session, f"{base}{socket_path}?lang=en", base)
            assert frame["type"] == "snapshot" and frame["game"] == "troeven"
            assert frame["seat"] == 0 and frame["seats"][0]["name"] == f"P{host}"
            # The same token under another process's shard: that process has no such table.
            other = next(s for s in PROCESSES if s != shards)
            astray = re.sub(r"^/s/\d+/", f"/s/{int(other[0])}/", socket_path)
            frame = await first_frame(session, f"{base}{astray}?lang=en", base)
            assert frame["type"] != "snapshot", "a link reaches only the process holding its table"


async def test_a_sharded_process_links_name_the_shard_and_serve_under_it(tmp_path: Path) -> None:
    """Without a proxy: the link of a process of 8 shards names its table's shard, and the page
    and its socket answer under that prefix; one shard alone (the default) keeps bare links."""
    service = TableService(tmp_path / "t.db", limits=TEST_LIMITS, shards=Shards(SHARDS, (5,)))
    await service.start()
    web = WebServer(service, bytes.fromhex(SECRET))
    try:
        guild = 5 << 22
        await service.open_table(guild + 7, guild, 1, "Ann", "troeven", options={"timer": "off"})
        await service.join(guild + 7, 2, "Bob")
        await service.start_game(guild + 7, 1)
        path = urlsplit(web.link(1, guild + 7)).path
        assert path.startswith("/s/5/t/")
        async with TestClient(TestServer(web.app())) as client:
            page = await client.get(path)
            assert page.status == 200
            origin = str(client.make_url("/")).rstrip("/")
            socket_path = path.replace("/t/", "/ws/")
            async with client.ws_connect(socket_path, headers={"Origin": origin}) as ws:
                frame = (await ws.receive(timeout=PATIENCE)).json()
                assert frame["type"] == "snapshot" and frame["seats"][0]["name"] == "Ann"
    finally:
        await web.stop()
        await service.close()
    single = TableService(tmp_path / "u.db", limits=TEST_LIMITS)
    assert urlsplit(WebServer(single, b"x" * 32).link(1, 7)).path.startswith("/t/")
