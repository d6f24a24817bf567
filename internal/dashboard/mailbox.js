// Mailbox: pick a mailbox (GET mailboxes), tabs In / Out / All (GET mailboxes/{name}/messages?
// box=&limit=&cursor=), a message's view, its thread, compose. Routes: #mailbox/NAME/BOX,
// #message/NAME/ID, #thread/NAME/THREAD_ID. Each box is what a CLI command lists, in its order, with
// the named mailbox's read, archived and ack state: In is `inbox` (unread, urgent first, then
// oldest), Out is `sent`, All is everything it received or sent, read mail included, newest first.
// In's badge is In's own total, so it always equals the rows In lists.
import { get, path, query } from "./api.js";
import { h, text, nameText, clean, fill, clear, idHref } from "./safe.js";
import { ago, priorityName } from "./fmt.js";
import { renderMessage, renderThread } from "./message.js";
import { composeForm, sessionInfo } from "./compose.js";

const PAGE = 50;
const BOXES = [["in", "In"], ["out", "Out"], ["all", "All"]];

let registry = [];  // the registered mailboxes (GET mailboxes)
let names = [];     // those and the mailbox asked for, for the picker
let shown = null;   // {key, panel, parts} of what is drawn, so a live refresh keeps forms intact

export function concerns(evt) {
  return evt.type !== "peer.state";
}

function mailboxName(m) {
  if (typeof m === "string") return m;
  return String((m && (m.mailbox ?? m.name)) ?? "");
}

async function loadNames() {
  const doc = await get("mailboxes");
  const list = Array.isArray(doc) ? doc : doc.mailboxes || doc.agents || [];
  registry = list.map(mailboxName).filter((n) => n !== "");
  names = registry.slice();
}

export async function render(panel, route, { quiet } = {}) {
  await loadNames();
  const [view, requested, third] = route;
  let name = requested;
  if (name && !names.includes(name)) names.push(name); // e.g. a sender with no mailbox of its own
  if (!name) name = names.includes("human") ? "human" : names[0];
  if (!name) {
    fill(panel, h("h2", {}, "Mailbox"), h("p", { class: "muted" }, "No mailboxes yet."));
    shown = null;
    return;
  }
  const box = view === "mailbox" && BOXES.some(([b]) => b === third) ? third : "in";
  const key = [view, name, view === "mailbox" ? box : third].join("\u0000");
  if (!quiet || !shown || shown.key !== key || !panel.contains(shown.parts.data)) {
    shown = { key, parts: skeleton(panel, name, view === "mailbox" ? box : null) };
  }
  const parts = shown.parts;
  if (view === "message") {
    await renderMessage(parts.data, name, third);
  } else if (view === "thread") {
    await renderThread(parts.data, name, third);
  } else {
    const doc = await renderList(parts, name, box);
    if (box === "in") {
      setBadge(parts, doc.total);
      return;
    }
  }
  await updateBadge(parts, name);
}

// The parts of the panel that stay while live updates redraw the data below them.
function skeleton(panel, name, box) {
  const select = h("select", { id: "mailbox-select", "aria-label": "Mailbox" });
  const listed = names.slice(); // the options' order, whatever a later refresh loads
  for (const n of listed) {
    const option = h("option", { class: "u" });
    option.textContent = clean(n); // an option holds text only; its index names the mailbox
    if (n === name) option.selected = true;
    select.append(option);
  }
  select.addEventListener("change", () => {
    location.hash = idHref("mailbox", listed[select.selectedIndex], box || "in");
  });
  const badges = {};
  const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": "Boxes" });
  for (const [b, label] of BOXES) {
    const badge = b === "in" ? h("span", { class: "badge", hidden: true, "aria-label": "unread" }) : null;
    badges[b] = badge;
    const tab = h("button", { type: "button", role: "tab", id: `tab-${b}`, "aria-selected": String(b === box) },
      label, badge);
    tab.addEventListener("click", () => {
      location.hash = idHref("mailbox", name, b);
    });
    tabs.append(tab);
  }
  const composeSlot = h("div", {});
  const composeButton = h("button", { type: "button", id: "compose-open" }, "Compose");
  const recipients = registry.slice();
  composeButton.addEventListener("click", async () => {
    if (composeSlot.firstChild) {
      clear(composeSlot);
      return;
    }
    const info = await sessionInfo();
    if (composeSlot.firstChild) return; // a second click while it was asked
    composeSlot.append(composeForm({ registry: recipients, info, onDone: () => clear(composeSlot) }));
    composeSlot.querySelector("select, textarea, input")?.focus();
  });
  const data = h("div", { id: "mailbox-data" });
  const more = h("div", { class: "toolbar" });
  fill(panel,
    h("h2", {}, "Mailbox"),
    h("div", { class: "toolbar" }, h("label", {}, "Mailbox ", select), composeButton),
    composeSlot, tabs, data, more);
  return { data, more, badges, select };
}

