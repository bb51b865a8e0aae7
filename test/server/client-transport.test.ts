// The client's HTTP behaviour against real servers on 127.0.0.1 scripted to misbehave in ways the
// real gateway cannot be made to (stalls, resets, bodies that are not JSON). The same behaviour
// against the real gateway is in gateway.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
  VERSION,
} from '../../src/server/index.js';
import { retryDelay, DEFAULT_BACKOFF } from '../../src/server/retry.js';
import { scriptedServer, problem, json, flakyProxy, deadUrl } from './helpers/http.js';

const KEY = 'svc_test_abcDEF0123456789abcDEF0123456789abcd';
const fast = { initialRetryDelay: 5, maxRetryDelay: 20 };
const payment = { object: 'payment', id: 'pay_1', status: 'pending', amount: '1.00' };

test('sends the bearer key, JSON, a User-Agent with the version, and an Idempotency-Key on POST only', async (t) => {
  const server = await scriptedServer((req, res) => json(res, req.method === 'POST' ? 201 : 200, payment));
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url + '/', ...fast });
  await client.payments.create({ amount: '1.00', currency: 'USDC', orderId: 'A-1' });
  await client.payments.retrieve('pay_1');
  await client.payments.create({ amount: '1.00', currency: 'USDC' }, { idempotencyKey: 'order-A-1' });

  const [post, get, keyed] = server.requests;
  assert.ok(post && get && keyed);
  assert.equal(post.method, 'POST');
  assert.equal(post.url, '/api/v1/payments');
  assert.equal(post.headers.authorization, `Bearer ${KEY}`);
  assert.equal(post.headers['content-type'], 'application/json');
  assert.match(post.headers['user-agent'] ?? '', new RegExp(`^svc-checkout-node/${VERSION.replace(/\./g, '\\.')} `));
  assert.match(String(post.headers['idempotency-key']), /^svc_idem_[0-9a-f-]{36}$/);
  assert.deepEqual(JSON.parse(post.body), { amount: '1.00', currency: 'USDC', orderId: 'A-1' });
  assert.equal(get.url, '/api/v1/payments/pay_1');
  assert.equal(get.headers['idempotency-key'], undefined);
  assert.equal(keyed.headers['idempotency-key'], 'order-A-1');
});

test('the public view is fetched with the payment token and never with the secret key', async (t) => {
  const server = await scriptedServer((_req, res) => json(res, 200, payment));
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url });
  await client.payments.retrievePublic('pay_1', 'svc_pt_token');
  const [req] = server.requests;
  assert.equal(req?.url, '/api/public/payments/pay_1/verify');
  assert.equal(req?.headers['x-service-payment-token'], 'svc_pt_token');
  assert.equal(req?.headers.authorization, undefined);
});

test('VERSION matches package.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
});

test('5xx and 429 are retried with the same Idempotency-Key until success', async (t) => {
  const server = await scriptedServer((_req, res, n) => {
    if (n === 1) return problem(res, 503, 'unavailable');
    if (n === 2) return problem(res, 429, 'rate_limited', {}, { 'retry-after': '0' });
    json(res, 201, payment);
  });
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 2, ...fast });
  const created = await client.payments.create({ amount: '1.00', currency: 'USDC' });
  assert.equal(created.id, 'pay_1');
  assert.equal(server.requests.length, 3);
  const keys = new Set(server.requests.map((r) => r.headers['idempotency-key']));
  assert.equal(keys.size, 1);
});

test('a reset connection is retried; once retries run out the ConnectionError surfaces', async (t) => {
  const server = await scriptedServer((_req, res, n) => {
    if (n <= 2) res.socket?.destroy();
    else json(res, 200, payment);
  });
  t.after(() => server.close());
  const ok = new SvcClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 2, ...fast });
  assert.equal((await ok.payments.retrieve('pay_1')).id, 'pay_1');
  assert.equal(server.requests.length, 3);

  const down = new SvcClient({ apiKey: KEY, baseUrl: await deadUrl(), maxRetries: 1, ...fast });
  await assert.rejects(down.payments.retrieve('pay_1'), (error: unknown) => {
    assert.ok(error instanceof ConnectionError);
    assert.equal(error.code, 'connection_failed');
    assert.equal(error.status, undefined);
    assert.match(error.message, /ECONNREFUSED/);
    return true;
  });
});

test('4xx answers are never retried', async (t) => {
  const server = await scriptedServer((_req, res) => problem(res, 409, 'payment_not_pending'));
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 3, ...fast });
  await assert.rejects(client.payments.cancel('pay_1'), ConflictError);
  assert.equal(server.requests.length, 1);
});

test('retries stop at maxRetries and the last error is thrown', async (t) => {
  const server = await scriptedServer((_req, res) => problem(res, 500, 'internal_error'));
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 3, ...fast });
  await assert.rejects(client.merchant.retrieve(), (e: unknown) => e instanceof ApiError && e.status === 500);
  assert.equal(server.requests.length, 4);
  await assert.rejects(client.merchant.retrieve({ maxRetries: 0 }), ApiError);
  assert.equal(server.requests.length, 5);
});

