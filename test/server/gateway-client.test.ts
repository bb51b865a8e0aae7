// SvcClient against the real gateway and localnet on 127.0.0.1: every method, each error class
// from a real answer, retries through a flaky proxy that never create a second payment, timeouts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../helpers/stack.js';
import { startBareGateway, type BareGateway } from '../helpers/gateway.js';
import {
  SvcClient,
  SvcError,
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  type Payment,
} from '../../src/server/index.js';
import { flakyProxy } from './helpers/http.js';

let stack: Stack;
let client: SvcClient;
const fast = { initialRetryDelay: 10, maxRetryDelay: 50 };

before(async () => {
  stack = await startStack();
  client = new SvcClient({ apiKey: stack.merchant.secretKey, baseUrl: stack.gatewayUrl, ...fast });
});
after(() => stack?.stop());

let orders = 0;
const orderId = () => `order-${process.pid}-${++orders}`;

test('merchant.retrieve: the profile of the key’s merchant', async () => {
  const merchant = await client.merchant.retrieve();
  assert.equal(merchant.object, 'merchant');
  assert.equal(merchant.id, stack.merchant.id);
  assert.equal(merchant.recipient, stack.merchant.recipient);
  assert.equal(merchant.livemode, false);
  assert.ok(merchant.currencies.some((c) => c.symbol === 'USDC' && c.mint === stack.usdcMint && c.decimals === 6));
});

test('payments: create, retrieve, list (filters, pages, every page), cancel, verify, public view', async () => {
  const order = orderId();
  const created = await client.payments.create({ amount: '12.50', currency: 'USDC', orderId: order, metadata: { cart: 'c-1' } });
  assert.equal(created.object, 'payment');
  assert.match(created.id, /^pay_/);
  assert.match(created.paymentToken, /^svc_pt_/);
  assert.equal(created.amount, '12.50');
  assert.equal(created.mint, stack.usdcMint);
  assert.equal(created.status, 'pending');

  const read = await client.payments.retrieve(created.id);
  assert.equal(read.id, created.id);
  assert.deepEqual(read.metadata, { cart: 'c-1' });
  assert.equal((read as Payment & { paymentToken?: string }).paymentToken, undefined, 'the token is shown once');

  const byOrder = await client.payments.list({ orderId: order });
  assert.deepEqual(byOrder.data.map((p) => p.id), [created.id]);
  assert.equal(byOrder.hasMore, false);

  const more = [];
  for (let i = 0; i < 4; i++) more.push(await client.payments.create({ amount: `0.0${i + 1}`, currency: 'USDC' }));
  const first = await client.payments.list({ limit: 2 });
  assert.equal(first.data.length, 2);
  assert.equal(first.hasMore, true);
  assert.equal(first.data[0]?.id, more[3]?.id, 'newest first');
  const all: string[] = [];
  for await (const p of client.payments.list({ limit: 2 })) all.push(p.id);
  const everyId = [...more].reverse().map((p) => p.id).concat(created.id);
  assert.deepEqual(all.slice(0, 5), everyId);
  assert.equal(new Set(all).size, all.length, 'no payment twice across pages');
  const viaListAll: string[] = [];
  for await (const p of client.payments.listAll({ limit: 3, status: 'pending' })) viaListAll.push(p.id);
  assert.deepEqual(viaListAll, all);

  const verified = await client.payments.verify(created.id);
  assert.equal(verified.status, 'pending');

  const publicView = await client.payments.retrievePublic(created.id, created.paymentToken);
  assert.equal(publicView.id, created.id);
  assert.equal(publicView.amount, '12.50');
  assert.equal('metadata' in publicView, false);
  assert.equal('orderId' in publicView, false);
  assert.equal(publicView.merchant.name, 'Stack Shop');

  const cancelled = await client.payments.cancel(created.id);
  assert.equal(cancelled.status, 'cancelled');
  assert.ok(cancelled.cancelledAt);
  const cancelledList = await client.payments.list({ status: 'cancelled' });
  assert.ok(cancelledList.data.some((p) => p.id === created.id));
});

