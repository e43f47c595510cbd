"""Troika (Kaiser, Three-Spot): the rules in docs/rules/troika.md, every option and preset.

Actions (lower-case in ``legal_actions``; card codes case-insensitive on input):
``pass``, ``bid 7``, ``bid 7 no``, ``bid 7 no low``, ``bid 8 low`` (``low`` = always), ``misdeal``,
``trump h``, ``discard 8c`` (one card per action; the kitty takes two), ``play 5h``.

Events (JSON dicts, ``type`` + usually ``seat``): ``deal`` (dealer, hand_number), ``bid``,
``pass``, ``misdeal`` (the thrown-in cards), ``thrown_in`` (all passed), ``contract``, ``trump``,
``kitty`` (count) and ``kitty_cards`` (``private_to`` the declarer), ``discard`` (the card,
``private_to`` the declarer) and ``discarded`` (public count), ``play``, ``trick`` (winner as
``seat``, cards, points), ``target_raised``, ``hand_over``, ``game_over``.

Layout (the file roles every game package shares): ``cards`` (card ints and tables), ``spec``
(options, presets), ``summary`` (``summary(options)``, the readable rules for ``/rules``),
``tricks`` (who wins a trick, what may be played, card points: the AI uses them too), ``game``
(the state machine), ``views`` (``TroikaView``, what a seat sees); and Troika's own ``bids``
(bid ints), ``scoring`` (a hand's score, end of game) and ``listing`` (legal actions as tuples
made once: plays by a hand's bits, the auction by its options).

Scores are per team: team 0 = seats 0+2, team 1 = seats 1+3. Views give ``scores`` per team;
``result()["scores"]`` gives each seat its team's score, plus ``team_scores`` and ``teams``.
The ``hand_over`` event's ``scores`` are per team (as in views); ``game_over``'s are per seat
(as in ``result()``), each with ``team_scores`` beside them. Before the game is over,
``result()`` gives the standings with ``winners`` empty.

Interpretations where the rules are silent (chosen as players would expect):
- First dealer (``first_dealer`` = random): the seed shuffles a deck, a random seat is chosen
  and cards go face up one at a time starting left of it until a Jack shows; the draw is kept
  in the state (``dealer_draw``) and shown in views.
- The dealer's privilege to equal exists only in the single auction. In the open auction the
  first round also starts left of the dealer, so "everyone passed" can only happen on the
  dealer's first turn: that is when stick-the-dealer applies.
- A misdeal may be called only on the player's first turn of the auction (in the single
  auction every turn is the first). The thrown-in hand is shown to all in the ``misdeal``
  event (the player proves it qualifies). The same dealer redeals; the hand number stays.
- All pass with ``stick_dealer`` off: the hand is thrown in (event ``thrown_in``), the deal
  passes left and the hand does not count as one of the ``rounds``. No ``hand_over`` is emitted
  for thrown-in or misdealt hands.
- ``low`` = no_trump with ``no_trump`` off offers no low bids at all (a "no low" is a no-trump
  bid). ``low`` = always with ``no_trump`` off offers trump and trump-low bids only.
- Low ranking applies in every suit, trumps included, for a low contract.
- ``trump_lead``: the declarer's first lead fixes trumps (for trump and trump-low bids); "no"
  bids stay without trumps. With the kitty, the declarer takes it right after the auction.
- Kitty: the declarer sees the two cards he took (view ``kitty``, event ``kitty_cards`` private
  to him) and his discards (view ``discards``); others see only counts (``discarded`` event).
  The declarer may discard the kitty cards themselves; never 5H or 3S.
- ``set_penalty`` = points: a failed declaring team loses the size of its hand points
  (took 4: loses 4; took -3: loses 3), doubled for "no" contracts.
- Defenders: the cut-off compares their score before the hand; at or above it, positive
  points are dropped but negative points still count.
- ``no_trump_increase`` raises ``target`` and the cut-off (unless ``off``) by 10 once per
  game; it applies in that very hand (declarers scored first, then the defenders against the
  raised cut-off, then the end check against the raised target).
- End by points: after a hand the declaring team wins if it reached the target, else the
  defenders if they did; otherwise play on, even with negative scores.
- End by rounds: after ``rounds`` scored hands the higher team score wins; a tie plays further
  hands until a hand ends with the scores apart.
- ``deck`` stacks the first deal only (one card at a time from the player after the dealer;
  the cards after the 32nd form the kitty); every later deal, misdeal redeals included, is
  shuffled from the seed.
- Hands are kept sorted for display (suits S H C D, high to low), so ``legal_actions`` lists
  cards in that order.
"""

from __future__ import annotations

from engine.ai import register_players
from engine.messages import add_templates
from engine.troika.ai import PLAYERS
from engine.troika.game import TroikaGame
from engine.troika.refusals import TEMPLATES
from engine.troika.summary import summary

GAME_CLASS = TroikaGame
add_templates(TEMPLATES)
register_players(TroikaGame.spec.name, PLAYERS)

__all__ = ["GAME_CLASS", "TroikaGame", "summary"]
