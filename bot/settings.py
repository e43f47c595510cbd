"""Settings, read from the environment and from `.env` (the environment wins)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = ROOT / "data" / "troika.db"


@dataclass(frozen=True)
class Settings:
    discord_token: str | None
    dev_guild_id: int | None
    database_path: Path
    ai_delay: float
    log_level: str

    @classmethod
    def load(cls, env_file: Path | None = None, environ: dict[str, str] | None = None) -> Settings:
        values: dict[str, str | None] = dict(dotenv_values(env_file or ROOT / ".env"))
        values.update(os.environ if environ is None else environ)

        def get(name: str) -> str | None:
            text = values.get(name)
            return text.strip() if text and text.strip() else None

        guild = get("DEV_GUILD_ID")
        path = Path(get("DATABASE_PATH") or DEFAULT_DATABASE)
        return cls(
            discord_token=get("DISCORD_TOKEN"),
            dev_guild_id=int(guild) if guild else None,
            database_path=path if path.is_absolute() else ROOT / path,
            ai_delay=float(get("AI_DELAY") or 1.5),
            log_level=(get("LOG_LEVEL") or "INFO").upper(),
        )
