// integration/browser/hostile.mjs: the hostile corpus (control characters, bidi overrides, tag
// characters, markup, event handlers, javascript: links) in subjects, bodies, mailbox names and
// schedules, on every panel: no dialog, no script run, no element made from data, no request
// outside the page and its API; the text shows as the terminal gate shows it, in bidi-isolated
// elements.
// The page's sanitizer (assets/safe.js) is checked against the terminal gate's cases too.
import { launch, signIn, cliJson, check, step, shot, open, report, failed, EVENTUALLY_MS } from "./lib.mjs";

const HOSTILE_NAME = process.env.HOSTILE_NAME; // a mailbox name put in the store behind the CLI's back
const { context, guard, close } = await launch();
let page;

// What may be in the document: the page's own structure, never an element made from data.
async function inert(where) {
  const found = await page.evaluate(() => {
    const bad = [];
    for (const el of document.querySelectorAll("*")) {
      const tag = el.tagName.toLowerCase();
      if (["img", "iframe", "object", "embed", "svg", "math", "style", "video", "audio", "source", "base",
        "frame", "frameset", "template", "picture"].includes(tag)) bad.push(`<${tag}>`);
      if (tag === "form" && el.hasAttribute("action")) bad.push("form[action]");
      if (tag === "script" && el.getAttribute("src") !== "/assets/app.js") bad.push("<script>");
      if (tag === "link" && !["/assets/style.css", "data:,"].includes(el.getAttribute("href"))) bad.push("<link>");
      for (const a of el.attributes) {
        if (a.name.startsWith("on")) bad.push(`${tag}[${a.name}]`);
        if (a.name === "style") bad.push(`${tag}[style]`);
      }
      if (tag === "a") {
        const href = el.getAttribute("href") || "";
        if (!/^#[a-z]+(\/[A-Za-z0-9%._~-]*)*$/.test(href)) bad.push(`a[href=${href}]`);
      }
    }
    return bad;
  });
  check(found.length === 0, `${where}: elements or attributes from data: ${found.join(", ")}`);
  const pwned = await page.evaluate(() => window.pwned === true);
  check(!pwned, `${where}: a script from the data ran`);
}

// Every element whose text shows an escape the gate made is bidi-isolated.
async function isolated(where) {
  const bad = await page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!/<U\+|\^\[|<script>|onerror/.test(n.data)) continue;
      const el = n.parentElement;
      if (getComputedStyle(el).unicodeBidi !== "isolate") out.push(el.tagName + ":" + n.data.slice(0, 40));
      if (/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u001b\u0007]/.test(n.data)) out.push("raw control: " + n.data.slice(0, 40));
    }
    return out;
  });
  check(bad.length === 0, `${where}: text not isolated or not neutralised: ${bad.join(" | ")}`);
}

await step("sign in", async () => {
  page = await signIn(context);
});

await step("the page's sanitizer gives the terminal gate's escapes", async () => {
  const cases = [
    ["plain", "plain", true],
    ["a\u001b[31mred", "a^[[31mred", true],
    ["bell\u0007", "bell^G", true],
    ["del\u007f", "del^?", true],
    ["c1\u009b", "c1\\x9b", true],
    ["rtl\u202eevil", "rtl<U+202E>evil", true],
    ["iso\u2066x\u2069", "iso<U+2066>x<U+2069>", true],
    ["zw\u200bsp", "zw<U+200B>sp", true],
    ["tag\u{E0041}\u{E007F}", "tag<U+E0041><U+E007F>", true],
    ["line\u2028sep", "line<U+2028>sep", true],
    ["non\uFFFE", "non<U+FFFE>", true],
    ["bom\uFEFF", "bom<U+FEFF>", true],
    ["a\n\r\tb", "a b", true],
    ["a\nb\tc", "a\nb\tc", false],
    ["a\rb", "a^Mb", false],
    ["\u2764\uFE0F", "\u2764\uFE0F", true],
    ["x\uFE0F", "x<U+FE0F>", true],
    ["\u{1F468}\u200D\u{1F469}", "\u{1F468}\u200D\u{1F469}", true],
    ["a\u200Db", "a<U+200D>b", true],
    ["caf\u00e9 \u0645\u0631\u062d\u0628\u0627", "caf\u00e9 \u0645\u0631\u062d\u0628\u0627", true],
    ["<script>alert(1)</script>", "<script>alert(1)</script>", true],
  ];
  const got = await page.evaluate(async (cs) => {
    const { clean } = await import("/assets/safe.js");
    return cs.map(([raw, , one]) => clean(raw, one));
  }, cases);
  cases.forEach(([raw, want], i) => check(got[i] === want, `clean(${JSON.stringify(raw)}) = ${JSON.stringify(got[i])}, want ${JSON.stringify(want)}`));
});

