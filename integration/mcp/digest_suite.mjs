// `mailroom mcp --digest` and the unknown_type warning through the official MCP client
// (@modelcontextprotocol/client, pinned), in both eras. Run by client_suite.bash after
// client_suite.mjs, on the same store (SQLite or PostgreSQL) with the mailboxes alice, bob and
// carol. The line is a second text block of every tool result, error results included, when the
// caller has unread mail; never in structuredContent; absent without unread mail. The client
// checks every structuredContent against its tool's outputSchema. Exits non-zero on a failure.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const MAILROOM = process.env.MAILROOM;
const DB = process.env.MAILROOM_DB;

async function connect(identity, mode, args) {
  const transport = new StdioClientTransport({
    command: MAILROOM,
    args,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MAILROOM_DB: DB, MAILROOM_IDENTITY: identity },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mailroom-digest', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  return client;
}

async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name} failed: ${JSON.stringify(result.content)}`);
  return result;
}

// The digest block of a result: the second text block, or undefined.
function digestOf(result) {
  assert.ok(result.content.length <= 2, `at most two blocks: ${JSON.stringify(result.content)}`);
  assert.ok(result.content.every((block) => block.type === 'text'));
  return result.content[1]?.text;
}

let failed = 0;
for (const mode of ['legacy', 'auto']) {
  const name = `${mode}: --digest adds the unread line to every result; send warns unknown_type`;
  const started = Date.now();
  const carol = await connect('carol', mode, ['mcp', '--digest']);
  const bob = await connect('bob', mode, ['mcp']);
  try {
    await call(carol, 'mark_read', { all: true });
    const quiet = await call(carol, 'count');
    assert.equal(digestOf(quiet), undefined, 'nothing unread: no line');

    // An undeclared type far from every known one is sent, with the warning naming task_request.
    const sent = await call(bob, 'send', { to: 'carol', subject: `digest ${mode}`, body: 'b', type: 'request' });
    const warnings = sent.structuredContent.warnings ?? [];
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.equal(warnings[0].code, 'unknown_type');
    assert.match(warnings[0].message, /did you mean task_request/);
    assert.equal(digestOf(sent), undefined, 'a server without --digest adds nothing');
    const near = await bob.callTool({ name: 'send', arguments: { to: 'carol', body: 'b', type: 'task_reqest' } });
    assert.equal(near.isError, true, 'a near typo is still refused');
    assert.equal(near.structuredContent.error.code, 'usage');
    await call(bob, 'send', { to: 'carol', subject: `ask ${mode}`, body: 'please', type: 'task_request' });

    const counted = await call(carol, 'count');
    assert.equal(digestOf(counted), 'mailroom: 2 unread (1 request awaits your reply)');
    assert.ok(!JSON.stringify(counted.structuredContent).includes('mailroom: 2 unread'),
              'never in structuredContent');
    assert.equal(counted.structuredContent.unread, 2);
    const listed = await call(carol, 'inbox');
    assert.equal(digestOf(listed), 'mailroom: 2 unread (1 request awaits your reply)');

    // An error result carries it too: a missing message, and arguments the inputSchema refuses.
    const missing = await carol.callTool({ name: 'read', arguments: { id: 'zz-nothing-here' } });
    assert.equal(missing.isError, true);
    assert.equal(digestOf(missing), 'mailroom: 2 unread (1 request awaits your reply)');
    const invalid = await carol.callTool({ name: 'inbox', arguments: { limit: 'ten' } });
    assert.equal(invalid.isError, true);
    assert.equal(digestOf(invalid), 'mailroom: 2 unread (1 request awaits your reply)');

    // Counted after the call's own change: marking everything read leaves no line.
    const cleared = await call(carol, 'mark_read', { all: true });
    assert.equal(digestOf(cleared), undefined);
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}: ${error.stack ?? error}`);
  } finally {
    await carol.close();
    await bob.close();
  }
}
process.exit(failed ? 1 : 0);
