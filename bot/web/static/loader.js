// A game's own web module (bot/render/games/<game>/web/game.js) over the generic one, with its
// styles; the generic table for a game without one. Shared by the table page and the replay.

import { generic } from "./generic.js";

const loaded = new Map();
// Relative to this file: the page loads at / and under Discord's /.proxy/ path alike.
const gamesRoot = new URL("../games/", import.meta.url);

export async function loadGame(name) {
  if (loaded.has(name)) return loaded.get(name);
  let game = generic;
  try {
    const module = await import(new URL(`${encodeURIComponent(name)}/game.js`, gamesRoot).href);
    game = { ...generic, ...module.default };
    if (game.css) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL(`${encodeURIComponent(name)}/game.css`, gamesRoot).href;
      document.head.append(link);
    }
  } catch {
    game = generic;
  }
  loaded.set(name, game);
  return game;
}
