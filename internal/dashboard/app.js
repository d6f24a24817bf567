// The dashboard: panels chosen by the address fragment (#team, #mailbox/NAME/BOX,
// #message/NAME/ID, #thread/NAME/ID, #traces, #trace/ID, #health, #search, #schedules,
// #schedules/ended, #schedule/FROM/NAME), each rendered from /api/v1 and refreshed when the
// event stream says something changed. While the store does not answer, a notice above every view
// says so (the stream's `event: store`, or an answer 503 store_error), so nothing on screen passes
// for an all-clear.
import { token, ApiError } from "./api.js";
import { fill, text, h } from "./safe.js";
import { EventStream } from "./events.js";
import * as team from "./team.js";
import * as mailbox from "./mailbox.js";
import * as traces from "./traces.js";
import * as health from "./health.js";
import * as search from "./search.js";
import * as schedules from "./schedules.js";

const panels = { team, mailbox, traces, health, search, schedules };
// Views that live inside a panel: the panel that draws them.
const owner = { team: "team", mailbox: "mailbox", message: "mailbox", thread: "mailbox", traces: "traces",
  trace: "traces", health: "health", search: "search", schedules: "schedules", schedule: "schedules" };

const errorBox = document.getElementById("error");
const degradedBox = document.getElementById("degraded");
const live = document.getElementById("live");

// Why the store is away, as the event stream said it (cleared only by its `{"ok":true}`), and as
// the last failed request said it (cleared by the next view drawn).
let storeAway = { stream: null, request: null };

function showDegraded() {
  const why = storeAway.stream ?? storeAway.request;
  if (why === null) {
    degradedBox.hidden = true;
    return;
  }
  fill(degradedBox, h("strong", {}, "The store is not answering"), ": ", text(why),
    ". Nothing here is current until it answers again; the views redraw then.");
  degradedBox.hidden = false;
}

export function showError(err) {
  if (!err) {
    errorBox.hidden = true;
    return;
  }
  if (err instanceof ApiError && err.code === "store_error") {
    storeAway.request = err.message || "store_error";
    showDegraded();
    errorBox.hidden = true;
    return;
  }
  if (err instanceof ApiError && err.status === 401) {
    fill(errorBox, "The session is not valid any more: open the login address `mailroom serve` printed.");
  } else {
    fill(errorBox, text(err.message || String(err))); // an error may echo a name from the data
  }
  errorBox.hidden = false;
}

// The current route: [view, ...decoded ids].
export function route() {
  const parts = location.hash.replace(/^#/, "").split("/").filter((p) => p !== "");
  let decoded;
  try {
    decoded = parts.map(decodeURIComponent);
  } catch {
    decoded = [];
  }
  if (decoded.length === 0 || !owner[decoded[0]]) return ["team"];
  return decoded;
}

let rendering = Promise.resolve();

// Draws the panel of the current route (one render at a time, in order).
function show() {
  const r = route();
  const name = owner[r[0]];
  for (const [key] of Object.entries(panels)) {
    document.getElementById(`panel-${key}`).hidden = key !== name;
  }
  for (const a of document.querySelectorAll("header nav a")) {
    if (a.dataset.panel === name) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  rendering = rendering.then(() => draw(name, r, false));
}

async function draw(name, r, quiet) {
  try {
    await panels[name].render(document.getElementById(`panel-${name}`), r, { quiet });
    showError(null);
    if (storeAway.request !== null) {
      storeAway.request = null;
      showDegraded();
    }
  } catch (err) {
    // A view that cannot be drawn shows only the error, never the last view's data; a live
    // refresh that fails keeps what is on screen (under the notice when the store is away).
    if (!quiet) fill(document.getElementById(`panel-${name}`));
    showError(err);
  }
}

// Redraws the visible panel when an event concerns it (a reset redraws everything). A burst of
// events costs one redraw: while one is queued, later events ride on it.
let redrawQueued = false;

function onEvent(evt) {
  if (evt.type === "store") {
    // `event: store`: {"ok":false,"error":{…}} when the store stops answering, {"ok":true} when it
    // answers again (then every view is redrawn, as after a reset).
    storeAway.stream = evt.ok === false ? String(evt.error?.message || evt.error?.code || "store_error") : null;
    if (evt.ok !== false) storeAway.request = null;
    showDegraded();
    if (evt.ok === false) return;
    evt = { type: "reset" };
  }
  const r = route();
  const panel = panels[owner[r[0]]];
  if (evt.type !== "reset" && panel.concerns && !panel.concerns(evt, r)) return;
  if (redrawQueued) return;
  redrawQueued = true;
  rendering = rendering.then(() => {
    redrawQueued = false;
    const now = route(); // the view on screen when the redraw runs
    return draw(owner[now[0]], now, true);
  });
}

// Shortcuts outside text fields: 1-6 open the panels (in the order of the links), "/" the search.
function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
  const order = ["team", "mailbox", "traces", "health", "search", "schedules"];
  if (e.key >= "1" && e.key <= String(order.length)) {
    location.hash = `#${order[Number(e.key) - 1]}`;
    e.preventDefault();
  } else if (e.key === "/") {
    location.hash = "#search";
    e.preventDefault();
  }
}

function start() {
  if (!token()) {
    location.replace("/login");
    return;
  }
  window.addEventListener("hashchange", show);
  document.addEventListener("keydown", onKey);
  show();
  const stream = new EventStream({
    onEvent,
    onState(state) {
      live.className = `live ${state === "live" ? "on" : "off"}`;
      live.textContent = state === "live" ? "live" : state;
    },
  });
  stream.start();
}

start();
