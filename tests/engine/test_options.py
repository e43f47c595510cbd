"""The option schema machinery shared by every game."""

import pytest

from engine import IllegalAction
from engine.options import TIMER, GameSpec, Option

ONOFF = Option("flag", True, "A flag.", choices=(True, False))
RANGE = Option("deals", 4, "Deals.", minimum=1, maximum=50)
MIXED = Option("cut", 45, "Cut-off.", choices=(30, 45, "off"))
SPEC = GameSpec("demo", "Demo", 2, 4, (ONOFF, RANGE, MIXED, TIMER), {"quick": {"deals": 1}})


@pytest.mark.parametrize(
    "text,value", [("on", True), ("OFF", False), ("yes", True), (False, False)]
)
def test_bool_option_parses_on_off(text, value):
    assert ONOFF.parse(text) is value


def test_range_option_accepts_bounds_and_refuses_outside():
    assert RANGE.parse("50") == 50 and RANGE.parse(1) == 1
    with pytest.raises(IllegalAction, match="1-50"):
        RANGE.parse(51)


def test_mixed_option_accepts_text_and_numbers():
    assert MIXED.parse("Off") == "off" and MIXED.parse("30") == 30
    with pytest.raises(IllegalAction):
        MIXED.parse(31)


def test_resolve_applies_defaults_then_preset_then_overrides():
    assert SPEC.resolve() == {"flag": True, "deals": 4, "cut": 45, "timer": 60}
    assert SPEC.resolve("quick")["deals"] == 1
    assert SPEC.resolve("quick", {"deals": "9", "timer": "off"})["deals"] == 9


def test_resolve_answers_a_new_dict_each_time_and_keeps_true_and_one_apart():
    first = SPEC.resolve("quick", {"deals": 2})
    first["deals"] = 7
    second = SPEC.resolve("quick", {"deals": 2})
    assert second == {"flag": True, "deals": 2, "cut": 45, "timer": 60}
    assert second is not first
    # True == 1 and hashes alike, and each is its own answer (parse keeps the value given).
    assert SPEC.resolve(None, {"deals": 1})["deals"] is not True
    assert SPEC.resolve(None, {"deals": True})["deals"] is True
    with pytest.raises(IllegalAction):  # a value no key can hold: resolved, and refused
        SPEC.resolve(None, {"deals": [1]})


def test_resolve_refuses_unknown_option_and_preset():
    with pytest.raises(IllegalAction, match="no option"):
        SPEC.resolve(None, {"nope": 1})
    with pytest.raises(IllegalAction, match="no preset"):
        SPEC.resolve("fast")


def test_player_count_checked():
    SPEC.check_players(3)
    with pytest.raises(IllegalAction, match="2 to 4 players"):
        SPEC.check_players(5)


def test_schema_is_plain_data():
    data = SPEC.to_dict()
    assert data["options"][1]["values"][-1] == 50
    assert data["presets"] == {"quick": {"deals": 1}}
