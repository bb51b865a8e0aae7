// A merchant's Express backend with both handlers, in front of the real gateway and localnet:
// the browser asks for a session, a wallet pays on the localnet, the signed webhook reaches
// onEvent once (a redelivery is acknowledged, not processed again).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import express from 'express';
import { startStack, type Stack } from '../helpers/stack.js';
import { payUrl } from '../../src/localnet/index.js';
import { SvcClient, type CheckoutSession, type PaymentEvent } from '../../src/server/index.js';
import { createSessionHandler, webhookHandler, MemorySeenStore, type NodeHandler } from '../../src/server/express/index.js';
import { listen, deadUrl, type Running } from './helpers/http.js';

const SHOP = 'http://shop.test';
/** The merchant's own records: the price comes from here, never from the browser. */
const orders = new Map([
  ['A-1', { total: '25.00', customer: 'c-42' }],
  ['A-2', { total: '1.50', customer: 'c-43' }],
  ['BAD', { total: '-5', customer: 'c-44' }],
]);

let stack: Stack;
let shop: Running;
let client: SvcClient;
const received: PaymentEvent[] = [];
const duplicates: string[] = [];
const errors: unknown[] = [];
let session: NodeHandler<express.Request>;
let hook: NodeHandler<express.Request>;

/** Counts deliveries the store recognised, so the test can see a redelivery being dropped. */
class WatchedStore extends MemorySeenStore {
  override has(id: string): boolean {
    const seen = super.has(id);
    if (seen) duplicates.push(id);
    return seen;
  }
}

before(async () => {
  const app = express();
  // The session route reads the JSON body itself; the webhook route must get the raw bytes.
  app.post('/checkout/session', (req, res) => session(req, res));
  app.post('/checkout/session-parsed', express.json(), (req, res) => session(req, res));
  // Express 4's parsers leave req.body = {} on requests they skip, with the stream unread.
  app.post('/checkout/session-skipped', (req, _res, next) => ((req.body = {}), next()), (req, res) => session(req, res));
  app.post('/webhooks/svc', (req, res) => hook(req, res));
  shop = await listen(createServer(app));
  stack = await startStack({ webhookUrl: `${shop.url}/webhooks/svc` });
  client = new SvcClient({ apiKey: stack.merchant.secretKey, baseUrl: stack.gatewayUrl });
  session = createSessionHandler({
    client,
    allowedOrigins: [SHOP],
    createPayment: (req: express.Request) => {
      const orderId = (req.body as { orderId?: unknown } | undefined)?.orderId;
      const order = typeof orderId === 'string' ? orders.get(orderId) : undefined;
      if (!order) throw Object.assign(new Error('No such order'), { status: 404, code: 'order_not_found' });
      if (orderId === 'A-2' && req.headers['x-break'] === 'yes') throw new Error('database password is hunter2');
      return { amount: order.total, currency: 'USDC', orderId: String(orderId), metadata: { customer: order.customer } };
    },
    onError: (e) => errors.push(e),
  });
  hook = webhookHandler({ secret: stack.merchant.webhookSecret, seen: new WatchedStore(), onEvent: (e) => void received.push(e) });
});

after(async () => {
  await stack?.stop();
  await shop?.close();
});

