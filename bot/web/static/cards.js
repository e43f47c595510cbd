// Card faces drawn as SVG, for the French-suited codes most games use ("10H", "QS", "JOKER").
// A game whose cards differ gives its own `face(code)` in its web module (see game.js there).

const SVG = "http://www.w3.org/2000/svg";
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);

/** The rank, suit symbol and colour of a standard code; null if it is none. */
export function standardFace(code) {
  const text = String(code).toUpperCase();
  if (text === "JOKER" || text === "JK") return { rank: "★", suit: "", colour: "red", big: "★" };
  const suit = text.slice(-1);
  if (!(suit in SUITS) || text.length < 2) return null;
  const rank = text.slice(0, -1);
  return { rank, suit: SUITS[suit], colour: RED.has(suit) ? "red" : "black", big: SUITS[suit] };
}

function el(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

/** An SVG card face for `code`; `face` is the game's face function (or the standard one). */
export function cardSvg(code, face = standardFace) {
  const f = (code ? face(code) || standardFace(code) : null) || {
    rank: String(code ?? "?"), suit: "", colour: "black", big: "",
  };
  const svg = el("svg", { viewBox: "0 0 100 140", class: `face ${f.colour}`, role: "img" });
  svg.setAttribute("aria-label", `${f.rank}${f.suit}`);
  svg.append(el("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, class: "paper" }));
  const small = f.rank.length > 2 ? 20 : 30;
  svg.append(el("text", { x: 9, y: 32, class: "rank", "font-size": small }, f.rank));
  svg.append(el("text", { x: 10, y: 60, class: "suit", "font-size": 26 }, f.suit));
  const bigSize = f.big.length > 2 ? 28 : 58;
  svg.append(el("text", { x: 58, y: 118, class: "pip", "font-size": bigSize,
    "text-anchor": "middle" }, f.big));
  return svg;
}

/** The back of a card (cards a seat holds face down). */
export function backSvg() {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "face back", "aria-hidden": "true" });
  svg.append(el("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, class: "paper" }));
  svg.append(el("rect", { x: 10, y: 10, width: 80, height: 120, rx: 6, class: "pattern" }));
  return svg;
}
