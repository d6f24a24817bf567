// integration/browser/dashboard_schedules.mjs: dashboard.mjs's Schedules step. A schedule added
// with the CLI is listed, opened, paused (and resumed by the CLI, seen live), run now and canceled
// from the page, each change seen by the CLI.
import { cli, cliJson, check, stepNeeding, eventually, shot, open, EVENTUALLY_MS } from "./lib.mjs";

export async function scheduleSteps(page) {
  await stepNeeding(page, ["schedules?all=1", "events"], "Schedules: a CLI schedule listed, opened, paused and run now from the page", async () => {
    cli("schedule", "add", "nightly-report", "--as", "alice", "bob", "--every", "1h", "-s", "nightly report", "-m", "send it");
    const listed = () => cliJson("schedule", "list", "--all").schedules.find((x) => x.name === "nightly-report");
    await open(page, "#team", "#team-table");
    await page.locator("body").focus();
    await page.keyboard.press("6"); // the shortcut of the sixth link
    const row = page.locator("#schedule-list tbody tr", { hasText: "nightly-report" });
    await row.waitFor({ timeout: EVENTUALLY_MS });
    const cells = await row.locator("th, td").allTextContents();
    check(cells[1] === "alice" && cells[2] === "bob" && cells[3] === "every 1h" && cells[4] === "UTC" &&
      /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/.test(cells[5]) && cells[6] === "-" && cells[7] === "active",
      `the row: ${JSON.stringify(cells)}`);
    await shot(page, "schedules");
    await row.locator("td").nth(2).click(); // the row, not its link
    await page.locator("#schedule h3", { hasText: "nightly-report" }).waitFor({ timeout: EVENTUALLY_MS });
    check(page.url().endsWith("#schedule/alice/nightly-report"), `the row opened ${page.url()}`);
    await page.locator("#no-firings").waitFor({ timeout: EVENTUALLY_MS });

    await page.click("button[data-action=pause]");
    await page.locator("#schedule-result", { hasText: "Done: pause" }).waitFor({ timeout: EVENTUALLY_MS });
    check(listed().paused === true, `schedule list --json after Pause: ${JSON.stringify(listed())}`);
    await page.locator("#schedule .state", { hasText: "paused" }).waitFor({ timeout: EVENTUALLY_MS });
    check(await page.locator("button[data-action=resume]").isEnabled(), "Resume is not enabled on a paused schedule");
    check(await page.locator("button[data-action=pause]").isDisabled(), "Pause is enabled on a paused schedule");

    // A change made with the CLI reaches the open view live (schedule.changed).
    cli("schedule", "resume", "--as", "alice", "nightly-report");
    await page.locator("#schedule .state", { hasText: "active" }).waitFor({ timeout: EVENTUALLY_MS });
    check(await page.evaluate(() => window.mailroomNoReload === true), "the page was reloaded");

    await page.click("button[data-action=run-now]");
    await page.locator("#schedule-result", { hasText: "Fired: sent (run-now)" }).waitFor({ timeout: EVENTUALLY_MS });
    const fired = cliJson("inbox", "--as", "bob").messages.find((x) => x.subject === "nightly report");
    check(fired && fired.from === "alice" && fired.schedule === "nightly-report" && fired.body === "send it",
      `bob's inbox after Run now: ${JSON.stringify(fired)}`);
    const history = page.locator("#firings tbody tr").first();
    await history.waitFor({ timeout: EVENTUALLY_MS });
    let line = await history.textContent();
    check(fired && line.includes("sent (run-now)") && line.includes(fired.id) && line.includes("bob: submitted"),
      `the firing: ${line}`);
    check(listed().last?.outcome === "sent", `schedule list --json after Run now: ${JSON.stringify(listed())}`);

    // bob reads it: the firing's request state moves on the page live (request.state).
    cli("read", "--as", "bob", fired.id);
    await eventually("the firing shows bob working", async () =>
      (line = await page.locator("#firings tbody tr").first().textContent()).includes("bob: working"));
    await shot(page, "schedule");

    // Cancel asks for a second press; the canceled schedule is listed with "Show canceled".
    await page.click("button[data-action=cancel]");
    check(listed() !== undefined, "one press of Cancel canceled the schedule");
    await page.click("button[data-action=cancel]");
    await page.locator("#schedule .state", { hasText: "canceled" }).waitFor({ timeout: EVENTUALLY_MS });
    check(listed() === undefined, "the canceled schedule is still listed by the CLI");
    await open(page, "#schedules", "#schedule-list");
    await page.locator("#schedule-list tbody tr", { hasText: "nightly-report" }).waitFor({ state: "detached", timeout: EVENTUALLY_MS });
    await page.click("#schedules-ended");
    await page.locator("#schedule-list tbody tr", { hasText: "canceled" }).waitFor({ timeout: EVENTUALLY_MS });
  });
}
