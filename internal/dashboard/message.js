// A message (GET messages/{id}, GET status/{id}) with each recipient's delivery, request state
// (request_state, A2A's task states: docs/request-response.md) and what a watcher did with it (its
// claim: holder and lease left; handler attempts; set aside), the actions its state allows for the
// named mailbox (POST messages/{id}/{read|unread|archive|unarchive|ack} with "for"), a reply form,
// and a thread (GET threads/{id}) oldest first.
import { get, post, path, query } from "./api.js";
import { h, text, nameText, fill, clear, idLink, idHref } from "./safe.js";
import { stamp, priorityName, span } from "./fmt.js";
import { replyForm } from "./compose.js";

// The actions on the named mailbox's delivery, each offered only in the state it changes: one
// read/unread toggle, one archive/unarchive toggle, and Acknowledge while an ack is awaited.
function actionsFor(m) {
  if (m.read === null || m.read === undefined) return []; // not a recipient: nothing to change
  const out = [m.read ? ["unread", "Mark unread"] : ["read", "Mark read"],
    m.archived ? ["unarchive", "Unarchive"] : ["archive", "Archive"]];
  if (m.ack_state === "awaiting_ack" || m.ack_state === "escalated") out.push(["ack", "Acknowledge"]);
  return out;
}

// What a watcher did with one delivery (the status --json recipient), as words: "claimed by
// host:1234, lease 4m12s left", "2 handler attempts", "set aside 2026-12-02 10:00:00".
export function watchWords(r) {
  const words = [];
  if (r.claim) {
    words.push(`claimed by ${r.claim.claimed_by}, lease ${span(Math.max(0, Math.floor((r.claim.lease_left_ms ?? 0) / 1000) * 1000))} left`);
  }
  if (r.handler_attempts) words.push(`${r.handler_attempts} handler attempt${r.handler_attempts === 1 ? "" : "s"}`);
  if (r.set_aside_at) words.push(`set aside ${stamp(r.set_aside_at)}`);
  return words;
}

// The header fields and body of one message, as a card.
export function messageCard(m, name, { heading = "h3" } = {}) {
  const dl = h("dl", {});
  const field = (label, value) => {
    if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) return;
    dl.append(h("dt", {}, label), h("dd", {}, value instanceof Node ? value : text(Array.isArray(value) ? value.join(", ") : value)));
  };
  field("From", m.from);
  field("To", m.to);
  field("Cc", m.cc);
  field("Sent", stamp(m.created_at));
  field("Priority", priorityName(m.priority));
  if (m.type && m.type !== "message") field("Type", m.type);
  field("Id", m.id);
  if (m.reply_to) field("In reply to", idLink(m.reply_to, "message", name, m.reply_to));
  if (m.thread_id) field("Thread", idLink(m.thread_id, "thread", name, m.thread_id));
  if (m.trace_id) field("Trace", idLink(m.trace_id, "trace", m.trace_id));
  if (m.expires_at) field("Expires", stamp(m.expires_at));
  if (m.request_state) field("Request", String(m.request_state).replace("_", " "));
  const body = text(m.body ?? "", { oneLine: false, className: "body" });
  const card = h("article", { class: "message" },
    h(heading, {}, text(m.subject || "(no subject)", { className: "subject" })), dl, body);
  if (m.body_truncated) card.append(h("p", { class: "hint" }, `Cut at ${m.body?.length ?? 0} characters of ${m.body_bytes} bytes.`));
  return card;
}

// Each recipient's delivery state (the status --json shape).
function recipientsTable(status) {
  const rows = (status.recipients || []).map((r) => h("tr", {},
    h("th", { scope: "row" }, nameText(r.recipient)),
    h("td", {}, text(r.read_at ? `read ${stamp(r.read_at)}` : r.delivered_at ? "unread" : "pending")),
    h("td", {}, text(r.ack_state ?? "")),
    h("td", {}, text(r.request_state ? String(r.request_state).replace("_", " ") : "")),
    h("td", { class: "watch" }, watchWords(r).map((w) => h("div", {}, text(w)))),
    h("td", { class: "hide-narrow" }, text(r.archived_at ? `archived ${stamp(r.archived_at)}` : "")),
    h("td", { class: "hide-narrow" }, text(r.acted_by ? `by ${r.acted_by}` : ""))));
  return h("div", { class: "scroll" }, h("table", { id: "recipients" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Recipient"), h("th", { scope: "col" }, "Read"),
      h("th", { scope: "col" }, "Ack"), h("th", { scope: "col" }, "Request"), h("th", { scope: "col" }, "Watch"),
      h("th", { scope: "col", class: "hide-narrow" }, "Archived"), h("th", { scope: "col", class: "hide-narrow" }, "Acted by"))),
    h("tbody", {}, rows)));
}

export async function renderMessage(container, name, id) {
  // The reply form and the result line stay while a live update redraws the message.
  if (container.mailroomView !== `message:${name}:${id}`) {
    clear(container);
    container.mailroomView = `message:${name}:${id}`;
    container.view = h("div", {});
    container.result = h("p", { id: "action-result", role: "status" });
    container.replySlot = h("div", {});
    container.append(container.view, container.result, container.replySlot);
    container.replySlot.append(replyForm(id, { onDone: (r) => { container.result.textContent = r; } }));
  }
  const [doc, status] = await Promise.all([get(`messages/${path(id)}${query({ mailbox: name })}`),
    get(`status/${path(id)}`).catch(() => null)]);
  const m = doc.message || doc;
  const actions = h("div", { class: "toolbar", role: "group", "aria-label": "Actions" });
  const offered = actionsFor(m);
  for (const [action, label] of offered) {
    const button = h("button", { type: "button", "data-action": action }, label);
    button.addEventListener("click", () => act(container, name, m.id, action));
    actions.append(button);
  }
  if (offered.length) actions.append(h("span", { class: "muted" }, "acting for "), text(name));
  else actions.append(h("span", { class: "muted" }, text(name), " is not a recipient: nothing to change here"));
  fill(container.view,
    h("p", {}, h("a", { href: idHref("mailbox", name, "in") }, "← back to the mailbox")),
    messageCard(m, name, { heading: "h3" }),
    actions,
    status ? recipientsTable(status) : null);
}

async function act(container, name, id, action) {
  try {
    const r = await post(`messages/${path(id)}/${action}`, { for: name });
    const already = (r.already || []).length > 0;
    container.result.textContent = already ? `Already ${action === "ack" ? "acknowledged" : action}.` : `Done: ${action}.`;
  } catch (err) {
    fill(container.result, "Failed: ", text(err.message));
  }
  await renderMessage(container, name, id).catch(() => {});
}

export async function renderThread(container, name, threadId) {
  container.mailroomView = `thread:${name}:${threadId}`;
  const doc = await get(`threads/${path(threadId)}${query({ mailbox: name })}`);
  const cards = (doc.messages || []).map((m) => {
    const card = messageCard(m, name, { heading: "h3" });
    card.append(h("p", {}, idLink("Open", "message", name, m.id)));
    return card;
  });
  fill(container,
    h("p", {}, h("a", { href: idHref("mailbox", name, "in") }, "← back to the mailbox")),
    h("h3", {}, "Thread ", text(threadId)),
    cards.length ? cards : h("p", { class: "muted" }, "No messages in this thread."));
}
