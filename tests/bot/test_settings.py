from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE, ROOT, Settings, SettingsError


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


def test_the_token_is_never_shown(tmp_path: Path) -> None:
    token = "MTIzNDU2Nzg5.GhIjKl.secret-token-value"
    s = Settings.load(tmp_path / "missing.env", environ={"DISCORD_TOKEN": token})
    assert s.discord_token == token
    for shown in (repr(s), str(s), f"{s}", f"{s!r}", repr([s]), repr({"settings": s})):
        assert token not in shown and "secret" not in shown
        assert "discord_token='<set>'" in shown and "database_path=" in shown
    assert "discord_token=None" in repr(Settings.load(tmp_path / "missing.env", environ={}))


def test_backup_settings(tmp_path: Path) -> None:
    s = Settings.load(tmp_path / "missing.env", environ={"DATABASE_PATH": str(tmp_path / "t.db")})
    assert s.backup_hours == 24 and s.backup_keep == 7 and s.backups == tmp_path / "backups"
    env = {"BACKUP_HOURS": "0", "BACKUP_KEEP": "3", "BACKUP_DIR": "/srv/copies"}
    s = Settings.load(tmp_path / "missing.env", environ=env)
    assert s.backup_hours == 0 and s.backup_keep == 3 and s.backups == Path("/srv/copies")


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("BACKUP_KEEP", "0", "BACKUP_KEEP must be a whole number >= 1, not '0'"),
        ("BACKUP_KEEP", "2.5", "BACKUP_KEEP must be a whole number >= 1"),
        ("BACKUP_HOURS", "-1", "BACKUP_HOURS must be a number >= 0, not '-1'"),
        ("BACKUP_HOURS", "nan", "BACKUP_HOURS must be a number >= 0"),
        ("BACKUP_HOURS", "daily", "BACKUP_HOURS must be a number >= 0, not 'daily'"),
    ],
)
def test_bad_backup_settings_are_refused(tmp_path: Path, name: str, value: str, says: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.load(tmp_path / "missing.env", environ={name: value})
    assert says in str(caught.value)
