// Troika on the web table: team scores, the auction on each seat, the contract and trumps.
// (The generic table, bot/web/static/, draws the rest: seats, trick, hand, moves.)

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

function bidText(bid, t) {
  if (bid === "pass") return t("Pass");
  const [n, ...kind] = String(bid).split(" ");
  const rest = kind.join(" ");
  if (rest === "no") return t("{n} no trump", { n });
  if (rest === "no low") return t("{n} no trump low", { n });
  if (rest === "low") return t("{n} low", { n });
  return n;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function teamName(view, team, names) {
  return (view.teams[team] || []).map((s) => names[s]).join(" & ");
}

export default {
  seatLines(view, seat, t) {
    const lines = [];
    const contract = view.contract;
    if (contract && contract.declarer === seat) {
      lines.push(`★ ${bidText(contract.bid, t)}`);
    } else if (view.phase === "bidding") {
      const mine = (view.bids || []).filter((b) => b.seat === seat);
      if (mine.length) lines.push(bidText(mine[mine.length - 1].bid, t));
    }
    return lines;
  },

  status(view, t) {
    const parts = [];
    if (view.contract) parts.push(`${t("Contract")}: ${bidText(view.contract.bid, t)}`);
    else if (view.high_bid) parts.push(`${t("Bidding")}: ${bidText(view.high_bid, t)}`);
    if (view.trump) parts.push(`${t("Trumps")} ${SUIT[view.trump] || view.trump}`);
    if (view.phase === "play" || view.phase === "kitty") {
      parts.push(`${t("Tricks")} ${view.tricks_won[0]}–${view.tricks_won[1]}`);
    }
    return parts.join(" · ");
  },

  scores(view, names, t) {
    return [0, 1].map((team) => [
      teamName(view, team, names),
      `${view.scores[team]}${view.phase === "play" ? ` (${signed(view.hand_points[team])})` : ""}`,
    ]);
  },
};
