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

// A duration as the CLI writes one ("1h30m", "45s", "250ms"): days, hours, minutes, seconds, then
// what is left in milliseconds.
export function span(ms) {
  if (ms === null || ms === undefined || Number.isNaN(Number(ms))) return "";
  let rest = Math.max(0, Math.round(Number(ms)));
  if (rest < 1000) return `${rest}ms`;
  let out = "";
  for (const [size, unit] of [[86400000, "d"], [3600000, "h"], [60000, "m"], [1000, "s"]]) {
    if (rest >= size) {
      out += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return rest > 0 ? `${out}${rest}ms` : out;
}

// "2026-12-02 09:00 GMT+1": an RFC 3339 instant as wall time in the IANA zone `tz` (as the CLI
// shows a schedule's times in its own zone); in UTC where the browser does not know the zone.
export function wall(iso, tz) {
  if (!iso) return "-";
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return String(iso);
  const options = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
    hourCycle: "h23", timeZoneName: "short" };
  let format;
  try {
    format = new Intl.DateTimeFormat("en-US", { ...options, timeZone: tz || "UTC" });
  } catch {
    format = new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
  }
  const p = Object.fromEntries(format.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
}
