// Troggu on the web table: the Swiss Tarot's faces (four suits, the trumps I-XXI, the Fool),
// the auction on each seat, the Tapp exchange as a panel (the Tapp's cards marked in the hand;
// pick the cards to put down, then confirm) and the partner call as a compact chooser.

import { generic } from "/static/generic.js";

const SUITS = {
  CU: { suit: "∪", colour: "red" }, // cups
  CO: { suit: "●", colour: "gold" }, // coins
  SW: { suit: "†", colour: "blue" }, // swords
  BA: { suit: "|", colour: "green" }, // batons
};
const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
  "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI"];
const BIDS = { pass: "Pass", tapp: "Tapp", solo: "Solo" };

function discarding(view, legal) {
  return view.phase === "discard" && legal.some((action) => action.startsWith("discard "));
}

export default {
  face(code) {
    const text = String(code).toUpperCase();
    if (text === "FOOL") return { rank: "★", suit: "", colour: "black", big: "★" };
    if (/^T\d+$/.test(text)) {
      const n = Number(text.slice(1));
      return { rank: ROMAN[n] || String(n), suit: "", colour: "trump", big: String(n) };
    }
    const [rank, suit] = text.split("-");
    const known = SUITS[suit];
    if (!known) return null;
    return { rank, suit: known.suit, colour: known.colour, big: known.suit };
  },

  actionCard(action, view) {
    // Discards are picked and confirmed together (the panel), never sent by one tap; a call
    // names a trump (the chooser), not a card of the hand to play.
    return /^(discard|call) /.test(action) ? null : generic.actionCard(action, view);
  },

  listed(action) {
    return !/^(discard|call) /.test(action);
  },

  picking(view, legal) {
    return discarding(view, legal);
  },

  pickable(view, card, legal) {
    return legal.includes(`discard ${card.toLowerCase()}`);
  },

  fresh(view) {
    return view.phase === "discard" ? view.tapp || [] : [];
  },

  panel(view, frame, tools) {
    const { h, t } = tools;
    const legal = frame.legal || [];
    if (discarding(view, legal)) {
      const picked = tools.picked().length;
      return h("div", { class: "panel exchange", "data-panel": "exchange" },
        h("span", {}, t("Cards to put down: {picked}/{n}",
          { picked, n: view.discards_left })));
    }
    const calls = legal.filter((action) => action.startsWith("call "));
    if (!calls.length) return null;
    const trumps = calls.filter((action) => action !== "call none");
    return h("div", { class: "panel call", "data-panel": "call" },
      h("p", {}, t("Call a trump from II to XX: its holder is your secret partner.")),
      h("div", { class: "chooser" }, trumps.map((action) => {
        const n = Number(action.slice("call t".length));
        return h("button", { class: "move pick-one", "data-action": action,
          title: frame.labels[action] || action, onclick: () => tools.act(action) }, ROMAN[n]);
      }), calls.includes("call none") ? h("button", { class: "move", "data-action": "call none",
        onclick: () => tools.act("call none") }, t("Play alone")) : null));
  },

  pickedMoves(view, picked, legal, tools) {
    if (!discarding(view, legal)) return [];
    const moves = [];
    if (picked.length === view.discards_left) {
      const actions = picked.map((card) => `discard ${card.toLowerCase()}`);
      moves.push({ label: tools.t("Put these cards down"), tool: "put-down",
        run: () => tools.actAll(actions) });
    }
    if (picked.length) {
      moves.push({ label: tools.t("Clear"), tool: "clear", run: () => tools.unpick() });
    }
    return moves;
  },

  seatLines(view, seat, t, frame) {
    const lines = [];
    // Only the holder knows he holds the Fool back: the others see only the card he played.
    if (view.fool_held_back && frame && seat === frame.seat) lines.push(t("Fool held back"));
    if (view.declarer === seat && view.contract) {
      lines.push(`★ ${t(BIDS[view.contract] || view.contract)}`);
    } else if (view.phase === "bidding" && view.bids && view.bids[seat]) {
      lines.push(t(BIDS[view.bids[seat]] || view.bids[seat]));
    }
    const taken = view.tricks_taken || [];
    if (taken[seat] !== undefined) lines.push(`${t("Tricks")} ${taken[seat]}`);
    return lines;
  },

  status(view, t) {
    return view.contract ? t(BIDS[view.contract] || view.contract) : "";
  },
};
