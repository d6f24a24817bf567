// integration/browser/dashboard.mjs: the operator's flow in a real browser against a real
// `mailroom serve` (browser_dashboard.sh, postgres_browser_dashboard.sh): sign in with the
// single-use code, and in a second browser context with a link from `serve login`; CLI mail shows
// up live in Team and Mailbox; In is `inbox` (55 messages, 50 read: the 5 unread in inbox order,
// its badge 5), All newest first; compose (as the operator, a task_request to a mailbox picked
// from the registry), reply, mark read and archive (state-aware buttons) from the page change
// what the CLI sees; a claimed and a set-aside request show their claim, attempts and set-aside
// in the message, trace and Team views; a trace opens as a tree; Health and Search (with its
// snippet); Team's wake column with real wakes (dashboard_wake.mjs); Schedules (a CLI schedule
// paused, run now and canceled from the page, seen by the CLI: dashboard_schedules.mjs); the store
// away (SQLite): a notice instead of an all-clear; narrow windows (400 px keeps Team's Last seen
// and Health's Stale), a long name and keyboard navigation (dashboard_layout.mjs). A screenshot of
// each panel goes to $ARTIFACTS.
// SMOKE=1 (under the sanitizers): sign in, Team, one live message only.
import { spawn } from "node:child_process";
import { existsSync, renameSync } from "node:fs";
import { launch, signIn, cli, cliJson, check, step, stepNeeding, eventually, shot, open, report, failed, LOGIN_URL,
  BASE, EVENTUALLY_MS, MAILROOM, unsupported } from "./lib.mjs";
import { layoutSteps } from "./dashboard_layout.mjs";
import { scheduleSteps } from "./dashboard_schedules.mjs";
import { wakeSteps } from "./dashboard_wake.mjs";

const smoke = process.env.SMOKE === "1";
const { context, newContext, guard, close } = await launch();
let page;

await step("sign in with the login code; the code leaves the address; a token is kept", async () => {
  page = await signIn(context);
  check(!page.url().includes("c="), `the address still holds the code: ${page.url()}`);
  const stored = await page.evaluate(() => sessionStorage.getItem("mailroom.session"));
  check(typeof stored === "string" && stored.length >= 32, "no session token in sessionStorage");
  await page.evaluate(() => { window.mailroomNoReload = true; });
  await shot(page, "team");
});

await step("the used code is refused", async () => {
  const second = await context.newPage();
  await second.goto(LOGIN_URL);
  await second.locator("#login-state", { hasText: "failed" }).waitFor({ timeout: EVENTUALLY_MS });
  check(await second.evaluate(() => sessionStorage.getItem("mailroom.session")) === null, "a used code gave a session");
  await second.close();
});

await step("a second browser context reaches the page with a link from `serve login`, without restarting serve", async () => {
  // A context of its own shares no storage with the first: only the link can sign it in.
  const second = await newContext();
  try {
    const tab = await second.newPage();
    await tab.goto(`${BASE}/`);
    await tab.waitForURL(`${BASE}/login`, { timeout: EVENTUALLY_MS }); // no session: sent to the login page
    const link = cli("serve", "login").trim();
    check(link.startsWith(`${BASE}/login#c=`) && link !== LOGIN_URL, `serve login printed ${link}`);
    await tab.goto(link);
    await tab.waitForURL(`${BASE}/`, { timeout: EVENTUALLY_MS });
    await tab.locator("#team-table").waitFor({ timeout: EVENTUALLY_MS });
    const stored = await tab.evaluate(() => sessionStorage.getItem("mailroom.session"));
    check(typeof stored === "string" && stored.length >= 32, "the second context holds no session token");
    // The link works once: a third context with it gets no session.
    const third = await newContext();
    const again = await third.newPage();
    await again.goto(link);
    await again.locator("#login-state", { hasText: "failed" }).waitFor({ timeout: EVENTUALLY_MS });
    await third.close();
  } finally {
    await second.close();
  }
});

