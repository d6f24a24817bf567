// The rules decided below the surfaces, through `mailroom mcp` and the official MCP client (contract
// Round 4, "Three surfaces, one truth"): an empty message is refused as the CLI refuses it; the
// server's own MAILROOM_IDEMPOTENCY_KEY and TRACEPARENT never reach a call's send; inbox's
// `awaiting` lists what is owed. Run by integration/mcp_client_surfaces.sh with the mailboxes alice, bob and carol.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const MAILROOM = process.env.MAILROOM;
const DB = process.env.MAILROOM_DB;
const PARENT = '0af7651916cd43dd8448eb211c80319c';

async function connect(identity, extra = {}) {
  const transport = new StdioClientTransport({
    command: MAILROOM,
    args: ['mcp'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MAILROOM_DB: DB, MAILROOM_IDENTITY: identity, ...extra },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mailroom-surfaces', version: '1' });
  await client.connect(transport);
  return client;
}

function text(result) { return result.content.map((c) => c.text).join(''); }

async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name} failed: ${text(result)}`);
  return result.structuredContent;
}

function cli(...args) { return JSON.parse(execFileSync(MAILROOM, ['--json', ...args], { encoding: 'utf8' })); }
// team is a view: asking records nothing.
function member(name) { return cli('team').mailboxes.find((m) => m.mailbox === name); }

const alice = await connect('alice', {
  MAILROOM_IDEMPOTENCY_KEY: 'server-key',
  TRACEPARENT: `00-${PARENT}-b7ad6b7169203331-01`,
});
const bob = await connect('bob');
try {
  // An empty message: the operation's usage error; nothing stored.
  for (const args of [{ to: 'bob', body: '' }, { to: 'bob', subject: '' }, { to: 'bob' }]) {
    const refused = await alice.callTool({ name: 'send', arguments: args });
    assert.equal(refused.isError, true, JSON.stringify(args));
    assert.equal(refused.structuredContent.error.code, 'usage');
    assert.equal(refused.structuredContent.error.message, 'the message is empty: no subject and no body');
  }
  assert.equal(member('bob').unread, 0);

  // The server's key and trace stay out: the same content twice is two messages, each a new trace.
  const first = await call(alice, 'send', { to: 'bob', subject: 'same', body: 'twice' });
  const second = await call(alice, 'send', { to: 'bob', subject: 'same', body: 'twice' });
  assert.notEqual(first.id, second.id);
  assert.equal(first.replayed, false);
  assert.equal(second.replayed, false);
  const peeked = cli('--as', 'bob', 'peek', first.id).message;
  assert.notEqual(peeked.trace_id, PARENT);
  assert.equal(peeked.parent_span_id, null);

  const reply = await bob.callTool({ name: 'reply', arguments: { id: first.id, body: '' } });
  assert.equal(reply.isError, true);
  assert.equal(reply.structuredContent.error.message, 'the message is empty: no subject and no body');

  await call(bob, 'mark_read', { all: true });

  // inbox awaiting: what awaits bob's reply or ack, read or not.
  const request = await call(alice, 'send', { to: 'bob', type: 'task_request', body: 'please' });
  await call(alice, 'send', { to: 'bob', body: 'news only' });
  const awaiting = await call(bob, 'inbox', { awaiting: true });
  assert.deepEqual(awaiting.messages.map((m) => m.id), [request.id]);
  assert.equal(awaiting.total, 1);
  await call(bob, 'read', { id: request.id });
  assert.deepEqual((await call(bob, 'inbox', { awaiting: true })).messages.map((m) => m.id), [request.id]);
  await call(bob, 'reply', { id: request.id, body: 'done' });
  assert.equal((await call(bob, 'inbox', { awaiting: true })).total, 0);
  console.log('ok   surfaces over MCP');
} finally {
  await alice.close();
  await bob.close();
}