async function renderList(parts, name, box) {
  const doc = await get(`mailboxes/${path(name)}/messages${query({ box, limit: PAGE })}`);
  const tbody = h("tbody", {});
  appendRows(tbody, name, box, doc.messages || []);
  fill(parts.data,
    h("div", { class: "scroll" },
      h("table", { id: "message-list" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, box === "out" ? "To" : "From"),
          h("th", { scope: "col" }, "Subject"),
          h("th", { scope: "col", class: "hide-narrow" }, "Priority"),
          h("th", { scope: "col" }, "When"),
          h("th", { scope: "col", class: "hide-narrow" }, "State"))),
        tbody)),
    (doc.messages || []).length === 0 ? emptyBox(name, box) : null);
  moreButton(parts, name, box, tbody, doc);
  return doc;
}

function emptyBox(name, box) {
  if (box !== "in") return h("p", { class: "muted", id: "empty-box" }, "No messages.");
  return h("p", { class: "muted", id: "empty-box" }, "No unread messages. Read mail is under ",
    h("a", { href: idHref("mailbox", name, "all") }, "All"), ".");
}

function moreButton(parts, name, box, tbody, doc) {
  clear(parts.more);
  if (!doc.has_more || !doc.next_cursor) return;
  const button = h("button", { type: "button" }, "More");
  button.addEventListener("click", async () => {
    button.disabled = true;
    const next = await get(`mailboxes/${path(name)}/messages${query({ box, limit: PAGE, cursor: doc.next_cursor })}`);
    appendRows(tbody, name, box, next.messages || []);
    moreButton(parts, name, box, tbody, next);
  });
  parts.more.append(button);
}

function stateOf(m, box) {
  if (box === "out" && m.summary) {
    const s = m.summary;
    return `${s.read ?? 0}/${s.recipients ?? 0} read, ${s.acked ?? 0} acked`;
  }
  const words = [];
  if (m.read === false) words.push("unread");
  else if (m.read === true) words.push("read");
  if (m.archived === true) words.push("archived");
  if (m.ack_state && m.ack_state !== "none") words.push(String(m.ack_state).replace("_", " "));
  if (m.expired) words.push("expired");
  else if (m.request_state) words.push(`request ${String(m.request_state).replace("_", " ")}`);
  return words.join(", ");
}

function appendRows(tbody, name, box, messages) {
  for (const m of messages) {
    const href = idHref("message", name, m.id);
    const who = box === "out" ? m.to || [] : m.from;
    const subject = h("a", { href }, text(m.subject || "(no subject)"));
    const row = h("tr", { class: `clickable${m.read === false ? " unread" : ""}` },
      h("td", {}, nameText(who)),
      h("td", { class: "subject" }, subject),
      h("td", { class: "hide-narrow" }, text(priorityName(m.priority))),
      h("td", {}, text(ago(m.created_at))),
      h("td", { class: "hide-narrow" }, text(stateOf(m, box))));
    row.addEventListener("click", (e) => {
      if (e.target.closest("a")) return;
      location.hash = href;
    });
    tbody.append(row);
  }
}

// In's badge: how many rows In lists (its total: the mailbox's unread mail).
function setBadge(parts, total) {
  const n = Number(total ?? 0);
  parts.badges.in.textContent = String(n);
  parts.badges.in.hidden = !(n > 0);
}

// In's badge while another view is shown: In's total, asked with one row.
async function updateBadge(parts, name) {
  let doc;
  try {
    doc = await get(`mailboxes/${path(name)}/messages${query({ box: "in", limit: 1 })}`);
  } catch {
    return; // the view's own request reports a store that is away
  }
  setBadge(parts, doc.total);
}
