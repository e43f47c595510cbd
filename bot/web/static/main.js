// The page's life: one websocket to the bot, a whole state in every frame, and a reconnect
// (with the whole state again) whenever the socket drops: a locked phone, a network change.
// Opened by a signed link (/t/<token>), or inside Discord as an Activity (its address carries
// frame_id: activity.js signs in first). Every address is relative to this file.

import { generic } from "./generic.js";
import { loadGame } from "./loader.js";
import { Table } from "./table.js";

const inDiscord = new URLSearchParams(location.search).has("frame_id")
  && document.getElementById("activity") !== null;
let token = inDiscord ? null : location.pathname.split("/").pop();
// Where the bot answers the socket: beside a link's page (/t/<token>: its parent, a proxy's
// /s/<shard>/ prefix kept), or inside Discord the process that holds the table (activity.js).
let serverRoot = new URL("../", location.href).href;
const asked = new URLSearchParams(location.search).get("lang") || navigator.language || "en";
const root = document.getElementById("table");

let socket = null;
let retry = 0;
// Inside Discord: sign in again (activity.js) when the bot no longer knows the session (it
// restarted): sockets refused before they open, twice in a row.
let renew = null;
let unopened = 0;
let frame = null;
let strings = {};
let game = generic;
let banner = null;
let bannerTimer = null;
const table = new Table(root, send, ask, () => { if (inDiscord) seatBar(); });

async function gameModule(name) {
  game = await loadGame(name);
  return game;
}

function show() {
  if (frame) {
    table.draw(frame, game, strings, frame.receivedAt, banner);
  } else root.replaceChildren(Object.assign(document.createElement("div"),
    { className: "waiting", textContent: banner || "…" }));
}

function say(text, seconds = 0) {
  banner = text;
  clearTimeout(bannerTimer);
  if (seconds) bannerTimer = setTimeout(() => { banner = null; show(); }, seconds * 1000);
  show();
}

function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN || !frame) return;
  socket.send(JSON.stringify({ type: "act", action, move: frame.move, seat: frame.seat }));
  root.classList.add("sent"); // until the next frame: no double taps
}

// Inside Discord a watcher takes a seat (or the host starts the lobby's game) from the page,
// by the same service calls as the table message's buttons.
function seatBar() {
  const buttons = [];
  const t = (text) => strings[text] || text;
  if (frame.can_join) buttons.push(["join", t("Take a seat")]);
  if (frame.can_start) buttons.push(["start", t("Start the game")]);
  if (!buttons.length) return;
  root.classList.add("with-seat-bar"); // room below the table: the bar hides nothing
  const bar = document.createElement("nav");
  bar.className = "seat-bar";
  for (const [kind, label] of buttons) {
    const button = document.createElement("button");
    button.dataset.seat = kind;
    button.textContent = label;
    button.addEventListener("click", () => ask(kind));
    bar.append(button);
  }
  root.append(bar);
}

function ask(kind) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: kind }));
}

async function receive(event) {
  let data;
  try {
    data = JSON.parse(event.data);
  } catch {
    return;
  }
  if (data.type === "snapshot" || data.type === "state") {
    if (data.strings) strings = data.strings;
    if (data.lang) document.documentElement.lang = data.lang;
    if (frame && data.seq < frame.seq && data.type === "state") return; // an older frame
    data.receivedAt = Date.now();
    await gameModule(data.game);
    frame = data;
    document.title = data.title;
    if (banner && !bannerTimer) banner = null;
    show();
  } else if (data.type === "sheet") {
    table.sheet(data);
  } else if (data.type === "error") {
    root.classList.remove("sent");
    table.refused();
    say(data.message, 4);
  } else if (data.type === "closed") {
    table.closed(data.lines || []);
    if (!frame) say(strings["The game is over."] || "The game is over.");
  }
}

function connect() {
  if (socket) return;
  const url = new URL(`ws/${token}?lang=${encodeURIComponent(asked)}`, serverRoot);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(url.href);
  let opened = false;
  socket.addEventListener("open", () => { retry = 0; unopened = 0; opened = true; });
  socket.addEventListener("message", receive);
  socket.addEventListener("close", (event) => {
    socket = null;
    if (event.code === 1008) return say(strings["Too many frames: slow down."] || "…");
    if (!opened && renew && ++unopened >= 2) {
      unopened = 0;
      return signInAgain();
    }
    say(strings["Connection lost: reconnecting…"] || "Connection lost: reconnecting…");
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 500 * 2 ** (retry - 1));
  });
}

// A phone that wakes up reconnects at once rather than at the next retry.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !socket && token) connect();
});

async function begin() {
  say("…");
  if (!inDiscord) return connect();
  try {
    const { signIn } = await import("./activity.js");
    ({ session: token, root: serverRoot, renew } = await signIn(
      say, asked, (ids) => table.setHere(ids)));
  } catch (error) {
    root.dataset.refused = "1"; // the page stays as it says: nothing more to try from here
    return say(String(error.message || error));
  }
  connect();
}

async function signInAgain() {
  try {
    ({ session: token, root: serverRoot } = await renew());
  } catch (error) {
    root.dataset.refused = "1";
    return say(String(error.message || error));
  }
  connect();
}

begin();
