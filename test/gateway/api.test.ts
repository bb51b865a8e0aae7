/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/**
 * The HTTP API without a chain: keys, validation, problems, idempotency, pagination, CORS, rate
 * limits. Real gateway on 127.0.0.1, real SQLite file; the RPC is unreachable (SOL payments need none).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseTransferRequestUrl } from '../../src/core/solana-pay.js';
import { isPublicKey } from '../../src/core/base58.js';
import { generateSecretKey, hashCredential, keyPrefix } from '../../src/gateway/keys.js';
import { newKeyId } from '../../src/gateway/ids.js';
import { startBareGateway, type BareGateway } from '../helpers/gateway.js';
import { api } from '../helpers/http.js';

let gw: BareGateway;
let key: string;

before(async () => {
  gw = await startBareGateway({ rateLimits: { perPayment: { ratePerSecond: 1, burst: 5 }, perClient: { ratePerSecond: 1000, burst: 1000 } } });
  key = gw.merchant.secretKey;
});
after(async () => {
  await gw.stop();
});

function createSol(body: Record<string, unknown> = {}, headers: Record<string, string> = {}, k = key) {
  return api(gw.url, '/api/v1/payments', { key: k, body: { amount: '0.25', currency: 'SOL', ...body }, headers });
}

function assertProblem(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(res.body.code, code, JSON.stringify(res.body));
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.title, 'string');
  assert.equal(typeof res.body.detail, 'string');
  assert.equal(res.body.requestId, res.headers.get('x-request-id'));
  assert.ok(!/\bat \S+ \(/.test(JSON.stringify(res.body)), 'no stack trace');
}

describe('basics', () => {
  it('answers /healthz with a request id, security headers and no x-powered-by', async () => {
    const res = await api(gw.url, '/healthz');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
    assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{20}$/);
    assert.equal(res.headers.get('x-powered-by'), null);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  });

  it('answers unknown routes with a problem 404', async () => {
    assertProblem(await api(gw.url, '/api/v1/nope', { key }), 404, 'route_not_found');
  });
});

describe('create, read, list, cancel', () => {
  it('creates a SOL payment with a Solana Pay URL, a fresh reference and a payment token', async () => {
    const res = await createSol({ orderId: 'order-1', label: 'Café ☕ 日本', memo: 'order 1', metadata: { cart: '42' } });
    assert.equal(res.status, 201, res.text);
    const p = res.body;
    assert.match(p.id, /^pay_[0-9A-Z]{26}$/);
    assert.equal(p.status, 'pending');
    assert.equal(p.amount, '0.25');
    assert.equal(p.currency, 'SOL');
    assert.equal(p.mint, null);
    assert.equal(p.recipient, gw.merchant.recipient);
    assert.ok(isPublicKey(p.reference));
    assert.match(p.paymentToken, /^svc_pt_[0-9A-Za-z]{43}$/);
    assert.equal(p.sequence, 1);
    assert.equal(p.livemode, false);
    assert.deepEqual(p.metadata, { cart: '42' });
    const url = parseTransferRequestUrl(p.url);
    assert.equal(url.recipient, gw.merchant.recipient);
    assert.equal(url.amount, '0.25');
    assert.deepEqual(url.references, [p.reference]);
    assert.equal(url.label, 'Café ☕ 日本');
    assert.equal(url.memo, 'order 1');
    assert.equal(url.splToken, undefined);
    assert.equal(Date.parse(p.expiresAt) - Date.parse(p.createdAt), 900_000);

    const read = await api(gw.url, `/api/v1/payments/${p.id}`, { key });
    assert.equal(read.status, 200);
    const { paymentToken: _t, ...withoutToken } = p;
    assert.deepEqual(read.body, withoutToken);
  });

  it('gives every payment its own reference', async () => {
    const a = await createSol();
    const b = await createSol();
    assert.notEqual(a.body.reference, b.body.reference);
    assert.ok(b.body.id > a.body.id, 'ids sort by creation');
  });

  it('lists newest first with cursor pagination and filters', async () => {
    const other = await gw.addMerchant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createSol({ orderId: i === 2 ? 'find-me' : `o-${i}` }, {}, other.secretKey)).body.id);
    const first = await api(gw.url, '/api/v1/payments?limit=2', { key: other.secretKey });
    assert.equal(first.status, 200);
    assert.equal(first.body.object, 'list');
    assert.deepEqual(first.body.data.map((p: any) => p.id), [ids[4], ids[3]]);
    assert.equal(first.body.hasMore, true);
    const second = await api(gw.url, `/api/v1/payments?limit=2&startingAfter=${ids[3]}`, { key: other.secretKey });
    assert.deepEqual(second.body.data.map((p: any) => p.id), [ids[2], ids[1]]);
    const last = await api(gw.url, `/api/v1/payments?limit=2&startingAfter=${ids[1]}`, { key: other.secretKey });
    assert.deepEqual(last.body.data.map((p: any) => p.id), [ids[0]]);
    assert.equal(last.body.hasMore, false);
    const byOrder = await api(gw.url, '/api/v1/payments?orderId=find-me', { key: other.secretKey });
    assert.deepEqual(byOrder.body.data.map((p: any) => p.id), [ids[2]]);
    const byDefault = await api(gw.url, '/api/v1/payments', { key: other.secretKey });
    assert.equal(byDefault.body.data.length, 5);

    await api(gw.url, `/api/v1/payments/${ids[0]}/cancel`, { key: other.secretKey, method: 'POST' });
    const cancelled = await api(gw.url, '/api/v1/payments?status=cancelled', { key: other.secretKey });
    assert.deepEqual(cancelled.body.data.map((p: any) => p.id), [ids[0]]);

    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'startingAfter=nope', 'status=paid', 'limit=1&limit=2']) {
      assertProblem(await api(gw.url, `/api/v1/payments?${q}`, { key: other.secretKey }), 400, 'parameter_invalid');
    }
  });

  it('cancels a pending payment once, then refuses with 409', async () => {
    const p = (await createSol()).body;
    const res = await api(gw.url, `/api/v1/payments/${p.id}/cancel`, { key, method: 'POST' });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'cancelled');
    assert.equal(res.body.sequence, 2);
    assert.ok(res.body.cancelledAt);
    assertProblem(await api(gw.url, `/api/v1/payments/${p.id}/cancel`, { key, method: 'POST' }), 409, 'payment_not_cancellable');
  });

  it('keeps the payment unchanged when the merchant verify cannot reach the chain', async () => {
    const p = (await createSol()).body;
    const res = await api(gw.url, `/api/v1/payments/${p.id}/verify`, { key, method: 'POST' });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'pending');
    assert.equal(res.body.sequence, 1);
  });

  it('shows the merchant profile', async () => {
    const res = await api(gw.url, '/api/v1/merchant', { key });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'merchant');
    assert.equal(res.body.id, gw.merchant.merchantId);
    assert.equal(res.body.recipient, gw.merchant.recipient);
    assert.deepEqual(res.body.currencies, [{ symbol: 'SOL', mint: null, decimals: 9 }]);
    assert.equal(res.body.livemode, false);
  });
});

describe('authentication', () => {
  it('refuses a missing, malformed or unknown key with 401', async () => {
    assertProblem(await api(gw.url, '/api/v1/payments'), 401, 'api_key_missing');
    assertProblem(await api(gw.url, '/api/v1/payments', { headers: { authorization: 'Basic abc' } }), 401, 'api_key_invalid');
    assertProblem(await api(gw.url, '/api/v1/payments', { key: 'svc_test_short' }), 401, 'api_key_invalid');
    assertProblem(await api(gw.url, '/api/v1/payments', { key: generateSecretKey('test') }), 401, 'api_key_invalid');
    // A real key with its kind or mode changed is another key.
    assertProblem(await api(gw.url, '/api/v1/payments', { key: key.replace('svc_test_', 'svc_live_') }), 401, 'api_key_invalid');
  });

  it('lets a publishable key create a payment and nothing else (403)', async () => {
    const pk = gw.merchant.publishableKey;
    const created = await createSol({}, {}, pk);
    assert.equal(created.status, 201);
    assertProblem(await api(gw.url, `/api/v1/payments/${created.body.id}`, { key: pk }), 403, 'secret_key_required');
    assertProblem(await api(gw.url, '/api/v1/payments', { key: pk }), 403, 'secret_key_required');
    assertProblem(await api(gw.url, '/api/v1/merchant', { key: pk }), 403, 'secret_key_required');
    assertProblem(await api(gw.url, `/api/v1/payments/${created.body.id}/cancel`, { key: pk, method: 'POST' }), 403, 'secret_key_required');
  });

  it("answers 404 for another merchant's payment, for every route", async () => {
    const mine = (await createSol()).body;
    const other = await gw.addMerchant();
    for (const [method, path] of [
      ['GET', `/api/v1/payments/${mine.id}`],
      ['POST', `/api/v1/payments/${mine.id}/cancel`],
      ['POST', `/api/v1/payments/${mine.id}/verify`],
    ] as const) {
      assertProblem(await api(gw.url, path, { key: other.secretKey, method }), 404, 'payment_not_found');
    }
    const list = await api(gw.url, '/api/v1/payments', { key: other.secretKey });
    assert.equal(list.body.data.length, 0);
    // Still pending: the foreign cancel did nothing.
    assert.equal((await api(gw.url, `/api/v1/payments/${mine.id}`, { key })).body.status, 'pending');
  });

  it('keeps test and live data apart for the same merchant', async () => {
    const live = await gw.addMerchant({ mode: 'live' });
    assert.match(live.secretKey, /^svc_live_/);
    assert.match(live.publishableKey, /^svc_pk_live_/);
    const livePayment = (await createSol({}, {}, live.secretKey)).body;
    assert.equal(livePayment.livemode, true);
    // Give the live merchant a test key too.
    const testKey = generateSecretKey('test');
    const now = new Date().toISOString();
    await gw.gateway.store.replaceApiKey(
      { id: newKeyId(), merchant_id: live.merchantId, kind: 'secret', mode: 'test', hash: hashCredential(testKey), prefix: keyPrefix(testKey), revoked_at: null, created_at: now },
      now,
    );
    assertProblem(await api(gw.url, `/api/v1/payments/${livePayment.id}`, { key: testKey }), 404, 'payment_not_found');
    assertProblem(await api(gw.url, `/api/v1/payments/${livePayment.id}/cancel`, { key: testKey, method: 'POST' }), 404, 'payment_not_found');
    assert.equal((await api(gw.url, '/api/v1/payments', { key: testKey })).body.data.length, 0);
    const testPayment = (await createSol({}, {}, testKey)).body;
    assert.equal(testPayment.livemode, false);
    assertProblem(await api(gw.url, `/api/v1/payments/${testPayment.id}`, { key: live.secretKey }), 404, 'payment_not_found');
  });

  it('stops accepting a rotated-out key at once', async () => {
    const { rotateApiKey } = await import('../../src/gateway/merchants.js');
    const m = await gw.addMerchant();
    const fresh = await rotateApiKey(gw.gateway.store, m.merchantId);
    assertProblem(await api(gw.url, '/api/v1/payments', { key: m.secretKey }), 401, 'api_key_revoked');
    assert.equal((await api(gw.url, '/api/v1/payments', { key: fresh })).status, 200);
  });
});

describe('bad input', () => {
  it('refuses bodies that are not JSON (415), malformed (400) or over 16 KiB (413)', async () => {
    assertProblem(await api(gw.url, '/api/v1/payments', { key, rawBody: 'amount=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
    assertProblem(await api(gw.url, '/api/v1/payments', { key, rawBody: '{"amount":"1"', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
    assertProblem(await api(gw.url, '/api/v1/payments', { key, rawBody: '"just a string"', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
    const big = JSON.stringify({ amount: '1', currency: 'SOL', label: 'x'.repeat(17 * 1024) });
    assertProblem(await api(gw.url, '/api/v1/payments', { key, rawBody: big, headers: { 'content-type': 'application/json' } }), 413, 'body_too_large');
    assertProblem(await api(gw.url, '/api/v1/payments', { key, body: [1, 2] }), 400, 'body_invalid');
  });

  it('refuses wrong types, unknown fields and unsafe text with the field named', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ amount: 1 }, 'amount_invalid', 'amount'],
      [{ amount: null }, 'parameter_missing', 'amount'],
      [{ currency: 5 }, 'parameter_invalid', 'currency'],
      [{ currency: 'DOGE' }, 'currency_unsupported', 'currency'],
      [{ label: 7 }, 'parameter_invalid', 'label'],
      [{ memo: 'a\u0000b' }, 'parameter_invalid', 'memo'],
      [{ label: 'pay \u202Eevil' }, 'parameter_invalid', 'label'],
      [{ message: '\uD800' }, 'parameter_invalid', 'message'],
      [{ label: 'x'.repeat(201) }, 'parameter_invalid', 'label'],
      [{ metadata: { a: 1 } }, 'parameter_invalid', 'metadata.a'],
      [{ metadata: 'x' }, 'parameter_invalid', 'metadata'],
      [{ expiresIn: 5 }, 'parameter_invalid', 'expiresIn'],
      [{ expiresIn: 1.5 }, 'parameter_invalid', 'expiresIn'],
      [{ recipient: 'attacker' }, 'parameter_unknown', 'recipient'],
      [{ status: 'confirmed' }, 'parameter_unknown', 'status'],
    ];
    for (const [body, code, param] of cases) {
      const res = await createSol(body);
      assertProblem(res, 400, code);
      assert.equal(res.body.param, param, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
    }
  });

  it('refuses absurd amounts', async () => {
    const cases: Array<[string, string]> = [
      ['0', 'amount_not_positive'],
      ['0.000', 'amount_not_positive'],
      ['-1', 'amount_invalid'],
      ['1e9', 'amount_invalid'],
      ['NaN', 'amount_invalid'],
      [' 1', 'amount_invalid'],
      ['0.0000000001', 'amount_too_precise'],
      ['99999999999999999999999', 'amount_out_of_range'],
      ['18446744073.709551616', 'amount_out_of_range'],
      ['18446744074', 'amount_out_of_range'],
    ];
    for (const [amount, code] of cases) {
      const res = await createSol({ amount });
      assert.equal(res.status, 400, `${amount}: ${res.text}`);
      assert.equal(res.body.param, 'amount', amount);
      if (code !== 'amount_invalid') assert.equal(res.body.code, code, `${amount}: ${res.text}`);
      else assert.match(res.body.code, /^amount_/, `${amount}: ${res.text}`);
    }
    const max = await createSol({ amount: '18446744073.709551615' });
    assert.equal(max.status, 201, max.text);
  });

  it('stores and returns unicode text unchanged', async () => {
    const label = 'Ünïcødé 🧾 مرحبا שלום';
    const res = await createSol({ label, message: 'Merci beaucoup — ありがとう', metadata: { 'clé': 'valeur ✓' } });
    assert.equal(res.status, 201, res.text);
    const read = await api(gw.url, `/api/v1/payments/${res.body.id}`, { key });
    assert.equal(read.body.label, label);
    assert.deepEqual(read.body.metadata, { 'clé': 'valeur ✓' });
    assert.equal(parseTransferRequestUrl(read.body.url).label, label);
  });

  it('answers 503 rpc_unavailable, not a state change, when token decimals cannot be read', async () => {
    const g = await startBareGateway({ currencies: [{ symbol: 'USDC', mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' }] });
    try {
      const res = await api(g.url, '/api/v1/payments', { key: g.merchant.secretKey, body: { amount: '1', currency: 'USDC' } });
      assertProblem(res, 503, 'rpc_unavailable');
      assert.equal((await api(g.url, '/api/v1/payments', { key: g.merchant.secretKey })).body.data.length, 0);
    } finally {
      await g.stop();
    }
  });
});

describe('idempotency', () => {
  it('replays the first response for the same key and body', async () => {
    const headers = { 'Idempotency-Key': 'order-77-attempt' };
    const first = await createSol({ orderId: '77' }, headers);
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await createSol({ orderId: '77' }, headers);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    const list = await api(gw.url, '/api/v1/payments?orderId=77', { key });
    assert.equal(list.body.data.length, 1, 'one payment, not two');
  });

  it('refuses the same key with another body (409) and bad keys (400)', async () => {
    const headers = { 'Idempotency-Key': 'k-conflict' };
    assert.equal((await createSol({ amount: '1' }, headers)).status, 201);
    assertProblem(await createSol({ amount: '2' }, headers), 409, 'idempotency_key_reused');
    assertProblem(await createSol({}, { 'Idempotency-Key': 'x'.repeat(256) }), 400, 'idempotency_key_invalid');
    assert.equal((await createSol({}, { 'Idempotency-Key': 'y'.repeat(255) })).status, 201);
  });

  it('scopes keys per merchant', async () => {
    const other = await gw.addMerchant();
    const headers = { 'Idempotency-Key': 'shared-key' };
    const a = await createSol({}, headers);
    const b = await createSol({ amount: '3' }, headers, other.secretKey);
    assert.equal(b.status, 201);
    assert.notEqual(a.body.id, b.body.id);
  });

  it('releases the key when the request failed, so a corrected retry works', async () => {
    const headers = { 'Idempotency-Key': 'fix-and-retry' };
    assertProblem(await createSol({ amount: 'bad' }, headers), 400, 'amount_invalid');
    assert.equal((await createSol({ amount: '1.5' }, headers)).status, 201);
  });

  it('creates one payment when the same key races', async () => {
    const headers = { 'Idempotency-Key': 'race' };
    const results = await Promise.all(Array.from({ length: 8 }, () => createSol({ orderId: 'race' }, headers)));
    const created = results.filter((r) => r.status === 201);
    assert.ok(created.length >= 1);
    for (const r of results) assert.ok(r.status === 201 || (r.status === 409 && r.body.code === 'idempotency_key_in_use'), r.text);
    assert.equal(new Set(created.map((r) => r.body.id)).size, 1);
    assert.equal((await api(gw.url, '/api/v1/payments?orderId=race', { key })).body.data.length, 1);
  });
});

describe('public routes', () => {
  it('verifies with the payment token and shows the public view only', async () => {
    const p = (await createSol({ orderId: 'secret-order', metadata: { internal: 'x' } })).body;
    const res = await api(gw.url, `/api/public/payments/${p.id}/verify`, {
      method: 'POST',
      headers: { 'x-service-payment-token': p.paymentToken, origin: 'https://shop.example' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.body.id, p.id);
    assert.equal(res.body.status, 'pending');
    assert.equal(res.body.merchant.name, 'Test Shop');
    assert.ok(!('metadata' in res.body));
    assert.ok(!('orderId' in res.body));
    assert.ok(!('paymentToken' in res.body));
    assert.ok(Math.abs(Date.parse(res.body.serverTime) - Date.now()) < 60_000);
  });

  it('refuses a missing token, a wrong token and a token of another payment', async () => {
    const a = (await createSol()).body;
    const b = (await createSol()).body;
    const verify = (id: string, token?: string) =>
      api(gw.url, `/api/public/payments/${id}/verify`, { method: 'POST', headers: token ? { 'x-service-payment-token': token } : {} });
    assertProblem(await verify(a.id), 401, 'payment_token_missing');
    assertProblem(await verify(a.id, 'svc_pt_' + '0'.repeat(43)), 401, 'payment_token_invalid');
    assertProblem(await verify(a.id, b.paymentToken), 401, 'payment_token_invalid');
    assertProblem(await verify('pay_nope', a.paymentToken), 401, 'payment_token_invalid');
    // A secret key is no payment token.
    assertProblem(await verify(a.id, key), 401, 'payment_token_invalid');
  });

  it('answers CORS preflights on /api/public only', async () => {
    const pre = await fetch(`${gw.url}/api/public/payments/pay_x/verify`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-service-payment-token, content-type' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /x-service-payment-token/);
    assert.equal(pre.headers.get('access-control-allow-credentials'), null);
    const v1 = await api(gw.url, '/api/v1/payments', { key, headers: { origin: 'https://evil.example' } });
    assert.equal(v1.headers.get('access-control-allow-origin'), null);
    const merchantPre = await fetch(`${gw.url}/api/v1/merchant`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    assert.equal(merchantPre.headers.get('access-control-allow-origin'), null);
  });

  it('lets a browser create a payment with a publishable key (CORS on POST /api/v1/payments only)', async () => {
    const pre = await fetch(`${gw.url}/api/v1/payments`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /authorization/);
    assert.equal(pre.headers.get('access-control-allow-credentials'), null);
    const created = await createSol({}, { origin: 'https://shop.example' }, gw.merchant.publishableKey);
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('access-control-allow-origin'), '*');
    const read = await api(gw.url, `/api/v1/payments/${created.body.id}`, { key, headers: { origin: 'https://shop.example' } });
    assert.equal(read.headers.get('access-control-allow-origin'), null);
  });

  it('rate limits one payment with 429 and Retry-After', async () => {
    const p = (await createSol()).body;
    const statuses: number[] = [];
    let limited: any;
    for (let i = 0; i < 8; i++) {
      const res = await api(gw.url, `/api/public/payments/${p.id}/verify`, { method: 'POST', headers: { 'x-service-payment-token': p.paymentToken } });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200]);
    assert.ok(limited, `expected a 429 in ${statuses}`);
    assertProblem(limited, 429, 'rate_limited');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  });

  it('describes the transaction request (GET) and refuses a bad account (POST)', async () => {
    const p = (await createSol()).body;
    const get = await api(gw.url, `/api/public/payments/${p.id}/transaction?token=${p.paymentToken}`);
    assert.equal(get.status, 200);
    assert.equal(get.body.label, 'Test Shop');
    assert.equal(get.body.icon, `${gw.url}/api/public/icon.svg`);
    const icon = await fetch(get.body.icon);
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    assertProblem(await api(gw.url, `/api/public/payments/${p.id}/transaction`), 401, 'payment_token_missing');
    const bad = await api(gw.url, `/api/public/payments/${p.id}/transaction?token=${p.paymentToken}`, { body: { account: 'nope' } });
    assertProblem(bad, 400, 'account_invalid');
  });
});
