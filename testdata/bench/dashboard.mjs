// testdata/bench/dashboard.mjs: D1 of dashboard.sh, first data on screen. Drives Debian's
// /usr/bin/chromium through the playwright-core of integration/browser (launched as its lib.mjs
// does: same flags, a fresh user-data-dir). Each run starts `mailroom serve --listen 127.0.0.1:0`
// (argv, no shell) for a fresh single-use login code, opens a new tab and times
//   team     page.goto(login address) -> the Team panel's first row drawn (login page, session
//            exchange, the dashboard's load, GET team)
//   switch   then the fragment set to #mailbox/BOX/in -> its message list's first row (in-page)
//   mailbox  then page.reload() of that address -> its message list's first row (a new document)
// Warm-up runs are not counted. Prints one JSON object; exits 1 on a page error, a dialog or a
// panel that never shows its rows.
// Env: MAILROOM (binary), MAILROOM_DB (store), RUNS, WARMUP, BOX, REPO (the checkout).
import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const need = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const MAILROOM = need("MAILROOM");
const REPO = need("REPO");
const RUNS = Number(need("RUNS"));
const WARMUP = Number(process.env.WARMUP || "1");
const BOX = process.env.BOX || "agent-007";
const TIMEOUT = 30000;

const require = createRequire(join(REPO, "integration/browser/package.json"));
const { chromium } = require("playwright-core");

// The flags of integration/browser/lib.mjs (docs/dashboard.md, "Tests").
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

function startServe() {
  return new Promise((resolve, reject) => {
    const child = spawn(MAILROOM, ["serve", "--listen", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`serve printed no login address within 20 s: ${out} ${err}`));
    }, 20000);
    const look = () => {
      const m = /http:\/\/127\.0\.0\.1:\d+\/login#c=[A-Za-z0-9_-]+/.exec(out + err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[0] });
      }
    };
    child.stdout.on("data", (d) => { out += d; look(); });
    child.stderr.on("data", (d) => { err += d; look(); });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

function stopServe(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners("exit");
    child.on("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

const problems = [];
const userDataDir = mkdtempSync(join(tmpdir(), "mailroom-bench-chromium-"));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: FLAGS,
  viewport: { width: 1280, height: 860 },
});
const result = { team: [], switch: [], mailbox: [], team_rows: 0, message_rows: 0 };
try {
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const { child, url } = await startServe();
    const base = new URL(url).origin;
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e}`));
    page.on("dialog", (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
    try {
      let t0 = performance.now();
      await page.goto(url, { waitUntil: "commit" });
      await page.locator("#team-table tbody tr").first().waitFor({ timeout: TIMEOUT });
      const team = performance.now() - t0;
      result.team_rows = await page.locator("#team-table tbody tr").count();
      if (!page.url().startsWith(`${base}/`)) throw new Error(`signed in at ${page.url()}`);

      t0 = performance.now();
      await page.evaluate((h) => { location.hash = h; }, `#mailbox/${encodeURIComponent(BOX)}/in`);
      await page.locator("#message-list tbody tr").first().waitFor({ timeout: TIMEOUT });
      const sw = performance.now() - t0;

      t0 = performance.now();
      await page.reload({ waitUntil: "commit" });
      await page.locator("#message-list tbody tr").first().waitFor({ timeout: TIMEOUT });
      const mailbox = performance.now() - t0;

      result.message_rows = await page.locator("#message-list tbody tr").count();
      if (i >= WARMUP) {
        result.team.push(team);
        result.switch.push(sw);
        result.mailbox.push(mailbox);
      }
    } finally {
      await page.close();
      await stopServe(child);
    }
  }
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (problems.length) {
  console.error(`dashboard bench: ${problems.join(" | ")}`);
  process.exit(1);
}
const p = (v, q) => {
  const s = [...v].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(s.length * q))] * 10) / 10;
};
console.log(JSON.stringify({
  runs: RUNS,
  team_p50: p(result.team, 0.5), team_max: p(result.team, 1),
  switch_p50: p(result.switch, 0.5),
  mailbox_p50: p(result.mailbox, 0.5), mailbox_max: p(result.mailbox, 1),
  team_rows: result.team_rows, message_rows: result.message_rows,
}));
