"""At LOG_LEVEL=DEBUG no log line holds an interaction token, a webhook token or the bot token
(bot/app/log_redaction.py, installed by ``configure_logging``)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest
from discord.gateway import DiscordWebSocket

from bot.app.log_redaction import REDACTED, redact
from bot.app.run import configure_logging

BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.bot-token-secret-part"
INTERACTION_TOKEN = (
    "aW50ZXJhY3Rpb246MTE3NzQ0NDQ0NDQ0NDQ0NDQ0OkRxWFpQb2dGd3N1b3dVRGhRSmZkSXVycEpPVE9wbnVv"
)


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """Each test sets the bot's logging up at DEBUG (on the stderr it captures): undo it."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    levels = {name: logging.getLogger(name).level for name in ("discord.http", "aiosqlite")}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, saved in levels.items():
        logging.getLogger(name).setLevel(saved)


def debug_logging() -> None:
    configure_logging("DEBUG", secrets=(BOT_TOKEN,))


def interaction_event() -> dict[str, object]:
    return {
        "op": 0,
        "t": "INTERACTION_CREATE",
        "s": 42,
        "d": {
            "id": "1177444444444444444",
            "application_id": "1111111111111111111",
            "type": 2,
            "token": INTERACTION_TOKEN,
            "channel_id": "2222222222222222222",
            "data": {"name": "play", "options": [{"name": "card", "value": "5H"}]},
        },
    }


def bare_websocket() -> DiscordWebSocket:
    """Just enough of discord.py's gateway socket to run its ``received_message``."""
    ws = DiscordWebSocket.__new__(DiscordWebSocket)
    ws.shard_id = 0
    ws.sequence = None
    ws._keep_alive = None
    ws._dispatch = lambda *args: None
    ws._discord_parsers = {}
    ws._dispatch_listeners = []
    return ws


async def test_gateway_events_are_logged_without_their_token(capsys: pytest.CaptureFixture):
    debug_logging()
    # discord.py's own code logs the raw event at DEBUG ("WebSocket Event: {...}").
    await bare_websocket().received_message(json.dumps(interaction_event()))
    err = capsys.readouterr().err
    line = next(line for line in err.splitlines() if "WebSocket Event" in line)
    assert "DEBUG" in line and "discord.gateway" in line
    assert "INTERACTION_CREATE" in line and "'name': 'play'" in line  # still useful
    assert f"'token': '{REDACTED}'" in line
    assert INTERACTION_TOKEN not in err and INTERACTION_TOKEN[16:40] not in err


def test_urls_with_tokens_are_cut_and_the_rest_kept(capsys: pytest.CaptureFixture) -> None:
    debug_logging()
    api = "https://discord.com/api/v10"
    callback = f"{api}/interactions/1177444444444444444/{INTERACTION_TOKEN}/callback"
    followup = f"{api}/webhooks/1111111111111111111/{INTERACTION_TOKEN}/messages/@original"
    logging.getLogger("discord.http").warning(
        "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.",
        "POST", callback, 1.5,
    )  # fmt: skip
    logging.getLogger("discord.webhook.async_").debug(
        "Webhook ID %s with %s %s has returned status code %s",
        "1111111111111111111", "PATCH", followup, 200,
    )  # fmt: skip
    err = capsys.readouterr().err
    assert INTERACTION_TOKEN not in err
    assert f"/interactions/1177444444444444444/{REDACTED}/callback responded with 429" in err
    assert f"/webhooks/1111111111111111111/{REDACTED}/messages/@original" in err


def test_the_bot_token_is_cut_even_from_a_traceback(capsys: pytest.CaptureFixture) -> None:
    debug_logging()
    try:
        raise RuntimeError(f"login failed with {BOT_TOKEN}")
    except RuntimeError:
        logging.getLogger("bot").exception("could not log in (Authorization: Bot %s)", BOT_TOKEN)
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: login failed with" in err
    assert BOT_TOKEN not in err and "bot-token-secret-part" not in err


def test_ordinary_lines_are_left_alone() -> None:
    for text in (
        "table 12 in channel 2222222222222222222: move 7 by seat 2 (play 5H)",
        "{'op': 11, 'd': None, 's': None, 't': None}",
        "token bucket exhausted for /channels/1/messages",
    ):
        assert redact(text) == text
    assert redact('{"token": "abc", "id": 1}') == f'{{"token": "{REDACTED}", "id": 1}}'