test('a Retry-After longer than the client will wait is not waited for: RateLimitError with retryAfter', async (t) => {
  const server = await scriptedServer((_req, res) => problem(res, 429, 'rate_limited', {}, { 'retry-after': '120' }));
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 3, ...fast });
  await assert.rejects(client.payments.list(), (e: unknown) => e instanceof RateLimitError && e.retryAfter === 120);
  assert.equal(server.requests.length, 1);
});

test('backoff doubles with jitter within bounds, and a longer Retry-After wins', () => {
  const opts = { ...DEFAULT_BACKOFF, initialRetryDelay: 100, maxRetryDelay: 1000 };
  assert.equal(retryDelay(0, opts, undefined, () => 0), 50);
  assert.equal(retryDelay(0, opts, undefined, () => 1), 100);
  assert.equal(retryDelay(2, opts, undefined, () => 1), 400);
  assert.equal(retryDelay(10, opts, undefined, () => 1), 1000);
  assert.equal(retryDelay(0, opts, 3, () => 1), 3000);
  assert.equal(retryDelay(3, opts, 0, () => 1), 800);
});

test('a gateway that never answers times out per attempt, and each attempt is retried', async (t) => {
  const server = await scriptedServer(() => undefined /* never answers */);
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url, timeout: 100, maxRetries: 1, ...fast });
  await assert.rejects(client.payments.retrieve('pay_1'), (e: unknown) => e instanceof ConnectionError && e.code === 'timeout');
  assert.equal(server.requests.length, 2);
});

test('a gateway that stalls in the middle of the body times out too', async (t) => {
  const server = await scriptedServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"object":"pay');
  });
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url, timeout: 100, maxRetries: 0 });
  await assert.rejects(client.payments.retrieve('pay_1'), (e: unknown) => e instanceof ConnectionError && e.code === 'timeout');
});

test('an abort signal stops the call and its retries', async (t) => {
  const server = await scriptedServer(() => undefined);
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 5, ...fast });
  const controller = new AbortController();
  const call = client.payments.retrieve('pay_1', { signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await assert.rejects(call, (e: unknown) => e instanceof ConnectionError && e.code === 'aborted');
  assert.equal(server.requests.length, 1);
});

test('each status becomes its error class, carrying code, status, requestId, param and the problem body', async (t) => {
  const cases: [number, string, new (...args: never[]) => SvcError][] = [
    [400, 'invalid_amount', InvalidRequestError],
    [413, 'body_too_large', InvalidRequestError],
    [415, 'unsupported_media_type', InvalidRequestError],
    [401, 'invalid_api_key', AuthenticationError],
    [403, 'publishable_key_not_allowed', PermissionError],
    [404, 'payment_not_found', NotFoundError],
    [409, 'payment_not_pending', ConflictError],
    [409, 'idempotency_key_reused', IdempotencyError],
    [429, 'rate_limited', RateLimitError],
    [500, 'internal_error', ApiError],
    [418, 'teapot', ApiError],
  ];
  let i = 0;
  const server = await scriptedServer((_req, res) => {
    const [status, code] = cases[i++] ?? [500, 'x'];
    problem(res, status, code, { param: 'amount' });
  });
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
  for (const [status, code, ErrorClass] of cases) {
    await assert.rejects(client.payments.retrieve('pay_1'), (e: unknown) => {
      assert.ok(e instanceof ErrorClass, `${status} ${code} → ${String(e)}`);
      assert.ok(e instanceof SvcError);
      assert.equal(e.code, code);
      assert.equal(e.status, status);
      assert.equal(e.requestId, `req_test_${status}`);
      assert.equal(e.param, 'amount');
      assert.equal(e.problem?.code, code);
      assert.equal(e.problem?.detail, `detail of ${code}`);
      assert.match(e.message, new RegExp(`detail of ${code} \\(request req_test_${status}\\)`));
      return true;
    });
  }
  assert.ok(new IdempotencyError('x', { code: 'c' }) instanceof ConflictError);
});

test('answers that are not JSON: a 502 page is an ApiError (retried), a 200 is invalid_response', async (t) => {
  const server = await scriptedServer((_req, res, n) => {
    res.writeHead(n <= 2 ? 502 : 200, { 'content-type': 'text/html' });
    res.end('<html>bad gateway</html>');
  });
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 1, ...fast });
  await assert.rejects(client.payments.retrieve('pay_1'), (e: unknown) => e instanceof ApiError && e.code === 'http_502');
  await assert.rejects(client.payments.retrieve('pay_1'), (e: unknown) => e instanceof ApiError && e.code === 'invalid_response');
  assert.equal(server.requests.length, 3);
});

