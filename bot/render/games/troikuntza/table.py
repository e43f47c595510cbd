"""TroiKuntza: the public table message (heading, sections, picture)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import N_, _, _n, _p
from bot.render.games._words import names_and, pack, said, whom, within_limits
from bot.render.games.cards import picture_letters, pretty, pretty_list
from bot.render.games.troikuntza.verdict import scores_section
from bot.render.games.troikuntza.words import (
    LABELS,
    MELDS_FULL,
    MELDS_FULL_TEXT,
    contract_words,
    round_number,
)
from bot.render.presenter import Picture, Seating, Section, View
from engine.troikuntza.melds import CONTRACTS


def heading(view: View, seating: Seating) -> str:
    rounds = view.get("rounds") or len(CONTRACTS)
    contract = contract_words(view.get("contract")) or view.get("contract_text") or ""
    return _(
        "round {number} of {rounds} — {contract}",
        number=round_number(view),
        rounds=rounds,
        contract=contract,
    )


def table_sections(view: View, seating: Seating) -> list[Section]:
    """A glance at the live message: the pile (and a May I open on it), the melds one line per
    player (the picture shows their cards, numbered for /layoff), the scores and the cards each
    player holds."""
    pile = pile_section(view, seating)
    mayi = mayi_section(view, seating, glance=True)
    lines = _meld_lines(view, seating, compact=False, joined=True)
    many = len(view.get("melds") or []) > MELDS_FULL // 2
    if many or sum(map(len, lines)) > MELDS_FULL_TEXT // 4:
        return _folded(view, seating, pile, mayi)
    if mayi is not None:  # on one line: the window, who called, who may still call
        pile = Section(pile.title, f"{pile.text}\n{' '.join(mayi.text.splitlines())}")
    sections = [pile]
    if lines:
        # A line per player: his melds card by card while they are few (else ``_folded``).
        sections += pack(_("Melds (number for /layoff)"), lines)
    scores = scores_section(view, None, seating)
    sections.append(Section(scores.title, f"{scores.text}\n{_cards_line(view, seating)}"))
    return within_limits(sections)


#: Players' meld lines at most before two players share a line (``_folded``).
MELD_LINES_ALONE = 4


def _folded(view: View, seating: Seating, pile: Section, mayi: Section | None) -> list[Section]:
    """The glance with many melds (the worst case was 23 lines at 10 players): each player's
    melds in short with the cards he holds (``**Ann** 6 ✓: `3` 5s ×5 🃏``, one who has none:
    ``**Bob** 11``), two players a line past ``MELD_LINES_ALONE``; the May I on one line; who
    dealt beside the pile; the scores on one line under the melds. The picture shows every
    card."""
    dealt = said(seating, view.get("dealer"), N_("you dealt"), N_("{name} dealt"))
    text = f"{pile.text} · {dealt}"
    if mayi is not None:
        text += "\n" + " ".join(mayi.text.splitlines())
    sizes = list(view.get("hand_sizes") or [])
    out = list(view.get("out") or [])
    melds = [m for m in view.get("melds") or [] if isinstance(m, Mapping)]
    players = int(view.get("players") or len(seating.names))
    lines = []
    for seat in range(min(players, len(sizes))):
        laid = " ✓" if seat < len(out) and out[seat] else ""
        mine = " · ".join(_meld_text(m, True) for m in melds if m.get("owner") == seat)
        held = f"**{whom(seating, seat)}** {int(sizes[seat])}{laid}"
        lines.append(f"{held}: {mine}" if mine else held)
    lines = _paired(lines)
    scores = scores_section(view, None, seating)
    lines.append(f"**{scores.title}**: " + " ".join(scores.text.splitlines()))
    # i18n: the melds in short with each player's cards in hand: a run is shown by its first and
    # last card (3♥–6♥), 🃏 is a joker in a meld, ✓ a player who has laid down his contract
    title = _("Melds (a run: first–last card) · cards held (✓ laid down)")
    return within_limits([Section(pile.title, text), *pack(title, lines)])


def _cards_line(view: View, seating: Seating) -> str:
    """``Cards: Ann 11 · Bob 5 ✓ · … · Cid dealt``: how near each player is to going out."""
    players = int(view.get("players") or len(seating.names))
    sizes = list(view.get("hand_sizes") or [])
    out = list(view.get("out") or [])
    counts = []
    for seat in range(min(players, len(sizes))):
        laid = " ✓" if seat < len(out) and out[seat] else ""
        counts.append(f"{whom(seating, seat)} {int(sizes[seat])}{laid}")
    dealt = said(seating, view.get("dealer"), N_("you dealt"), N_("{name} dealt"))
    # i18n: cards in each player's hand: ``Ann 11 · Bob 5 ✓`` (✓: laid down his contract)
    return _("Cards (✓ laid down): {counts}", counts=" · ".join(counts)) + f" · {dealt}"


def pile_section(view: View, seating: Seating, private: bool = False) -> Section:
    top = view.get("discard_top")
    stock = int(view.get("stock_size") or 0)
    pile = _("Discard pile: **{card}**", card=pretty(top)) if top else None
    pile = pile or _("The discard pile is empty")
    lines = [pile + " · " + _n("stock {n} card", "stock {n} cards", stock)]
    taken, current = view.get("taken"), view.get("current")
    if taken and view.get("phase") == "play" and not private:
        lines.append(
            said(
                seating,
                current,
                N_("You took {card} from the pile."),
                N_("{name} took {card} from the pile."),
                card=pretty(taken),
            )
        )
    mayi = view.get("mayi") or {}
    if view.get("phase") == "draw" and mayi.get("exposed") and top:
        lines.append(
            said(
                seating,
                current,
                N_("{card} came up after a May I: you may take it (no May I on it) or draw."),
                N_("{card} came up after a May I: {name} may take it (no May I on it) or draw."),
                card=pretty(top),
            )
        )
    # i18n: the title of the discard pile's section.
    return Section(_p("discard pile", "Discard"), "\n".join(lines))


def mayi_section(view: View, seating: Seating, *, glance: bool = False) -> Section | None:
    """The May I window open now; ``glance`` (the live message): without the current player's
    waiting, which its latest moves say."""
    mayi = view.get("mayi") or {}
    if not mayi.get("open"):
        return None
    card = mayi.get("card")
    current = view.get("current")
    what = pretty(card) if card else _("the discard")
    seconds = int(mayi.get("window_seconds") or 0)
    if seconds and seating.window_deadline is not None:
        # i18n: {when} is a Discord timestamp shown as "in 8 seconds" in the reader's language.
        head = _(
            "**May I** for {card}? Closes {when}.",
            card=what,
            when=f"<t:{int(seating.window_deadline)}:R>",
        )
    elif seconds:
        head = _("**May I** for {card}? Open for {seconds} s.", card=what, seconds=seconds)
    else:
        head = said(
            seating,
            current,
            N_("**May I** for {card}? Open until you take or draw."),
            N_("**May I** for {card}? Open until {name} takes or draws."),
            card=what,
        )
    lines = [head]
    calls = [whom(seating, s) for s in mayi.get("calls") or []]
    if calls:
        lines.append(_("Called: {names}.", names=names_and(calls)))
    answered = set(mayi.get("answered") or [])
    waiting = [whom(seating, s) for s in mayi.get("eligible") or [] if s not in answered]
    if waiting:
        lines.append(_("May still call: {names}.", names=names_and(waiting)))
    if mayi.get("waiting") and not glance:
        lines.append(
            said(
                seating,
                current,
                N_("You passed on it and wait for the calls."),
                N_("{name} passed on it and waits for the calls."),
            )
        )
    return Section(_(LABELS["mayi"]), "\n".join(lines))


def _meld_lines(
    view: View, seating: Seating, compact: bool, joined: bool | None = None
) -> list[str]:
    """The melds by player: a player's line, then one per meld; ``joined`` (compact's default):
    each player's melds on his line."""
    joined = compact if joined is None else joined
    melds = [m for m in view.get("melds") or [] if isinstance(m, Mapping)]
    lines: list[str] = []
    players = int(view.get("players") or len(seating.names))
    for owner in range(players):
        mine = [m for m in melds if m.get("owner") == owner]
        if not mine:
            continue
        if joined:
            texts = " · ".join(_meld_text(m, compact) for m in mine)
            lines.append(f"**{seating.who(owner)}**: {texts}")
        else:
            lines.append(f"**{seating.who(owner)}**")
            lines += [_meld_text(m, compact) for m in mine]
    return lines


