"""2-Player Troeven, both versions (``layout`` and ``stock``); rules: ``docs/rules/troeven.md``.

Actions: the non-dealer names trumps with ``trump s`` (``h``, ``d``, ``c``, or the suit's name);
then ``play <card>`` (``play 10h``, ``play th``, ``play 10♥``). Seats 0 and 1; the view's
``scores`` are per seat.

Events (JSON-safe): ``deal`` (seat = dealer, ``caller``, ``hand_number``; layout: ``face_up``,
the caller's 4 public cards), ``cards`` (private_to a seat: cards he receives in the stock
version), ``trump`` (``suit``, ``name``), ``deal_complete`` (layout: ``face_up`` per seat and
position, None = empty), ``play`` (``card``; layout: ``position`` 1-8), ``turn_up`` (``seat``,
``position``, ``card``), ``trick`` (``winner``, ``cards`` in play order, ``leader``, ``points``),
``draw`` (see below), ``hand_over`` (``points``, ``tricks``, ``winner`` or None, ``changes``,
``scores``, ``dealer``, ``caller``, ``trump``), ``game_over`` (``scores``, ``winners``).

Layout (the file roles every game package shares): ``cards`` (card ints and tables), ``spec``
(options, presets), ``summary`` (the readable rules for ``/rules``), ``tricks`` (who wins a trick,
what may be played, why a card is refused), ``game`` (the state machine), ``views``
(``TroevenView``: every view key, documented); and Troeven's own ``deal`` (how a deck is dealt).

Choices where the rules file is silent (what players expect):

- The deck mapping (stacked ``deck=`` and shuffles alike) is in ``engine.troeven.deal``: dealt
  alternately from the non-dealer; layout: each player's cards 1-8 face down on positions 1-8,
  cards 9-16 face up on positions 1-8; stock: cards 1-8 the hand, ``deck[16:]`` the stock.
- Layout, naming trumps: the non-dealer's 4 face-up cards are face up, so the dealer (and
  spectators) see them too. The other face-up cards are put down once trumps are named.
- Stock, naming trumps: the non-dealer holds only his 4 cards; the dealer holds nothing yet.
- A face-down card is known to nobody, its owner included, until the card on it is played;
  it then turns face up at once (a public ``turn_up`` event), even in the middle of a trick.
- "Holding the suit led" in the layout version means among the face-up cards.
- When trumps are led, "follow suit or trump" is simply "follow suit".
- ``strict_follow`` leaves the stock version's "no obligation while the stock lasts" as is: it
  only changes the obligations once the stock is gone (and in the whole layout version).
- Card points taken so far (``hand_points``) and tricks won are public, as the cards of each
  trick are played face up (players could count them).
- A drawn card is told to its drawer by ``{"type": "draw", "seat", "card", "private_to"}``
  and to everybody by ``{"type": "draw", "seat", "stock_size"}`` without the card.
  In the stock version each seat's new cards after trumps are told by private ``cards`` events.
- Scores: only the deal's winner goes down, so the game ends at the deal where he reaches 0;
  ``winners`` is that one seat. The next deal is dealt at once in the same action as
  ``hand_over`` (its events follow).
"""

from engine.ai import register_players
from engine.messages import add_templates
from engine.troeven.ai import PLAYERS
from engine.troeven.game import TroevenGame
from engine.troeven.refusals import TEMPLATES

GAME_CLASS = TroevenGame
add_templates(TEMPLATES)
register_players(TroevenGame.spec.name, PLAYERS)

__all__ = ["GAME_CLASS", "TroevenGame"]
