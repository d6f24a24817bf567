// Health: the sender × recipient matrix of delivery health (GET peers, the `peers --all` shape:
// {stale_count, pairs: [{sender, recipient, pending_count, oldest_pending_age_ms, escalated_count,
// failed_count, stale, last_sent_at, last_acked_at}]}), with stale pairs and dark recipients
// (the team's states, GET team) highlighted. A narrow window cannot hold the matrix: there the same
// pairs are a list, stale first, whose Stale column always shows.
import { get, query } from "./api.js";
import { h, text, nameText, fill, idLink } from "./safe.js";
import { ago, duration } from "./fmt.js";

export function concerns() {
  return true;
}

function cell(pair, dark) {
  if (!pair) return h("td", { class: "muted" }, "·");
  const classes = [pair.stale ? "stale" : "", dark ? "dark" : ""].filter(Boolean).join(" ");
  const lines = [`${pair.pending_count ?? 0} pending`];
  if (pair.oldest_pending_age_ms) lines.push(`oldest ${duration(pair.oldest_pending_age_ms)}`);
  if (pair.escalated_count) lines.push(`${pair.escalated_count} escalated`);
  if (pair.failed_count) lines.push(`${pair.failed_count} failed`);
  if (pair.stale) lines.push("stale");
  lines.push(`sent ${ago(pair.last_sent_at)}`);
  if (pair.last_acked_at) lines.push(`acked ${ago(pair.last_acked_at)}`);
  return h("td", { class: classes }, lines.map((l) => h("div", {}, text(l))));
}

// GET peers (every pair); where the server answers 501 (no `peers --all` yet), the same pairs from
// each mailbox's own `peers` (GET peers?mailbox=NAME: its channel to each peer, as sender).
async function loadPairs(team) {
  try {
    return await get("peers");
  } catch (err) {
    if (err.status !== 501) throw err;
  }
  const names = (team.mailboxes || []).map((m) => m.mailbox);
  const docs = await Promise.all(names.map((n) => get(`peers${query({ mailbox: n })}`)));
  const pairs = [];
  let stale = 0;
  docs.forEach((doc, i) => {
    for (const p of doc.peers || []) {
      if (!p.last_sent_at && !p.pending_count) continue; // nothing sent on this channel
      pairs.push({ ...p, sender: names[i], recipient: p.peer });
      if (p.stale) stale++;
    }
  });
  return { stale_count: stale, pairs };
}

// The pairs as rows (shown instead of the matrix in a narrow window), stale first.
function pairList(pairs, isDark) {
  const sorted = pairs.slice().sort((a, b) => Number(!!b.stale) - Number(!!a.stale) ||
    String(a.sender).localeCompare(String(b.sender)) || String(a.recipient).localeCompare(String(b.recipient)));
  const rows = sorted.map((p) => h("tr", { class: p.stale ? "stale" : "" },
    h("td", {}, nameText(p.sender), " → ", nameText(p.recipient),
      isDark(p.recipient) ? [" ", h("span", { class: "state state-dark" }, "dark")] : null),
    h("td", { class: "num" }, text(p.pending_count ?? 0)),
    h("td", {}, text(p.stale ? "stale" : "no")),
    h("td", {}, text(p.oldest_pending_age_ms ? duration(p.oldest_pending_age_ms) : "-"))));
  return h("div", { class: "scroll narrow-only" }, h("table", { id: "health-pairs" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Sender → recipient"),
      h("th", { scope: "col", class: "num" }, "Pending"), h("th", { scope: "col" }, "Stale"),
      h("th", { scope: "col" }, "Oldest"))),
    h("tbody", {}, rows)));
}

export async function render(panel) {
  const team = await get("team"); // an error, never an empty team: no state is an all-clear
  const peers = await loadPairs(team);
  const states = new Map((team.mailboxes || []).map((m) => [m.mailbox, m.state]));
  const pairs = peers.pairs || [];
  const senders = [...new Set(pairs.map((p) => p.sender))].sort();
  const recipients = [...new Set(pairs.map((p) => p.recipient))].sort();
  const at = new Map(pairs.map((p) => [`${p.sender}\u0000${p.recipient}`, p]));
  const isDark = (n) => states.get(n) === "dark";
  const head = h("tr", {}, h("th", { scope: "col" }, "sender ↓ / recipient →"),
    recipients.map((r) => h("th", { scope: "col", class: isDark(r) ? "dark" : "" },
      idLink(nameText(r), "mailbox", r, "in"), isDark(r) ? h("div", { class: "state state-dark" }, "dark") : null)));
  const rows = senders.map((s) => h("tr", {},
    h("th", { scope: "row", class: isDark(s) ? "dark" : "" }, idLink(nameText(s), "mailbox", s, "out"),
      isDark(s) ? h("div", { class: "state state-dark" }, "dark") : null),
    recipients.map((r) => cell(at.get(`${s}\u0000${r}`), isDark(r)))));
  const darkNames = [...states].filter(([, st]) => st === "dark").map(([n]) => n);
  fill(panel,
    h("h2", {}, "Health"),
    h("p", { id: "health-summary" }, text(`${peers.stale_count ?? 0} stale pair(s)`),
      darkNames.length ? [", dark: ", text(darkNames.join(", "))] : ", no dark mailbox"),
    h("div", { class: "scroll wide-only" }, h("table", { class: "matrix", id: "health-matrix" },
      h("thead", {}, head), h("tbody", {}, rows))),
    pairList(pairs, isDark),
    pairs.length ? null : h("p", { class: "muted" }, "No mail has been sent yet."),
    h("p", { class: "hint" }, "Stale: mail pending past the stale window. Dark: a mailbox not seen for the presence window."));
}
