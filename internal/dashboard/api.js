// Calls to /api/v1 with the session token from sessionStorage as a bearer header. The server
// never sets a cookie; a tab that closes forgets the session.

import { encodeId } from "./safe.js";

const TOKEN_KEY = "mailroom.session";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
}

// Trades a login code for a session token and keeps it.
export async function exchangeCode(code) {
  const body = await call("POST", "session", { code }, false);
  if (typeof body.token !== "string" || body.token === "") {
    throw new ApiError(0, "bad_response", "the server sent no session token");
  }
  sessionStorage.setItem(TOKEN_KEY, body.token);
}

// The path of an API resource from its parts, each percent-encoded ("rig/name" -> "rig%2Fname").
export function path(...parts) {
  return parts.map(encodeId).join("/");
}

// A query string from an object, leaving out null, undefined and "".
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

export const get = (rel) => call("GET", rel);
export const post = (rel, body) => call("POST", rel, body ?? {});

// One request; resolves to the parsed JSON body, rejects with an ApiError carrying the CLI's
// error code (the server answers errors with the CLI's JSON error object).
async function call(method, rel, body, withToken = true) {
  const headers = { Accept: "application/json" };
  if (withToken) {
    const t = token();
    if (!t) throw new ApiError(401, "unauthorized", "not signed in");
    headers.Authorization = `Bearer ${t}`;
  }
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(`/api/v1/${rel}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      credentials: "omit",
    });
  } catch (err) {
    throw new ApiError(0, "network", `the server did not answer (${err.message})`);
  }
  let parsed = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const e = parsed && parsed.error ? parsed.error : {};
    throw new ApiError(response.status, e.code || "http_" + response.status,
      e.message || `HTTP ${response.status}`);
  }
  if (parsed === null) throw new ApiError(response.status, "bad_response", "the answer was not JSON");
  return parsed;
}