def _meld_text(meld: Mapping[str, Any], compact: bool) -> str:
    """```2` 🃏 4♥️ 5♥️ 6♥️ (🃏 = 3♥️)``; compact: ```2` 3♥️–6♥️ 🃏``, ```1` 7s ×4``."""
    number = meld.get("number")
    cards = [str(c) for c in meld.get("cards") or []]
    stands = [str(c) for c in meld.get("stands_for") or []]
    jokers = cards.count("JK")
    if meld.get("kind") == "run":
        span = f"{pretty(stands[0])}–{pretty(stands[-1])}" if stands else ""
        if compact:
            return f"`{number}` {span}" + " 🃏" * jokers
        wild = [pretty(s) for c, s in zip(cards, stands, strict=False) if c == "JK"]
        tail = f" (🃏 = {', '.join(wild)})" if wild else ""
        return f"`{number}` {pretty_list(cards)}{tail}"
    rank = str(meld.get("rank") or "")
    if compact:
        # i18n: a Troika in short: {rank}s is the rank in the plural ("7s", "Ks": sevens).
        troika = _("{rank}s ×{count}", rank=rank, count=len(cards))
        return f"`{number}` {troika}" + " 🃏" * jokers
    return f"`{number}` {pretty_list(cards)}"


def meld_sections(view: View, seating: Seating) -> list[Section]:
    if not view.get("melds"):
        return []
    # A line per player (his melds side by side): one per meld made the panel 23 lines long.
    lines = _meld_lines(view, seating, compact=False, joined=True)
    size = sum(len(line) + 1 for line in lines)
    if len(view["melds"]) > MELDS_FULL or size > MELDS_FULL_TEXT:
        lines = _paired(_meld_lines(view, seating, compact=True))
        lines.append(_("(a run: its first and last card; 🃏: a joker in it)"))
    return pack(_("Melds (number for /layoff)"), lines)


def _paired(lines: list[str]) -> list[str]:
    """Players' lines two to a line past ``MELD_LINES_ALONE`` (many players with melds)."""
    if len(lines) <= MELD_LINES_ALONE:
        return lines
    return [" ┃ ".join(lines[i : i + 2]) for i in range(0, len(lines), 2)]


def table_picture(view: View, seating: Seating) -> Picture | None:
    rows: list[tuple[str, list[str]]] = []
    if view.get("discard_top"):
        # Translated here: the picture is drawn on a worker that has no language.
        # i18n: the label of the discard pile's row in the table picture.
        rows.append((_p("picture label", "discard"), [str(view["discard_top"])]))
    # Grouped by player in seat order, as in the text (the numbers are /layoff's).
    melds = sorted(view.get("melds") or [], key=lambda m: (m.get("owner"), m.get("number")))
    for meld in melds:
        owner = seating.name(meld.get("owner"))
        rows.append((f"{meld.get('number')}. {owner}", [str(c) for c in meld["cards"]]))
    if not rows:
        return None
    return Picture.of("rows_png", rows=rows, max_rows=len(rows), **picture_letters())
