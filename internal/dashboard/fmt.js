// Formatting of times and durations from the API's values (RFC 3339 UTC strings, milliseconds).
// These are numbers and times, not message text; they are still shown with textContent.

export function ago(iso, now = Date.now()) {
  if (!iso) return "never";
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "?";
  const ms = now - t;
  return ms < 1000 ? "just now" : `${duration(ms)} ago`;
}

export function duration(ms) {
  if (ms === null || ms === undefined) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} d`;
}

// "2026-11-27 04:26:17" from an RFC 3339 string (UTC, as the CLI prints).
export function stamp(iso) {
  if (!iso) return "";
  return String(iso).replace("T", " ").replace(/\.\d+Z?$|Z$/, "");
}

const PRIORITIES = ["urgent", "high", "normal", "low", "backlog"];

export function priorityName(p) {
  return typeof p === "number" && PRIORITIES[p] ? PRIORITIES[p] : String(p ?? "");
}
