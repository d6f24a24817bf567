// The resources of `mailroom mcp` through the official client (docs/mcp.md, "Resources"), added to
// client_suite.mjs's steps: the lists, reads of the inbox, a message and a thread as the tools'
// JSON, the era's "resource not found", legacy resources/subscribe with
// notifications/resources/updated after a CLI send from another process, unsubscribe, and
// 2026-07-28 subscriptions/listen (acknowledged first, the subscription id in every
// notification's _meta, nothing after its close).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

const notFound = (e, uri) => /Resource not found/.test(e.message) && e.data?.uri === uri;

// Every notifications/resources/updated a client hears, with a wait for the next that matches.
function updates(client) {
  const heard = [];
  let wake = () => {};
  client.setNotificationHandler('notifications/resources/updated', (n) => { heard.push(n.params); wake(); });
  heard.next = async (predicate, ms = 10000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = heard.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching notification; heard ${JSON.stringify(heard)}`);
      await new Promise((resolve) => { wake = resolve; setTimeout(resolve, 100); });
    }
  };
  return heard;
}

export function resourceSteps({ step, connect, call, MAILROOM, env }) {
  // A CLI command in a process of its own, as another agent would run it; its --json answer.
  const cli = (...args) => JSON.parse(execFileSync(MAILROOM, ['--json', ...args], { env: env(), encoding: 'utf8' }));
  const sendCli = (from, to, subject) => cli('--as', from, 'send', to, '-s', subject, '-m', 'body').id;

  for (const mode of ['legacy', 'auto']) {
    step(`${mode}: resources list, templates and reads answer the tools' JSON; unknown ones are not found`, async () => {
      const alice = await connect('alice', mode);
      try {
        assert.ok(alice.getServerCapabilities().resources.subscribe, 'resources with subscribe advertised');
        const { resources } = await alice.listResources();
        assert.deepEqual(resources.map((r) => r.uri), ['mailroom://inbox']);
        const { resourceTemplates } = await alice.listResourceTemplates();
        assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(),
                         ['mailroom://message/{id}', 'mailroom://thread/{id}']);
        await call(alice, 'mark_read', { all: true });
        const id = sendCli('bob', 'alice', `resource ${mode}`);
        const json = async (uri) => {
          const read = await alice.readResource({ uri });
          assert.equal(read.contents.length, 1);
          assert.equal(read.contents[0].uri, uri);
          assert.equal(read.contents[0].mimeType, 'application/json');
          return JSON.parse(read.contents[0].text);
        };
        const inbox = await json('mailroom://inbox');
        assert.deepEqual(inbox, (await call(alice, 'inbox')).structuredContent, 'inbox = the inbox tool');
        assert.equal(inbox.messages[0].id, id);
        const message = await json(`mailroom://message/${id}`);
        assert.deepEqual(message, (await call(alice, 'peek', { id })).structuredContent, 'message = peek');
        assert.equal(message.message.read, false, 'reading the resource marks nothing');
        const thread = await json(`mailroom://thread/${id.slice(0, 10)}`);
        assert.deepEqual(thread, (await call(alice, 'thread', { id })).structuredContent, 'thread = the thread tool');
        // The client turns either era's code into its ResourceNotFoundError (the wire codes,
        // -32002 and -32602, are checked in protocol_suite.mjs).
        for (const uri of ['mailroom://message/mr-0000000000000000', 'mailroom://outbox', 'https://example.com/']) {
          await assert.rejects(alice.readResource({ uri }), (e) => notFound(e, uri), uri);
        }
        await assert.rejects(alice.readResource({ uri: 'mailroom://inbox/bob' }),
                             (e) => e.code === -32602 && /open-views/.test(JSON.stringify(e.data ?? e.message)));
        await call(alice, 'mark_read', { all: true });
      } finally {
        await alice.close();
      }
    });
  }

  step('legacy: subscribe hears a CLI send from another process; unsubscribe ends it', async () => {
    const alice = await connect('alice', 'legacy');
    try {
      const heard = updates(alice);
      await alice.subscribeResource({ uri: 'mailroom://inbox' });
      const first = sendCli('bob', 'alice', 'subscribed');
      await heard.next((p) => p.uri === 'mailroom://inbox');
      assert.equal(heard[0]._meta?.[SUBSCRIPTION_ID], undefined, 'legacy notifications carry no subscription id');
      // A state change of a subscribed message (marked read by another process) is heard; the
      // inbox, unsubscribed meanwhile, is not, though new mail reached it first.
      const other = sendCli('bob', 'alice', 'both');
      await heard.next((p) => p.uri === 'mailroom://inbox' && heard.indexOf(p) > 0);
      await alice.subscribeResource({ uri: `mailroom://message/${other}` });
      await alice.unsubscribeResource({ uri: 'mailroom://inbox' });
      const before = heard.length;
      sendCli('carol', 'alice', 'after unsubscribe');
      cli('--as', 'alice', 'mark-read', other);
      await heard.next((p) => p.uri === `mailroom://message/${other}`);
      assert.deepEqual(heard.slice(before).map((p) => p.uri), [`mailroom://message/${other}`]);
      const none = 'mailroom://thread/mr-0000000000000000';
      await assert.rejects(alice.subscribeResource({ uri: none }), (e) => notFound(e, none));
      assert.ok(first);
      await call(alice, 'mark_read', { all: true });
    } finally {
      await alice.close();
    }
  });

  step('2026-07-28: subscriptions/listen is acknowledged, carries its id, and ends at close', async () => {
    const alice = await connect('alice', 'auto');
    try {
      assert.equal(alice.getNegotiatedProtocolVersion(), '2026-07-28');
      const heard = updates(alice);
      const seed = sendCli('bob', 'alice', 'a thread');
      const inbox = await alice.listen({ resourceSubscriptions: ['mailroom://inbox', 'mailroom://message/mr-0000000000000000'] });
      assert.deepEqual(inbox.honoredFilter, { resourceSubscriptions: ['mailroom://inbox'] }, 'only what exists is honoured');
      const thread = await alice.listen({ resourceSubscriptions: [`mailroom://thread/${seed}`], toolsListChanged: true });
      assert.deepEqual(thread.honoredFilter, { resourceSubscriptions: [`mailroom://thread/${seed}`] });
      sendCli('carol', 'alice', 'new mail');
      const got = await heard.next((p) => p.uri === 'mailroom://inbox');
      assert.equal(typeof got._meta[SUBSCRIPTION_ID], 'string', 'the listen id in _meta');
      const inboxId = got._meta[SUBSCRIPTION_ID];
      // A reply in the thread: both listens hear it, each with its own id.
      cli('--as', 'alice', 'reply', seed, '-m', 'more');
      const inThread = await heard.next((p) => p.uri === `mailroom://thread/${seed}`);
      assert.notEqual(inThread._meta[SUBSCRIPTION_ID], inboxId);
      await inbox.close();
      assert.equal(await inbox.closed, 'local');
      const before = heard.length;
      sendCli('carol', 'alice', 'after close');
      cli('--as', 'alice', 'reply', seed, '-m', 'still in the thread');
      await heard.next((p) => heard.indexOf(p) >= before && p.uri === `mailroom://thread/${seed}`);
      assert.ok(heard.slice(before).every((p) => p._meta[SUBSCRIPTION_ID] !== inboxId), 'nothing after close');
      await thread.close();
      await call(alice, 'mark_read', { all: true });
    } finally {
      await alice.close();
    }
  });
}
