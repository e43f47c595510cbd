from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE, ROOT, Settings, SettingsError
from bot.shards import Shards


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


def _load(tmp_path: Path, **env: str) -> Settings:
    return Settings.load(tmp_path / "missing.env", environ=env)


def test_one_shard_and_every_guild_by_default(tmp_path: Path) -> None:
    s = _load(tmp_path)
    assert s.shard_count == 1 and s.shard_ids is None
    assert s.owns(None) and s.owns(1 << 22) and s.owns(123456789012345678)
    assert s.metrics_port == 0 and s.metrics_host == "127.0.0.1"


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("4", "0-3", (0, 1, 2, 3)),
        ("6", "0,2,5", (0, 2, 5)),
        ("8", " 6-7, 0 ,2 ", (0, 2, 6, 7)),
        ("2", "1", (1,)),
        ("1", "0", (0,)),
    ],
)
def test_shard_ids_take_ranges_and_lists(
    tmp_path: Path, count: str, ids: str, expected: tuple[int, ...]
) -> None:
    s = _load(tmp_path, SHARD_COUNT=count, SHARD_IDS=ids)
    assert s.shard_count == int(count) and s.shard_ids == expected


def test_a_process_owns_the_guilds_of_its_shards(tmp_path: Path) -> None:
    s = _load(tmp_path, SHARD_COUNT="4", SHARD_IDS="1,3")
    # Discord's rule: (guild_id >> 22) % shard_count.
    guilds = {shard: (1000 * 4 + shard) << 22 for shard in range(4)}
    assert [s.owns(guilds[shard]) for shard in range(4)] == [False, True, False, True]
    assert not s.owns(None)  # no guild: shard 0's
    every = _load(tmp_path, SHARD_COUNT="4")
    assert every.shard_ids is None and all(every.owns(g) for g in guilds.values())


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SHARD_COUNT": "auto"}, "SHARD_COUNT must be a fixed whole number >= 1"),
        ({"SHARD_COUNT": "0"}, "never automatic), not '0'"),
        ({"SHARD_COUNT": "-2"}, "SHARD_COUNT must be a fixed whole number >= 1"),
        ({"SHARD_COUNT": "2.5"}, "not '2.5'"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-4"}, "shard 4 is not one of the 4 shards (0 to 3)"),
        ({"SHARD_IDS": "1"}, "shard 1 is not one of the 1 shards (0 to 0) (SHARD_COUNT is 1)"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-2,2"}, "shard 2 is named twice"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "'3-1' is not a range from a lower id"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "one"}, "'one' is not a shard id or a range like 0-3"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,,1"}, "'' is not a shard id"),
        ({"METRICS_PORT": "http"}, "METRICS_PORT must be a whole number >= 0, not 'http'"),
        ({"METRICS_PORT": "70000"}, "METRICS_PORT must be a port (1 to 65535; 0: off)"),
    ],
)
def test_bad_shard_and_metrics_settings_are_refused(
    tmp_path: Path, env: dict[str, str], says: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        _load(tmp_path, **env)
    assert says in str(caught.value)


def test_metrics_settings(tmp_path: Path) -> None:
    s = _load(tmp_path, METRICS_PORT="9108", METRICS_HOST="0.0.0.0")
    assert s.metrics_port == 9108 and s.metrics_host == "0.0.0.0"


def test_shards_are_described_the_way_shard_ids_takes_them() -> None:
    assert str(Shards(8, (0, 1, 2, 3, 6))) == "shard(s) 0-3,6 of 8"
    assert str(Shards(2)) == "shard(s) 0-1 of 2"
    assert Shards(2).everything and Shards(2, (1, 0)).everything
    assert not Shards(2, (1,)).everything
    with pytest.raises(ValueError, match="shard 2 is not one of the 2 shards"):
        Shards(2, (2,))


def test_the_activity_settings_are_read_and_its_secret_never_shown(tmp_path: Path) -> None:
    secret = "oauth-client-value-1234"
    s = Settings.load(
        tmp_path / "missing.env",
        environ={
            "DISCORD_CLIENT_ID": "123456789012345678",
            "DISCORD_CLIENT_SECRET": secret,
            "DISCORD_API_URL": "http://127.0.0.1:9/api/",
        },
    )
    assert s.discord_client_id == "123456789012345678"
    assert s.discord_client_secret == secret
    assert s.discord_api_url == "http://127.0.0.1:9/api"
    assert secret not in repr(s)
    assert Settings.load(tmp_path / "missing.env", environ={}).discord_client_id is None
    with pytest.raises(SettingsError, match="DISCORD_CLIENT_ID"):
        Settings.load(tmp_path / "missing.env", environ={"DISCORD_CLIENT_ID": "my-app"})
