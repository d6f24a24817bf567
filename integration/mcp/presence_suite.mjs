// Presence through `mailroom mcp` and the official MCP client (contract "Three surfaces, one
// truth"): every tools/call of an operation that records presence records it as "mcp" (a write in
// its own transaction, a read once it succeeded); the views and a resource read record nothing.
// Run by integration/mcp_client_presence.sh with the mailboxes alice, bob and carol.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const MAILROOM = process.env.MAILROOM;
const DB = process.env.MAILROOM_DB;

async function connect(identity) {
  const transport = new StdioClientTransport({
    command: MAILROOM,
    args: ['mcp'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MAILROOM_DB: DB, MAILROOM_IDENTITY: identity },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mailroom-presence', version: '1' });
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

const alice = await connect('alice');
const bob = await connect('bob');
const carol = await connect('carol');
try {
  // A write: alice's send is alice acting through MCP.
  const sent = await call(alice, 'send', { to: ['bob', 'carol'], body: 'hello' });
  assert.equal(member('alice').seen_via, 'mcp');

  // Views record nothing: bob looks at the message, its thread and status, and the team.
  await call(bob, 'peek', { id: sent.id });
  await call(bob, 'thread', { id: sent.id });
  await call(bob, 'status', { id: sent.id });
  await call(bob, 'team');
  assert.equal(member('bob').seen_via, null);
  assert.equal(member('bob').last_seen_at, null);
  // So does a resource read (a view, as peek is).
  await bob.readResource({ uri: 'mailroom://inbox' });
  assert.equal(member('bob').seen_via, null);

  // A read of one's own mail is seen once it succeeded.
  await call(bob, 'inbox');
  assert.equal(member('bob').seen_via, 'mcp');
  assert.notEqual(member('bob').last_seen_at, null);

  // A change is seen in its own transaction.
  await call(carol, 'read', { id: sent.id });
  assert.equal(member('carol').seen_via, 'mcp');
  console.log('ok   presence over MCP');
} finally {
  await alice.close();
  await bob.close();
  await carol.close();
}
