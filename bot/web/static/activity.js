// The page as a Discord Activity (its address carries frame_id): the SDK's handshake with
// Discord's client, the sign-in through the bot, and the session the table's websocket opens
// with. The page never names its user or its channel: the bot asks Discord for both.
//
// Every address is relative to this file, so it goes through Discord's proxy whether the page
// was loaded at / or under /.proxy/; the SDK is the vendored bundle beside it (no other origin:
// Discord's content security policy refuses any).

import { DiscordSDK } from "./vendor/discord-sdk.js";

// Discord answers the handshake in well under a second; past this it never will (the page is
// not in Discord's frame, or the client is broken): the page says so instead of waiting.
const READY_SECONDS = 10;
// The first sign-in shows Discord's consent dialog: a person reads it.
const AUTHORIZE_SECONDS = 300;

const words = JSON.parse(document.getElementById("words")?.textContent || "{}");
const config = JSON.parse(document.getElementById("activity")?.textContent || "{}");

export function word(text) {
  return words[text] || text;
}

class Refused extends Error {}

function within(promise, seconds, message) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Refused(message)), seconds * 1000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const REFUSED = "Discord refused this sign-in: close the Activity and open it again.";

async function askToken(root, language, body) {
  const url = new URL(`api/token?lang=${encodeURIComponent(language)}`, root);
  try {
    const reply = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return [reply, await reply.json()];
  } catch {
    throw new Refused(word("Discord did not answer: close the Activity and open it again."));
  }
}

/** Signs in; resolves to the session of the table's websocket, the root its process answers at
 *  and ``renew`` (signs in again: a new session after the bot restarted), or throws an Error
 *  whose message is the page's explanation (in the reader's language). */
export async function signIn(say, language, onParticipants = () => {}) {
  say(word("Waiting for Discord…"));
  let sdk;
  try {
    sdk = new DiscordSDK(config.client_id, { disableConsoleLogOverride: true });
  } catch {
    throw new Refused(word(
      "Discord does not answer: this page works inside Discord's Activity frame only."));
  }
  await within(sdk.ready(), READY_SECONDS, word(
    "Discord does not answer: this page works inside Discord's Activity frame only."));
  // A session lives in the bot process's memory: after a restart the page asks again with the
  // same SDK (authorize with prompt "none": no dialog for an application already allowed).
  const renew = () => session(sdk, language, say, new URL("../", import.meta.url));
  const signed = await renew();
  watchParticipants(sdk, onParticipants);
  return { ...signed, renew };
}

async function session(sdk, language, say, root) {
  say(word("Signing in…"));
  let code;
  try {
    ({ code } = await within(sdk.commands.authorize({
      client_id: config.client_id,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    }), AUTHORIZE_SECONDS, word(REFUSED)));
  } catch (error) {
    throw error instanceof Refused ? error : new Refused(word(REFUSED));
  }
  const body = { code, instance_id: sdk.instanceId };
  let [reply, data] = await askToken(root, language, body);
  if (reply.status === 409 && data && Number.isInteger(data.shard)) {
    // The table's server is another process's (docs/activity.md): ask it, under its path.
    root = new URL(`s/${data.shard}/`, root);
    [reply, data] = await askToken(root, language, body);
  }
  if (!reply.ok || !data || !data.session) throw new Refused(data?.message || word(REFUSED));
  try {
    await within(sdk.commands.authenticate({ access_token: data.access_token }),
      READY_SECONDS, word(REFUSED));
  } catch {
    throw new Refused(word(REFUSED));
  }
  return { session: data.session, root: root.href };
}

// Who is in the Activity (on a voice channel: its participants), when the SDK says: marked on
// their seats. Optional: a client that does not answer leaves the seats unmarked.
function watchParticipants(sdk, onParticipants) {
  const show = (data) => {
    if (data && Array.isArray(data.participants)) {
      onParticipants(new Set(data.participants.map((p) => String(p.id))));
    }
  };
  sdk.commands.getActivityInstanceConnectedParticipants().then(show).catch(() => {});
  sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", show).catch(() => {});
}