// The hostile messages to bob (browser_hostile.sh sent them and lists their ids).
const mine = (process.env.HOSTILE_IDS || "").split(" ").filter(Boolean)
  .map((id) => cliJson("peek", "--as", "bob", id).message);
check(mine.length === 3, `${mine.length} hostile messages, not 3`);

const views = [["#team", "#team-table"], ["#mailbox/bob/in", "#message-list"], ["#mailbox/bob/all", "#message-list"],
  ["#mailbox/alice/out", "#message-list"], ["#traces", "#trace-list"], ["#health", "#health-matrix"],
  ["#schedules", "#schedule-list"], ["#schedule/alice/hostile", "#firings"]];
if (HOSTILE_NAME) views.push([`#mailbox/${encodeURIComponent(HOSTILE_NAME)}/out`, ".panel:not([hidden]) h2"]);
for (const m of mine) {
  views.push([`#message/bob/${encodeURIComponent(m.id)}`, "article.message"]);
  views.push([`#trace/${encodeURIComponent(m.trace_id)}`, "#trace-tree"]);
  views.push([`#thread/bob/${encodeURIComponent(m.thread_id)}`, "article.message"]);
}

await step("every panel and view renders the corpus inert", async () => {
  for (const [hash, ready] of views) {
    try {
      // A view the server refuses shows its error line instead: that must be inert too.
      await open(page, hash, `${ready}, #error:not([hidden])`);
      await page.waitForTimeout(150); // the rest of the view (recipients, badges) lands after `ready`
    } catch (err) {
      check(false, `${hash}: ${err.message}`);
    }
    await inert(hash);
    await isolated(hash);
  }
  await open(page, "#mailbox/bob/all", "#message-list");
  const shown = await page.locator("#message-list").textContent();
  check(shown.includes("<script>window.pwned=true;alert(1)</script>"), "the markup is not shown as text");
  check(shown.includes("<U+202E>") && shown.includes("^["), "the controls are not shown as escapes");
  if (HOSTILE_NAME) {
    await open(page, "#team", "#team-table");
    const team = await page.locator("#team-table").textContent();
    check(team.includes('"><img src=x onerror=alert(1)>'), "the hostile mailbox name is not shown as text");
    await inert("#team with a hostile mailbox");
    await open(page, "#schedules", "#schedule-list");
    const owner = await page.locator("#schedule-list tbody tr", { hasText: "hostile-owner" }).textContent();
    check(owner.includes('"><img src=x onerror=alert(1)>'), "the hostile schedule owner is not shown as text");
    await inert("#schedules with a hostile owner");
  }
  await shot(page, "hostile-mailbox");
});

await step("search results (with their snippets) and the compose form with hostile input", async () => {
  await open(page, "#search", "#search-q");
  await page.fill("#search-q", "script");
  await page.press("#search-q", "Enter");
  await page.locator("#search-results p").first().waitFor({ timeout: EVENTUALLY_MS });
  await page.waitForTimeout(300);
  await inert("#search");
  await isolated("#search");
  await open(page, "#mailbox/human/in", "#compose-open");
  await page.click("#compose-open");
  await page.locator("#compose-form").waitFor({ timeout: EVENTUALLY_MS });
  await inert("the compose form and its registry picker");
  if (HOSTILE_NAME) {
    // The registry's hostile name is an option's text; picked, a chip's text.
    await page.selectOption("#compose-pick", { label: HOSTILE_NAME });
    const chip = await page.locator("#compose-chosen .chip").first().textContent();
    check(chip.includes(HOSTILE_NAME), `the picked hostile name shows as ${JSON.stringify(chip)}`);
    await inert("a hostile name picked as a recipient");
    await isolated("a hostile name picked as a recipient");
    await page.click("#compose-chosen .chip-remove");
  }
  await page.fill("#compose-to", '"><img src=x onerror=alert(1)>');
  await page.fill("#compose-body", "x");
  await page.click("#compose-form button[type=submit]");
  await page.locator("#compose-result", { hasText: "Not sent" }).waitFor({ timeout: EVENTUALLY_MS });
  await inert("compose error");
  await isolated("compose error");
});

report(guard);
await close();
console.log(failed() === 0 ? "all passed" : `${failed()} failure(s)`);
process.exit(failed() === 0 ? 0 : 1);
