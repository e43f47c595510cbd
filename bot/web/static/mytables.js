// The player's tables in this server (GET /t/<token>/tables, as /mytables lists them): a folded
// list under the table, his turns first, each deadline said in his time and language, each
// table's name a link to its Discord channel. Looked at again every minute; nothing shown when
// he sits at this table only. Standalone: it reads the token from the page's address (a link's
// /t/<token>, under a proxy's /s/<shard>/ too; inside Discord's Activity there is none).
const REFRESH_MS = 60_000;
const parts = location.pathname.split("/");
const token = parts.length >= 2 && parts[parts.length - 2] === "t" ? parts[parts.length - 1] : "";

function relative(format, epoch) {
  const seconds = epoch - Date.now() / 1000;
  const size = Math.abs(seconds);
  if (size < 3600) return format.format(Math.round(seconds / 60), "minute");
  if (size < 2 * 86400) return format.format(Math.round(seconds / 3600), "hour");
  return format.format(Math.round(seconds / 86400), "day");
}

function render(data) {
  const old = document.getElementById("mytables");
  const open = old ? old.querySelector("details").open : false;
  if (old) old.remove();
  if (data.tables.length < 2) return; // this table alone: the page shows it already
  const format = new Intl.RelativeTimeFormat(data.language || undefined, { numeric: "auto" });
  const section = document.createElement("section");
  section.id = "mytables";
  const details = document.createElement("details");
  details.open = open;
  const summary = document.createElement("summary");
  const waiting = data.tables.filter((t) => t.yours).length;
  summary.textContent = waiting ? `${data.title} (${waiting} ▶)` : data.title;
  details.append(summary);
  const list = document.createElement("ul");
  for (const table of data.tables) {
    const item = document.createElement("li");
    if (table.yours) item.className = "yours";
    if (table.here) item.classList.add("here");
    const name = document.createElement(table.link && !table.here ? "a" : "strong");
    if (name.tagName === "A") {
      name.href = table.link;
      name.target = "_blank";
      name.rel = "noopener noreferrer";
    }
    name.textContent = table.name;
    item.append(name, ` · ${table.yours ? "▶ " : ""}${table.state}`);
    if (table.deadline) item.append(` · ⏳ ${relative(format, table.deadline)}`);
    list.append(item);
  }
  if (data.more) {
    const item = document.createElement("li");
    item.textContent = data.more;
    list.append(item);
  }
  details.append(list);
  section.append(details);
  document.body.append(section);
}

async function load() {
  try {
    const answer = await fetch(`${encodeURIComponent(token)}/tables${location.search}`, {
      cache: "no-store",
    });
    if (answer.ok) render(await answer.json());
  } catch (error) {
    // (offline a moment: the next look brings it back)
  }
}

if (token) {
  load();
  setInterval(load, REFRESH_MS);
}
