// integration/browser/dashboard_wake.mjs: dashboard.mjs's wake step (issue #46). Two mailboxes get
// argv wake targets (docs/wake.md): ivan's touches a file named after the message id, judy's is
// `false`. Urgent mail to each is woken by the send's own detached `wake-run` child (a
// `mailroom wake-run` pass is run too, in case the child has not yet claimed it). The CLI's `team`
// records ivan's wake `sent` and judy's `failed` (`wake_failed`); the Team panel shows each
// mailbox's target, its last wake's outcome and age, and judy's as a wake failure.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cli, cliJson, check, stepNeeding, eventually, shot, open, ARTIFACTS, EVENTUALLY_MS } from "./lib.mjs";

export async function wakeSteps(page) {
  await stepNeeding(page, ["team"], "Team's wake column: a target's last wake sent, a failing target a wake failure", async () => {
    cli("agents", "add", "ivan", "judy");
    const woken = join(ARTIFACTS, "woken-{id}");
    cli("agents", "set", "ivan", "--wake", "touch", woken);
    cli("agents", "set", "judy", "--wake", "false");
    const toIvan = cliJson("send", "--as", "alice", "ivan", "--urgent", "-s", "wake ivan", "-m", "now").id;
    const toJudy = cliJson("send", "--as", "alice", "judy", "--urgent", "-s", "wake judy", "-m", "now").id;

    const wakeOf = (name) => cliJson("team").mailboxes.find((m) => m.mailbox === name);
    let ivan, judy;
    await eventually("team records both wakes", async () => {
      ivan = wakeOf("ivan");
      judy = wakeOf("judy");
      if (ivan.wake?.outcome && judy.wake?.outcome) return true;
      cli("wake-run"); // a pass: runs what no process has claimed yet (none, once the children ran)
      return false;
    });
    check(ivan.wake.outcome === "sent" && ivan.wake_failed === false && ivan.wake.last_at,
      `ivan's wake in team --json: ${JSON.stringify(ivan)}`);
    check(existsSync(join(ARTIFACTS, `woken-${toIvan}`)), `ivan's target did not run for ${toIvan}`);
    check(judy.wake.outcome === "failed" && judy.wake_failed === true,
      `judy's wake in team --json: ${JSON.stringify(judy)}`);
    check(!existsSync(join(ARTIFACTS, `woken-${toJudy}`)), "judy's mail ran ivan's target");

    await open(page, "#team", "#team-table");
    const rowOf = (name) => page.locator("#team-table tbody tr", { has: page.locator("th", { hasText: new RegExp(`^${name}$`) }) });
    const ivanCell = rowOf("ivan").locator("td.wake");
    const judyCell = rowOf("judy").locator("td.wake");
    await eventually("Team shows ivan's wake sent", async () => {
      const cell = await ivanCell.textContent();
      return cell.startsWith("touch ") && / sent \S/.test(cell);
    });
    await eventually("Team shows judy's wake failed", async () => {
      const cell = await judyCell.textContent();
      return cell.startsWith("false failed ");
    });
    check(await judyCell.evaluate((e) => e.classList.contains("wake-failed")), "judy's wake is not marked a failure");
    check(!await ivanCell.evaluate((e) => e.classList.contains("wake-failed")), "ivan's wake is marked a failure");
    check(await judyCell.evaluate((e) => getComputedStyle(e).color) !== await ivanCell.evaluate((e) => getComputedStyle(e).color),
      "judy's failed wake looks like ivan's sent one");
    await judyCell.scrollIntoViewIfNeeded({ timeout: EVENTUALLY_MS });
    await shot(page, "team-wake");
  });
}
