// Traces: the traces started most recently (GET traces?limit=, as `trace --recent`), and a trace
// (GET traces/{id}) as a tree by parent span, each message with its recipients' state
// (GET status/{id}: read, ack, request state, and a watcher's claim, attempts and set-aside) and its
// time after the trace began and after its parent.
import { get, path, query } from "./api.js";
import { h, text, nameText, fill, idLink, idHref } from "./safe.js";
import { ago, duration, stamp } from "./fmt.js";
import { watchWords } from "./message.js";

const RECENT = 50;
const STATUS_LOOKUPS = 100; // a trace's first messages get their recipients' state

export function concerns(evt) {
  return evt.type !== "peer.state";
}

export async function render(panel, route) {
  if (route[0] === "trace" && route[1]) return renderTrace(panel, route[1]);
  const doc = await get(`traces${query({ limit: RECENT })}`);
  const rows = (doc.traces || []).map((t) => h("tr", {},
    h("td", {}, idLink(t.subject || "(no subject)", "trace", t.trace_id)),
    h("td", {}, nameText(t.from)),
    h("td", { class: "num" }, text(t.message_count ?? "")),
    h("td", { class: "num hide-narrow" }, text(t.open_requests ?? "")),
    h("td", {}, text(ago(t.started_at))),
    h("td", { class: "hide-narrow" }, text(ago(t.last_at)))));
  fill(panel,
    h("h2", {}, "Traces"),
    h("div", { class: "scroll" }, h("table", { id: "trace-list" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Started by"), h("th", { scope: "col" }, "From"),
        h("th", { scope: "col", class: "num" }, "Messages"), h("th", { scope: "col", class: "num hide-narrow" }, "Open"),
        h("th", { scope: "col" }, "Started"), h("th", { scope: "col", class: "hide-narrow" }, "Last"))),
      h("tbody", {}, rows))),
    rows.length ? null : h("p", { class: "muted" }, "No traces yet."));
}

function recipientsLine(status) {
  if (!status) return null;
  const parts = (status.recipients || []).map((r) => {
    const words = [r.read_at ? "read" : r.delivered_at ? "unread" : "pending"];
    if (r.ack_state && r.ack_state !== "none") words.push(`ack ${r.ack_state}`);
    if (r.request_state) words.push(`request ${String(r.request_state).replace("_", " ")}`);
    words.push(...watchWords(r));
    if (r.archived_at) words.push("archived");
    return `${r.recipient}: ${words.join(", ")}`;
  });
  return text(parts.join("; "), { className: "muted recipients" });
}

async function renderTrace(panel, id) {
  const doc = await get(`traces/${path(id)}`);
  const messages = doc.messages || [];
  const statuses = await Promise.all(messages.slice(0, STATUS_LOOKUPS)
    .map((m) => get(`status/${path(m.id)}`).catch(() => null)));
  const bySpan = new Map();
  const nodes = messages.map((m, i) => ({ m, status: statuses[i] ?? null, children: [] }));
  for (const n of nodes) if (n.m.span_id) bySpan.set(n.m.span_id, n);
  const roots = [];
  for (const n of nodes) {
    const parent = n.m.parent_span_id ? bySpan.get(n.m.parent_span_id) : null;
    if (parent && parent !== n) parent.children.push(n);
    else roots.push(n);
  }
  const times = messages.map((m) => Date.parse(m.created_at)).filter((t) => !Number.isNaN(t));
  const start = times.length ? Math.min(...times) : 0;
  const item = (n, parentAt) => {
    const at = Date.parse(n.m.created_at);
    const when = [`+${duration(at - start)}`];
    if (parentAt !== null && !Number.isNaN(at)) when.push(`${duration(at - parentAt)} after its parent`);
    const li = h("li", {},
      h("div", {}, idLink(n.m.subject || "(no subject)", "message", (n.m.to || [])[0] || n.m.from, n.m.id),
        " ", text(n.m.from), " → ", text((n.m.to || []).join(", ")), " ",
        h("span", { class: "when" }, text(`${when.join(", ")} (${stamp(n.m.created_at)})`))),
      h("div", {}, recipientsLine(n.status)));
    if (n.children.length) li.append(h("ul", {}, n.children.map((c) => item(c, at))));
    return li;
  };
  fill(panel,
    h("h2", {}, "Trace ", text(doc.trace_id || id)),
    h("p", {}, h("a", { href: idHref("traces") }, "← recent traces")),
    h("ul", { class: "tree", id: "trace-tree" }, roots.map((n) => item(n, null))),
    messages.length ? null : h("p", { class: "muted" }, "No messages in this trace."));
}
