// Compose (POST messages) and reply (POST messages/{id}/reply) forms. Compose says who it sends
// as and offers the types it may send (GET session: the operator `serve` runs as, the built-in and
// configured types), and picks recipients from the registry (GET mailboxes), with a field for
// groups and names outside it. The bodies use the MCP tools' argument names: to, cc, subject,
// body, type, priority, ack; a reply's body, all.
import { get, post, path } from "./api.js";
import { h, text, clean, fill, clear, idLink } from "./safe.js";

function names(value) {
  return value.split(/[\s,]+/).map((s) => s.trim()).filter((s) => s !== "");
}

function field(label, control) {
  return h("label", {}, label, control);
}

// The operator and its types (GET session), asked once; null where the server does not say.
let session = null;

export async function sessionInfo() {
  if (!session) {
    session = get("session").catch(() => {
      session = null; // ask again next time
      return null;
    });
  }
  return session;
}

// The recipients picked from the registry, shown as removable chips. `registry` holds the names;
// a picked name is shown as text and found again by its index, never as an attribute.
function recipientPicker(registry) {
  const chosen = [];
  const chips = h("div", { class: "chips", id: "compose-chosen" });
  const pick = h("select", { id: "compose-pick", "aria-label": "Add a recipient from the registry" });
  pick.append(h("option", {}, registry.length ? "Add a recipient…" : "No registered mailboxes"));
  for (const n of registry) {
    const option = h("option", { class: "u" });
    option.textContent = clean(n);
    pick.append(option);
  }
  const draw = () => {
    clear(chips);
    chosen.forEach((n, i) => {
      const remove = h("button", { type: "button", class: "chip-remove", "aria-label": "Remove this recipient" }, "×");
      remove.addEventListener("click", () => {
        chosen.splice(i, 1);
        draw();
      });
      chips.append(h("span", { class: "chip" }, text(n, { className: "name" }), remove));
    });
  };
  pick.addEventListener("change", () => {
    const n = registry[pick.selectedIndex - 1];
    if (n !== undefined && !chosen.includes(n)) chosen.push(n);
    pick.selectedIndex = 0;
    draw();
  });
  return {
    element: h("div", { class: "picker" }, chips, pick),
    chosen: () => chosen.slice(),
    reset() {
      chosen.length = 0;
      draw();
    },
  };
}

// `registry`: the registered mailboxes; `info`: GET session's answer (or null).
export function composeForm({ registry = [], info = null, onDone } = {}) {
  const picker = recipientPicker(registry);
  const other = h("input", { name: "to", id: "compose-to", autocomplete: "off", placeholder: "@group, name" });
  const cc = h("input", { name: "cc", id: "compose-cc", autocomplete: "off" });
  const subject = h("input", { name: "subject", id: "compose-subject", autocomplete: "off" });
  const body = h("textarea", { name: "body", id: "compose-body", required: true });
  const types = info && Array.isArray(info.types) && info.types.length ? info.types : [{ name: "message", expects_reply: false }];
  const type = h("select", { name: "type", id: "compose-type" });
  for (const t of types) {
    const option = h("option", { class: "u" });
    option.textContent = clean(t.name) + (t.expects_reply ? " (reply expected)" : "");
    if (t.name === "message") option.selected = true;
    type.append(option);
  }
  const priority = h("select", { name: "priority", id: "compose-priority" });
  for (const p of ["normal", "urgent", "high", "low", "backlog"]) priority.append(h("option", {}, p));
  const ack = h("input", { type: "checkbox", name: "ack", id: "compose-ack" });
  const result = h("p", { role: "status", id: "compose-result" });
  const as = h("p", { id: "compose-as" }, "Sending as ",
    info && info.identity ? h("strong", {}, text(info.identity)) : "the operator `mailroom serve` runs as",
    h("span", { class: "muted" }, " (mailroom serve --as changes it)"));
  const form = h("form", { class: "compose", id: "compose-form", "aria-label": "Compose" },
    as,
    h("div", { class: "field" }, h("span", {}, "To"), picker.element),
    field("Other recipients (groups, names not registered)", other), field("Cc", cc),
    field("Subject", subject), field("Body", body),
    h("div", { class: "toolbar" }, field("Type", type), field("Priority", priority),
      h("label", {}, ack, " ask for an acknowledgement")),
    h("div", { class: "toolbar" }, h("button", { type: "submit", class: "primary" }, "Send"),
      h("button", { type: "button", onclick: () => onDone && onDone() }, "Cancel")),
    result);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const to = [...picker.chosen(), ...names(other.value).filter((n) => !picker.chosen().includes(n))];
    if (to.length === 0) {
      fill(result, "Not sent: pick a recipient or type one.");
      return;
    }
    const args = { to, body: body.value };
    const chosenType = types[type.selectedIndex] || types[0];
    if (cc.value.trim()) args.cc = names(cc.value);
    if (subject.value.trim()) args.subject = subject.value;
    if (chosenType.name !== "message") args.type = chosenType.name;
    if (priority.value !== "normal") args.priority = priority.value;
    if (ack.checked) args.ack = true;
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const r = await post("messages", args);
      fill(result, "Sent ", idLink(r.id, "trace", r.id), " to ", text((r.recipients || []).join(", ")),
        chosenType.expects_reply ? [" (", text(chosenType.name), ": a reply is expected)"] : "", ".");
      other.value = cc.value = subject.value = body.value = "";
      picker.reset();
    } catch (err) {
      fill(result, "Not sent: ", text(err.message));
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

export function replyForm(id, { onDone } = {}) {
  const body = h("textarea", { name: "body", id: "reply-body", required: true, "aria-label": "Reply" });
  const all = h("input", { type: "checkbox", name: "all", id: "reply-all" });
  const result = h("p", { role: "status", id: "reply-result" });
  const form = h("form", { class: "compose", id: "reply-form", "aria-label": "Reply" },
    field("Reply", body),
    h("div", { class: "toolbar" }, h("label", {}, all, " reply to everyone on it"),
      h("button", { type: "submit", class: "primary" }, "Send reply")),
    result);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const args = { body: body.value };
    if (all.checked) args.all = true;
    try {
      const r = await post(`messages/${path(id)}/reply`, args);
      fill(result, "Replied: ", text(r.id), " to ", text((r.recipients || []).join(", ")), ".");
      body.value = "";
      if (onDone) onDone(`Replied with ${r.id}.`);
    } catch (err) {
      fill(result, "Not sent: ", text(err.message));
    }
  });
  return form;
}
