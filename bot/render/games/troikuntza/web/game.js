// TroiKuntza on the web table: the stock and the discard pile (tap to draw or take), the melds
// on the table (tap one to lay off the card you picked), your own melds from cards you pick,
// and the May I window with its countdown.

import { standardFace } from "../../static/cards.js";

let groups = []; // the groups of picked cards of the meld being put together
let groupsHand = "";

function label(code) {
  const face = standardFace(code);
  return face ? `${face.rank}${face.suit}` : code;
}

function words(cards) {
  return cards.map((card) => card.toLowerCase()).join(" ");
}

export default {
  css: true,
  seatSpread: [37, 40], // the side seats out by the rim: the melds take the middle's width

  actionCard() {
    return null; // every card move here is made of picked cards
  },

  listed(action) {
    // Discards, melds and lay-offs are made by picking cards and tapping melds; drawing and
    // taking by tapping the piles.
    return !/^(meld|layoff|discard|draw|take)( |$)/.test(action);
  },

  picking(view, legal) {
    return legal.some((action) => /^(meld|layoff|discard) /.test(action));
  },

  pickedMoves(view, picked, legal, tools) {
    const t = tools.t;
    const hand = (view.hand || []).join(" ");
    if (hand !== groupsHand) {
      groups = [];
      groupsHand = hand;
    }
    const moves = [];
    if (picked.length === 1) {
      const discard = `discard ${picked[0].toLowerCase()}`;
      if (legal.includes(discard)) {
        moves.push({ label: t("Discard {card}", { card: label(picked[0]) }), action: discard });
      }
    }
    if (legal.some((action) => action.startsWith("meld "))) {
      if (picked.length >= 3) {
        moves.push({ label: `+ ${picked.map(label).join(" ")}`, tool: "group",
          run: () => { groups.push(picked); tools.unpick(); } });
      }
      if (groups.length) {
        const shown = groups.map((group) => group.map(label).join(" ")).join(" | ");
        moves.push({ label: t("Lay down: {meld}", { meld: shown }),
          action: `meld ${groups.map(words).join(" | ")}` });
      }
    }
    return moves;
  },

  layout(view, frame, tools) {
    const { h } = tools;
    const legal = frame.legal || [];
    const names = frame.seats.map((seat) => seat.name);
    const box = h("div", { class: "rummy" });
    const stock = h(legal.includes("draw") ? "button" : "div", {
      class: `pile stock${legal.includes("draw") ? " playable" : ""}`,
      "data-action": legal.includes("draw") ? "draw" : null,
      onclick: legal.includes("draw") ? () => tools.act("draw") : null,
    }, tools.back(), h("span", { class: "count" }, view.stock_size));
    const top = view.discard_top;
    const take = legal.includes("take");
    const discard = h(take ? "button" : "div", {
      class: `pile discard${take ? " playable" : ""}`,
      "data-action": take ? "take" : null, onclick: take ? () => tools.act("take") : null,
    }, top ? tools.face(top) : h("div", { class: "card empty" }),
      h("span", { class: "count" }, view.discard_size));
    const piles = h("div", { class: "piles" }, stock, discard);
    const mayi = view.mayi;
    if (mayi && mayi.open && frame.window_deadline) {
      piles.append(h("div", { class: "window" }, tools.t("May I"), " ",
        h("span", { class: "clock", "data-deadline": frame.window_deadline })));
    }
    box.append(piles);
    const picked = tools.picked();
    const melds = h("div", { class: "melds" });
    for (const meld of view.melds || []) {
      // The card he picked laid off by tapping the meld; a joker on a run goes at the end he
      // says (the engine lists one move per end): a button for each, on the meld.
      const base = picked.length === 1
        ? `layoff ${picked[0].toLowerCase()} ${meld.number}` : null;
      const moves = base ? legal.filter((a) => a === base || a.startsWith(`${base} `)) : [];
      const one = moves.length === 1 ? moves[0] : null;
      // Two ends: an arrow at each end of the run, where the joker would go.
      const end = (word, arrow) => {
        const action = moves.length > 1 ? moves.find((a) => a.endsWith(` ${word}`)) : null;
        const label = tools.t(`${word} end`);
        return action ? h("button", { class: `end ${word}`, "data-action": action,
          title: label, "aria-label": label, onclick: () => tools.act(action) }, arrow) : null;
      };
      melds.append(h(one ? "button" : "div", {
        class: `meld${moves.length ? " playable" : ""}${moves.length > 1 ? " two-ends" : ""}`,
        "data-meld": meld.number,
        "data-action": one, onclick: one ? () => tools.act(one) : null,
      }, h("span", { class: "owner" }, `${meld.number} · ${names[meld.owner] || ""}`),
      end("low", "◀"),
      h("span", { class: "cards" }, meld.cards.map((card) => tools.face(card, "small"))),
      end("high", "▶")));
    }
    box.append(melds);
    return box;
  },

  seatLines(view, seat, t) {
    const lines = [];
    const mayi = view.mayi;
    if (mayi && mayi.used) lines.push(`${t("May I")} ${mayi.limit - mayi.used[seat]}`);
    if (view.out && view.out[seat]) lines.push("✓");
    return lines;
  },

  status(view) {
    return view.contract_text || "";
  },
};
