// Compose (POST messages, sent as the operator) and reply (POST messages/{id}/reply) forms. The
// bodies use the MCP tools' argument names: to, cc, subject, body, priority, ack; id's reply: body,
// subject, all, ack.
import { post, path } from "./api.js";
import { h, text, fill, idLink } from "./safe.js";

function names(value) {
  return value.split(/[\s,]+/).map((s) => s.trim()).filter((s) => s !== "");
}

function field(label, control) {
  return h("label", {}, label, control);
}

export function composeForm({ onDone } = {}) {
  const to = h("input", { name: "to", id: "compose-to", required: true, autocomplete: "off",
    placeholder: "alice, bob, @group" });
  const cc = h("input", { name: "cc", id: "compose-cc", autocomplete: "off" });
  const subject = h("input", { name: "subject", id: "compose-subject", autocomplete: "off" });
  const body = h("textarea", { name: "body", id: "compose-body", required: true });
  const priority = h("select", { name: "priority", id: "compose-priority" });
  for (const p of ["normal", "urgent", "high", "low", "backlog"]) priority.append(h("option", {}, p));
  const ack = h("input", { type: "checkbox", name: "ack", id: "compose-ack" });
  const result = h("p", { role: "status", id: "compose-result" });
  const form = h("form", { class: "compose", id: "compose-form", "aria-label": "Compose" },
    field("To", to), field("Cc", cc), field("Subject", subject), field("Body", body),
    h("div", { class: "toolbar" }, field("Priority", priority),
      h("label", {}, ack, " ask for an acknowledgement")),
    h("div", { class: "toolbar" }, h("button", { type: "submit", class: "primary" }, "Send"),
      h("button", { type: "button", onclick: () => onDone && onDone() }, "Cancel")),
    result);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const args = { to: names(to.value), body: body.value };
    if (cc.value.trim()) args.cc = names(cc.value);
    if (subject.value.trim()) args.subject = subject.value;
    if (priority.value !== "normal") args.priority = priority.value;
    if (ack.checked) args.ack = true;
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const r = await post("messages", args);
      fill(result, "Sent ", idLink(r.id, "trace", r.id), " to ", text((r.recipients || []).join(", ")), ".");
      to.value = cc.value = subject.value = body.value = "";
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
