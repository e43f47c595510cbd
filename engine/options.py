"""Machine-readable option schemas: the table service and the slash commands are built from them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import IllegalAction
from engine.verbs import Verb

OptionValue = int | str | bool | None

#: ``GameSpec.resolve``'s answers: (id of the spec, preset, the overrides' items, their values'
#: types) -> (the spec, its options). Emptied when full.
_RESOLVED: dict[tuple[Any, ...], tuple[Any, dict[str, OptionValue]]] = {}
_RESOLVED_KEPT = 256

_TRUE = {"on", "true", "yes", "1", "y"}
_FALSE = {"off", "false", "no", "0", "n"}


@dataclass(frozen=True)
class Option:
    """One table option.

    Either ``choices`` lists every allowed value, or ``minimum``/``maximum`` bound an integer
    (for long ranges such as Troggu's ``deals`` 1-50, which Discord cannot offer as choices).
    ``extra`` lists non-integer values also allowed beside an integer range (``"off"``, ``"auto"``).
    On/off options are booleans.
    """

    name: str
    default: OptionValue
    description: str
    choices: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    extra: tuple[OptionValue, ...] = ()

    @property
    def is_bool(self) -> bool:
        return self.choices == (True, False) or self.choices == (False, True)

    def values(self) -> list[OptionValue]:
        """Every allowed value, in order (ranges expanded)."""
        if self.choices is not None:
            return list(self.choices)
        assert self.minimum is not None and self.maximum is not None
        return [*range(self.minimum, self.maximum + 1), *self.extra]

    def value_texts(self) -> list[str]:
        """The allowed values as a player types them: ``on/off``, choices, or a range
        ``low-high`` followed by its extra values."""
        if self.is_bool:
            return ["on/off"]
        if self.choices is not None:
            return [format_value(v) for v in self.choices]
        return [f"{self.minimum}-{self.maximum}", *(format_value(v) for v in self.extra)]

    def describe_values(self) -> str:
        return ", ".join(self.value_texts())

    def parse(self, value: Any) -> OptionValue:
        """Return the canonical value for ``value`` (which may be text typed by a user)."""
        if isinstance(value, str):
            value = self._from_text(value)
        if self.is_bool:
            if isinstance(value, bool):
                return value
        elif isinstance(value, int) and not isinstance(value, bool):
            low, high = self.minimum, self.maximum
            in_range = low is not None and high is not None and low <= value <= high
            if in_range or value in (self.choices or ()):
                return value
        elif value in self.values():
            return value
        raise IllegalAction(
            "options.bad_value",
            value=format_value(value),
            option=self.name,
            allowed=self.value_texts(),
        )

    def _from_text(self, text: str) -> Any:
        key = text.strip().lower()
        if self.is_bool:
            return True if key in _TRUE else False if key in _FALSE else text
        for allowed in self.values():
            if isinstance(allowed, str) and allowed.lower() == key:
                return allowed
            if allowed is None and key in {"none", "random"}:
                return None
        return int(key) if key.lstrip("-").isdigit() else text


def format_value(value: Any) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    if value is None:
        return "random"
    return str(value)


#: The turn-based clocks (a game played over days), beside the seconds of a live game: 1 h (a
#: game over an evening or a working day), 8 h (a move morning and evening: one night's sleep
#: never runs out a clock), 24 h (one move a day from anywhere on Earth, the usual clock of
#: turn-based sites), 72 h (room for a weekend away). The service reads them as seconds
#: (``bot.service.timers.timer_seconds``).
TURN_CLOCKS: dict[str, int] = {"1h": 3600, "8h": 8 * 3600, "24h": 24 * 3600, "72h": 72 * 3600}

TIMER = Option(
    "timer",
    60,
    "Time per move before the AI plays it: seconds, or hours (turn-based); off = no limit.",
    choices=(7, 15, 30, 60, 120, *TURN_CLOCKS, "off"),
)


@dataclass(frozen=True)
class GameSpec:
    """What the table service needs to know about a game before any table exists."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    presets: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)
    summary: str = ""
    #: Default player count when the caller does not say (for the terminal table).
    default_players: int = 0
    #: Narrows the player range for given options (TroiKuntza's `allow_three`).
    player_range: Callable[[Mapping[str, Any]], tuple[int, int]] | None = None
    #: Fixed partnerships: how many teams, a seat's team being ``seat % teams`` (0: none).
    teams: int = 0
    #: The lowest final score wins (penalty points), for rankings and ratings.
    lowest_wins: bool = False
    #: The moves players type; the bot's move commands are generated from them.
    verbs: tuple[Verb, ...] = ()
    #: Actions only the table service sends (closing a timed window), never a player.
    service_actions: frozenset[str] = frozenset()

    def team_of(self, seat: int) -> int | None:
        """The seat's team with fixed partnerships, else None."""
        return seat % self.teams if self.teams else None

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = [o.name for o in self.options]
        raise IllegalAction("options.unknown", game=self.title, option=str(name), options=known)

    def defaults(self) -> dict[str, OptionValue]:
        return {o.name: o.default for o in self.options}

    def resolve(
        self, preset: str | None = None, overrides: Mapping[str, Any] | None = None
    ) -> dict[str, OptionValue]:
        """Defaults, then the preset, then the overrides; every value validated.

        Every new game resolves its options: an answer is kept (``_RESOLVED``) by the spec, the
        preset and the overrides with their values' types (True == 1 and hashes alike, but
        ``parse`` keeps the value given: each has its own answer), and handed out as a new dict
        each time."""
        if overrides:
            key = (id(self), preset, *overrides.items(), *map(type, overrides.values()))
        else:
            key = (id(self), preset)
        try:
            kept = _RESOLVED.get(key)
        except TypeError:  # a value that cannot be a key: resolved each time
            return self._resolve(preset, overrides)
        if kept is None or kept[0] is not self:
            if len(_RESOLVED) >= _RESOLVED_KEPT:
                _RESOLVED.clear()
            kept = _RESOLVED[key] = (self, self._resolve(preset, overrides))
        return dict(kept[1])

    def _resolve(
        self, preset: str | None, overrides: Mapping[str, Any] | None
    ) -> dict[str, OptionValue]:
        values = self.defaults()
        if preset is not None:
            key = preset.strip().lower()
            if key not in self.presets:
                if not self.presets:
                    raise IllegalAction("options.no_presets", game=self.title, preset=preset)
                raise IllegalAction(
                    "options.unknown_preset",
                    game=self.title,
                    preset=preset,
                    presets=list(self.presets),
                )
            values.update(self.presets[key])
        for name, value in (overrides or {}).items():
            values[name] = self.option(name).parse(value)
        return values

    def check_players(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        low, high = self.min_players, self.max_players
        if self.player_range is not None:
            low, high = self.player_range(options if options is not None else self.defaults())
        if not low <= players <= high:
            if low == high:
                raise IllegalAction("players.exact", game=self.title, count=low, players=players)
            raise IllegalAction(
                "players.range", game=self.title, low=low, high=high, players=players
            )

    def to_dict(self) -> dict[str, Any]:
        """The schema as plain JSON-safe data."""
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "summary": self.summary,
            "options": [
                {
                    "name": o.name,
                    "default": o.default,
                    "values": o.values(),
                    "description": o.description,
                }
                for o in self.options
            ],
            "presets": {k: dict(v) for k, v in self.presets.items()},
        }
