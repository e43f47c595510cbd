from pathlib import Path

from bot.settings import DEFAULT_DATABASE, ROOT, Settings


def test_defaults_without_env(tmp_path: Path) -> None:
    s = Settings.load(tmp_path / "missing.env", environ={})
    assert s.discord_token is None and s.dev_guild_id is None
    assert s.database_path == DEFAULT_DATABASE and s.database_path.parent.name == "data"


def test_env_file_then_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc\nDEV_GUILD_ID=42\nDATABASE_PATH=data/x.db\nAI_DELAY=0\n")
    s = Settings.load(env, environ={"DISCORD_TOKEN": "xyz"})
    assert s.discord_token == "xyz" and s.dev_guild_id == 42 and s.ai_delay == 0
    assert s.database_path == ROOT / "data" / "x.db"
