// Team: every mailbox with its state (dark, not acknowledging, active, idle, retired), unread
// count, what it owes, what it is working on (its claims: the message's subject, who holds it and
// the lease left) and, where the server reports wakes (`wake: {target, last_at, outcome}`), its
// wake target and last wake (marked a failure when `wake_failed`), from GET /api/v1/team.
import { get } from "./api.js";
import { h, text, nameText, fill, idLink } from "./safe.js";
import { ago, span } from "./fmt.js";

export function concerns() {
  return true; // every kind of event can change a count or a state
}

// A lease as the CLI writes a duration, to the second ("4m12s").
export function leaseLeft(ms) {
  return `${span(Math.max(0, Math.floor(Number(ms ?? 0) / 1000) * 1000))} left`;
}

function workingOn(m) {
  const claims = (m.claims || []).filter((c) => c && c.id);
  if (claims.length === 0) return h("span", { class: "muted" }, "—");
  return claims.map((c) => h("div", { class: "claim" },
    idLink(c.subject || c.id, "message", m.mailbox, c.id),
    h("span", { class: "muted" }, " lease ", text(leaseLeft(c.lease_left_ms)),
      h("span", { class: "hide-narrow" }, ", held by ", text(c.claimed_by)))));
}

function wakeCell(w) {
  if (!w || !w.target) return h("span", { class: "muted" }, "—");
  const last = w.last_at ? [" ", text(w.outcome || "?"), " ", text(ago(w.last_at))] : [" ", h("span", { class: "muted" }, "never woken")];
  return [text(w.target), ...last];
}

export async function render(panel) {
  const team = await get("team");
  const members = team.mailboxes || [];
  // The wake column shows once the server reports wakes at all.
  const wakes = members.some((m) => Object.prototype.hasOwnProperty.call(m, "wake"));
  const rows = members.map((m) => {
    const state = String(m.state || "");
    return h("tr", { "data-mailbox-row": "" },
      h("th", { scope: "row" }, idLink(nameText(m.mailbox), "mailbox", m.mailbox, "in")),
      h("td", {}, h("span", { class: `state state-${state.replace(/[^a-z_]/g, "")}` }, text(state))),
      h("td", { class: "num" }, text(m.unread ?? 0)),
      h("td", { class: "num" }, text(m.owed_count ?? 0)),
      h("td", { class: "num hide-narrow" }, text(m.overdue_count ?? 0)),
      h("td", { class: "num hide-narrow" }, text(m.set_aside_count ?? 0)),
      h("td", { class: "working" }, workingOn(m)),
      wakes ? h("td", { class: m.wake_failed ? "hide-narrow wake wake-failed" : "hide-narrow wake" }, wakeCell(m.wake)) : null,
      h("td", { class: "seen" }, text(ago(m.last_seen_at))),
    );
  });
  fill(panel,
    h("h2", {}, "Team"),
    h("div", { class: "scroll" },
      h("table", { id: "team-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "Mailbox"), h("th", { scope: "col" }, "State"),
          h("th", { scope: "col", class: "num" }, "Unread"), h("th", { scope: "col", class: "num" }, "Owes"),
          h("th", { scope: "col", class: "num hide-narrow" }, "Overdue"),
          h("th", { scope: "col", class: "num hide-narrow" }, "Set aside"),
          h("th", { scope: "col" }, "Working on"),
          wakes ? h("th", { scope: "col", class: "hide-narrow" }, "Wake") : null,
          h("th", { scope: "col", class: "seen" }, "Last seen"))),
        h("tbody", {}, rows))),
    h("p", { class: "hint" },
      "Dark: not seen for the presence window. Not acknowledging: mail past its acknowledgement deadline. " +
      "Working on: the messages a watcher holds for it now, with the time left on each lease."),
  );
}
