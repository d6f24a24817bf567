// Schedules: every mailbox's schedules (GET schedules?all=1, what `schedule list --all --json`
// answers; #schedules/ended adds the canceled and finished ones, ended=1), and one schedule
// (GET schedules/{from}/{name}?limit=, `schedule show --json`) with its firing history and the
// buttons Pause, Resume, Cancel and Run now (POST schedules/{from}/{name}/{action}).
// Routes: #schedules, #schedules/ended, #schedule/FROM/NAME. Times are shown in each schedule's
// own zone, as the CLI shows them.
import { get, post, path, query } from "./api.js";
import { h, text, nameText, fill, clear, idLink, idHref } from "./safe.js";
import { ago, span, wall } from "./fmt.js";

const HISTORY = 50; // firings shown (the store keeps 1,000)
const CONFIRM_MS = 5000; // how long "Cancel" waits for its second press

let shown = { owner: null, messages: new Set() }; // the schedule on screen and its firings' messages

// The events that change what a view shows: a schedule's firing or change; in a schedule's view,
// only its own (the event names the owner), and any event on a message its history shows (a
// request state moves with request.state, and with mail.read or mail.claimed to working).
export function concerns(evt, route) {
  const scheduleEvent = evt.type === "schedule.fired" || evt.type === "schedule.changed";
  if (route[0] !== "schedule") return scheduleEvent;
  if (scheduleEvent) return !evt.mailbox || evt.mailbox === shown.owner;
  return shown.messages.has(evt.id);
}

export async function render(panel, route) {
  if (route[0] === "schedule" && route[1] && route[2]) return renderSchedule(panel, route[1], route[2]);
  return renderList(panel, route[1] === "ended");
}

// The CLI's words for a rule and a state (`schedule list`'s RULE and STATE columns).
function ruleText(rule) {
  if (!rule) return "";
  if (rule.at) return "once";
  if (rule.every_ms !== undefined && rule.every_ms !== null) return `every ${span(rule.every_ms)}`;
  if (rule.cron) return `cron ${rule.cron}`;
  return "";
}

function stateOf(s) {
  if (s.ended_at) return String(s.end_reason || "ended");
  return s.paused ? "paused" : "active";
}

function stateBadge(s) {
  const state = stateOf(s);
  return h("span", { class: `state state-${state.replace(/[^a-z_]/g, "")}` }, text(state));
}

function lastText(s) {
  return s.last ? `${s.last.outcome} ${ago(s.last.slot)}` : "-";
}

async function renderList(panel, ended) {
  shown = { owner: null, messages: new Set() };
  panel.mailroomView = null;
  const doc = await get(`schedules${query({ all: 1, ended: ended ? 1 : "" })}`);
  const rows = (doc.schedules || []).map((s) => {
    const href = idHref("schedule", s.from, s.name);
    const row = h("tr", { class: "clickable", "data-schedule-row": "" },
      h("th", { scope: "row" }, idLink(nameText(s.name), "schedule", s.from, s.name)),
      h("td", {}, nameText(s.from)),
      h("td", {}, nameText(s.addressed_to || s.to || [])),
      h("td", {}, text(ruleText(s.rule))),
      h("td", { class: "hide-narrow" }, text(s.rule?.tz ?? "")),
      h("td", {}, text(s.next_at ? wall(s.next_at, s.rule?.tz) : "-")),
      h("td", { class: "hide-narrow" }, text(lastText(s))),
      h("td", {}, stateBadge(s)));
    row.addEventListener("click", (e) => {
      if (e.target.closest("a")) return;
      location.hash = href;
    });
    return row;
  });
  // A toggle button, not a checkbox: the address says which list is shown, so Back works.
  const toggle = h("button", { type: "button", id: "schedules-ended", "aria-pressed": String(ended) },
    ended ? "Hide canceled and finished ones" : "Show canceled and finished ones");
  toggle.addEventListener("click", () => {
    location.hash = ended ? "#schedules" : "#schedules/ended";
  });
  fill(panel,
    h("h2", {}, "Schedules"),
    h("div", { class: "toolbar" }, toggle),
    h("div", { class: "scroll" }, h("table", { id: "schedule-list" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "From"), h("th", { scope: "col" }, "To"),
        h("th", { scope: "col" }, "Rule"), h("th", { scope: "col", class: "hide-narrow" }, "Zone"),
        h("th", { scope: "col" }, "Next"), h("th", { scope: "col", class: "hide-narrow" }, "Last"),
        h("th", { scope: "col" }, "State"))),
      h("tbody", {}, rows))),
    rows.length ? null : h("p", { class: "muted", id: "no-schedules" }, "No schedules."),
    h("p", { class: "hint" }, "Add one with ", h("code", {}, "mailroom schedule add"),
      " or ", h("code", {}, "mailroom send --at"), "; a firer (", h("code", {}, "serve"), ", ",
      h("code", {}, "sweep --every"), " or ", h("code", {}, "schedule run-due"), ") sends each slot."));
}

// The outcome column of `schedule show`: "missed x3", "sent (run-now)", "failed (not_found)".
function outcomeText(f) {
  let out = String(f.outcome ?? "");
  if (f.outcome === "missed" && f.count > 1) out = `missed x${f.count}`;
  else if (f.kind === "run_now") out += " (run-now)";
  if (f.error_code) out += ` (${f.error_code})`;
  return out;
}

