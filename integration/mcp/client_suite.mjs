// Drives `mailroom mcp` through the official MCP TypeScript client (@modelcontextprotocol/client,
// pinned in package-lock.json), in both eras. Run by integration/mcp_client.sh, which prepares a
// store with the mailboxes alice, bob and carol and a workspace directory ($WORK). The client
// validates every structuredContent against its tool's outputSchema, so each callTool below is
// also a schema check. Exits non-zero on the first failure.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { resourceSteps } from './resource_steps.mjs';
import { TOOL_COUNT } from './tool_count.mjs';

const MAILROOM = process.env.MAILROOM;
const DB = process.env.MAILROOM_DB;
const WORK = process.env.WORK;
const SMOKE = process.env.MAILROOM_SANITIZED === '1';

function baseEnv(extra = {}) {
  return { PATH: process.env.PATH, HOME: process.env.HOME, MAILROOM_DB: DB, ...extra };
}

async function connect(identity, mode, { args = ['mcp'], env, cwd } = {}) {
  const transport = new StdioClientTransport({
    command: MAILROOM,
    args,
    env: env ?? baseEnv(identity ? { MAILROOM_IDENTITY: identity } : {}),
    cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mailroom-suite', version: '1' },
                            { versionNegotiation: { mode } });
  await client.connect(transport);
  return client;
}

function text(result) { return result.content.map((c) => c.text).join(''); }

async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name} failed: ${text(result)}`);
  return result;
}

const steps = [];
function step(name, fn) { steps.push([name, fn]); }

for (const mode of ['legacy', 'auto']) {
  step(`${mode}: negotiates its era, lists 29 tools, calls every tool`, async () => {
    const alice = await connect('alice', mode);
    const bob = await connect('bob', mode);
    try {
      const version = alice.getNegotiatedProtocolVersion();
      assert.equal(version, mode === 'legacy' ? '2025-11-25' : '2026-07-28', `negotiated ${version}`);
      const { tools } = await alice.listTools();
      assert.equal(tools.length, TOOL_COUNT);
      // Both schemas of every tool are valid JSON Schema 2020-12 (the dialect MCP names).
      const ajv2020 = new AjvJsonSchemaValidator().ajv;
      for (const tool of tools) {
        assert.ok(tool.inputSchema && tool.outputSchema, `${tool.name} has both schemas`);
        for (const schema of [tool.inputSchema, tool.outputSchema]) {
          assert.ok(ajv2020.validateSchema(schema), `${tool.name}: ${JSON.stringify(ajv2020.errors)}`);
        }
      }
      const sent = await call(bob, 'send', { to: 'alice', subject: `hello ${mode}`, body: 'first', type: 'request', ack: true });
      const id = sent.structuredContent.id;
      assert.equal(sent.structuredContent.mailbox, 'bob');
      const results = {};
      const calls = [
        ['count', {}], ['check', {}], ['inbox', { all: true }], ['search', { query: 'first' }],
        ['peek', { id }], ['read', { id: id.slice(0, 9) }], ['thread', { id }], ['trace', { id }],
        ['ack', { ids: id }], ['mark_unread', { ids: [id] }], ['mark_read', { ids: id }],
        ['archive', { ids: id }], ['unarchive', { ids: id }], ['reply', { id, body: 'got it' }],
        ['sent', {}], ['status', { id: results.reply_id ?? id }], ['peers', {}], ['team', {}], ['agents', {}],
        ['wait', { timeout: '1s' }], ['delete', { ids: id }],
      ];
      for (const [name, args] of calls) {
        results[name] = await call(alice, name, args);
        assert.equal(results[name].structuredContent.mailbox, 'alice', `${name} names its mailbox`);
        assert.ok(text(results[name]).includes('mailroom '), `${name} has a content block`);
      }
      assert.equal(results.read.structuredContent.message.read, true);
      assert.equal(results.peek.structuredContent.message.body, 'first');
      assert.equal(results.wait.structuredContent.outcome, 'timed_out');
      assert.equal(results.reply.structuredContent.reply_to, id);
      assert.equal(results.sent.structuredContent.messages[0].reply_to, id);
      const agents = results.agents.structuredContent.agents.map((a) => a.name);
      assert.ok(agents.includes('bob') && agents.includes('carol'));
    } finally {
      await alice.close();
      await bob.close();
    }
  });
}

step('schedule_add, schedule_list and schedule_cancel: a recurring schedule and a one-shot', async () => {
  const alice = await connect('alice', 'auto');
  try {
    const added = await call(alice, 'schedule_add', {
      name: 'standup', to: 'bob', cron: '0 9 * * mon-fri', tz: 'Europe/Berlin', subject: 'standup', body: 'notes?',
    });
    const schedule = added.structuredContent.schedule;
    assert.deepEqual(added.structuredContent.ids, ['standup']);
    assert.equal(schedule.rule.cron, '0 9 * * mon-fri');
    assert.equal(schedule.rule.tz, 'Europe/Berlin');
    assert.equal(schedule.type, 'cron_task');
    assert.match(schedule.next_at, /T0[78]:00:00\.000Z$/);
    const warnings = added.structuredContent.warnings ?? [];
    assert.ok(warnings.some((w) => w.code === 'no_firer'), 'no firer has run: the agent is told');
    const later = await call(alice, 'schedule_add', { to: ['bob'], in: '1h', body: 'later' });
    assert.match(later.structuredContent.schedule.name, /^once-[0-9a-f]{4}$/);
    assert.ok(later.structuredContent.schedule.rule.at);
    const bad = await alice.callTool({ name: 'schedule_add', arguments: { name: 'x', to: 'bob', cron: '61 * * * *', body: 'b' } });
    assert.equal(bad.isError, true);
    assert.equal(bad.structuredContent.error.code, 'usage');
    assert.match(bad.structuredContent.error.message, /minute "61" is out of range/);
    const listed = await call(alice, 'schedule_list');
    const names = listed.structuredContent.schedules.map((x) => x.name).sort();
    assert.deepEqual(names, [later.structuredContent.schedule.name, 'standup'].sort());
    const canceled = await call(alice, 'schedule_cancel', { name: ['standup', later.structuredContent.schedule.name] });
    assert.equal(canceled.structuredContent.ids.length, 2);
    assert.equal((await call(alice, 'schedule_list')).structuredContent.schedules.length, 0);
    const unknown = await alice.callTool({ name: 'schedule_cancel', arguments: { name: 'stnadup' } });
    assert.equal(unknown.isError, true);
    assert.equal(unknown.structuredContent.error.code, 'not_found');
  } finally {
    await alice.close();
  }
});

step('arguments that fail the inputSchema are an isError usage result; unknown tools are -32602', async () => {
  const alice = await connect('alice', 'legacy');
  try {
    const bad = await alice.callTool({ name: 'inbox', arguments: { limit: 'ten' } });
    assert.equal(bad.isError, true);
    assert.equal(bad.structuredContent.error.code, 'usage');
    const other = await alice.callTool({ name: 'inbox', arguments: { mailbox: 'bob' } });
    assert.equal(other.isError, true, 'another mailbox needs --open-views');
    await assert.rejects(alice.callTool({ name: 'no_such_tool', arguments: {} }), (e) => e.code === -32602);
  } finally {
    await alice.close();
  }
});

step('a cancelled wait with read marks nothing', async () => {
  const alice = await connect('alice', 'auto');
  const bob = await connect('bob', 'legacy');
  try {
    await call(alice, 'mark_read', { all: true });
    const controller = new AbortController();
    const waiting = alice.callTool({ name: 'wait', arguments: { read: true, timeout: '20s', from: 'carol' } },
                                   { signal: controller.signal });
    setTimeout(() => controller.abort('changed my mind'), 300);
    await assert.rejects(waiting);
    await call(bob, 'send', { to: 'alice', body: 'after the cancel' });
    await new Promise((r) => setTimeout(r, 300));
    const count = await call(alice, 'count');
    assert.equal(count.structuredContent.unread, 1, 'the cancelled wait took nothing');
    await call(alice, 'mark_read', { all: true });
  } finally {
    await alice.close();
    await bob.close();
  }
});

step('a wait and a send run concurrently on one server; request/response between two servers', async () => {
  const alice = await connect('alice', 'auto');
  const bob = await connect('bob', 'legacy');
  try {
    const waiting = call(alice, 'wait', { from: 'bob', read: true, timeout: '20s' });
    await new Promise((r) => setTimeout(r, 200));
    const own = await call(alice, 'count'); // answered while the wait runs
    assert.equal(own.structuredContent.mailbox, 'alice');
    await call(bob, 'send', { to: 'alice', subject: 'ping', body: 'are you there?' });
    const got = await waiting;
    assert.equal(got.structuredContent.outcome, 'found');
    assert.equal(got.structuredContent.message.subject, 'ping');
    // bob asks, alice answers: send wait_reply on one server, wait + reply on the other.
    const asking = call(bob, 'send', { to: 'alice', subject: 'question', body: '2+2?', type: 'request', wait_reply: true, timeout: '20s' });
    const request = await call(alice, 'wait', { from: 'bob', read: true, timeout: '20s' });
    await call(alice, 'reply', { id: request.structuredContent.message.id, body: '4' });
    const answered = await asking;
    assert.equal(answered.structuredContent.outcome, 'replied');
    assert.equal(answered.structuredContent.reply.body, '4');
  } finally {
    await alice.close();
    await bob.close();
  }
});

step('the life of a request through the tools: ask and its answer, decline, fail, cancel, and who may', async () => {
  const alice = await connect('alice', 'auto');
  const bob = await connect('bob', 'legacy');
  try {
    const state = async (id) => (await call(alice, 'status', { id })).structuredContent.recipients
      .find((r) => r.recipient === 'bob').request_state;
    const ask = async (subject) => (await call(alice, 'send', { to: 'bob', subject, body: 'please', type: 'task_request' }))
      .structuredContent.id;
    const unclear = await ask('unclear');
    const question = await call(bob, 'ask', { id: unclear, question: 'which branch?' });
    assert.equal(question.structuredContent.request_state, 'input_required');
    assert.equal(question.structuredContent.reply_to, unclear);
    assert.equal(await state(unclear), 'input_required');
    const peeked = await call(bob, 'peek', { id: unclear });
    assert.equal(peeked.structuredContent.message.request_state, 'input_required');
    // The question is alice's to answer; answering it takes the request up again.
    await call(alice, 'reply', { id: question.structuredContent.id, body: 'main' });
    assert.equal(await state(unclear), 'working');
    const refused = await ask('refused');
    const declined = await call(bob, 'decline', { id: refused, reason: 'not my area' });
    assert.equal(declined.structuredContent.request_state, 'rejected');
    assert.ok(text(declined).includes('Declined'));
    const broken = await ask('broken');
    await call(bob, 'fail', { id: broken, reason: 'disk full' });
    assert.equal(await state(broken), 'failed');
    // Refusals are isError results with the contract's codes; nothing moved.
    const again = await bob.callTool({ name: 'fail', arguments: { id: refused } });
    assert.equal(again.isError, true);
    assert.equal(again.structuredContent.error.code, 'conflict');
    const withdrawn = await ask('withdrawn');
    const notMine = await bob.callTool({ name: 'cancel', arguments: { id: withdrawn } });
    assert.equal(notMine.isError, true);
    assert.equal(notMine.structuredContent.error.code, 'not_sender');
    const canceled = await call(alice, 'cancel', { id: withdrawn, reason: 'no longer needed' });
    assert.deepEqual(canceled.structuredContent.canceled, ['bob']);
    assert.ok(canceled.structuredContent.notice);
    assert.equal(await state(withdrawn), 'canceled');
    const plain = (await call(alice, 'send', { to: 'bob', body: 'fyi' })).structuredContent.id;
    const noRequest = await bob.callTool({ name: 'decline', arguments: { id: plain } });
    assert.equal(noRequest.structuredContent.error.code, 'usage');
    await call(alice, 'mark_read', { all: true });
    await call(bob, 'mark_read', { all: true });
  } finally {
    await alice.close();
    await bob.close();
  }
});

step('a result over 48 KiB is cut at a whole message; next_cursor pages through the rest once', async () => {
  const bob = await connect('bob', 'legacy');
  const carol = await connect('carol', 'auto');
  try {
    // Bodies of escapes: each ESC is six bytes in JSON, so three messages cannot share one result.
    const escapes = '\u001b'.repeat(20000);
    for (const n of [1, 2, 3]) {
      await call(bob, 'send', { to: 'carol', subject: `esc ${n}`, body: escapes });
    }
    for (const [tool, args] of [['check', { limit: 100 }], ['inbox', { max_body_bytes: 1 << 20 }]]) {
      const seen = new Set();
      let cursor;
      for (let page = 0; ; page++) {
        assert.ok(page < 10, `${tool}: too many pages`);
        const result = await call(carol, tool, cursor ? { ...args, cursor } : args);
        const doc = result.structuredContent;
        assert.ok(Buffer.byteLength(JSON.stringify(result)) <= 48 * 1024, `${tool} page ${page} is within 48 KiB`);
        assert.equal(doc.total, 3, `${tool}: total stays`);
        for (const message of doc.messages) {
          assert.ok(!seen.has(message.id), `${tool}: ${message.id} on one page only`);
          seen.add(message.id);
          assert.equal(message.body_truncated, true);
        }
        if (!doc.has_more) {
          assert.equal(doc.next_cursor, null);
          break;
        }
        cursor = doc.next_cursor;
      }
      assert.equal(seen.size, 3, `${tool}: every message once`);
    }
    const bad = await carol.callTool({ name: 'inbox', arguments: { cursor: 'not-a-cursor' } });
    assert.equal(bad.isError, true);
    assert.equal(bad.structuredContent.error.code, 'usage');
    await call(carol, 'mark_read', { all: true });
  } finally {
    await bob.close();
    await carol.close();
  }
});

step('a server started without env answers no_identity; the installed configuration forwards it', async () => {
  // Only what the SDK passes by default (HOME, PATH, ...): no MAILROOM_IDENTITY, the store from
  // the workspace (cwd).
  const bare = await connect(null, 'legacy', { env: {}, cwd: WORK });
  try {
    const { tools } = await bare.listTools();
    assert.equal(tools.length, TOOL_COUNT, 'tools/list works without an identity');
    const result = await bare.callTool({ name: 'count', arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent.error.code, 'no_identity');
    assert.match(text(result), /MAILROOM_IDENTITY/);
  } finally {
    await bare.close();
  }
  // .mcp.json as `mailroom mcp install claude` wrote it, expanded as Claude Code does.
  const config = JSON.parse(readFileSync(`${WORK}/.mcp.json`, 'utf8')).mcpServers.mailroom;
  // Claude Code expands ${VAR} and ${VAR:-default}; an unset ${VAR} stays as written.
  const expand = (s) => s.replace(/\$\{([A-Z_]+)(?::-([^}]*))?\}/g,
    (whole, name, fallback) => ({ MAILROOM_IDENTITY: 'carol' })[name] ?? fallback ?? whole);
  const args = config.args.map(expand);
  const env = Object.fromEntries(Object.entries(config.env ?? {}).map(([k, v]) => [k, expand(v)]));
  const installed = await connect(null, 'legacy', { args, env, cwd: WORK });
  try {
    const count = await call(installed, 'count');
    assert.equal(count.structuredContent.mailbox, 'carol');
  } finally {
    await installed.close();
  }
});

resourceSteps({ step, connect, call, MAILROOM, env: baseEnv });

let failed = 0;
for (const [name, fn] of steps) {
  if (SMOKE && !name.startsWith('legacy')) {
    continue;
  }
  const started = Date.now();
  try {
    await fn();
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}: ${error.stack ?? error}`);
  }
}
process.exit(failed ? 1 : 0);
