// Team: every mailbox with its state (dark, not acknowledging, active, idle, retired), unread
// count, what it owes and what it is working on (claims), from GET /api/v1/team.
import { get } from "./api.js";
import { h, text, nameText, fill, idLink } from "./safe.js";
import { ago } from "./fmt.js";

export function concerns() {
  return true; // every kind of event can change a count or a state
}

export async function render(panel) {
  const team = await get("team");
  const rows = (team.mailboxes || []).map((m) => {
    const state = String(m.state || "");
    const claims = (m.claims || []).map((c) => String((c && c.id) || ""));
    return h("tr", { "data-mailbox-row": "" },
      h("th", { scope: "row" }, idLink(nameText(m.mailbox), "mailbox", m.mailbox, "in")),
      h("td", {}, h("span", { class: `state state-${state.replace(/[^a-z_]/g, "")}` }, text(state))),
      h("td", { class: "num" }, text(m.unread ?? 0)),
      h("td", { class: "num" }, text(m.owed_count ?? 0)),
      h("td", { class: "num hide-narrow" }, text(m.overdue_count ?? 0)),
      h("td", { class: "num hide-narrow" }, text(m.set_aside_count ?? 0)),
      h("td", {}, claims.length ? claims.map((id) => idLink(id, "message", m.mailbox, id)) : h("span", { class: "muted" }, "—")),
      h("td", { class: "hide-narrow" }, text(ago(m.last_seen_at))),
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
          h("th", { scope: "col" }, "Working on"), h("th", { scope: "col", class: "hide-narrow" }, "Last seen"))),
        h("tbody", {}, rows))),
    h("p", { class: "hint" },
      "Dark: not seen for the presence window. Not acknowledging: mail past its acknowledgement deadline."),
  );
}
