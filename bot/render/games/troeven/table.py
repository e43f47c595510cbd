"""2-Player Troeven: the public table message (heading, sections, picture)."""

from __future__ import annotations

from bot.i18n import N_, _, _n
from bot.render.games._tricks import last_trick, trick_lines, trick_now, trick_picture
from bot.render.games._words import said, whom, within_limits
from bot.render.games.cards import frozen_letters, pretty, pretty_suit
from bot.render.games.troeven.verdict import scores_section
from bot.render.games.troeven.words import COVERS, TRICKS, places
from bot.render.presenter import Picture, Seating, Section, View


def heading(view: View, seating: Seating) -> str:
    return _("deal {n}", n=int(view.get("hand_number") or 1))


def table_sections(view: View, seating: Seating) -> list[Section]:
    """A glance at the live message: trumps, the stock, the deal so far, the scores. The layouts
    are in the picture (each face-down card under the card covering it), not written out."""
    lines = [_("Trumps: {suit}", suit=trump_line(view, seating))]
    if view.get("version") != "layout":
        lines += stock_text(view, seating).splitlines()[:1]
    lines += trick_lines(view, seating) + deal_lines(view, seating)
    sections = [Section(_("This deal"), "\n".join(lines)), scores_section(view, None, seating)]
    return within_limits(sections)


def trump_line(view: View, seating: Seating) -> str:
    caller = view.get("caller")
    if view.get("trump"):
        suit = pretty_suit(str(view["trump"]))
        return _("{suit} (named by {name})", suit=suit, name=whom(seating, caller))
    return said(
        seating,
        caller,
        N_("You name trumps, seeing your first 4 cards"),
        N_("{name} names trumps, seeing their first 4 cards"),
    )


def layout_line(view: View, seating: Seating, seat: int) -> str:
    cells = []
    for place in places(view, seat):
        up, down = place.get("up"), bool(place.get("face_down"))
        if up:
            cells.append(pretty(str(up)) + (COVERS if down else ""))
        elif down:
            cells.append("🂠")
    counts = view.get("face_down_counts") or []
    hidden = int(counts[seat]) if seat < len(counts) else 0
    shown = " ".join(cells) or _("no cards left")
    # i18n: a player's layout: {cards} the face-up cards, {n} how many lie face down
    return _("**{name}** ({n} face down): {cards}", name=seating.who(seat), n=hidden,
             cards=shown)  # fmt: skip


def stock_text(view: View, seating: Seating) -> str:
    if view.get("phase") == "trump":
        return _("Dealt once trumps are named: 8 cards each, 16 in the stock")
    size = int(view.get("stock_size") or 0)
    sizes = list(view.get("hand_sizes") or [])
    held = " · ".join(
        _n("{name} {n} card", "{name} {n} cards", int(sizes[s]), name=seating.who(s))
        for s in (0, 1)
        if s < len(sizes)
    )
    follow = _("follow suit") if view.get("strict_follow") else _("follow suit or trump")
    stock = (
        _n(
            "{n} card left; the trick's winner draws first; no need to follow",
            "{n} cards left; the trick's winner draws first; no need to follow",
            size,
        )
        if size
        else _(
            "Empty: now {follow}; with none of the suit led, trump if you can", follow=follow
        )  # fmt: skip
    )
    return f"{stock}\n{held}"


def deal_lines(view: View, seating: Seating) -> list[str]:
    points = list(view.get("hand_points") or [])
    tricks = list(view.get("tricks_won") or [])
    played = int(view.get("tricks_played") or 0)
    if not played or len(points) != 2 or len(tricks) != 2:
        return []
    taken = " · ".join(f"{whom(seating, s)} **{points[s]}**" for s in (0, 1))
    won = " · ".join(f"{whom(seating, s)} {tricks[s]}" for s in (0, 1))
    return [
        _("Card points: {taken} (more than 20 wins)", taken=taken),
        _("Tricks: {won} ({played} of {total} played)", won=won, played=played, total=TRICKS),
    ]


def table_picture(view: View, seating: Seating) -> Picture | None:
    if view.get("version") != "layout":
        return trick_picture(view, seating)
    return layouts_picture(view, seating)


def layouts_picture(view: View, seating: Seating) -> Picture:
    """The trick on the table, then both layouts as stacks: each face-down card peeks out under
    the face-up card covering it (which card turns up next is what a player plans by)."""
    # Made as ``Picture.of`` freezes its arguments (tuples), not frozen again at every panel.
    rows: list[tuple[str, tuple[tuple[str | None, int], ...]]] = []
    played = trick_now(view)
    # i18n: a label on the picture (about 12 characters fit)
    title = _("On the table")
    if not played:
        played, _winner = last_trick(view)
        # Who took it is in the text: a label holds ~12 characters.
        # i18n: a label on the picture (about 12 characters fit)
        title = _("Last trick")
    if played:
        rows.append((title, tuple((card, 0) for _seat, card in played)))
    to_act = list(view.get("to_act") or [])
    highlight = None
    # In a player's panel his own layout comes last, named "You", nearest his buttons.
    viewer = seating.viewer
    order = (1 - viewer, viewer) if viewer in (0, 1) else (0, 1)
    for seat in order:
        stacks: list[tuple[str | None, int]] = []
        for place in places(view, seat):
            up, down = place.get("up"), 1 if place.get("face_down") else 0
            if up or down:
                stacks.append((str(up) if up else None, down))
        counts = view.get("face_down_counts") or []
        hidden = int(counts[seat]) if seat < len(counts) else 0
        if to_act[:1] == [seat]:
            highlight = len(rows)
        rows.append((f"{seating.who(seat)} {hidden}↓", tuple(stacks)))  # ↓: face-down cards
    # (The arguments by name: highlight, letters, rows.)
    args = (("highlight", highlight), *frozen_letters(), ("rows", tuple(rows)))
    return Picture.of_pairs("layouts_png", args)
