"""The table's service settings: seat modes and the host's invitations (``table_settings``)."""

from __future__ import annotations

import pytest

from bot.service.errors import BadSetting
from bot.service.table_settings import (
    MAX_INVITED,
    invited,
    parse_seats,
    seats_mode,
    with_invited,
)


def test_the_seat_modes() -> None:
    assert parse_seats(" Invite ") == "invite"
    assert seats_mode({"seats": "invite"}) == "invite"
    assert seats_mode({"seats": "bogus"}) == "open"  # a bad stored value: the default
    with pytest.raises(BadSetting, match="open, invite, closed"):
        parse_seats("friends")


def test_invitations_are_kept_once_and_bounded() -> None:
    settings = with_invited({"seats": "invite"}, 7)
    assert settings == {"seats": "invite", "invited": [7]}
    assert with_invited(settings, 7) == settings
    assert invited(with_invited(settings, 9)) == (7, 9)
    full = {"invited": list(range(MAX_INVITED))}
    with pytest.raises(BadSetting, match=f"at most {MAX_INVITED}"):
        with_invited(full, 10_000)
    assert invited(full) == tuple(range(MAX_INVITED))


def test_a_malformed_stored_list_invites_nobody() -> None:
    assert invited({}) == ()
    assert invited({"invited": "7"}) == ()
    assert invited({"invited": [7, "8", True, None, 9]}) == (7, 9)
