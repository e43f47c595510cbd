"""What a game shows its players: the protocol each game's presenter implements.

A presenter turns one game's views and events into words and pictures. It knows its game (what
a player of that game looks for on the table, how its events read), and nothing of Discord: it
returns ``Section``s (a title and text) and ``Picture``s (what to draw), which ``embeds`` maps
onto embed fields and the terminal prints as they are.

Presenters live in ``bot/render/games/``, one package per game (``bot/render/games/<game>/``,
split by the surface it draws: table, hand, narration, verdict and score sheet, history, rules),
and are found by subclass: a subclass of ``Presenter`` whose ``game`` names a game of
``engine.GAMES`` is that game's presenter. Nothing else in ``bot/`` or ``cogs/`` names a game.

Contract (tested for every game over random complete games):
- ``narrate`` tells every event kind its engine emits, or says that it is quiet (``quiet``); an
  event kind it does not know raises ``UnknownEvent`` (a failing test, never a raw line): each
  kind has its own function in the game's ``Narrators`` table (``bot.render.narration``).
- No view key is ever shown raw: a presenter picks what to show by name.
- Public text (``seating.viewer is None``) comes from the spectator view and public events only;
  a private event (``private_to``) is narrated only for its owner, in the second person.
"""

from __future__ import annotations

import bisect
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from bot.i18n import N_, _, _n, _p

if TYPE_CHECKING:
    from bot.render.narration import Narrators

View = Mapping[str, Any]
Event = Mapping[str, Any]


@dataclass(frozen=True)
class Section:
    """One block of a message: an embed field on Discord, a paragraph in the terminal."""

    title: str
    text: str
    #: Side by side with the next inline section where there is room (Discord's inline fields).
    inline: bool = False
    #: What a hand panel's section is for, so that the panel puts first what the player must
    #: decide and leaves out what shows elsewhere: ``move`` (his move: on top), ``hand`` (his
    #: cards as text: the picture shows them), ``table`` (on the public table message too);
    #: empty for the rest (what he needs to decide: the contract, the trick, the table).
    role: str = ""


@dataclass(frozen=True)
class CardGroups:
    """A move the player may build from his own cards, a group at a time (several groups of
    cards laid down at once): the action is ``verb`` then the groups' cards, the groups
    separated by `` | ``."""

    verb: str
    #: The label of the button that opens the pick, and what the pick's panel says on top.
    label: str
    prompt: str
    #: Each group's name (a select's placeholder) and the fewest cards it takes.
    groups: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Picture:
    """What to draw: ``draw`` names a drawing function of ``bot.render.games.images`` and
    ``args`` are its keyword arguments as plain, hashable data (so a picture can be drawn on a
    worker and a picture that did not change is not drawn again).

    The arguments are kept flat (``flat``: name, value, name, value..., by name): the garbage
    collector lets go of a tuple of strings and numbers at its first collection, but of a
    tuple holding tuples only one level deeper per collection, so (name, value) pairs kept
    each picture of a live panel in the next generation-1 collection as 4-5 objects, 2 flat."""

    draw: str
    flat: tuple[Any, ...] = ()

    @classmethod
    def of(cls, draw: str, **args: Any) -> Picture:
        return cls(draw, _flat(sorted((k, _frozen(v)) for k, v in args.items())))

    @classmethod
    def of_pairs(cls, draw: str, pairs: Sequence[tuple[str, Any]]) -> Picture:
        """A picture from its arguments already frozen and in name order (as ``of`` makes
        them): for the callers that keep frozen parts made once per language."""
        return cls(draw, _flat(pairs))

    @property
    def args(self) -> tuple[tuple[str, Any], ...]:
        """The keyword arguments as (name, value) pairs, by name."""
        flat = self.flat
        return tuple(zip(flat[::2], flat[1::2], strict=True))

    def kwargs(self) -> dict[str, Any]:
        flat = self.flat
        return dict(zip(flat[::2], flat[1::2], strict=True))


def _flat(pairs: Sequence[tuple[str, Any]]) -> tuple[Any, ...]:
    return tuple(part for pair in pairs for part in pair)


#: Values that are already plain and hashable (a hand's cards: the common case, at every panel).
_PLAIN = (str, int, float, bool, type(None))


