// Troggu on the web table: the Swiss Tarot's faces (four suits, the trumps I-XXI, the Fool)
// and the auction on each seat.

const SUITS = {
  CU: { suit: "∪", colour: "red" }, // cups
  CO: { suit: "●", colour: "gold" }, // coins
  SW: { suit: "†", colour: "blue" }, // swords
  BA: { suit: "|", colour: "green" }, // batons
};
const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
  "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI"];
const BIDS = { pass: "Pass", tapp: "Tapp", solo: "Solo" };

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

  seatLines(view, seat, t) {
    const lines = [];
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
