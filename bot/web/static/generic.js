// What the table reads of a game's view when the game's own web module says nothing: the keys
// every trick-taking view shares (engine/views.py: hand, hand_sizes, trick, last_trick, scores).
// A game's module (bot/render/games/<game>/web/game.js) exports an object with any of these
// functions; the table uses the game's where it has one, these otherwise.

import { standardFace } from "./cards.js";

export const generic = {
  /** The card of a move that plays one card of the hand ("play 5h" -> "5H"), else null. */
  actionCard(action, view) {
    const words = action.split(" ");
    if (words.length !== 2) return null;
    const code = words[1].toUpperCase();
    return (view.hand || []).includes(code) ? code : null;
  },

  /** The hand, in the order to show it (the engines sort it). */
  hand(view) {
    return view.hand || [];
  },

  /** The cards in the middle: {cards: [{seat, card}], winner: seat or null, done: bool}. */
  centre(view) {
    const trick = view.trick || [];
    if (trick.length) return { cards: trick, winner: null, done: false };
    const last = view.last_trick;
    // The trick just taken stays in the middle, its winning card marked, until the next lead.
    if (last && last.cards && last.cards.length) {
      return { cards: last.cards, winner: last.winner, done: true };
    }
    return { cards: [], winner: null, done: false };
  },

  /** Short lines under a seat's name (its bid, tricks taken...). */
  seatLines(view, seat, t) {
    const lines = [];
    const taken = view.tricks_taken || null;
    if (taken && taken[seat] !== undefined) lines.push(`${t("Tricks")} ${taken[seat]}`);
    return lines;
  },

  /** One line above the table: what the hand is played for (default: none). */
  status(view, t) {
    return "";
  },

  /** The scores as [label, value] pairs. */
  scores(view, names, t) {
    const scores = view.scores || [];
    return scores.map((score, seat) => [names[seat] || t("Seat {n}", { n: seat + 1 }), score]);
  },

  /** Cards laid out on the felt beside the trick (a game's own), as an element drawn with
   * `tools` (tools.card(code): a card that plays when tapped; tools.back(); tools.h); none. */
  layout(view, frame, tools) {
    return null;
  },

  /** Whether a move gets a button of its own (a game whose moves are made by picking cards
   * or tapping the table leaves those out). */
  listed(action, view) {
    return true;
  },

  /** Whether the hand's cards are picked by tap (for moves made of several cards). */
  picking(view, legal) {
    return false;
  },

  /** Whether a card of the hand may be picked (the others are dimmed while picking). */
  pickable(view, card, legal) {
    return true;
  },

  /** Cards of the hand to mark as just received (cards taken into the hand from the table). */
  fresh(view) {
    return [];
  },

  /** A compact panel of the game's own above the hand (a chooser for some of its moves, which
   * `listed` then leaves out), drawn with `tools`; none by default. */
  panel(view, frame, tools) {
    return null;
  },

  /** Moves made of the picked cards: [{label, action}] or [{label, tool, run(table)}]. */
  pickedMoves(view, picked, legal, tools) {
    return [];
  },

  face: standardFace,
};