const live = () => ["events"];
// The later steps read these two messages: without an event stream they are sent here (not live).
if (await unsupported(page, "events")) {
  cli("send", "--as", "alice", "bob", "-s", "team live one", "-m", "first");
  cli("send", "--as", "alice", "bob", "-s", "mailbox live two", "-m", "second", "--ack");
}
await stepNeeding(page, live(), "the live indicator says live", async () => {
  await page.locator("#live.on").waitFor({ timeout: EVENTUALLY_MS });
});

const unreadOf = async (name) => {
  const row = page.locator("#team-table tbody tr", { has: page.locator("th", { hasText: new RegExp(`^${name}$`) }) });
  return Number((await row.locator("td").nth(1).textContent()).trim());
};

await stepNeeding(page, live(), "a CLI send shows in the Team panel without a reload", async () => {
  const before = await unreadOf("bob");
  cli("send", "--as", "alice", "bob", "-s", "team live one", "-m", "first");
  await eventually("bob's unread count goes up", async () => (await unreadOf("bob")) === before + 1);
});

await stepNeeding(page, live(), "a CLI send shows in the Mailbox panel without a reload", async () => {
  await open(page, "#mailbox/bob/in", "#message-list");
  cli("send", "--as", "alice", "bob", "-s", "mailbox live two", "-m", "second", "--ack");
  await page.locator("#message-list tbody tr", { hasText: "mailbox live two" }).waitFor({ timeout: EVENTUALLY_MS });
  check(await page.evaluate(() => window.mailroomNoReload === true), "the page was reloaded");
});

await step("the In box lists bob's unread mail with its badge", async () => {
  await open(page, "#mailbox/bob/in", "#message-list");
  await page.locator("#message-list tbody tr", { hasText: "mailbox live two" }).waitFor({ timeout: EVENTUALLY_MS });
  await page.locator("#message-list tbody tr.unread", { hasText: "team live one" }).waitFor({ timeout: EVENTUALLY_MS });
  await page.locator("#tab-in .badge:not([hidden])").waitFor({ timeout: EVENTUALLY_MS });
  const badge = await page.locator("#tab-in .badge").textContent();
  check(Number(badge) === 2, `the In badge shows ${badge}, bob has 2 unread`);
  await shot(page, "mailbox");
});

