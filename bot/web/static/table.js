// Draws the whole table from one state frame (frames are whole: no frame depends on the last).
// Layout: the seats around an oval felt, the trick in the middle, the reader's hand fanned at
// the bottom with the cards he may play raised, and his other moves in a compact panel.

import { backSvg, cardSvg } from "./cards.js";
import { draggable } from "./drag.js";

// Styles are set through the CSSOM: the page's policy (style-src 'self') refuses inline style
// attributes, not properties set by its own script.
function setStyle(node, text) {
  for (const rule of text.split(";")) {
    const at = rule.indexOf(":");
    if (at > 0) node.style.setProperty(rule.slice(0, at).trim(), rule.slice(at + 1).trim());
  }
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "style") setStyle(node, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Where seat `seat` sits on screen: the reader at the bottom, the next seats clockwise. */
function angleOf(seat, me, players) {
  const turn = (seat - me + players) % players;
  return Math.PI / 2 + (turn * 2 * Math.PI) / players;
}

function seconds(deadline, frame, receivedAt) {
  if (!deadline) return null;
  const now = frame.now + (Date.now() - receivedAt) / 1000;
  return Math.max(0, Math.ceil(deadline - now));
}

export class Table {
  constructor(root, act, ask, drawn = null) {
    this.root = root;
    this.act = act; // act(action): send a move
    this.ask = ask; // ask(kind): ask the server for more (the score sheet)
    // drawn(frame): after every drawing, whatever drew it (a frame, the participants, a tool),
    // what the page adds around the table (inside Discord: the seat bar).
    this.drawn = drawn;
    this.shownSheet = null;
    this.dismissed = null; // the summary the reader closed
    this.showLast = false;
    this.timer = null;
    this.here = null; // inside Discord: the ids of the users in the Activity (the SDK's word)
  }

  /** Inside Discord: who is in the Activity now (a set of user ids), marked on their seats. */
  setHere(ids) {
    this.here = ids;
    if (this.frame) this.redraw();
  }

  t(key, params = {}) {
    const text = (this.strings && this.strings[key]) || key;
    return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? params[name] : `{${name}}`));
  }

  draw(frame, game, strings, receivedAt, banner) {
    this.frame = frame;
    this.game = game;
    this.strings = strings;
    this.receivedAt = receivedAt;
    const view = frame.view;
    const root = this.root;
    root.replaceChildren();
    root.className = `table game-${frame.game}`;
    // What the page shows, for tests and tools: the table's move number and the frame's seq.
    root.dataset.move = frame.move;
    root.dataset.seq = frame.seq;
    if (banner) root.append(h("div", { class: "banner", role: "status" }, banner));
    if (!view && frame.status === "lobby") { // the lobby: who sits, until the host starts
      root.append(h("section", { class: "lobby" },
        h("h1", {}, frame.title),
        h("ol", { class: "lobby-seats" }, frame.seats.map((seat) =>
          h("li", { class: seat.you ? "you" : null }, seat.name))),
        h("p", { class: "waiting" }, this.t("Waiting for the host to start the game."))));
    } else if (!view) {
      root.append(h("div", { class: "waiting" }, frame.title, " — ", this.t("Connecting…")));
    } else {
      this.drawTable(frame, view);
    }
    if (this.drawn) this.drawn(frame);
  }

  drawTable(frame, view) {
    const root = this.root;
    const names = frame.seats.map((s) => s.name);
    this.byCard = new Map();
    this.otherMoves = [];
    for (const action of frame.legal || []) {
      const card = this.game.actionCard(action, view);
      if (card && !this.byCard.has(card)) this.byCard.set(card, action);
      else if (this.game.listed(action, view)) this.otherMoves.push(action);
    }
    root.append(this.topBar(frame, view, names));
    root.append(this.felt(frame, view, names));
    root.append(this.bottom(frame, view));
    if (this.ended) {
      root.append(this.overlay(this.ended, null));
    } else if (frame.summary && frame.summary.id !== this.dismissed) {
      root.append(this.overlay(frame.summary.lines, () => { this.dismissed = frame.summary.id; }));
    } else if (this.shownSheet) {
      root.append(this.overlay(this.shownSheet, () => { this.shownSheet = null; }));
    } else if (this.showLast && view.last_trick) {
      root.append(this.lastTrick(view, names));
    }
    this.tick();
    this.sendQueued(frame);
  }

  /** Moves made one after another from one confirmation (several discards in one exchange): the
   * next goes when the frame of the last one arrives; anything unexpected (a move made elsewhere,
   * a refusal) drops the rest, and the reader sees the table as it is. */
  sendQueued(frame) {
    if (!this.queue || !this.queue.length || frame.move === this.queueMove) return;
    const next = this.queue.shift();
    if (!(frame.legal || []).includes(next)) {
      this.queue = [];
      return;
    }
    this.queueMove = frame.move;
    this.act(next);
  }

  /** The server refused a move: whatever was queued behind it is dropped now, not sent when the
   * next frame arrives (a refused discard must not let the next one go on its own). */
  refused() {
    this.queue = [];
  }

  /** The score sheet and the hand's history, as the server sent them on request. */
  sheet(data) {
    this.shownSheet = data.lines;
    if (this.frame) this.redraw();
  }

  /** The table is gone (the game ended): its last hand and result over the last state. */
  closed(lines) {
    this.ended = [this.t("The game is over."), "", ...lines];
    if (this.frame) this.redraw();
  }

  redraw() {
    this.draw(this.frame, this.game, this.strings, this.receivedAt, null);
  }

  topBar(frame, view, names) {
    const scores = this.game.scores(view, names, this.t.bind(this));
    const status = this.game.status(view, this.t.bind(this));
    return h("header", { class: "top" },
      status ? h("div", { class: "status" }, status) : null,
      h("div", { class: "title" }, frame.title,
        h("span", { class: "hand-no" }, ` · #${view.hand_number ?? ""}`)),
      h("div", { class: "scores" }, scores.map(([label, value]) =>
        h("span", { class: "score" }, h("b", {}, label), h("span", {}, value)))),
      h("div", { class: "tools" },
        h("button", { class: "tool", "data-tool": "last", disabled: !view.last_trick,
          onclick: () => { this.showLast = !this.showLast; this.redraw(); } },
          this.t("Last trick")),
        h("button", { class: "tool", "data-tool": "sheet", onclick: () => this.ask("sheet") },
          this.t("Score sheet")),
        h("button", { class: "tool", "data-tool": "info",
          onclick: () => this.ask("info") }, "i")));
  }

  felt(frame, view, names) {
    const players = view.players || frame.seats.length;
    const me = frame.seat ?? 0;
    const felt = h("section", { class: "felt" });
    for (const seat of frame.seats) {
      if (seat.seat === frame.seat) continue; // the reader's own badge sits by his hand
      const a = angleOf(seat.seat, me, players);
      const [sx, sy] = this.game.seatSpread || [32, 40];
      const style = `left:${50 + sx * Math.cos(a)}%;top:${50 + sy * Math.sin(a)}%`;
      felt.append(this.seatBadge(frame, view, seat, style));
    }
    const centre = this.game.centre(view);
    const [rx, ry] = this.game.trickSpread || [17, 19];
    const middle = h("div", { class: `trick${centre.done ? " done" : ""}` });
    centre.cards.forEach((played, order) => {
      const a = angleOf(played.seat, me, players);
      const style = `left:${50 + rx * Math.cos(a)}%;top:${50 + ry * Math.sin(a)}%;z-index:${order + 1}`;
      const win = centre.winner === played.seat;
      middle.append(h("div", { class: `card played${win ? " winner" : ""}`, style,
        "data-card": played.card, "data-seat": played.seat }, cardSvg(played.card, this.game.face)));
    });
    felt.append(middle);
    const layout = this.game.layout(view, frame, this.tools());
    if (layout) felt.append(layout);
    return felt;
  }

  seatBadge(frame, view, seat, style) {
    const toAct = frame.to_act.includes(seat.seat);
    const lines = this.game.seatLines(view, seat.seat, this.t.bind(this), frame);
    const held = (view.hand_sizes || [])[seat.seat];
    const marks = [];
    if (seat.ai) marks.push(h("span", { class: "mark ai" }, this.t("AI")));
    if (seat.away) marks.push(h("span", { class: "mark away" }, this.t("Away")));
    if (view.dealer === seat.seat) marks.push(h("span", { class: "mark dealer" }, "D"));
    if (this.here && seat.user && this.here.has(seat.user)) {
      marks.push(h("span", { class: "mark here", title: this.t("In this Activity") }, "●"));
    }
    const deadline = frame.deadlines[String(seat.seat)];
    return h("div", { class: `seat${toAct ? " to-act" : ""}${seat.you ? " you" : ""}`,
      style, "data-seat": seat.seat },
      h("div", { class: "name" }, seat.name, ...marks),
      h("div", { class: "lines" }, lines.map((line) => h("span", {}, line))),
      held !== undefined ? h("div", { class: "held", title: this.t("Cards") },
        h("span", { class: "mini-back" }), ` ${held}`) : null,
      deadline ? h("div", { class: "clock", "data-deadline": deadline }) : null);
  }

  bottom(frame, view) {
    const bottom = h("section", { class: "mine" });
    const legal = frame.legal || [];
    const byCard = this.byCard;
    const other = this.otherMoves;
    // The reader's own line: whose turn, his marks, his clock.
    const mine = frame.seats.find((s) => s.seat === frame.seat);
    let turn;
    if (frame.seat === null) turn = this.t("Watching");
    else if (legal.length) turn = this.t("Your turn");
    else {
      const waiting = frame.to_act.map((s) => frame.seats[s]?.name ?? "").join(", ");
      turn = waiting ? this.t("Waiting for {names}", { names: waiting }) : "";
    }
    const myDeadline = frame.seat !== null ? frame.deadlines[String(frame.seat)] : null;
    const lines = mine ? this.game.seatLines(view, mine.seat, this.t.bind(this), frame) : [];
    bottom.append(h("div", { class: `turn${legal.length ? " mine-now" : ""}`,
      "data-seat": frame.seat ?? "" },
      h("span", { class: "who" }, mine ? mine.name : ""),
      h("span", { class: "lines" }, lines.join(" · ")),
      h("span", { class: "what" }, turn),
      myDeadline ? h("span", { class: "clock", "data-deadline": myDeadline }) : null));
    const hand0 = this.game.hand(view);
    const pickedCards = [...(this.picked || [])].sort((a, b) => a - b).map((i) => hand0[i]);
    const panel = this.game.panel(view, frame, this.tools());
    if (panel) bottom.append(panel);
    const extra = this.game.pickedMoves(view, pickedCards, legal, this.tools());
    if (extra.length) {
      bottom.append(h("div", { class: "moves picked-moves", role: "group" }, extra.map((m) =>
        h("button", { class: "move primary", "data-action": m.action || null,
          "data-tool": m.tool || null,
          onclick: () => (m.action ? this.act(m.action) : m.run(this)) }, m.label))));
    }
    if (other.length) {
      bottom.append(h("div", { class: "moves", role: "group" }, other.map((action) =>
        h("button", { class: "move", "data-action": action,
          onclick: () => this.act(action) }, frame.labels[action] || action))));
    }
    const hand = this.game.hand(view);
    if (hand.length) bottom.append(this.fan(hand, byCard));
    return bottom;
  }

  fan(hand, byCard) {
    // Laid out here rather than in CSS: the overlap depends on the width and the card count.
    const width = Math.min(this.root.clientWidth || window.innerWidth, 1100) - 16;
    // A short frame (Discord's desktop Activity is ~640 px high) takes smaller cards.
    const wide = window.innerHeight < 700 ? 72 : 92;
    const cardW = width >= 780 ? wide : Math.min(width * 0.2, 80);
    const n = hand.length;
    const step = n > 1 ? Math.min(cardW * (width >= 780 ? 0.66 : 0.74), (width - cardW) / (n - 1)) : 0;
    const start = (width - (step * (n - 1) + cardW)) / 2;
    const fan = h("div", { class: "hand", style: `height:${Math.round(cardW * 1.4 + 30)}px` });
    const choosing = byCard.size > 0;
    // A game whose moves take several cards the player picks lets him pick them by tap.
    const picking = this.game.picking(this.frame.view, this.frame.legal || []);
    const key = hand.join(" ");
    if (key !== this.pickedHand) {
      this.picked = new Set();
      this.pickedHand = key;
    }
    const fresh = new Set(this.game.fresh(this.frame.view));
    hand.forEach((card, i) => {
      const mark = fresh.has(card) ? " fresh" : "";
      if (picking && !this.game.pickable(this.frame.view, card, this.frame.legal || [])) {
        fan.append(h("div", { class: `card dimmed${mark}`,
          style: `left:${start + step * i}px;width:${cardW}px;--tilt:0deg`, "data-card": card },
          cardSvg(card, this.game.face)));
        return;
      }
      if (picking) {
        const on = this.picked.has(i);
        fan.append(h("button", { class: `card pick${on ? " picked" : ""}${mark}`,
          style: `left:${start + step * i}px;width:${cardW}px;--tilt:0deg`, "data-card": card,
          "aria-pressed": on ? "true" : "false",
          onclick: () => { on ? this.picked.delete(i) : this.picked.add(i); this.redraw(); } },
          cardSvg(card, this.game.face)));
        return;
      }
      const action = byCard.get(card);
      const cls = `card${action ? " playable" : choosing ? " dimmed" : ""}${mark}`;
      const tilt = n > 1 ? ((i - (n - 1) / 2) * 12) / n : 0;
      const style = `left:${start + step * i}px;width:${cardW}px;--tilt:${tilt.toFixed(2)}deg`;
      const node = h(action ? "button" : "div", { class: cls, style,
        "data-card": card, "data-action": action || null,
        onclick: action ? () => this.act(action) : null }, cardSvg(card, this.game.face));
      if (action) draggable(node, () => this.root.querySelector(".felt"), () => this.act(action));
      fan.append(node);
    });
    return fan;
  }

  /** What a game's module draws with: cards that play when tapped, backs, elements. */
  tools() {
    return {
      h,
      card: (code, cls = "") => {
        const action = this.byCard.get(code);
        const node = h(action ? "button" : "div", {
          class: `card ${cls}${action ? " playable" : this.byCard.size && !cls.includes("shown") ? " dimmed" : ""}`,
          "data-card": code, "data-action": action || null,
          onclick: action ? () => this.act(action) : null,
        }, cardSvg(code, this.game.face));
        if (action) draggable(node, () => this.root.querySelector(".felt"), () => this.act(action));
        return node;
      },
      back: (cls = "") => h("div", { class: `card back ${cls}` }, backSvg()),
      face: (code, cls = "") => h("div", { class: `card ${cls}`, "data-card": code },
        cardSvg(code, this.game.face)),
      act: (action) => this.act(action),
      // Several moves from one tap: the first now, each next one when the last is committed.
      actAll: (actions) => {
        this.picked = new Set();
        this.queue = actions.slice(1);
        this.queueMove = this.frame.move;
        this.act(actions[0]);
      },
      picked: () => {
        const hand = this.game.hand(this.frame.view);
        return [...(this.picked || [])].sort((a, b) => a - b).map((i) => hand[i]);
      },
      unpick: () => { this.picked = new Set(); this.redraw(); },
      t: this.t.bind(this),
    };
  }

  lastTrick(view, names) {
    const last = view.last_trick;
    return h("div", { class: "overlay", role: "dialog" },
      h("div", { class: "sheet" },
        h("h2", {}, this.t("Last trick")),
        h("div", { class: "row-cards" }, last.cards.map((c) =>
          h("figure", { class: `card${c.seat === last.winner ? " winner" : ""}`,
            "data-seat": c.seat },
            cardSvg(c.card, this.game.face), h("figcaption", {}, names[c.seat] || "")))),
        h("button", { class: "close", onclick: () => { this.showLast = false; this.redraw(); } },
          this.t("Close"))));
  }

  overlay(lines, onClose) {
    return h("div", { class: "overlay", role: "dialog" },
      h("div", { class: "sheet" },
        h("div", { class: "text" }, (lines || []).map((line) =>
          h("p", { class: line.startsWith("  ") ? "indent" : "" }, line.trim()))),
        onClose ? h("button", { class: "close", onclick: () => { onClose(); this.redraw(); } },
          this.t("Close")) : null));
  }

  /** The countdowns: redrawn every half second from the frame's deadlines. */
  tick() {
    clearTimeout(this.timer);
    const clocks = this.root.querySelectorAll("[data-deadline]");
    for (const node of clocks) {
      const left = seconds(Number(node.dataset.deadline), this.frame, this.receivedAt);
      node.textContent = left === null ? "" : `⏳ ${left}s`;
      node.classList.toggle("short", left !== null && left <= 10);
    }
    if (clocks.length) this.timer = setTimeout(() => this.tick(), 500);
  }
}