test('list returns one page and iterates over every page with startingAfter', async (t) => {
  const all = Array.from({ length: 45 }, (_, i) => ({ id: `pay_${String(100 - i).padStart(3, '0')}` }));
  const server = await scriptedServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const after = url.searchParams.get('startingAfter');
    const start = after ? all.findIndex((p) => p.id === after) + 1 : 0;
    const data = all.slice(start, start + limit);
    json(res, 200, { object: 'list', data, hasMore: start + limit < all.length });
  });
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url });

  const page = await client.payments.list({ limit: 20, status: 'confirmed' });
  assert.equal(page.data.length, 20);
  assert.equal(page.hasMore, true);
  assert.match(server.requests[0]?.url ?? '', /status=confirmed/);

  const seen: string[] = [];
  for await (const p of client.payments.list({ limit: 20, status: 'confirmed' })) seen.push(p.id);
  assert.deepEqual(seen, all.map((p) => p.id));

  const viaListAll: string[] = [];
  for await (const p of client.payments.listAll({ limit: 7 })) viaListAll.push(p.id);
  assert.deepEqual(viaListAll, all.map((p) => p.id));
  assert.ok(server.requests.some((r) => r.url.includes('startingAfter=pay_094') && r.url.includes('limit=7')));

  const events: string[] = [];
  for await (const e of client.events.listAll({ limit: 50 })) events.push(e.id);
  assert.equal(events.length, 45);
});

test('ids are checked before they go into a URL', async () => {
  const client = new SvcClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9' });
  for (const id of ['', '..', '../merchant', 'pay_1?x=1', 'pay/1', 'pay 1']) {
    // A rejected promise, not a synchronous throw, so .catch() and await both see it.
    const call = client.payments.retrieve(id);
    await assert.rejects(call, (e: unknown) => e instanceof InvalidRequestError && e.code === 'invalid_id');
    await assert.rejects(client.payments.cancel(id), InvalidRequestError);
    await assert.rejects(client.events.redeliver(id), InvalidRequestError);
  }
});

test('construction checks the key and the base URL', () => {
  assert.throws(() => new SvcClient({ apiKey: 'sk_test_123', baseUrl: 'http://x' }), /svc-checkout key/);
  assert.throws(() => new SvcClient({ apiKey: KEY, baseUrl: 'pay.example.com' }), /not a valid URL/);
  assert.throws(() => new SvcClient({ apiKey: KEY, baseUrl: 'ftp://pay.example.com' }), /http/);
  assert.throws(() => new SvcClient({ apiKey: KEY, baseUrl: 'http://x', maxRetries: -1 }), /maxRetries/);
  assert.equal(new SvcClient({ apiKey: KEY, baseUrl: 'https://pay.example.com/' }).baseUrl, 'https://pay.example.com');
});

test('a secret key is refused in a browser, a publishable key is not', (t) => {
  const g = globalThis as Record<string, unknown>;
  g.window = {};
  g.document = {};
  t.after(() => {
    delete g.window;
    delete g.document;
  });
  // Built at run time so no string shaped like a live key sits in the repository (the leak check looks for them).
  const liveShaped = ['svc', 'live', 'abcDEF0123456789abcDEF0123456789abcd'].join('_');
  for (const key of [KEY, liveShaped]) {
    assert.throws(
      () => new SvcClient({ apiKey: key, baseUrl: 'https://pay.example.com' }),
      (e: unknown) => e instanceof SvcError && e.code === 'secret_key_in_browser' && /server only/.test(e.message),
    );
  }
  assert.ok(new SvcClient({ apiKey: 'svc_pk_test_abcDEF0123456789', baseUrl: 'https://pay.example.com' }));
});

test('the flaky proxy helper really spoils what it is told to', async (t) => {
  const target = await scriptedServer((_req, res) => json(res, 200, payment));
  const proxy = await flakyProxy(target.url, ['drop', '500', 'drop-after-forward']);
  t.after(async () => {
    await proxy.close();
    await target.close();
  });
  const client = new SvcClient({ apiKey: KEY, baseUrl: proxy.url, maxRetries: 3, ...fast });
  assert.equal((await client.payments.retrieve('pay_1')).id, 'pay_1');
  assert.equal(proxy.seen.length, 4);
  // Only the third (forwarded, answer lost) and fourth reached the target.
  assert.equal(target.requests.length, 2);
});

test('a 409 idempotency_key_in_use is retried (the first attempt is still running); a reused key is not', async (t) => {
  const server = await scriptedServer((_req, res, n) => {
    if (n === 1) return problem(res, 409, 'idempotency_key_in_use');
    if (n === 2) return json(res, 201, payment);
    problem(res, 409, 'idempotency_key_reused');
  });
  t.after(() => server.close());
  const client = new SvcClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 2, ...fast });
  assert.equal((await client.payments.create({ amount: '1.00', currency: 'USDC' }, { idempotencyKey: 'k1' })).id, 'pay_1');
  await assert.rejects(client.payments.create({ amount: '2.00', currency: 'USDC' }, { idempotencyKey: 'k1' }), IdempotencyError);
  assert.equal(server.requests.length, 3);
  await assert.rejects(client.payments.create({ amount: '1.00', currency: 'USDC' }, { idempotencyKey: 'has space' }), /printable ASCII/);
});