def _frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(v if isinstance(v, _PLAIN) else _frozen(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value


@dataclass(frozen=True)
class Seating:
    """What a presenter knows of the table beside the view: who sits where, who reads."""

    #: Display names by engine seat (AI seats already marked).
    names: tuple[str, ...]
    #: The seat the text is for (a private panel, a private event), None for public text.
    viewer: int | None = None
    #: Each awaited human seat's deadline (epoch seconds).
    deadlines: Mapping[int, float] = field(default_factory=dict)
    #: When the open timed window (``Game.timed_window``) closes, if one is open.
    window_deadline: float | None = None
    #: The table's resolved options.
    options: Mapping[str, Any] = field(default_factory=dict)

    def name(self, seat: Any) -> str:
        """A seat's display name (``seat 3`` for a seat with no name, ``someone`` for None)."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return _("someone") if seat is None else _("seat {n}", n=int(seat) + 1)

    def who(self, seat: Any) -> str:
        """``You`` for the reader's own seat, else the name."""
        if seat is not None and seat == self.viewer:
            return _p("sentence start", "You")
        return self.name(seat)

    def is_you(self, seat: Any) -> bool:
        return seat is not None and seat == self.viewer

    def for_seat(self, viewer: int | None) -> Seating:
        return Seating(self.names, viewer, self.deadlines, self.window_deadline, self.options)


class UnknownEvent(LookupError):
    """A presenter was given an event kind it does not know (a test fails on it; the bot logs
    it and shows nothing rather than a raw line)."""


#: The presenter's methods a game's surface modules may provide, and their functions' names.
SURFACES = {
    "heading": "heading",
    "table_sections": "table_sections",
    "table_picture": "table_picture",
    "hand_sections": "hand_sections",
    "hand_picture": "hand_picture",
    "action_label": "action_label",
    "you_did": "you_did",
    "summary": "summary",
    "scores": "scores_section",
    "score_sheet": "score_sheet",
    "history": "hand_history",
    "final": "final",
    "rules": "rules_text",
    "card_groups": "card_groups",
    "move_words": "move_words",
}


def _calling(function: Callable[..., Any]) -> staticmethod[..., Any]:
    """A method that is ``function`` itself (the presenter left out): no frame of its own
    between the caller and the game's function (a panel calls a dozen of them per drawing)."""
    return staticmethod(function)


#: Every presenter, by game name: filled by ``Presenter.__init_subclass__``.
PRESENTERS: dict[str, type[Presenter]] = {}


class Presenter(ABC):
    """One game's words and pictures. Subclasses set ``game`` and are registered by it."""

    #: The engine game this presents (``engine.GAMES`` key).
    game: ClassVar[str] = ""
    #: Event kinds that say nothing the table message does not already show.
    quiet: ClassVar[frozenset[str]] = frozenset()
    #: What players of this game call one deal of it: ``hand``, ``deal``, ``round`` (marked with
    #: ``N_``, translated where shown: ``_(presenter.unit)``).
    unit: ClassVar[str] = N_("hand")
    #: One function per event kind this game narrates (``tell`` looks the kind up there).
    narrators: ClassVar[Narrators | None] = None
    #: The game's modules by surface (``table``, ``hand``, ``verdict``, ``history``, ``rules``):
    #: each method of ``SURFACES`` the class does not write itself calls the function of that
    #: name in the first module that has it, so a game's presenter is its surfaces, not a page
    #: of methods that pass their arguments on.
    surfaces: ClassVar[tuple[ModuleType, ...]] = ()
    #: Every card code the game's pictures show: drawn once in the picture workers' fork server
    #: before they start (``bot.render.ready_faces``), so that no worker draws them for itself.
    cards: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for method, function in SURFACES.items():
            if method in cls.__dict__:
                continue  # the game's own
            found = next((getattr(m, function) for m in cls.surfaces if hasattr(m, function)), None)
            if found is not None:
                setattr(cls, method, _calling(found))
        if cls.narrators is not None and cls.quiet & cls.narrators.kinds:
            both = sorted(cls.quiet & cls.narrators.kinds)
            raise ValueError(f"{cls.game}: events both quiet and narrated: {both}")
        if cls.game:
            known = PRESENTERS.get(cls.game)
            if known is not None and known.__qualname__ != cls.__qualname__:
                raise ValueError(f"two presenters for {cls.game!r}: {known} and {cls}")
            PRESENTERS[cls.game] = cls

    # -- the public table message ---------------------------------------------------------------
    @abstractmethod
    def heading(self, view: View, seating: Seating) -> str:
        """The table message's title after the game's title: ``hand 3 of 6``, ``round 3 of 7 —
        2 Runs``."""

    @abstractmethod
    def table_sections(self, view: View, seating: Seating) -> list[Section]:
        """The public table below the turn line: contract, trick, scores... short, phone-first."""

    def table_picture(self, view: View, seating: Seating) -> Picture | None:
        """The public picture (the cards on the table), if any."""
        return None

    # -- the private hand panel -----------------------------------------------------------------
    @abstractmethod
    def hand_sections(
        self,
        view: View,
        legal: Sequence[str],
        seating: Seating,
        hidden: frozenset[str] = frozenset(),
    ) -> list[Section]:
        """The player's private panel (``seating.viewer`` is his seat): his hand and what he
        needs to choose his move. ``hidden``: roles of sections the caller will not show
        (``hand`` under a picture of it, ``table``): left out, neither built nor counted against
        the message's limits."""

    def hand_picture(self, view: View, seating: Seating) -> Picture | None:
        """A picture of the player's hand, if any."""
        return None

    def hand_picture_for(
        self, view: View, legal: Sequence[str], seating: Seating
    ) -> Picture | None:
        """``hand_picture`` with the cards the player may not play now faded, when his legal
        moves name cards of his hand (a trick to follow: the other cards fade; bidding names
        none: nothing fades)."""
        picture = self.hand_picture(view, seating)
        if picture is None or picture.draw != "hand_png" or not legal:
            return picture  # (no legal move: nothing fades, ``unplayable``)
        flat = picture.flat
        names = flat[::2]
        if "dim" in names:  # (no game's hand picture has it: ``of`` would sort by value too)
            return picture
        cards = flat[2 * names.index("cards") + 1] if "cards" in names else None
        dim = unplayable(cards or (), legal)
        if not dim:
            return picture
        # ``Picture.of(draw, **args, dim=dim)`` without freezing the frozen arguments again:
        # ``dim`` put in its place among the names, which are in order.
        at = 2 * bisect.bisect(names, "dim")
        return Picture(picture.draw, (*flat[:at], "dim", dim, *flat[at:]))

    def action_label(self, action: str) -> str:
        """A legal action as a button or list label (``play 5h`` -> ``5♥``), at most 80
        characters."""
        return action[:80]

    def action_tone(self, action: str) -> str:
        """How a move's button looks: ``card`` (a verb and one card: a grey button, on which a
        red suit still shows; Discord's red button would swallow it), ``decline`` (Pass: red)
        or ``move``."""
        return _tone(action)

    def card_groups(self, view: View, legal: Sequence[str]) -> CardGroups | None:
        """The move the player may make of cards he chooses himself, group by group, beside the
        moves listed in ``legal`` (None: every move is in the list)."""
        return None

    def move_words(self) -> dict[str, str]:
        """The words of this game's moves that are neither a command, a card nor a number
        (after a bid's number, ``7 no``), each as the reader types it: ``{"no": "sans"}`` in
        French. The commands read his words (``typed_words``); the refusals quote them."""
        return {}

    def you_did(self, action: str) -> str:
        """The reply to the player's own move: ``You played K♣``, ``You bid 7``."""
        return _("You: {move}", move=self.action_label(action))

    def hint(self, view: View, action: str) -> str:
        """``/hint``'s line: the hard AI's move and, when the view tells it, one fact about it."""
        fact = self.hint_fact(view, action)
        move = self.action_label(action)
        if fact:
            # i18n: {fact} is one fact about the move, e.g. "you lead this trick"
            return _("The hard AI would play **{move}** ({fact}).", move=move, fact=fact)
        return _("The hard AI would play **{move}**.", move=move)

    def hint_fact(self, view: View, action: str) -> str | None:
        """One fact from the player's view about the hinted move, or None. The AIs do not say
        why they choose; this reads the trick in play (``view["trick"]``, the trick-taking
        games' shape) for a card move: leading it, or how many cards it follows."""
        trick = view.get("trick")
        if not isinstance(trick, list) or not action.startswith("play "):
            return None
        if not trick:
            return _("you lead this trick")
        return _n("after {n} card on this trick", "after {n} cards on this trick", len(trick))

    # -- narration ------------------------------------------------------------------------------
    def narrate(self, event: Event, seating: Seating) -> str | None:
        """One line telling ``event`` to ``seating.viewer`` (None: everyone), or None when it
        says nothing worth a line. A private event reaches only its owner, here for every game;
        quiet kinds say nothing; the rest is the game's ``tell``."""
        owner = event.get("private_to")
        if owner is not None and owner != seating.viewer:
            return None
        if str(event.get("type", "")) in self.quiet:
            return None
        return self.tell(event, seating)

    def tell(self, event: Event, seating: Seating) -> str | None:
        """One line for an event this reader may see: its kind's function in ``narrators``.
        Raises ``UnknownEvent`` for a kind with none."""
        if self.narrators is None:
            raise self.unknown(event)
        return self.narrators.tell(event, seating)

    # -- ends of hands and games ----------------------------------------------------------------
    @abstractmethod
    def summary(self, event: Event, seating: Seating) -> list[Section]:
        """The end of a hand/deal/round from its ``hand_over`` event: what players check."""

    @abstractmethod
    def scores(
        self, view: View | None, result: Mapping[str, Any] | None, seating: Seating
    ) -> Section:
        """The scores, compact (from the view in play, from the result once over)."""

    def score_sheet(self, view: View | None, seating: Seating) -> list[Section]:
        """``/score``: one row per hand, as players keep it on paper (default: the scores)."""
        return [self.scores(view, None, seating)]

    def history(self, view: View, seating: Seating) -> list[Section]:
        """``/history``, privately: what was played in the current hand (or round) so far, so
        a player can check it, and how the previous one ended. Default: nothing."""
        return []

    def final(self, result: Mapping[str, Any], seating: Seating) -> list[Section]:
        """The game-over message's sections (who won, the final scores)."""
        winners = [seating.name(w) for w in result.get("winners") or []]
        if winners:
            head = _("🏆 **{names} won.**", names=", ".join(winners))
        else:
            head = _("🏆 **Nobody won.**")
        return [Section("", head), self.scores(None, result, seating)]

    def rules(self, options: Mapping[str, Any] | None = None) -> str:
        """``/rules``: the rules as they apply with ``options``, in the reader's language.
        Default: the engine's own (English) summary; a presenter says it in every language."""
        import engine

        return str(engine.CLASSES[self.game].rules_summary(dict(options or {})))

    # -- helpers for subclasses -------------------------------------------------------------------
    def unknown(self, event: Event) -> UnknownEvent:
        return UnknownEvent(f"{self.game}: no narration for event {event.get('type')!r}")


@functools.lru_cache(maxsize=4096)
def _tone(action: str) -> str:
    """``Presenter.action_tone``: the same for a move in every game and language, asked twice
    for each of a panel's buttons."""
    from bot.render.games.cards import face

    words = action.split()
    if action == "pass":
        return "decline"  # a red button, apart from the bids: it must not look like one
    if len(words) != 2 or face(words[1]).family in {"unknown", "hidden"}:
        return "move"
    return "card"


def unplayable(cards: Sequence[Any], legal: Sequence[str]) -> tuple[int, ...]:
    """The positions of ``cards`` no legal move names, when some move names one of them (else
    none: the moves are not about cards, or every card is allowed)."""
    if not legal:  # (a waiting player's panel: most of them)
        return ()
    named = {word.casefold() for action in legal for word in str(action).split()[1:]}
    held = [str(card).casefold() if card is not None else None for card in cards]
    if not named.intersection(c for c in held if c is not None):
        return ()
    return tuple(i for i, card in enumerate(held) if card is not None and card not in named)


def reader_move_words(game: str | None = None) -> dict[str, str]:
    """``Presenter.move_words`` of ``game``, or of every game (for a refusal, which does not say
    its game), in the reader's language."""
    import engine

    names = [game] if game is not None else sorted(engine.GAMES)
    words: dict[str, str] = {}
    for name in names:
        try:
            words.update(presenter_for(name).move_words())
        except LookupError:
            continue  # a game without a presenter yet: its words are the engine's
    return words


def presenter_for(game: str) -> Presenter:
    """The presenter of ``game`` (loads ``bot.render.games`` on first use, and looks again
    for a game it does not know yet)."""
    if game not in PRESENTERS:
        import bot.render.games  # (registers the presenters)

        bot.render.games.discover()  # (a game's folder added to its path since)
    cls = PRESENTERS.get(game)
    if cls is None:
        raise LookupError(f"no presenter for the game {game!r}")
    return cls()