async function askSession(body: unknown, headers: Record<string, string> = { origin: SHOP }, path = '/checkout/session') {
  const response = await fetch(`${shop.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: (await response.json()) as Record<string, unknown> };
}

async function waitFor<T>(what: string, probe: () => T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('session → localnet payment → webhook: onEvent sees payment.confirmed once; a redelivery is dropped', { timeout: 90_000 }, async () => {
  // The browser tries to set its own price; it is ignored.
  const answer = await askSession({ orderId: 'A-1', amount: '0.01' });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  const checkout = answer.body as unknown as Required<CheckoutSession>; // our handler always includes the public view
  assert.match(checkout.paymentId, /^pay_/);
  assert.match(checkout.paymentToken, /^svc_pt_/);
  assert.equal(checkout.baseUrl, stack.gatewayUrl);
  assert.equal(checkout.payment.id, checkout.paymentId);
  assert.equal(checkout.payment.amount, '25.00');
  assert.equal(checkout.payment.merchant.name, 'Stack Shop');
  assert.equal('metadata' in checkout.payment, false, 'no metadata in the browser');
  assert.equal('orderId' in checkout.payment, false, 'no orderId in the browser');
  assert.doesNotMatch(JSON.stringify(answer.body), /c-42|svc_test_|whsec_/);
  const full = await client.payments.retrieve(checkout.paymentId);
  assert.equal(full.orderId, 'A-1');
  assert.deepEqual(full.metadata, { customer: 'c-42' });

  const { signature } = await payUrl(checkout.payment.url, { rpcUrl: stack.rpcUrl });
  const confirmed = await waitFor('payment.confirmed webhook', () =>
    received.find((e) => e.type === 'payment.confirmed' && e.data.payment.id === checkout.paymentId),
  );
  assert.equal(confirmed.data.payment.status, 'confirmed');
  assert.equal(confirmed.data.payment.signature, signature);
  assert.equal(confirmed.data.payment.orderId, 'A-1');
  const created = received.find((e) => e.type === 'payment.created' && e.data.payment.id === checkout.paymentId);
  assert.ok(created, 'payment.created arrived too');
  assert.ok(confirmed.data.payment.sequence > created.data.payment.sequence, 'sequence rises');
  const ids = received.map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length, 'no event processed twice');

  // Asked again, the gateway delivers the same webhook-id: acknowledged, not processed again.
  const before = received.length;
  const redelivery = await client.events.redeliver(confirmed.id);
  assert.deepEqual(redelivery, { object: 'redelivery', eventId: confirmed.id, queued: true });
  await waitFor('the redelivery', () => (duplicates.includes(confirmed.id) ? true : undefined));
  assert.equal(received.filter((e) => e.id === confirmed.id).length, 1);
  assert.equal(received.length, before);
  assert.equal((await client.payments.retrieve(checkout.paymentId)).status, 'confirmed');
});

test('the session route also works behind express.json(), or after a parser that skipped the request', async () => {
  const answer = await askSession({ orderId: 'A-2' }, { origin: SHOP }, '/checkout/session-parsed');
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  assert.equal((answer.body.payment as { amount: string }).amount, '1.50');
  const skipped = await askSession({ orderId: 'A-2' }, { origin: SHOP }, '/checkout/session-skipped');
  assert.equal(skipped.status, 201, JSON.stringify(skipped.body));
});

test('session refusals are problem+json: wrong origin 403, unknown order 404, bad JSON 400, GET 405', async () => {
  const foreign = await askSession({ orderId: 'A-1' }, { origin: 'http://evil.test' });
  assert.equal(foreign.status, 403);
  assert.equal(foreign.body.code, 'origin_not_allowed');
  assert.match(foreign.type, /application\/problem\+json/);
  assert.equal((await askSession({ orderId: 'A-1' }, {})).status, 403, 'no Origin at all');

  const unknown = await askSession({ orderId: 'nope' });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.code, 'order_not_found');
  assert.equal(unknown.body.detail, 'No such order');

  const garbage = await askSession('{"orderId":');
  assert.equal(garbage.status, 400);
  assert.equal(garbage.body.code, 'invalid_json');

  const get = await fetch(`${shop.url}/checkout/session`);
  assert.equal(get.status, 404, 'Express only routes POST here');
  await get.body?.cancel();
  const direct = createServer((req, res) => void session(req as express.Request, res));
  const running = await listen(direct);
  try {
    const r = await fetch(running.url);
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'POST');
    await r.body?.cancel();
  } finally {
    await running.close();
  }
});

test('the gateway refusing the merchant’s params is a 400 with its reason; a merchant bug is a bare 500', async () => {
  const bad = await askSession({ orderId: 'BAD' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.param, 'amount');
  assert.equal(typeof bad.body.code, 'string');

  errors.length = 0;
  const broken = await askSession({ orderId: 'A-2' }, { origin: SHOP, 'x-break': 'yes' });
  assert.equal(broken.status, 500);
  assert.equal(broken.body.code, 'session_failed');
  assert.doesNotMatch(JSON.stringify(broken.body), /hunter2/);
  assert.match(String(errors[0]), /hunter2/);
});

test('the gateway unreachable → 502 gateway_unavailable', async (t) => {
  const downClient = new SvcClient({ apiKey: stack.merchant.secretKey, baseUrl: await deadUrl(), maxRetries: 1, initialRetryDelay: 5 });
  const app = express();
  app.post('/s', createSessionHandler({ client: downClient, createPayment: () => ({ amount: '1.00', currency: 'USDC' }), onError: () => {} }));
  const running = await listen(createServer(app));
  t.after(() => running.close());
  const r = await fetch(`${running.url}/s`, { method: 'POST' });
  assert.equal(r.status, 502);
  assert.equal(((await r.json()) as { code: string }).code, 'gateway_unavailable');
});
