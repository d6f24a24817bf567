// integration/browser/dashboard_layout.mjs: dashboard.mjs's steps about the page's layout and
// keyboard: a shortcut, Tab and Enter reach a message; a 128-byte mailbox name is cut with an
// ellipsis and shown whole on hover; narrow windows (360 px: nothing wider than the screen; 400 px:
// Team keeps Last seen and Health its Stale column).
import { cli, check, step, shot, open, EVENTUALLY_MS } from "./lib.mjs";

export async function layoutSteps(page) {
  await step("keyboard: a shortcut opens a panel, Tab reaches a message, Enter opens it", async () => {
    await open(page, "#team", "#team-table");
    await page.locator("body").focus();
    await page.keyboard.press("2");
    await page.locator("#mailbox-select").waitFor();
    await open(page, "#mailbox/bob/in", "#message-list a");
    await page.locator("#mailbox-select").focus();
    let opened = false;
    for (let i = 0; i < 20 && !opened; i++) {
      await page.keyboard.press("Tab");
      opened = await page.evaluate(() => !!document.activeElement.closest("#message-list"));
    }
    check(opened, "Tab never reached a message");
    await page.keyboard.press("Enter");
    await page.locator("article.message").waitFor({ timeout: EVENTUALLY_MS });
    check(page.url().includes("#message/bob/"), `Enter opened ${page.url()}`);
  });

  await step("a 128-byte mailbox name is cut with an ellipsis and shown whole on hover", async () => {
    const long = "n".repeat(128); // the longest name `agents add` accepts
    cli("agents", "add", long);
    cli("send", "--as", long, "alice", "-s", "from the long name", "-m", "x");
    await page.setViewportSize({ width: 1280, height: 860 });
    await open(page, "#team", "#team-table");
    const cell = page.locator("#team-table tbody th .name", { hasText: long });
    await cell.waitFor({ timeout: EVENTUALLY_MS });
    const off = await page.evaluate(() => [...document.querySelectorAll("#team-table th")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => e.innerText.trim().slice(0, 20)));
    check(off.length === 0, `Team columns beyond the right edge at 1280 px: ${off.join(", ")}`);
    const cut = await cell.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth, overflow: getComputedStyle(e).textOverflow }));
    check(cut.overflow === "ellipsis" && cut.scroll > cut.client, `the long name is not cut: ${JSON.stringify(cut)}`);
    await cell.hover();
    const whole = await cell.evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().height > 30);
    check(whole, "hovering the long name does not show it whole");
    await page.setViewportSize({ width: 360, height: 740 });
    await open(page, "#mailbox/alice/in", "#message-list");
    await page.locator("#message-list tbody tr", { hasText: "from the long name" }).waitFor({ timeout: EVENTUALLY_MS });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(overflow <= 1, `alice's In is ${overflow} px wider than a 360 px window`);
    await shot(page, "long-name-narrow");
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  await step("a narrow window: nothing wider than the screen", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const hash of ["#team", "#mailbox/bob/in", "#health", "#schedules/ended"]) {
      await open(page, hash, ".panel:not([hidden]) h2");
      await page.waitForTimeout(300);
      const overflow = await page.evaluate(() => document.body.scrollWidth - window.innerWidth);
      check(overflow <= 1, `${hash} is ${overflow} px wider than the window`);
    }
    await open(page, "#mailbox/bob/in", "#message-list");
    await shot(page, "mailbox-narrow");
    // At 400 px Team keeps Last seen and Health its Stale column, on screen.
    await page.setViewportSize({ width: 400, height: 740 });
    const onScreen = (sel) => page.evaluate((s) => [...document.querySelectorAll(s)].map((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth + 1;
    }), sel);
    await open(page, "#team", "#team-table");
    const seen = await onScreen("#team-table th.seen, #team-table td.seen");
    check(seen.length > 1 && seen.every(Boolean), `Team's Last seen at 400 px: ${seen}`);
    await shot(page, "team-400");
    await open(page, "#health", "#health-pairs");
    const staleHead = page.locator("#health-pairs th", { hasText: "Stale" });
    check(await staleHead.isVisible(), "Health's Stale column is hidden at 400 px");
    const stale = await onScreen("#health-pairs tr > :nth-child(3)");
    check(stale.length > 1 && stale.every(Boolean), `Health's Stale column at 400 px: ${stale}`);
    await shot(page, "health-400");
    await page.setViewportSize({ width: 1280, height: 860 });
  });
}
