"""Settings, read from the environment and from `.env` (the environment wins)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

from bot.shards import Shards, check_ids, parse_shard_ids
from bot.storage.urls import is_postgres_url, redact

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = ROOT / "data" / "troika.db"
#: Scheduled backups are on unless BACKUP_HOURS=0: a copy a day, a week of them. The database is
#: small (a few MB; one online copy takes well under a second and never blocks a move), while
#: losing it loses every rating and result; an operator with his own backups turns them off.
DEFAULT_BACKUP_HOURS = 24.0
DEFAULT_BACKUP_KEEP = 7
#: /healthz and /metrics answer on this machine only unless METRICS_HOST says otherwise: they
#: name no secret, but a scraper on another host is a choice the operator makes.
DEFAULT_METRICS_HOST = "127.0.0.1"
#: The web table (``bot/web``) listens on this machine only unless WEB_HOST says otherwise: the
#: operator's reverse proxy (https) is what players reach.
DEFAULT_WEB_HOST = "127.0.0.1"
#: Discord's HTTP API, where an Activity's OAuth2 code is exchanged and its instance checked.
DEFAULT_DISCORD_API = "https://discord.com/api/v10"


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; ``str()`` names it and says what it takes."""


@dataclass(frozen=True)
class Settings:
    discord_token: str | None  # never in repr() or str(): see __repr__
    dev_guild_id: int | None
    database_path: Path
    ai_delay: float
    log_level: str
    #: Where backups go; None: a ``backups`` folder beside the database.
    backup_dir: Path | None = None
    #: Hours between the running bot's backups; 0: none. ``load`` defaults to a day; a Settings
    #: built in code (tests) takes none unless asked.
    backup_hours: float = 0.0
    #: Scheduled backups kept (the newest); backups taken by hand are never deleted.
    backup_keep: int = DEFAULT_BACKUP_KEEP
    #: Discord shards in all (every process of the bot the same number): ``SHARD_COUNT``.
    shard_count: int = 1
    #: The shards this process runs (``SHARD_IDS``); None: all of them.
    shard_ids: tuple[int, ...] | None = None
    #: The port of /healthz and /metrics (``METRICS_PORT``); 0: no such server.
    metrics_port: int = 0
    #: Where that server listens (``METRICS_HOST``): this machine only unless told.
    metrics_host: str = DEFAULT_METRICS_HOST
    #: A ``postgresql://`` URL: the database is PostgreSQL's (docs/postgresql.md) and
    #: ``database_path`` is not used. None: SQLite at ``database_path``. It may hold a
    #: password: repr() shows it without (see __repr__).
    database_url: str | None = None
    #: The port of the web table (``WEB_PORT``); 0: no web table.
    web_port: int = 0
    #: Where the web table listens (``WEB_HOST``).
    web_host: str = DEFAULT_WEB_HOST
    #: The address players open (``WEB_PUBLIC_URL``, e.g. ``https://cards.example.org``);
    #: None: ``http://WEB_HOST:WEB_PORT``.
    web_public_url: str | None = None
    #: The secret table links are signed with (``WEB_SECRET``); None: generated once and kept
    #: beside the database (``bot.web.links.load_secret``). Never in repr().
    web_key: str | None = None
    #: The application's id (``DISCORD_CLIENT_ID``): set, the table is also a Discord Activity
    #: (docs/activity.md): the Play in Discord button, the launch command, ``/api/token``.
    discord_client_id: str | None = None
    #: Its OAuth2 secret (``DISCORD_CLIENT_SECRET``), to exchange an Activity's code. Never in
    #: repr().
    discord_client_secret: str | None = None
    #: Discord's API (``DISCORD_API_URL``): only tests point it elsewhere (a loopback fake).
    discord_api_url: str = DEFAULT_DISCORD_API

    def __repr__(self) -> str:
        # A Settings may be logged or shown in a traceback: say whether a token is set, never
        # what it is.
        # The database URL's password goes the same way.
        shown = ", ".join(
            f"{name}={getattr(self, name)!r}"
            for name in self.__dataclass_fields__
            if name not in ("discord_token", "database_url", "web_key", "discord_client_secret")
        )
        token = "<set>" if self.discord_token else None
        url = redact(self.database_url) if self.database_url else None
        key = "<set>" if self.web_key else None
        # The OAuth2 client secret is left out whole (not even whether it is set).
        return f"Settings(discord_token={token!r}, {shown}, database_url={url!r}, web_key={key!r})"

    @property
    def database(self) -> Path | str:
        """What the storage opens (``bot.storage.backends.open_database``): DATABASE_URL if set,
        else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def backups(self) -> Path:
        return self.backup_dir or self.database_path.parent / "backups"

    @property
    def shards(self) -> Shards:
        return Shards(self.shard_count, self.shard_ids)

    def owns(self, guild_id: int | None) -> bool:
        """This process serves the guild: ``(guild_id >> 22) % shard_count in shard_ids``."""
        return self.shards.owns(guild_id)

    @classmethod
    def load(cls, env_file: Path | None = None, environ: dict[str, str] | None = None) -> Settings:
        values: dict[str, str | None] = dict(dotenv_values(env_file or ROOT / ".env"))
        values.update(os.environ if environ is None else environ)

        def get(name: str) -> str | None:
            text = values.get(name)
            return text.strip() if text and text.strip() else None

        def number(name: str, default: float, *, whole: bool = False, least: float = 0) -> float:
            text = get(name)
            if text is None:
                return default
            try:
                value = int(text) if whole else float(text)
            except ValueError:
                value = None
            if value is None or not (value >= least and math.isfinite(value)):
                kind = "a whole number" if whole else "a number"
                raise SettingsError(f"{name} must be {kind} >= {least:g}, not {text[:40]!r}.")
            return value

        def path(text: str) -> Path:
            p = Path(text)
            return p if p.is_absolute() else ROOT / p

        def shard_count() -> int:
            text = get("SHARD_COUNT")
            if text is None:
                return 1
            if not text.isdigit() or int(text) < 1:
                raise SettingsError(
                    f"SHARD_COUNT must be a fixed whole number >= 1 (the same in every process "
                    f"of the bot; never automatic), not {text[:40]!r}."
                )
            return int(text)

        def shard_ids(count: int) -> tuple[int, ...] | None:
            text = get("SHARD_IDS")
            if text is None:
                return None
            try:
                ids = parse_shard_ids(text)
                check_ids(ids, count)
            except ValueError as error:
                raise SettingsError(
                    f"SHARD_IDS {text[:40]!r}: {error} (SHARD_COUNT is {count}); it takes ids "
                    f"from 0 to {count - 1} like 0-3 or 0,2,5."
                ) from None
            return tuple(sorted(ids))

        def port_of(name: str) -> int:
            port = int(number(name, 0, whole=True))
            if port > 65535:
                raise SettingsError(f"{name} must be a port (1 to 65535; 0: off), not {port}.")
            return port

        def public_url() -> str | None:
            text = get("WEB_PUBLIC_URL")
            if text is None:
                return None
            if not text.startswith(("https://", "http://")) or " " in text:
                raise SettingsError(
                    f"WEB_PUBLIC_URL must be the http(s) address players open, like "
                    f"https://cards.example.org, not {text[:60]!r}."
                )
            return text.rstrip("/")

        def client_id() -> str | None:
            text = get("DISCORD_CLIENT_ID")
            if text is not None and not text.isdigit():
                raise SettingsError(
                    f"DISCORD_CLIENT_ID must be the application's id (digits, Developer Portal: "
                    f"General Information), not {text[:40]!r}."
                )
            return text

        guild = get("DEV_GUILD_ID")
        backup_dir = get("BACKUP_DIR")
        count = shard_count()
        url = get("DATABASE_URL")
        if url is not None and not is_postgres_url(url):
            raise SettingsError(
                f"DATABASE_URL must be a postgresql:// URL (or unset for SQLite at "
                f"DATABASE_PATH), not {redact(url)!r}."
            )
        return cls(
            discord_token=get("DISCORD_TOKEN"),
            dev_guild_id=int(guild) if guild else None,
            database_path=path(get("DATABASE_PATH") or str(DEFAULT_DATABASE)),
            ai_delay=float(get("AI_DELAY") or 1.5),
            log_level=(get("LOG_LEVEL") or "INFO").upper(),
            backup_dir=path(backup_dir) if backup_dir else None,
            backup_hours=number("BACKUP_HOURS", DEFAULT_BACKUP_HOURS),
            backup_keep=int(number("BACKUP_KEEP", DEFAULT_BACKUP_KEEP, whole=True, least=1)),
            shard_count=count,
            shard_ids=shard_ids(count),
            metrics_port=port_of("METRICS_PORT"),
            metrics_host=get("METRICS_HOST") or DEFAULT_METRICS_HOST,
            database_url=url,
            web_port=port_of("WEB_PORT"),
            web_host=get("WEB_HOST") or DEFAULT_WEB_HOST,
            web_public_url=public_url(),
            web_key=get("WEB_SECRET"),
            discord_client_id=client_id(),
            discord_client_secret=get("DISCORD_CLIENT_SECRET"),
            discord_api_url=(get("DISCORD_API_URL") or DEFAULT_DISCORD_API).rstrip("/"),
        )
