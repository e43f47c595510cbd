"""The action rows of a player's private panel: his legal moves as buttons and select menus.

Laid out once (``_layout``), made either as discord.py components (``actions_view``) or as their
payload directly (``actions_payload``: no ``View`` at every move), and shared per channel, game,
legal moves and language (``shared_actions_view``). The buttons carry the engine's action words;
what is legal comes from the service, and the service checks every press again.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
import orjson

from bot.app import custom_ids
from bot.i18n import _p, current, use_locale
from bot.i18n.core import Memo, language_memo
from bot.render.presenter import Presenter, presenter_for

#: Rows of a message; the last one holds "Refresh".
ACTION_ROWS = 4
BUTTONS_PER_ROW = 5
SELECT_LIMIT = 25


def action_groups(legal: Sequence[str]) -> dict[str, list[str]]:
    """Legal actions grouped by their first word (``play``, ``bid``, ``pass``...), in order."""
    groups: dict[str, list[str]] = {}
    for action in legal:
        groups.setdefault(action.split(" ", 1)[0], []).append(action)
    return groups


#: Button colours by a move's tone (``Presenter.action_tone``).
_STYLES = {
    "red": discord.ButtonStyle.danger,
    "decline": discord.ButtonStyle.danger,
    "card": discord.ButtonStyle.secondary,
    "move": discord.ButtonStyle.primary,
}


def in_hand_order(legal: Sequence[str], hand: Sequence[str]) -> tuple[str, ...]:
    """``legal`` with the moves of one card in the order the cards are held (the hand as the
    game sorts it: suits apart, high to low), every other move where it was; the groups (a
    move's first word) in the order they first appear."""
    if len(legal) < 2:  # (a waiting player's panel: most redraws)
        return tuple(legal)
    position = {str(card).lower(): i for i, card in enumerate(hand)}
    groups = list(action_groups(legal))
    held = len(position)

    def key(item: tuple[int, str]) -> tuple[int, int, int]:
        index, action = item
        words = action.split(" ")
        card = words[1].lower() if len(words) == 2 else ""
        return groups.index(words[0]), position.get(card, held), index

    return tuple(action for _index, action in sorted(enumerate(legal), key=key))


#: A group of up to this many moves is buttons, in as few even rows as it needs; a larger one
#: (a long auction's bids) is a select: rows of two or three buttons wrap on a phone.
BUTTON_GROUP = 10
#: Cards are buttons up to this many (a discard from a big hand), rows permitting: one tap a card.
CARD_GROUP = 15


def _rows_for(count: int) -> list[int]:
    """``count`` buttons as even rows of at most five (8 -> 4 + 4, 7 -> 4 + 3)."""
    rows = -(-count // BUTTONS_PER_ROW)
    size = -(-count // rows)
    return [min(size, count - i * size) for i in range(rows)]


def _short_labels(labels: list[str]) -> list[str]:
    """Labels of one group without the words they all begin with (``Discard 8♠``,
    ``Discard 3♥`` -> ``8♠``, ``3♥``): the prompt above says what the group does."""
    if len(labels) < 2:
        return labels
    common = labels[0]
    for label in labels[1:]:
        while not label.startswith(common):
            common = common[:-1]
    cut = common.rfind(" ") + 1
    return [label[cut:] or label for label in labels] if cut else labels


# (Not frozen: a frozen dataclass sets each field through ``object.__setattr__``, and a
# layout makes one per button; nothing keeps or hashes them.)
@dataclass(slots=True)
class _Item:
    """One component of the action rows as laid out (``_layout``): a button, or a select when
    it has a placeholder."""

    row: int
    custom_id: str
    label: str | None = None
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    emoji: str | None = None
    placeholder: str | None = None
    #: A select's options: (label, value).
    options: tuple[tuple[str, str], ...] = ()


def _layout(
    channel: int, legal: Sequence[str], presenter: Presenter, own: str | None
) -> tuple[list[_Item], list[str]]:
    """The components of ``actions_view``, row by row, and the actions that did not fit."""
    items: list[_Item] = []
    left_out: list[str] = []
    groups = action_groups(legal)
    # Each move's button id and label, made once (whether it fits a button, then the button).
    ids = {a: custom_ids.act(channel, a) for a in legal}
    fits = {a for a, made in ids.items() if len(made) <= custom_ids.MAX_LENGTH}
    labels = language_memo(_LABELS, current(), LABELS_KEPT)
    singles = [a for a in legal if len(groups[a.split(" ", 1)[0]]) == 1 and a in fits]
    last_row = singles[: BUTTONS_PER_ROW - 1 - (own is not None)]  # beside Refresh
    row = 0
    for group, actions in groups.items():
        actions = [a for a in actions if a not in last_row]
        if not actions:
            continue
        cards = all(presenter.action_tone(a) == "card" for a in actions)
        limit = CARD_GROUP if cards else BUTTON_GROUP
        rows = _rows_for(len(actions))
        buttons = all(a in fits for a in actions) and len(actions) <= limit
        if buttons and row + len(rows) <= ACTION_ROWS:
            shown = _short_labels([_label(presenter, a, labels)[:80] for a in actions])
            done = 0
            for size in rows:
                for action, label in zip(actions[done : done + size], shown[done : done + size],
                                         strict=True):  # fmt: skip
                    items.append(_action_button(ids[action], action, presenter, row, label))
                done += size
                row += 1
            continue
        usable = [a for a in actions if len(a) <= 100]
        left_out.extend(a for a in actions if len(a) > 100)
        key = re.sub(r"[^a-z0-9_]", "", group.lower())[:20]
        for part in range(0, len(usable), SELECT_LIMIT):
            if row >= ACTION_ROWS:
                left_out.extend(usable[part:])
                break
            chunk = usable[part : part + SELECT_LIMIT]
            items.append(
                _Item(
                    row,
                    custom_ids.pick(channel, key, part // SELECT_LIMIT),
                    placeholder=_placeholder(group, part, len(chunk), len(usable)),
                    options=tuple((_label(presenter, a, labels)[:100], a) for a in chunk),
                )
            )
            row += 1
    for action in last_row:
        label = _label(presenter, action, labels)[:80]
        items.append(_action_button(ids[action], action, presenter, ACTION_ROWS, label))
    if own is not None:
        items.append(
            _Item(
                ACTION_ROWS,
                custom_ids.cards_do(channel, "open", ""),
                own[:80],
                discord.ButtonStyle.success,
            )
        )
    items.append(
        _Item(
            ACTION_ROWS,
            custom_ids.refresh(channel),
            _p("button", "Refresh"),
            discord.ButtonStyle.secondary,
            emoji="🔄",
        )
    )
    return items, left_out


def actions_view(
    channel: int, legal: Sequence[str], presenter: Presenter, own: str | None = None
) -> tuple[discord.ui.View, list[str]]:
    """Components for ``legal``, labelled by the game's presenter; also returns the actions
    that did not fit (type them).

    Each kind of move (its first word) gets its own rows: a few are buttons in even rows, many
    are a select. Moves that are alone of their kind (Pass, Draw...) share the last row
    with Refresh, apart from the cards and the bids; Pass is red, cards grey, other moves blue.
    ``own``: the label of a button there that opens a pick of his own cards (``card_picks``).
    """
    view = discord.ui.View(timeout=None)
    items, left_out = _layout(channel, legal, presenter, own)
    for item in items:
        if item.placeholder is None:
            view.add_item(
                discord.ui.Button(
                    label=item.label,
                    style=item.style,
                    custom_id=item.custom_id,
                    emoji=item.emoji,
                    row=item.row,
                )  # fmt: skip
            )
        else:
            view.add_item(
                discord.ui.Select(
                    custom_id=item.custom_id,
                    placeholder=item.placeholder,
                    options=[
                        discord.SelectOption(label=label, value=value)
                        for label, value in item.options
                    ],
                    row=item.row,
                )  # fmt: skip
            )
    return view, left_out


@functools.cache
def _emoji(text: str) -> dict[str, Any]:
    return discord.PartialEmoji.from_str(text).to_dict()  # type: ignore[return-value]


def actions_payload(
    channel: int, legal: Sequence[str], presenter: Presenter, own: str | None = None
) -> tuple[list[dict[str, Any]], list[str]]:
    """``actions_view``'s components as discord.py sends them (``View.to_components``), made
    as plain dicts: a panel's buttons are made at nearly every move (the moves differ), and a
    ``View`` of ten buttons is a few hundred objects and a system call for its random id.
    Tests compare the two."""
    items, left_out = _layout(channel, legal, presenter, own)
    rows: list[dict[str, Any]] = []
    last: int | None = None
    for item in items:
        if item.placeholder is None:
            component: dict[str, Any] = {"type": 2, "style": item.style.value, "disabled": False}
            if item.label:
                component["label"] = item.label
            component["custom_id"] = item.custom_id
            if item.emoji:
                component["emoji"] = _emoji(item.emoji)
        else:
            component = {
                "type": 3,
                "custom_id": item.custom_id,
                "min_values": 1,
                "max_values": 1,
                "disabled": False,
                "required": True,
                "placeholder": item.placeholder,
                "options": [
                    {"label": label, "value": value, "default": False}
                    for label, value in item.options
                ],
            }
        if item.row != last:  # (the layout makes its rows in order)
            rows.append({"type": 1, "components": []})
            last = item.row
        rows[-1]["components"].append(component)
    return rows, left_out


def _placeholder(verb: str, part: int, size: int, total: int) -> str:
    """A select's placeholder: its moves' verb (the localized command name), and which of
    them it lists when they take several selects."""
    name = _p("command name", verb)
    if total <= SELECT_LIMIT:
        return f"{name}…"
    return f"{name}… ({part + 1}-{part + size})"


@functools.lru_cache(maxsize=4096)
def shared_actions_view(
    channel: int, game: str, legal: tuple[str, ...], language: str, own: str | None = None
) -> tuple[custom_ids.Sealed, tuple[str, ...]]:
    """``actions_view``'s components made once per channel, game and legal moves, and shared:
    a panel is drawn at every change of its table (a waiting player's only holds Refresh).
    Made as their payload (``actions_payload``), with no discord.py ``View``: a view costs a
    system call for its random id (which lets go of the GIL: the loop then waits for the render
    and database threads) and dozens of objects. Kept sealed
    (``custom_ids.Sealed``: the payload only, a few objects for the collector to scan).
    ``language``: the reader's (the labels are his words), part of the key. Laid out once for
    every channel of as many digits (``_rows_for_any_channel``): the same moves come up at many
    tables (a bid, a draw, a pass)."""
    digits = len(str(channel))
    rows, left_out = _rows_for_any_channel(digits, game, legal, language, own)
    stand_in, here = str(_stand_in(digits)).encode(), str(channel).encode()
    for start in _ID_STARTS:
        rows = rows.replace(start + stand_in, start + here)
    # (The layout's own JSON with the channel put in: as ``orjson.dumps`` would write it.)
    return custom_ids.Sealed.of_json(rows), left_out


def _stand_in(digits: int) -> int:
    """The channel the rows of every channel of ``digits`` digits are laid out for: the layout
    reads a channel only in its custom ids and their length."""
    return int("9" * digits)


def _id_start(made: str) -> bytes:
    """A custom id made for channel 0, up to its channel, as it starts in JSON (``"tt:act:``)."""
    return b'"' + made[: made.index(":0") + 1].encode()


#: How each custom id of the action rows begins, before its channel.
_ID_STARTS = tuple(
    _id_start(made)
    for made in (
        custom_ids.act(0, "x"),
        custom_ids.pick(0, "x", 0),
        custom_ids.refresh(0),
        custom_ids.cards_do(0, "open", ""),
    )
)


@functools.lru_cache(maxsize=4096)
def _rows_for_any_channel(
    digits: int, game: str, legal: tuple[str, ...], language: str, own: str | None
) -> tuple[bytes, tuple[str, ...]]:
    """``actions_payload`` for the channel ``_stand_in(digits)``, as JSON (``shared_actions_view``
    puts the channel in)."""
    with use_locale(language):
        payload, left_out = actions_payload(_stand_in(digits), legal, presenter_for(game), own)
    return orjson.dumps(payload), tuple(left_out)


def forget_action_rows() -> None:
    """Lay every action row out afresh (``bench/panels.py``: the same seeded games each round
    would find them all made)."""
    shared_actions_view.cache_clear()
    _rows_for_any_channel.cache_clear()


#: Moves' labels by language and (game, move) (``language_memo``): a move's label is its
#: game's words for it, the same at every table (its cards, bids and verbs).
_LABELS: Memo = {}
LABELS_KEPT = 8192


def _label(presenter: Presenter, action: str, known: dict[Any, Any]) -> str:
    """``presenter.action_label(action)``, made once per game, move and language (``known``:
    ``_LABELS``' memo of the language in effect, read once per layout)."""
    key = (presenter.game, action)
    label = known.get(key)
    if label is None:
        label = known[key] = presenter.action_label(action)
    return label


def _action_button(
    custom_id: str, action: str, presenter: Presenter, row: int, label: str
) -> _Item:
    return _Item(
        row,
        custom_id,
        label,
        _STYLES.get(presenter.action_tone(action), discord.ButtonStyle.primary),
    )
