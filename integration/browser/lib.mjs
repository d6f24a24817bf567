// integration/browser/lib.mjs: what the browser suites share. Launches Debian's /usr/bin/chromium
// (never a downloaded browser) through playwright-core with a fresh profile, gives each caller a
// browser context of its own (its own storage, as a second browser would have), signs in with
// the login address `mailroom serve` printed, runs the CLI (as an argv, never through a shell),
// and guards the page: a dialog, a page error or a request outside the server's own page and API
// fails the suite.
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

export const MAILROOM = need("MAILROOM");
export const LOGIN_URL = need("LOGIN_URL");
export const BASE = new URL(LOGIN_URL).origin;
export const ARTIFACTS = need("ARTIFACTS");
export const SANITIZED = process.env.MAILROOM_SANITIZED === "1";
// Eventual arrival: 10 s (the sanitized binary is ~20x slower).
export const EVENTUALLY_MS = SANITIZED ? 30000 : 10000;

// The launch flags that work as root on these machines (docs/dashboard.md, "Tests").
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

let failures = 0;
let current = "";
const skipped = [];

export function check(cond, what) {
  if (!cond) {
    failures++;
    console.error(`FAIL [${current}]: ${what}`);
  }
}

// Runs the named steps in order; a thrown error fails the step and the suite goes on to report.
export async function step(name, fn) {
  current = name;
  const started = Date.now();
  try {
    await fn();
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failures++;
    console.error(`FAIL [${name}]: ${err && err.stack ? err.stack : err}`);
  }
}

export function failed() {
  return failures;
}

// The reason the server gives for not having an API resource: its message when it answers 501
// `unsupported` (a server built before that endpoint), else null. Asked from the signed-in page.
export async function unsupported(page, rel) {
  return page.evaluate(async (r) => {
    const ctl = new AbortController();
    const res = await fetch(`/api/v1/${r}`, {
      headers: { Authorization: `Bearer ${sessionStorage.getItem("mailroom.session")}` }, signal: ctl.signal,
    });
    let reason = null;
    if (res.status === 501) {
      const body = await res.json().catch(() => ({}));
      if (body.error && body.error.code === "unsupported") reason = body.error.message || "unsupported";
    }
    ctl.abort(); // an event stream would stay open
    return reason;
  }, rel);
}

// step(), unless the server says it lacks one of `needs` (API paths): then the step is reported
// skipped with the server's reason, and runs as soon as a server has the endpoint.
export async function stepNeeding(page, needs, name, fn) {
  for (const rel of needs) {
    const reason = await unsupported(page, rel);
    if (reason) {
      skipped.push(`${name} (GET /api/v1/${rel}: ${reason})`);
      console.log(`skip ${name}: GET /api/v1/${rel} answers 501 unsupported: ${reason}`);
      return;
    }
  }
  await step(name, fn);
}

export function skippedSteps() {
  return skipped;
}

// mailroom ARGS... -> stdout (throws on a non-zero exit).
export function cli(...args) {
  return execFileSync(MAILROOM, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

export function cliJson(...args) {
  return JSON.parse(cli(...args, "--json"));
}

export async function eventually(what, fn, timeout = EVENTUALLY_MS) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      if (await fn()) return;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`not within ${timeout} ms: ${what}${last ? ` (${last.message})` : ""}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// The page's own resources and API: every request the page makes must be one of these.
const ALLOWED_PATH = /^\/(login|assets\/[a-z_]+\.(js|css)|api\/v1\/[A-Za-z0-9%._~\/-]+)?$/;

// The browser (a fresh profile playwright removes when it closes), a first context, and
// newContext() for more: each its own cookies and storage, every page in it guarded.
export async function launch() {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: FLAGS });
  const guard = { dialogs: [], errors: [], foreign: [], requests: 0 };
  const watch = (page) => {
    page.on("dialog", async (d) => {
      guard.dialogs.push(`${d.type()}: ${d.message()}`);
      await d.dismiss().catch(() => {});
    });
    page.on("pageerror", (e) => guard.errors.push(String(e)));
    page.on("request", (r) => {
      guard.requests++;
      const u = new URL(r.url());
      if (u.origin !== BASE || !ALLOWED_PATH.test(u.pathname)) guard.foreign.push(`${r.method()} ${r.url()}`);
    });
  };
  const newContext = async () => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    c.on("page", watch);
    return c;
  };
  const context = await newContext();
  const close = async () => {
    await browser.close();
  };
  return { context, newContext, guard, close };
}

// Opens a new tab, signs in with the login address and waits for the dashboard.
export async function signIn(context) {
  const page = await context.newPage();
  await page.goto(LOGIN_URL);
  await page.waitForURL(`${BASE}/`, { timeout: EVENTUALLY_MS });
  await page.locator("#team-table").waitFor({ timeout: EVENTUALLY_MS });
  return page;
}

export async function shot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

// Switches the panel through the address fragment, as a link or a shortcut does (no reload).
let misses = 0;

export async function open(page, hash, ready) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  if (!ready) return;
  try {
    await page.locator(ready).first().waitFor({ timeout: EVENTUALLY_MS });
  } catch (err) {
    // What the page showed instead, for the report.
    await shot(page, `missed-${++misses}`).catch(() => {});
    const shown = await page.evaluate(() => document.querySelector("main").innerText.slice(0, 300)).catch(() => "");
    throw new Error(`${hash}: ${ready} not shown (screenshot missed-${misses}.png; the page: ${JSON.stringify(shown)})`);
  }
}

export function report(guard) {
  if (skipped.length) console.log(`skipped steps (the server lacks an endpoint): ${skipped.length}`);
  check(guard.dialogs.length === 0, `dialogs opened: ${guard.dialogs.join(" | ")}`);
  check(guard.errors.length === 0, `page errors: ${guard.errors.join(" | ")}`);
  check(guard.foreign.length === 0, `requests outside the page and its API: ${guard.foreign.join(" | ")}`);
}
