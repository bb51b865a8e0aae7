// The demo shop's backend against the real gateway and localnet, as an attacker would poke at it:
// prices come from the server, sessions only for real unpaid orders, the browser never sees merchant-only
// data, an order is paid only by a verified webhook that matches it, and paying twice is recorded for a refund.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { startStack, type Stack } from '../helpers/stack.js';
import { webhooks } from '../../src/server/index.js';
import { payUrl } from '../../src/localnet/index.js';
import { createShop as createShopJs } from '../../demo/server.mjs';

// The demo is plain JavaScript: its defaults (rpcUrl = null) are all TypeScript can infer.
const createShop = createShopJs as unknown as (options: {
  secretKey: string;
  webhookSecret: string;
  gatewayUrl: string;
  dataDir: string;
  rpcUrl?: string | null;
  devTools?: boolean;
}) => Express;

interface Order {
  id: string;
  status: string;
  total: string;
  currency: string;
  paymentId: string | null;
  signature: string | null;
  extraPayments?: { paymentId: string; signature: string }[];
}

let stack: Stack;
let server: Server;
let shopUrl: string;
let dataDir: string;

function listen(s: Server): Promise<string> {
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as { port: number }).port}`)));
}

async function post(path: string, body: unknown, base = shopUrl): Promise<{ status: number; type: string; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: (await res.json()) as Record<string, unknown> };
}

async function order(id: string): Promise<Order> {
  return (await (await fetch(`${shopUrl}/api/orders/${id}`)).json()) as Order;
}

async function newOrder(items = [{ id: 'mug', quantity: 2 }]): Promise<Order> {
  const res = await post('/api/orders', { items });
  assert.equal(res.status, 201);
  return res.body as unknown as Order;
}

/** Polls the shop until `check` passes (the gateway's webhook is asynchronous), for at most 20 s. */
async function eventually(id: string, check: (o: Order) => boolean): Promise<Order> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const o = await order(id);
    if (check(o)) return o;
    if (Date.now() > deadline) assert.fail(`order ${id} never reached the expected state: ${JSON.stringify(o)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('demo shop backend', { timeout: 120_000 }, () => {
  before(async () => {
    // The merchant's webhook URL must exist before the shop (which needs the gateway's URL) is built.
    server = createServer();
    shopUrl = await listen(server);
    stack = await startStack({ webhookUrl: `${shopUrl}/webhooks/svc` });
    dataDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
    const app = createShop({
      secretKey: stack.merchant.secretKey,
      webhookSecret: stack.merchant.webhookSecret,
      gatewayUrl: stack.gatewayUrl,
      dataDir,
      rpcUrl: stack.rpcUrl,
      devTools: true,
    });
    server.on('request', app);
  });

  after(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await stack?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('the server prices the order from its own catalogue; prices sent by the browser are ignored', async () => {
    const res = await post('/api/orders', { items: [{ id: 'mug', quantity: 2, price: '0.01' }, { id: 'stickers', quantity: 1 }], total: '0.01' });
    assert.equal(res.status, 201);
    assert.equal(res.body.total, '28.75');
    assert.equal(res.body.status, 'awaiting_payment');
    for (const items of [[], [{ id: 'nope', quantity: 1 }], [{ id: 'mug', quantity: 0 }], [{ id: 'mug', quantity: 100 }], [{ id: 'mug', quantity: 1.5 }], 'mug']) {
      assert.equal((await post('/api/orders', { items })).status, 400, JSON.stringify(items));
    }
  });

  test('a session is made only for a known order, with its total, and gives the browser only the public view', async () => {
    const unknown = await post('/checkout/session', { orderId: 'ord_0000000000000000' });
    assert.equal(unknown.status, 404);
    assert.match(unknown.type, /^application\/problem\+json/);
    assert.equal(unknown.body.detail, 'No such order.');

    const o = await newOrder();
    const session = await post('/checkout/session', { orderId: o.id, amount: '0.01' });
    assert.equal(session.status, 201);
    assert.match(String(session.body.paymentToken), /^svc_pt_/);
    assert.equal(session.body.baseUrl, stack.gatewayUrl);
    const view = session.body.payment as Record<string, unknown>;
    assert.equal(view.amount, '25.00');
    assert.equal(view.currency, 'USDC');
    assert.equal(view.orderId, undefined, 'orderId stays on the server');
    assert.equal(view.metadata, undefined, 'metadata stays on the server');
    assert.doesNotMatch(JSON.stringify(session.body), /svc_(live|test)_|whsec_/);
    // The gateway holds the payment with the order's id and total.
    const atGateway = await (await fetch(`${stack.gatewayUrl}/api/v1/payments/${session.body.paymentId}`, { headers: { authorization: `Bearer ${stack.merchant.secretKey}` } })).json();
    assert.equal(atGateway.orderId, o.id);
    assert.equal(atGateway.amount, '25.00');
  });

  test('a webhook marks the order paid only when it is genuine and matches the order', async () => {
    const o = await newOrder();
    const session = await post('/checkout/session', { orderId: o.id });
    const payment = (await (await fetch(`${stack.gatewayUrl}/api/v1/payments/${session.body.paymentId}`, { headers: { authorization: `Bearer ${stack.merchant.secretKey}` } })).json()) as Record<string, unknown>;
    const confirmed = { object: 'event', id: 'evt_forged', type: 'payment.confirmed', timestamp: new Date().toISOString(), livemode: false, data: { payment: { ...payment, status: 'confirmed', signature: 'x'.repeat(88) } } };

    // Signed with the wrong secret: refused, order untouched.
    const forged = webhooks.sign(confirmed, `whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    const refused = await fetch(`${shopUrl}/webhooks/svc`, { method: 'POST', body: forged.body, headers: forged.headers });
    assert.equal(refused.status, 400);
    // Genuinely signed, but for less than the order's total: ignored.
    const short = webhooks.sign({ ...confirmed, id: 'evt_short', data: { payment: { ...confirmed.data.payment, amount: '0.01' } } }, stack.merchant.webhookSecret);
    assert.equal((await fetch(`${shopUrl}/webhooks/svc`, { method: 'POST', body: short.body, headers: short.headers })).status, 200);
    assert.equal((await order(o.id)).status, 'awaiting_payment');

    // A real transfer on the local chain: the gateway sees it and sends the signed payment.confirmed.
    const { signature } = await payUrl(String(payment.url), { rpcUrl: stack.rpcUrl });
    const paid = await eventually(o.id, (x) => x.status === 'paid');
    assert.equal(paid.paymentId, payment.id);
    assert.equal(paid.signature, signature);

    // No second payment for a paid order.
    const again = await post('/checkout/session', { orderId: o.id });
    assert.equal(again.status, 409);
    assert.equal(again.body.detail, 'This order is already paid.');
  });

  test('a new session cancels the order\'s older payment; paying that one anyway is recorded for a refund', async () => {
    const o = await newOrder([{ id: 'stickers', quantity: 1 }]);
    const first = await post('/checkout/session', { orderId: o.id });
    const second = await post('/checkout/session', { orderId: o.id });
    assert.notEqual(first.body.paymentId, second.body.paymentId);
    const atGateway = async (id: unknown) =>
      (await (await fetch(`${stack.gatewayUrl}/api/v1/payments/${id}`, { headers: { authorization: `Bearer ${stack.merchant.secretKey}` } })).json()) as { status: string; paidLate: boolean };
    assert.equal((await atGateway(first.body.paymentId)).status, 'cancelled', 'one order, one live payment');
    assert.equal((await atGateway(second.body.paymentId)).status, 'pending');
    const url = (s: typeof first) => String((s.body.payment as { url: string }).url);

    const live = await payUrl(url(second), { rpcUrl: stack.rpcUrl });
    await eventually(o.id, (x) => x.status === 'paid');
    // A customer who kept the old tab open pays the cancelled payment: the gateway confirms it late.
    const stale = await payUrl(url(first), { rpcUrl: stack.rpcUrl });
    const after = await eventually(o.id, (x) => (x.extraPayments ?? []).length === 1);
    assert.equal(after.paymentId, second.body.paymentId);
    assert.equal(after.signature, live.signature);
    assert.deepEqual(after.extraPayments!.map((p) => [p.paymentId, p.signature]), [[first.body.paymentId, stale.signature]]);
    assert.equal((await atGateway(first.body.paymentId)).paidLate, true);
  });

  test('the development routes exist only when devTools is on', async () => {
    const prod = createServer(
      createShop({ secretKey: stack.merchant.secretKey, webhookSecret: stack.merchant.webhookSecret, gatewayUrl: stack.gatewayUrl, dataDir, rpcUrl: stack.rpcUrl, devTools: false }),
    );
    const prodUrl = await listen(prod);
    try {
      const res = await fetch(`${prodUrl}/api/dev/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"x"}' });
      assert.equal(res.status, 404);
      assert.equal((await fetch(`${prodUrl}/api/dev/open-orders`)).status, 404);
    } finally {
      prod.closeAllConnections();
      await new Promise((r) => prod.close(r));
    }
  });
});
