"""The moves players type, declared by each game: the bot generates its move commands from them.

An action is a few words (``play 5h``, ``bid 7 no``, ``layoff 9h 2``). A ``Verb`` says which
command makes it: its name is the action's first word and the command's name, its ``args`` are
the command's parameters, each taking one word of the action (the last takes the rest). Actions
whose first word is another word but that the same command makes (Troggu's ``tapp``, a kind of
bid) are listed in ``also``: ``/bid tapp`` makes the action ``tapp``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Arg:
    """One parameter of a move command."""

    name: str
    description: str


@dataclass(frozen=True)
class Verb:
    name: str
    #: One line, shown by Discord under the command (at most 100 characters).
    description: str
    args: tuple[Arg, ...] = ()
    #: Other first words of actions this command makes (``pass`` is a kind of bid).
    also: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"a verb is one lower-case word, not {self.name!r}")
        if len(self.description) > 100:
            raise ValueError(f"verb {self.name}: the description is over 100 characters")

    def makes(self, action: str) -> bool:
        """Does this command make ``action`` (the action's first word is its name or an alias)?"""
        head = action.split(" ", 1)[0]
        return head == self.name or head in self.also

    def argument_of(self, action: str) -> str:
        """What the player types as this command's arguments for ``action``: the words after the
        verb (``play 5h`` -> ``5h``), or the whole action for an alias (``tapp``)."""
        head, _, rest = action.partition(" ")
        return rest if head == self.name else action

    def action(self, arguments: Sequence[str], legal: Sequence[str]) -> str:
        """The action ``/name arguments...`` makes: the legal action it names (``/bid tapp`` ->
        ``tapp``; ``/draw`` when the only legal one is ``draw stock``), else the literal words
        (the engine then explains what is wrong with them)."""
        typed = " ".join(" ".join(arguments).lower().split())
        literal = f"{self.name} {typed}".strip()
        if literal in legal:
            return literal
        if typed and typed in legal and self.makes(typed):
            return typed
        if not typed:
            longer = [a for a in legal if a.startswith(self.name + " ")]
            if len(longer) == 1:
                return longer[0]
        return literal


def merge_verbs(declared: Iterable[tuple[str, Verb]]) -> dict[str, Verb]:
    """One command per verb name across games. Two games may share a verb (``play``) only with
    the same parameters; the first game's description is kept, the aliases are pooled."""
    out: dict[str, Verb] = {}
    for game, verb in declared:
        known = out.get(verb.name)
        if known is None:
            out[verb.name] = verb
            continue
        if [a.name for a in known.args] != [a.name for a in verb.args]:
            raise ValueError(
                f"{game} declares /{verb.name} with other parameters than another game"
            )
        also = known.also + tuple(a for a in verb.also if a not in known.also)
        out[verb.name] = Verb(known.name, known.description, known.args, also)
    return out