if (!smoke) {
  cli("agents", "add", "dave", "erin", "frank", "grace");

  await step("In is `inbox`: 55 messages, 50 read, show the 5 unread in inbox order; All lists all 55 newest first", async () => {
    const ids = [];
    for (let i = 1; i <= 55; i++) {
      const n = String(i).padStart(2, "0");
      const args = ["send", "--as", "grace", "dave", "-s", `m${n}`, "-m", `body ${n}`];
      if (i === 30) args.push("--priority", "urgent"); // unread: inbox order puts it first
      ids.push(cliJson(...args).id);
    }
    const unread = new Set([3, 10, 30, 41, 55].map((i) => ids[i - 1]));
    cli("mark-read", "--as", "dave", ...ids.filter((id) => !unread.has(id)));
    const inbox = cliJson("inbox", "--as", "dave").messages.map((m) => m.subject);
    check(JSON.stringify(inbox) === JSON.stringify(["m30", "m03", "m10", "m41", "m55"]), `the CLI's inbox: ${inbox}`);

    await open(page, "#mailbox/dave/in", "#message-list");
    await eventually("In lists dave's 5 unread", async () =>
      (await page.locator("#message-list tbody tr").count()) === 5);
    const subjects = await page.locator("#message-list tbody td.subject").allTextContents();
    check(JSON.stringify(subjects) === JSON.stringify(inbox), `In: ${subjects}, inbox: ${inbox}`);
    check(await page.locator("#message-list tbody tr.unread").count() === 5, "a read message in In");
    const badge = (await page.locator("#tab-in .badge").textContent()).trim();
    check(badge === "5" && await page.locator("#tab-in .badge").isVisible(), `In's badge: ${badge}`);
    check(await page.locator("#tab-all .badge, #tab-out .badge").count() === 0, "a badge on Out or All");
    const team = cliJson("team").mailboxes.find((m) => m.mailbox === "dave");
    check(team.unread === 5, `team's unread for dave: ${team.unread}`);
    await shot(page, "mailbox-in");

    await page.click("#tab-all");
    await eventually("All's first page", async () => (await page.locator("#message-list tbody tr").count()) === 50);
    const all = await page.locator("#message-list tbody td.subject").allTextContents();
    const newest = Array.from({ length: 50 }, (_, k) => `m${String(55 - k).padStart(2, "0")}`);
    check(JSON.stringify(all) === JSON.stringify(newest), `All, newest first: ${all.slice(0, 8)}…`);
    await page.locator(".panel:not([hidden]) .toolbar button", { hasText: "More" }).click();
    await eventually("All's second page", async () => (await page.locator("#message-list tbody tr").count()) === 55);
    check((await page.locator("#message-list tbody tr").last().textContent()).includes("m01"), "All ends with the oldest");
  });

  await step("compose in the page: as the operator, a task_request to a mailbox picked from the registry", async () => {
    await open(page, "#mailbox/human/in", "#compose-open");
    await page.click("#compose-open");
    await page.locator("#compose-as", { hasText: "Sending as human" }).waitFor({ timeout: EVENTUALLY_MS });
    await page.selectOption("#compose-pick", { label: "carol" });
    await page.locator("#compose-chosen .chip", { hasText: "carol" }).waitFor();
    await page.selectOption("#compose-type", { label: "task_request (reply expected)" });
    await page.fill("#compose-subject", "from the dashboard");
    await page.fill("#compose-body", "composed in a browser");
    await page.click("#compose-form button[type=submit]");
    await page.locator("#compose-result", { hasText: "Sent" }).waitFor({ timeout: EVENTUALLY_MS });
    const inbox = cliJson("inbox", "--as", "carol");
    const m = inbox.messages.find((x) => x.subject === "from the dashboard");
    check(m && m.from === "human" && m.body === "composed in a browser", "carol's inbox lacks the composed message");
    check(m && m.type === "task_request" && m.request_state === "submitted",
      `the composed message's type and request state: ${m && m.type}, ${m && m.request_state}`);
    check(await page.locator("#compose-chosen .chip").count() === 0, "the picked recipient stays after sending");
  });

  let question;
  await step("reply from the page: the reply is in the asking agent's CLI inbox, in the thread", async () => {
    cli("send", "--as", "alice", "human", "-s", "question for the operator", "-m", "ship it?");
    question = cliJson("inbox", "--as", "human").messages.find((x) => x.subject === "question for the operator");
    await open(page, `#message/human/${encodeURIComponent(question.id)}`, "#reply-form");
    await page.locator("article.message .subject", { hasText: "question for the operator" }).waitFor();
    await page.fill("#reply-body", "answered from the dashboard");
    await page.click("#reply-form button[type=submit]");
    await page.locator("#reply-result", { hasText: "Replied" }).waitFor({ timeout: EVENTUALLY_MS });
    const reply = cliJson("inbox", "--as", "alice").messages.find((x) => x.reply_to === question.id);
    check(reply && reply.from === "human" && reply.body === "answered from the dashboard" &&
      reply.thread_id === question.thread_id, "alice has no reply in the thread");
    await shot(page, "message");
  });

  const target = cliJson("inbox", "--as", "bob").messages.find((x) => x.subject === "mailbox live two");
  await step("mark read from the page: bob's CLI inbox no longer lists it", async () => {
    await open(page, `#message/bob/${encodeURIComponent(target.id)}`, "button[data-action=read]");
    await page.locator("article.message .subject", { hasText: "mailbox live two" }).waitFor();
    check(cliJson("inbox", "--as", "bob").messages.some((x) => x.id === target.id), "not unread before");
    check(await page.locator("button[data-action=unread]").count() === 0, "Mark unread offered on an unread message");
    await page.click("button[data-action=read]");
    await page.locator("#action-result", { hasText: "read" }).waitFor({ timeout: EVENTUALLY_MS });
    check(!cliJson("inbox", "--as", "bob").messages.some((x) => x.id === target.id), "still unread for bob");
    // One toggle: the read message offers Mark unread instead.
    await page.locator("button[data-action=unread]").waitFor({ timeout: EVENTUALLY_MS });
    check(await page.locator("button[data-action=read]").count() === 0, "Mark read still offered on a read message");
    const r = cliJson("status", target.id).recipients.find((x) => x.recipient === "bob");
    check(r.read_at !== null, `bob's delivery: ${JSON.stringify(r)}`);
  });

  await step("archive and unarchive from the page change bob's delivery", async () => {
    await page.click("button[data-action=archive]");
    await page.locator("#action-result", { hasText: "archive" }).waitFor({ timeout: EVENTUALLY_MS });
    const archived = cliJson("status", target.id).recipients.find((x) => x.recipient === "bob");
    check(archived.archived_at !== null, "not archived for bob");
    await page.locator("button[data-action=unarchive]").waitFor({ timeout: EVENTUALLY_MS });
    check(await page.locator("button[data-action=archive]").count() === 0, "Archive still offered on an archived message");
    await page.click("button[data-action=unarchive]");
    await page.locator("#action-result", { hasText: "unarchive" }).waitFor({ timeout: EVENTUALLY_MS });
    const back = cliJson("status", target.id).recipients.find((x) => x.recipient === "bob");
    check(back.archived_at === null, "still archived for bob");
  });

  await step("the Out and All tabs", async () => {
    await open(page, "#mailbox/alice/out", "#message-list");
    await page.locator("#message-list tbody tr", { hasText: "team live one" }).waitFor({ timeout: EVENTUALLY_MS });
    await page.click("#tab-all");
    await page.locator("#message-list tbody tr", { hasText: "Re: question for the operator" }).waitFor({ timeout: EVENTUALLY_MS });
  });

  await step("a thread opens oldest first", async () => {
    await open(page, `#thread/human/${encodeURIComponent(question.thread_id)}`, "article.message");
    const subjects = await page.locator("article.message .subject").allTextContents();
    check(subjects[0] === "question for the operator" && subjects[1] === "Re: question for the operator",
      `thread: ${subjects}`);
  });

  await step("a trace opens as a tree with each message's state and timing", async () => {
    // The reply form is the message view's own: the thread's cards are gone once it shows.
    await open(page, `#message/human/${encodeURIComponent(question.id)}`, "#reply-form");
    await page.locator("article.message a[href^=\"#trace/\"]").click();
    await page.locator("#trace-tree").waitFor({ timeout: EVENTUALLY_MS });
    const nested = page.locator("#trace-tree > li > ul > li", { hasText: "Re: question for the operator" });
    await nested.waitFor({ timeout: EVENTUALLY_MS });
    const top = await page.locator("#trace-tree > li").first().textContent();
    check(top.includes("human: ") && top.includes("+0 ms"), `the root's state and timing: ${top}`);
    const child = await nested.textContent();
    check(/after its parent/.test(child) && child.includes("alice: unread"), `the reply's state and timing: ${child}`);
    await shot(page, "trace");
  });

  await step("a request's life on the page: a declined request in the message view and its trace", async () => {
    const sent = cliJson("send", "--as", "alice", "bob", "--type", "task_request", "-s", "life of a request", "-m", "please");
    cli("decline", "--as", "bob", sent.id, "--reason", "not my area");
    await open(page, `#message/bob/${encodeURIComponent(sent.id)}`, "#recipients");
    await eventually("bob's delivery shows rejected", async () =>
      (await page.locator("#recipients tbody tr", { hasText: "bob" }).textContent()).includes("rejected"));
    const card = await page.locator("article.message dl").first().textContent();
    check(card.includes("Request") && card.includes("rejected"), `the message's own request state: ${card}`);
    await page.locator("article.message a[href^=\"#trace/\"]").first().click(); // a request always has a trace
    const root = page.locator("#trace-tree > li", { hasText: "life of a request" });
    await root.waitFor({ timeout: EVENTUALLY_MS });
    const line = await root.locator(".recipients").first().textContent();
    check(line.includes("bob: ") && line.includes("request rejected"), `the trace's recipients line: ${line}`);
  });

  await step("a claimed and a set-aside request: claim (holder, lease left), attempts and set-aside in the message, trace and Team views", async () => {
    // Set aside: a handler that fails its only attempt.
    const aside = cliJson("send", "--as", "alice", "erin", "--type", "task_request", "-s", "set aside job", "-m", "x");
    cli("--as", "erin", "watch", "--once", "--max-attempts", "1", "--exec", "false");
    // Claimed: a watcher whose handler is still running holds the claim.
    const held = cliJson("send", "--as", "alice", "frank", "--type", "task_request", "-s", "claimed job", "-m", "x");
    const watcher = spawn(MAILROOM, ["--as", "frank", "watch", "--lease", "5m", "--exec", "sleep", "20"],
      { stdio: "ignore" });
    const ended = new Promise((resolve) => watcher.on("exit", resolve));
    try {
      let claim = null;
      await eventually("frank's watcher claims the request", async () =>
        (claim = cliJson("status", held.id).recipients[0].claim) !== null);
      await open(page, `#message/frank/${encodeURIComponent(held.id)}`, "#recipients");
      const row = await page.locator("#recipients tbody tr", { hasText: "frank" }).textContent();
      check(row.includes(`claimed by ${claim.claimed_by}, lease `) && /lease [45]m(\d+s)? left/.test(row) &&
        row.includes("1 handler attempt") && row.includes("working"), `frank's delivery: ${row}`);
      await shot(page, "message-claimed");

      await page.locator("article.message a[href^=\"#trace/\"]").first().click();
      const line = await page.locator("#trace-tree > li", { hasText: "claimed job" }).locator(".recipients").first();
      await line.waitFor({ timeout: EVENTUALLY_MS });
      const traced = await line.textContent();
      check(traced.includes("frank: ") && traced.includes(`claimed by ${claim.claimed_by}`) &&
        traced.includes("1 handler attempt"), `the trace's recipients line: ${traced}`);

      await open(page, "#team", "#team-table");
      const frank = page.locator("#team-table tbody tr", { has: page.locator("th", { hasText: /^frank$/ }) });
      await eventually("Team's Working on names the subject and the lease", async () => {
        const cell = await frank.locator("td.working").textContent();
        return cell.includes("claimed job") && /lease \d+m\d*s? left/.test(cell);
      });
      await shot(page, "team-working");
    } finally {
      watcher.kill("SIGTERM");
      await ended;
    }

    await open(page, `#message/erin/${encodeURIComponent(aside.id)}`, "#recipients");
    const row = await page.locator("#recipients tbody tr", { hasText: "erin" }).textContent();
    check(row.includes("set aside ") && row.includes("1 handler attempt") && row.includes("failed") &&
      !row.includes("claimed by"), `erin's delivery: ${row}`);
    const statusAside = cliJson("status", aside.id).recipients[0];
    check(statusAside.set_aside_at !== null && statusAside.handler_attempts === 1, `status: ${JSON.stringify(statusAside)}`);
  });

  await stepNeeding(page, ["traces?limit=1"], "the recent traces list the trace", async () => {
    await open(page, "#traces", "#trace-list");
    await page.locator("#trace-list a", { hasText: "question for the operator" }).click();
    await page.locator("#trace-tree > li", { hasText: "question for the operator" }).waitFor({ timeout: EVENTUALLY_MS });
    await open(page, "#traces", "#trace-list");
    await shot(page, "traces");
  });

  // Every pair (GET peers), or each mailbox's own peers where the server has no peers --all.
  await step("Health: the sender x recipient matrix", async () => {
    await open(page, "#health", "#health-matrix");
    const header = await page.locator("#health-matrix thead").textContent();
    check(header.includes("bob") && header.includes("carol"), `matrix columns: ${header}`);
    const aliceRow = await page.locator("#health-matrix tbody tr", { hasText: "alice" }).first().textContent();
    check(aliceRow.includes("pending"), `alice's row: ${aliceRow}`);
    await shot(page, "health");
  });

  await step("Search finds a message in one mailbox and shows the matching snippet", async () => {
    await open(page, "#search", "#search-q");
    await page.fill("#search-q", "browser");
    await page.selectOption("#search-mailbox", { label: "carol" });
    await page.press("#search-q", "Enter");
    const hit = page.locator("#search-table tbody tr", { hasText: "from the dashboard" });
    await hit.waitFor({ timeout: EVENTUALLY_MS });
    const snippet = await hit.locator(".snippet").textContent();
    check(snippet === "composed in a browser", `the snippet: ${snippet}`);
    await shot(page, "search");
  });

  await stepNeeding(page, ["search?q=x&mailbox=*"], "Search finds a message in every mailbox", async () => {
    await open(page, "#search", "#search-q");
    await page.fill("#search-q", "operator");
    await page.selectOption("#search-mailbox", { index: 0 });
    await page.press("#search-q", "Enter");
    // The operator's question (human's mail) and alice's answer to it (alice's): two mailboxes' mail.
    const table = page.locator("#search-table");
    await table.getByRole("link", { name: "question for the operator", exact: true }).waitFor({ timeout: EVENTUALLY_MS });
    await table.getByRole("link", { name: "Re: question for the operator", exact: true }).waitFor({ timeout: EVENTUALLY_MS });
  });

  await wakeSteps(page);

  await scheduleSteps(page);

  await step("a mailbox named rig/name is addressed percent-encoded", async () => {
    cli("send", "--as", "alice", "rig/name", "-s", "to a rig", "-m", "x");
    await open(page, `#mailbox/${encodeURIComponent("rig/name")}/in`, "#message-list");
    await page.locator("#message-list tbody tr", { hasText: "to a rig" }).waitFor({ timeout: EVENTUALLY_MS });
  });

  // SQLite only: its file moved away under serve (as serve_degraded.sh does) and back.
  const db = process.env.MAILROOM_DB || "";
  if (db.startsWith("/") && existsSync(db)) {
    await step("the store away: the page says so instead of an all-clear, and recovers", async () => {
      await open(page, "#health", "#health-matrix");
      renameSync(db, `${db}.away`);
      try {
        const notice = page.locator("#degraded", { hasText: "The store is not answering" });
        await notice.waitFor({ timeout: EVENTUALLY_MS });
        // A view opened now: the notice, and no empty team or health passing for an all-clear.
        await open(page, "#team", null);
        await page.waitForTimeout(300);
        check(await notice.isVisible(), "the notice went away while the store is away");
        check(await page.locator("#team-table").count() === 0, "Team drew a table without its store");
        await open(page, "#health", null);
        await page.waitForTimeout(300);
        check(await page.locator("#health-summary").count() === 0, "Health drew a summary without its store");
        await shot(page, "store-away");
      } finally {
        renameSync(`${db}.away`, db);
      }
      await page.locator("#degraded").waitFor({ state: "hidden", timeout: EVENTUALLY_MS });
      await page.locator("#health-matrix").waitFor({ timeout: EVENTUALLY_MS });
    });
  } else {
    console.log("skip the store away: a PostgreSQL store (postgres_serve_degraded.sh covers its API)");
  }

  await layoutSteps(page);

  if (process.env.DOCS_SCREENSHOT) {
    await step("the README's screenshot", async () => {
      cli("send", "--as", "carol", "bob", "-s", "review PR #142: retry budget", "-m", "see the diff", "--priority", "high");
      cli("send", "--as", "alice", "bob", "-s", "deploy window moved to 14:00", "-m", "ok?", "--ack");
      await page.setViewportSize({ width: 1100, height: 560 });
      await open(page, "#mailbox/bob/all", "#message-list");
      await page.locator("#message-list tbody tr", { hasText: "deploy window" }).waitFor({ timeout: EVENTUALLY_MS });
      await page.waitForTimeout(500);
      await page.screenshot({ path: process.env.DOCS_SCREENSHOT });
    });
  }
}

check(guard.requests > 0, "the page made no request");
report(guard);
await close();
console.log(`${BASE}: ${failed() === 0 ? "all passed" : `${failed()} failure(s)`}`);
process.exit(failed() === 0 ? 0 : 1);
