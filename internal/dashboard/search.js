// Search: GET search?q=&mailbox=NAME|* (the CLI's limits; a 5 s deadline on the server), best
// match first, each with the snippet of its body that shows the match (the API's "snippet").
// The query and scope live in the form; the results are redrawn on submit only.
import { get, query } from "./api.js";
import { h, text, nameText, clean, fill, idLink } from "./safe.js";
import { ago } from "./fmt.js";

let form = null;

export function concerns() {
  return false; // a search is run when asked, not on every change
}

export async function render(panel) {
  if (form && panel.contains(form)) return;
  const q = h("input", { type: "search", id: "search-q", name: "q", required: true, "aria-label": "Search for" });
  const scope = h("select", { id: "search-mailbox", "aria-label": "In mailbox" });
  const names = ["*"];
  scope.append(h("option", {}, "every mailbox"));
  try {
    const doc = await get("mailboxes");
    for (const m of doc.agents || doc.mailboxes || []) {
      const n = String(typeof m === "string" ? m : m.mailbox ?? m.name ?? "");
      if (!n) continue;
      names.push(n);
      const option = h("option", { class: "u" });
      option.textContent = clean(n); // the index names the mailbox
      scope.append(option);
    }
  } catch {
    // every mailbox only
  }
  const results = h("div", { id: "search-results" });
  form = h("form", { class: "toolbar", role: "search" }, q, scope, h("button", { type: "submit", class: "primary" }, "Search"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const mailbox = names[scope.selectedIndex] ?? "*";
    fill(results, h("p", { class: "muted" }, "Searching…"));
    try {
      const doc = await get(`search${query({ q: q.value, mailbox })}`);
      const rows = (doc.messages || []).map((m) => h("tr", {},
        h("td", {}, idLink(m.subject || "(no subject)", "message", mailbox === "*" ? (m.to || [])[0] || m.from : mailbox, m.id),
          m.snippet ? h("div", { class: "snippet" }, text(m.snippet)) : null),
        h("td", {}, nameText(m.from)),
        h("td", { class: "hide-narrow" }, nameText(m.to || [])),
        h("td", {}, text(ago(m.created_at)))));
      fill(results,
        h("p", { class: "muted" }, text(`${doc.total ?? rows.length} match(es)${doc.has_more ? ", more not shown" : ""}`)),
        h("div", { class: "scroll" }, h("table", { id: "search-table" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Subject"), h("th", { scope: "col" }, "From"),
            h("th", { scope: "col", class: "hide-narrow" }, "To"), h("th", { scope: "col" }, "When"))),
          h("tbody", {}, rows))));
    } catch (err) {
      fill(results, h("p", { class: "error" }, text(err.message)));
    }
  });
  fill(panel, h("h2", {}, "Search"), form, results);
  q.focus();
}