test('events: list (every page), retrieve; redeliver without a webhook URL is a real ConflictError', async () => {
  const created = await client.payments.create({ amount: '1.00', currency: 'USDC', orderId: orderId() });
  const page = await client.events.list({ limit: 1 });
  assert.equal(page.data.length, 1);
  const all = [];
  for await (const e of client.events.list({ limit: 2 })) all.push(e);
  const ours = all.find((e) => e.type === 'payment.created' && e.data.payment.id === created.id);
  assert.ok(ours, 'the payment.created event is listed');
  assert.match(ours.id, /^evt_/);
  assert.deepEqual(await client.events.retrieve(ours.id), ours);
  await assert.rejects(client.events.redeliver(ours.id), (e: unknown) => e instanceof ConflictError && e.code === 'webhook_not_configured');
  await assert.rejects(client.events.retrieve('evt_00000000000000000000000000'), NotFoundError);
});

test('each error class from a real gateway answer, with code, status, param and requestId', async () => {
  const check = async (call: Promise<unknown>, Class: new (...a: never[]) => SvcError, status: number, code?: string) => {
    await assert.rejects(call, (e: unknown) => {
      assert.ok(e instanceof Class, `expected ${Class.name}, got ${String(e)}`);
      assert.equal(e.status, status);
      if (code) assert.equal(e.code, code);
      assert.ok(e.requestId, 'requestId from x-request-id');
      assert.equal(e.problem?.requestId, e.requestId);
      assert.equal(e.problem?.status, status);
      return true;
    });
  };
  const badKey = new SvcClient({ apiKey: 'svc_test_' + 'A'.repeat(43), baseUrl: stack.gatewayUrl, maxRetries: 0 });
  await check(badKey.merchant.retrieve(), AuthenticationError, 401);
  const publishable = new SvcClient({ apiKey: stack.merchant.publishableKey, baseUrl: stack.gatewayUrl, maxRetries: 0 });
  await check(publishable.payments.list(), PermissionError, 403);
  await check(client.payments.retrieve('pay_00000000000000000000000000'), NotFoundError, 404, 'payment_not_found');

  await assert.rejects(client.payments.create({ amount: '-1', currency: 'USDC' }), (e: unknown) => {
    assert.ok(e instanceof InvalidRequestError);
    assert.equal(e.status, 400);
    assert.equal(e.param, 'amount');
    return true;
  });
  await check(client.payments.create({ amount: '1.00', currency: 'USDC', metadata: { big: 'x'.repeat(17_000) } }), InvalidRequestError, 413);
  // A fetch that mislabels the body shows the gateway's 415.
  const mislabel = new SvcClient({
    apiKey: stack.merchant.secretKey,
    baseUrl: stack.gatewayUrl,
    fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), 'content-type': 'text/plain' } }),
  });
  await check(mislabel.payments.create({ amount: '1.00', currency: 'USDC' }), InvalidRequestError, 415);

  const done = await client.payments.create({ amount: '1.00', currency: 'USDC' });
  await client.payments.cancel(done.id);
  await check(client.payments.cancel(done.id), ConflictError, 409);

  await client.payments.create({ amount: '1.00', currency: 'USDC' }, { idempotencyKey: `idem-${process.pid}-a` });
  await check(client.payments.create({ amount: '2.00', currency: 'USDC' }, { idempotencyKey: `idem-${process.pid}-a` }), IdempotencyError, 409);
});

test('the same Idempotency-Key with the same body replays the first payment', async () => {
  const key = `idem-${process.pid}-replay`;
  const params = { amount: '3.00', currency: 'USDC', orderId: orderId() };
  const first = await client.payments.create(params, { idempotencyKey: key });
  const again = await client.payments.create(params, { idempotencyKey: key });
  assert.equal(again.id, first.id);
  assert.equal((await client.payments.list({ orderId: params.orderId })).data.length, 1);
});

test('a flaky proxy (dropped connection, lost answer, 500) ends in one payment, not two', async (t) => {
  const proxy = await flakyProxy(stack.gatewayUrl, ['drop', 'drop-after-forward', '500']);
  t.after(() => proxy.close());
  const flaky = new SvcClient({ apiKey: stack.merchant.secretKey, baseUrl: proxy.url, maxRetries: 3, ...fast });
  const order = orderId();
  const created = await flaky.payments.create({ amount: '4.20', currency: 'USDC', orderId: order });
  assert.equal(proxy.seen.length, 4, 'three spoiled attempts, then one that passed');
  assert.equal(new Set(proxy.seen.map((r) => r.headers['idempotency-key'])).size, 1, 'one Idempotency-Key for all attempts');
  const listed = await client.payments.list({ orderId: order });
  assert.deepEqual(listed.data.map((p) => p.id), [created.id], 'the gateway holds exactly one payment');
});

