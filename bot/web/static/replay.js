// The replay viewer: one finished game, step by step. The server computes every step from the
// game's record (every seat's view, the move's caption, the score sheet: /r/<token>/step/<k>);
// the page draws it with the table page's Table, every hand face up, and holds no rules.

import { cardSvg } from "./cards.js";
import { generic } from "./generic.js";
import { loadGame } from "./loader.js";
import { Table } from "./table.js";

const token = location.pathname.split("/").pop();
const asked = new URLSearchParams(location.search).get("lang") || navigator.language || "en";
const root = document.getElementById("table");
const side = document.getElementById("viewer");

const cache = new Map(); // step number -> step (a finished game's steps never change)
let current = null; // the step shown
let wanted = 0; // the step asked for last (a quick series of presses shows the last one)
let viewer = 0; // whose hand is fanned at the bottom
let game = generic;
let strings = {};
const table = new Table(root, () => {}, ask);

function t(key, params = {}) {
  const text = strings[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? params[name] : `{${name}}`));
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The table's tools ask for more: the score sheet, or the table as told (here: the move). */
function ask(kind) {
  if (!current) return;
  const lines = kind === "sheet" ? current.sheet : [...captionLines(current), ...current.summary];
  table.sheet({ lines });
}

function captionLines(step) {
  if (!step.move) return [t("As dealt")];
  return step.caption.length ? step.caption : [step.label || step.move.action];
}

async function fetchStep(k) {
  if (cache.has(k)) return cache.get(k);
  const response = await fetch(`/r/${token}/step/${k}?lang=${encodeURIComponent(asked)}`);
  const data = await response.json();
  if (!response.ok) throw Object.assign(new Error(data.message || response.statusText),
    { status: response.status });
  cache.set(k, data);
  return data;
}

async function go(k) {
  const total = current ? current.total : 0;
  k = Math.max(0, current ? Math.min(k, total) : k);
  wanted = k;
  let step;
  try {
    step = await fetchStep(k);
  } catch (error) {
    // Too many steps at once (a held key): stay on the step shown; the next press asks again.
    if (error.status === 429 && current) return;
    fail(error.message);
    return;
  }
  if (k !== wanted) return; // a later press won
  strings = step.strings || strings;
  if (step.lang) document.documentElement.lang = step.lang;
  game = await loadGame(step.game);
  current = step;
  document.title = `${step.title} #${step.id ?? ""}`;
  show();
}

function fail(message) {
  root.replaceChildren(h("div", { class: "waiting viewer-error", role: "alert" }, message));
  side.replaceChildren();
}

function show() {
  const step = current;
  const seats = step.seats.map((s) => ({ ...s, you: s.seat === viewer }));
  table.draw({
    seq: step.step, move: step.step, now: 0, game: step.game, title: step.title,
    status: "playing", seat: viewer, seats, to_act: step.to_act, deadlines: {},
    window_deadline: null, view: step.views[viewer], legal: [], labels: {}, summary: null,
  }, game, strings, Date.now(), null);
  root.dataset.step = step.step;
  side.replaceChildren(controls(step), caption(step), hands(step), sheet(step));
}

function controls(step) {
  const at = step.step;
  const button = (action, label, title, to, off) => h("button", { class: "step",
    "data-action": action, title, "aria-label": title, disabled: off, onclick: () => go(to) },
    label);
  const slider = h("input", { type: "range", min: 0, max: step.total, value: at,
    "data-action": "seek", "aria-label": t("Move {k} of {n}", { k: at, n: step.total }),
    onchange: (event) => go(Number(event.target.value)) });
  return h("nav", { class: "controls", role: "group" },
    button("first", "|◀", t("First"), 0, at === 0),
    button("back", "◀", t("Back"), at - 1, at === 0),
    button("forward", "▶", t("Forward"), at + 1, at === step.total),
    button("last", "▶|", t("Last"), step.total, at === step.total),
    slider,
    h("span", { class: "counter", "data-step": at },
      t("Move {k} of {n}", { k: at, n: step.total })));
}

function caption(step) {
  const who = step.move ? step.seats[step.move.seat]?.name : null;
  return h("section", { class: "caption", "aria-live": "polite",
    "data-seat": step.move ? step.move.seat : null, "data-move": step.move?.action ?? null },
    who && !step.caption.length ? h("span", { class: "who" }, `${who}: `) : null,
    captionLines(step).map((line) => h("p", {}, line)),
    step.summary.map((line) => h("p", { class: "end" }, line.trim())),
    step.over ? h("p", { class: "end" }, t("The game is over.")) : null);
}

function hands(step) {
  return h("section", { class: "hands" }, h("h2", {}, t("Cards in hand")),
    step.seats.map((seat) => {
      const held = game.hand(step.views[seat.seat]);
      const cls = `open-hand${seat.seat === viewer ? " shown" : ""}` +
        `${step.to_act.includes(seat.seat) ? " to-act" : ""}`;
      return h("div", { class: cls, "data-seat": seat.seat },
        h("button", { class: "who", "data-action": "show-seat", "data-seat": seat.seat,
          onclick: () => { viewer = seat.seat; show(); } }, seat.name),
        h("div", { class: "cards" }, held.map((card) =>
          h("div", { class: "card", "data-card": card, "data-seat": seat.seat },
            cardSvg(card, game.face)))));
    }));
}

function sheet(step) {
  return h("section", { class: "side-sheet" }, h("h2", {}, t("Score sheet")),
    step.sheet.map((line) => h("p", { class: line.startsWith("  ") ? "indent" : "" },
      line.trim())));
}

document.addEventListener("keydown", (event) => {
  if (!current || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target instanceof HTMLInputElement) return; // the slider has its own arrows
  const moves = { ArrowLeft: current.step - 1, ArrowRight: current.step + 1, Home: 0,
    End: current.total };
  if (event.key in moves) {
    event.preventDefault();
    go(moves[event.key]);
  }
});

root.replaceChildren(h("div", { class: "waiting" }, "…"));
go(Number(new URLSearchParams(location.search).get("step")) || 0);