function requestsText(states) {
  const parts = Object.entries(states || {}).map(([who, state]) => `${who}: ${String(state).replace("_", " ")}`);
  return parts.length ? parts.join(", ") : "-";
}

function historyTable(s) {
  const tz = s.rule?.tz;
  const reader = (s.addressed_to || s.to || [])[0] || s.from; // whose view a message link opens
  const rows = (s.firings || []).map((f) => h("tr", {},
    h("td", {}, text(wall(f.slot, tz)), f.last_slot && f.count > 1 ? [" – ", text(wall(f.last_slot, tz))] : null),
    h("td", {}, text(outcomeText(f))),
    h("td", {}, f.message_id ? idLink(f.message_id, "message", reader, f.message_id) : h("span", { class: "muted" }, "—")),
    h("td", { class: "num" }, text(f.outcome === "missed" ? "-" : span(f.lateness_ms))),
    h("td", {}, text(requestsText(f.request_states))),
    h("td", { class: "hide-narrow" }, text(f.detail ?? ""))));
  return h("div", { class: "scroll" }, h("table", { id: "firings" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Slot"), h("th", { scope: "col" }, "Outcome"),
      h("th", { scope: "col" }, "Message"), h("th", { scope: "col", class: "num" }, "Late"),
      h("th", { scope: "col" }, "Requests"), h("th", { scope: "col", class: "hide-narrow" }, "Detail"))),
    h("tbody", {}, rows)));
}

function details(s) {
  const tz = s.rule?.tz;
  const dl = h("dl", {});
  const field = (label, value) => {
    if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) return;
    dl.append(h("dt", {}, label), h("dd", {}, value instanceof Node ? value : text(Array.isArray(value) ? value.join(", ") : value)));
  };
  field("From", s.from);
  field("To", s.to);
  field("Cc", s.cc);
  field("Subject", s.subject);
  field("Type", s.type);
  const rule = [ruleText(s.rule), `in ${tz ?? "UTC"}`];
  if (s.rule?.at) rule.push(`at ${wall(s.rule.at, tz)}`);
  if (s.rule?.until) rule.push(`until ${wall(s.rule.until, tz)}`);
  field("Rule", rule.join(" "));
  field("Policy", `catch-up ${s.catch_up ?? ""}, overlap ${s.overlap ?? ""}`);
  field("Next", s.next_at ? wall(s.next_at, tz) : "-");
  field("State", stateBadge(s));
  field("Created", wall(s.created_at, tz));
  if (s.ended_at) field("Ended", wall(s.ended_at, tz));
  // A div, not an article: "article.message" is the message view's card.
  return h("div", { class: "message", id: "schedule" },
    h("h3", {}, text(s.name, { className: "subject" })), dl);
}

async function renderSchedule(container, from, name) {
  // The result line stays while a live update redraws the schedule.
  if (container.mailroomView !== `schedule:${from}:${name}` || !container.contains(container.view)) {
    clear(container);
    container.mailroomView = `schedule:${from}:${name}`;
    container.view = h("div", {});
    container.result = h("p", { id: "schedule-result", role: "status" }); // placed under the buttons
    container.append(container.view);
  }
  const s = await get(`schedules/${path(from, name)}${query({ limit: HISTORY })}`);
  shown = { owner: s.from, messages: new Set((s.firings || []).map((f) => f.message_id).filter(Boolean)) };
  const live = !s.ended_at;
  const button = (action, label, enabled) => {
    const b = h("button", { type: "button", "data-action": action, disabled: !enabled }, label);
    b.addEventListener("click", () => act(container, s, action, b));
    return b;
  };
  const actions = h("div", { class: "toolbar", role: "group", "aria-label": "Actions" },
    button("pause", "Pause", live && !s.paused), button("resume", "Resume", live && s.paused),
    button("cancel", "Cancel", live), button("run-now", "Run now", live));
  const firings = s.firings || [];
  fill(container.view,
    h("h2", {}, "Schedules"),
    h("p", {}, h("a", { href: idHref("schedules") }, "← all schedules")),
    details(s),
    actions,
    container.result,
    h("h2", {}, `History (newest first, at most ${HISTORY})`),
    firings.length ? historyTable(s) : h("p", { class: "muted", id: "no-firings" }, "No firings yet."));
}

async function act(container, s, action, button) {
  // Cancel ends the schedule for good: it asks for a second press (no dialog: the page opens none).
  if (action === "cancel" && button.dataset.armed !== "1") {
    button.dataset.armed = "1";
    button.textContent = "Press again to cancel";
    setTimeout(() => {
      button.dataset.armed = "";
      button.textContent = "Cancel";
    }, CONFIRM_MS);
    return;
  }
  try {
    const r = await post(`schedules/${path(s.from, s.name)}/${action}`, {});
    if (action === "run-now") {
      const f = (r.fired || [])[0];
      fill(container.result, "Fired: ", text(f ? outcomeText(f) : "nothing"), f && f.message_id ? [" ", text(f.message_id)] : null);
    } else {
      container.result.textContent = `Done: ${action}.`;
    }
  } catch (err) {
    fill(container.result, "Failed: ", text(err.message));
  }
  await renderSchedule(container, s.from, s.name).catch(() => {});
}
