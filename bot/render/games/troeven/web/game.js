// 2-Player Troeven on the web table: each player's layout of eight places, every face-down
// card under the card that covers it; the face-up cards of the reader's layout play by tap.

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

function layoutCards(view, seat) {
  return new Set(((view.layout || [])[seat] || []).map((slot) => slot.up).filter(Boolean));
}

export default {
  css: true,
  trickSpread: [6, 6], // the trick sits between the two layouts

  hand(view) {
    // Cards of the layout are drawn in it, not again in the hand.
    const shown = view.seat === null ? new Set() : layoutCards(view, view.seat);
    return (view.hand || []).filter((card) => !shown.has(card));
  },

  layout(view, frame, tools) {
    if (!view.layout) return null;
    const me = frame.seat ?? 0;
    const box = tools.h("div", { class: "layouts" });
    for (const seat of [(me + 1) % view.players, me]) {
      const row = tools.h("div", {
        class: `layout ${seat === me ? "near" : "far"}`, "data-seat": seat,
      });
      for (const slot of view.layout[seat]) {
        const cell = tools.h("div", { class: "slot" });
        if (slot.face_down) cell.append(tools.back("under"));
        if (slot.up) cell.append(seat === me && frame.seat !== null
          ? tools.card(slot.up, "over") : tools.card(slot.up, "over shown"));
        row.append(cell);
      }
      box.append(row);
    }
    return box;
  },

  seatLines(view, seat, t) {
    return [`${t("Tricks")} ${(view.tricks_won || [])[seat] ?? 0}`];
  },

  status(view, t) {
    return view.trump ? `${t("Trumps")} ${SUIT[view.trump] || view.trump}` : "";
  },
};
