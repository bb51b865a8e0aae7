// webhookHandler mounted in a real Express 5 app on 127.0.0.1, fed with signed deliveries over HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import express from 'express';
import { webhooks, type PaymentEvent } from '../../src/server/index.js';
import { webhookHandler, MemorySeenStore, type SeenStore } from '../../src/server/express/index.js';
import { listen } from './helpers/http.js';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const event = (id = 'evt_1') => ({
  object: 'event',
  id,
  type: 'payment.confirmed',
  timestamp: new Date().toISOString(),
  livemode: false,
  data: { payment: { id: 'pay_1', status: 'confirmed', sequence: 2 } },
});

async function app(mount: (app: express.Express) => void) {
  const a = express();
  mount(a);
  return listen(createServer(a));
}

async function deliver(url: string, signed: { body: string; headers: Record<string, string> }) {
  const response = await fetch(url, { method: 'POST', body: signed.body, headers: signed.headers });
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
}

test('a good delivery reaches onEvent once; the same webhook-id again is acknowledged without running it twice', async (t) => {
  const secret = newSecret();
  const received: PaymentEvent[] = [];
  const server = await app((a) => a.post('/webhooks', webhookHandler({ secret, onEvent: (e) => void received.push(e), onError: () => {} })));
  t.after(() => server.close());

  const signed = webhooks.sign(event(), secret, { id: 'msg_1' });
  const first = await deliver(`${server.url}/webhooks`, signed);
  assert.equal(first.status, 200);
  assert.deepEqual(first.body, { received: true });
  assert.equal(received.length, 1);
  assert.equal(received[0]?.data.payment.id, 'pay_1');

  // A redelivery is signed afresh (new timestamp) but keeps its id.
  const again = await deliver(`${server.url}/webhooks`, webhooks.sign(event(), secret, { id: 'msg_1', timestamp: Math.floor(Date.now() / 1000) + 1 }));
  assert.equal(again.status, 200);
  assert.equal(again.body.duplicate, true);
  assert.equal(received.length, 1);

  const other = await deliver(`${server.url}/webhooks`, webhooks.sign(event('evt_2'), secret, { id: 'msg_2' }));
  assert.equal(other.status, 200);
  assert.equal(received.length, 2);
});

test('bad signatures, stale and future timestamps and missing headers get 400 problem+json and never reach onEvent', async (t) => {
  const secret = newSecret();
  let calls = 0;
  const server = await app((a) => a.post('/webhooks', webhookHandler({ secret, onEvent: () => void calls++, onError: () => {} })));
  t.after(() => server.close());
  const url = `${server.url}/webhooks`;
  const now = Math.floor(Date.now() / 1000);

  const wrongSecret = await deliver(url, webhooks.sign(event(), newSecret()));
  assert.equal(wrongSecret.status, 400);
  assert.equal(wrongSecret.type, 'application/problem+json');
  assert.equal(wrongSecret.body.code, 'webhook_bad_signature');
  assert.equal(wrongSecret.body.status, 400);
  assert.match(String(wrongSecret.body.requestId), /^req_/);

  const signed = webhooks.sign(event(), secret);
  const tampered = await deliver(url, { ...signed, body: signed.body.replace('confirmed', 'cancelled') });
  assert.equal(tampered.body.code, 'webhook_bad_signature');
  assert.equal((await deliver(url, webhooks.sign(event(), secret, { timestamp: now - 3600 }))).body.code, 'webhook_timestamp_too_old');
  assert.equal((await deliver(url, webhooks.sign(event(), secret, { timestamp: now + 3600 }))).body.code, 'webhook_timestamp_in_future');
  const { ['webhook-signature']: _dropped, ...unsigned } = signed.headers;
  assert.equal((await deliver(url, { body: signed.body, headers: unsigned })).body.code, 'webhook_missing_headers');
  assert.equal(calls, 0);
});

test('onEvent throwing answers 500 and the id is not marked seen, so the redelivery runs it again', async (t) => {
  const secret = newSecret();
  let calls = 0;
  const errors: unknown[] = [];
  const server = await app((a) =>
    a.post(
      '/webhooks',
      webhookHandler({
        secret,
        onEvent: async () => {
          calls++;
          if (calls === 1) throw new Error('database down');
        },
        onError: (e) => errors.push(e),
      }),
    ),
  );
  t.after(() => server.close());
  const url = `${server.url}/webhooks`;
  const failed = await deliver(url, webhooks.sign(event(), secret, { id: 'msg_retry' }));
  assert.equal(failed.status, 500);
  assert.equal(failed.body.code, 'webhook_handler_failed');
  assert.doesNotMatch(JSON.stringify(failed.body), /database down/);
  assert.match(String(errors[0]), /database down/);
  const retried = await deliver(url, webhooks.sign(event(), secret, { id: 'msg_retry' }));
  assert.equal(retried.status, 200);
  assert.equal(retried.body.duplicate, undefined);
  assert.equal(calls, 2);
});