test('a cancel whose answer was lost is retried and still reports the cancelled payment', async (t) => {
  const created = await client.payments.create({ amount: '1.00', currency: 'USDC' });
  const proxy = await flakyProxy(stack.gatewayUrl, ['drop-after-forward']);
  t.after(() => proxy.close());
  const flaky = new SvcClient({ apiKey: stack.merchant.secretKey, baseUrl: proxy.url, maxRetries: 2, ...fast });
  const cancelled = await flaky.payments.cancel(created.id);
  assert.equal(cancelled.status, 'cancelled');
  assert.equal(proxy.seen.filter((r) => r.url.endsWith('/cancel')).length, 2, 'the retry met the conflict');
  // Without a retry, a conflict stays a conflict.
  await assert.rejects(client.payments.cancel(created.id), ConflictError);
});

test('a gateway answer slower than the timeout: the retry gets the same payment', async (t) => {
  const proxy = await flakyProxy(stack.gatewayUrl, ['stall']);
  t.after(() => proxy.close());
  // Generous enough for a loaded CI machine: only the first attempt is held back.
  const slow = new SvcClient({ apiKey: stack.merchant.secretKey, baseUrl: proxy.url, timeout: 1_500, maxRetries: 3, ...fast });
  const order = orderId();
  const created = await slow.payments.create({ amount: '5.00', currency: 'USDC', orderId: order });
  assert.ok(proxy.seen.length >= 2, 'the stalled attempt was retried');
  assert.deepEqual((await client.payments.list({ orderId: order })).data.map((p) => p.id), [created.id]);

  const stalled = await flakyProxy(stack.gatewayUrl, ['stall']);
  t.after(() => stalled.close());
  const stuck = new SvcClient({ apiKey: stack.merchant.secretKey, baseUrl: stalled.url, timeout: 200, maxRetries: 0 });
  await assert.rejects(stuck.merchant.retrieve(), (e: unknown) => e instanceof ConnectionError && e.code === 'timeout');
});

test('a real 429 from the public endpoint is a RateLimitError with Retry-After; a real 503 is an ApiError', async (t) => {
  const bare: BareGateway = await startBareGateway({
    rateLimits: { perPayment: { ratePerSecond: 0.01, burst: 1 }, perClient: { ratePerSecond: 0.01, burst: 1 } },
    // USDC on a chain that cannot be reached: creating a USDC payment needs the RPC, so the gateway says 503.
    currencies: [{ symbol: 'USDC', mint: stack.usdcMint }],
  });
  t.after(() => bare.stop());
  const c = new SvcClient({ apiKey: bare.merchant.secretKey, baseUrl: bare.url, maxRetries: 0 });
  const sol = await c.payments.create({ amount: '0.01', currency: 'SOL' });
  await c.payments.retrievePublic(sol.id, sol.paymentToken);
  await assert.rejects(c.payments.retrievePublic(sol.id, sol.paymentToken), (e: unknown) => {
    assert.ok(e instanceof RateLimitError, String(e));
    assert.equal(e.status, 429);
    assert.ok((e.retryAfter ?? 0) >= 1, 'Retry-After read');
    return true;
  });
  const retrying = new SvcClient({ apiKey: bare.merchant.secretKey, baseUrl: bare.url, maxRetries: 1, ...fast });
  await assert.rejects(retrying.payments.create({ amount: '1.00', currency: 'USDC' }), (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.status, 503);
    assert.equal(e.code, 'rpc_unavailable');
    return true;
  });
});

test('a gateway that is down is a ConnectionError after the retries', async () => {
  const bare = await startBareGateway();
  const url = bare.url;
  await bare.stop();
  const down = new SvcClient({ apiKey: bare.merchant.secretKey, baseUrl: url, maxRetries: 2, ...fast });
  await assert.rejects(down.merchant.retrieve(), (e: unknown) => e instanceof ConnectionError && e.code === 'connection_failed');
});