test('express.json() mounted first is detected (500 with the fix in the message); express.raw() first, or an unread {} body, works', async (t) => {
  const secret = newSecret();
  let calls = 0;
  const server = await app((a) => {
    a.post('/parsed', express.json(), webhookHandler({ secret, onEvent: () => void calls++, onError: () => {} }));
    a.post('/raw', express.raw({ type: 'application/json' }), webhookHandler({ secret, onEvent: () => void calls++ }));
    // Express 4's body parsers leave req.body = {} on requests they do not parse, without reading the stream.
    a.post('/skipped', (req, _res, next) => ((req.body = {}), next()), webhookHandler({ secret, onEvent: () => void calls++ }));
  });
  t.after(() => server.close());
  const parsed = await deliver(`${server.url}/parsed`, webhooks.sign(event(), secret));
  assert.equal(parsed.status, 500);
  assert.equal(parsed.body.code, 'webhook_body_parsed');
  assert.match(String(parsed.body.detail), /before express\.json\(\)/);
  assert.equal(calls, 0);
  const raw = await deliver(`${server.url}/raw`, webhooks.sign(event(), secret));
  assert.equal(raw.status, 200);
  assert.equal(calls, 1);
  const skipped = await deliver(`${server.url}/skipped`, webhooks.sign(event(), secret));
  assert.equal(skipped.status, 200);
  assert.equal(calls, 2);
});

test('an oversized body is refused with 413, other methods with 405', async (t) => {
  const secret = newSecret();
  const server = await app((a) => a.all('/webhooks', webhookHandler({ secret, onEvent: () => {}, maxBodySize: 1024 })));
  t.after(() => server.close());
  const big = webhooks.sign({ ...event(), padding: 'x'.repeat(4096) }, secret);
  const tooBig = await deliver(`${server.url}/webhooks`, big);
  assert.equal(tooBig.status, 413);
  assert.equal(tooBig.body.code, 'body_too_large');
  const get = await fetch(`${server.url}/webhooks`);
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  await get.body?.cancel();
});

test('a concurrent duplicate while onEvent is still running is turned away with 409 (the gateway retries it)', async (t) => {
  const secret = newSecret();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const server = await app((a) =>
    a.post(
      '/webhooks',
      webhookHandler({
        secret,
        onEvent: async () => {
          calls++;
          await gate;
        },
      }),
    ),
  );
  t.after(() => server.close());
  const signed = webhooks.sign(event(), secret, { id: 'msg_slow' });
  const first = deliver(`${server.url}/webhooks`, signed);
  while (calls === 0) await new Promise((r) => setTimeout(r, 5));
  const second = await deliver(`${server.url}/webhooks`, signed);
  assert.equal(second.status, 409);
  assert.equal(second.body.code, 'webhook_in_progress');
  release();
  assert.equal((await first).status, 200);
  assert.equal(calls, 1);
});

test('a custom (async) seen store is used, and rotation secrets are accepted', async (t) => {
  const oldSecret = newSecret();
  const current = newSecret();
  const db = new Set<string>(['msg_already']);
  const store: SeenStore = { has: async (id) => db.has(id), add: async (id) => void db.add(id) };
  let calls = 0;
  const server = await app((a) => a.post('/webhooks', webhookHandler({ secret: [current, oldSecret], seen: store, onEvent: () => void calls++ })));
  t.after(() => server.close());
  assert.equal((await deliver(`${server.url}/webhooks`, webhooks.sign(event(), oldSecret, { id: 'msg_already' }))).body.duplicate, true);
  assert.equal((await deliver(`${server.url}/webhooks`, webhooks.sign(event(), oldSecret, { id: 'msg_new' }))).status, 200);
  assert.equal((await deliver(`${server.url}/webhooks`, webhooks.sign(event(), current, { id: 'msg_newer' }))).status, 200);
  assert.equal(calls, 2);
  assert.ok(db.has('msg_new') && db.has('msg_newer'));
});

test('MemorySeenStore forgets the oldest ids beyond maxSize and ids older than the TTL', () => {
  let now = 0;
  const store = new MemorySeenStore({ maxSize: 3, ttl: 1000 }, () => now);
  for (const id of ['a', 'b', 'c', 'd']) store.add(id);
  assert.equal(store.size, 3);
  assert.equal(store.has('a'), false);
  assert.equal(store.has('d'), true);
  now = 999;
  assert.equal(store.has('b'), true);
  now = 1000;
  assert.equal(store.has('b'), false);
  store.add('e');
  assert.equal(store.size, 1);
  assert.throws(() => new MemorySeenStore({ maxSize: 0 }), /maxSize/);
});
