/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/**
 * Every route, successful and failing, against docs/openapi.yaml: real responses from a real stack
 * (localnet, SQLite, a paid and confirmed payment, delivered webhooks), validated with ajv.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { Keypair } from '@solana/web3.js';
import { payUrl } from '../../src/localnet/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { api, waitFor, type ApiRequest } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { assertMatchesSpec, declaredOperations, exercised, spec } from '../helpers/openapi.js';

let stack: Stack;
let receiver: Receiver;

before(async () => {
  receiver = await startReceiver();
  stack = await startStack({
    webhookUrl: receiver.url,
    gateway: { rateLimits: { perPayment: { ratePerSecond: 1, burst: 30 }, perClient: { ratePerSecond: 1000, burst: 1000 } } },
  });
});
after(async () => {
  await stack?.stop();
  await receiver?.close();
});

/** Calls the gateway and checks the answer against the spec for `template`. */
async function call(method: string, template: string, path: string, req: ApiRequest = {}) {
  const res = await api(stack.gatewayUrl, path, { method, ...req });
  assertMatchesSpec(method, template, res);
  return res;
}

it('answers every route as docs/openapi.yaml says', async () => {
  const key = stack.merchant.secretKey;
  const pk = stack.merchant.publishableKey;
  await call('GET', '/healthz', '/healthz');

  // Create: 201, replay, 400, 401, 409, 413, 415.
  const created = await call('POST', '/api/v1/payments', '/api/v1/payments', {
    key,
    body: { amount: '0.05', currency: 'SOL', orderId: 'o-9', memo: 'm', metadata: { a: 'b' } },
    headers: { 'Idempotency-Key': 'spec-1' },
  });
  const p = created.body;
  const replay = await call('POST', '/api/v1/payments', '/api/v1/payments', {
    key,
    body: { amount: '0.05', currency: 'SOL', orderId: 'o-9', memo: 'm', metadata: { a: 'b' } },
    headers: { 'Idempotency-Key': 'spec-1' },
  });
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  await call('POST', '/api/v1/payments', '/api/v1/payments', { key: pk, body: { amount: '1.5', currency: 'USDC' } });
  await call('POST', '/api/v1/payments', '/api/v1/payments', { key, body: { amount: 1, currency: 'SOL' } });
  await call('POST', '/api/v1/payments', '/api/v1/payments', { body: { amount: '1', currency: 'SOL' } });
  await call('POST', '/api/v1/payments', '/api/v1/payments', { key, body: { amount: '2', currency: 'SOL' }, headers: { 'Idempotency-Key': 'spec-1' } });
  await call('POST', '/api/v1/payments', '/api/v1/payments', { key, rawBody: JSON.stringify({ amount: '1', currency: 'SOL', memo: 'x'.repeat(20_000) }), headers: { 'content-type': 'application/json' } });
  await call('POST', '/api/v1/payments', '/api/v1/payments', { key, rawBody: 'amount=1', headers: { 'content-type': 'text/plain' } });

  // Read, list, errors.
  await call('GET', '/api/v1/payments/{id}', `/api/v1/payments/${p.id}`, { key });
  await call('GET', '/api/v1/payments/{id}', `/api/v1/payments/${p.id}`, { key: pk });
  await call('GET', '/api/v1/payments/{id}', '/api/v1/payments/pay_00000000000000000000000000', { key });
  await call('GET', '/api/v1/payments/{id}', `/api/v1/payments/${p.id}`, { key: 'svc_test_nope' });
  await call('GET', '/api/v1/payments', '/api/v1/payments?limit=1', { key });
  await call('GET', '/api/v1/payments', '/api/v1/payments?limit=1000', { key });
  await call('GET', '/api/v1/payments', '/api/v1/payments', { key: pk });
  await call('GET', '/api/v1/payments', '/api/v1/payments');
  await call('GET', '/api/v1/merchant', '/api/v1/merchant', { key });
  await call('GET', '/api/v1/merchant', '/api/v1/merchant', { key: pk });
  await call('GET', '/api/v1/merchant', '/api/v1/merchant');

  // Public verify and transaction request.
  const token = { 'x-service-payment-token': p.paymentToken };
  await call('POST', '/api/public/payments/{id}/verify', `/api/public/payments/${p.id}/verify`, { headers: token });
  await call('POST', '/api/public/payments/{id}/verify', `/api/public/payments/${p.id}/verify`);
  const txBase = `/api/public/payments/${p.id}/transaction?token=${p.paymentToken}`;
  await call('GET', '/api/public/payments/{id}/transaction', '/api/public/payments/{id}/transaction'.replace('{id}', p.id) + `?token=${p.paymentToken}`);
  await call('GET', '/api/public/payments/{id}/transaction', `/api/public/payments/${p.id}/transaction?token=bad`);
  const wallet = Keypair.generate();
  await stack.localnet.airdrop(wallet.publicKey.toBase58(), { sol: 1 });
  await call('POST', '/api/public/payments/{id}/transaction', txBase, { body: { account: wallet.publicKey.toBase58() } });
  await call('POST', '/api/public/payments/{id}/transaction', txBase, { body: { account: 'x' } });
  await call('POST', '/api/public/payments/{id}/transaction', txBase, { body: { account: Keypair.generate().publicKey.toBase58() } });

  // Merchant verify; pay; confirmed payment and its events.
  await call('POST', '/api/v1/payments/{id}/verify', `/api/v1/payments/${p.id}/verify`, { key });
  await call('POST', '/api/v1/payments/{id}/verify', `/api/v1/payments/${p.id}/verify`, { key: pk });
  await call('POST', '/api/v1/payments/{id}/verify', '/api/v1/payments/pay_x/verify', { key });
  await call('POST', '/api/v1/payments/{id}/verify', `/api/v1/payments/${p.id}/verify`);
  await payUrl(p.url, { rpcUrl: stack.rpcUrl });
  await waitFor(async () => (await api(stack.gatewayUrl, `/api/v1/payments/${p.id}`, { key })).body.status === 'confirmed');
  await call('GET', '/api/v1/payments/{id}', `/api/v1/payments/${p.id}`, { key });
  await call('POST', '/api/public/payments/{id}/verify', `/api/public/payments/${p.id}/verify`, { headers: token });
  await call('POST', '/api/public/payments/{id}/transaction', txBase, { body: { account: wallet.publicKey.toBase58() } });

  // Cancel: 200, 409 (already confirmed), 401, 403, 404.
  const other = (await api(stack.gatewayUrl, '/api/v1/payments', { key, body: { amount: '1', currency: 'SOL' } })).body;
  await call('POST', '/api/v1/payments/{id}/cancel', `/api/v1/payments/${other.id}/cancel`, { key });
  await call('POST', '/api/v1/payments/{id}/cancel', `/api/v1/payments/${p.id}/cancel`, { key });
  await call('POST', '/api/v1/payments/{id}/cancel', `/api/v1/payments/${p.id}/cancel`, { key: pk });
  await call('POST', '/api/v1/payments/{id}/cancel', `/api/v1/payments/${p.id}/cancel`);
  await call('POST', '/api/v1/payments/{id}/cancel', '/api/v1/payments/pay_1/cancel', { key });

  // Events.
  await waitFor(async () => receiver.deliveries.length >= 3);
  const events = await call('GET', '/api/v1/events', '/api/v1/events?limit=100', { key });
  assert.ok(events.body.data.some((e: any) => e.type === 'payment.confirmed'));
  await call('GET', '/api/v1/events', '/api/v1/events?startingAfter=nope', { key });
  await call('GET', '/api/v1/events', '/api/v1/events', { key: pk });
  await call('GET', '/api/v1/events', '/api/v1/events');
  const eventId = events.body.data[0].id;
  await call('GET', '/api/v1/events/{id}', `/api/v1/events/${eventId}`, { key });
  await call('GET', '/api/v1/events/{id}', '/api/v1/events/evt_1', { key });
  await call('GET', '/api/v1/events/{id}', `/api/v1/events/${eventId}`, { key: pk });
  await call('GET', '/api/v1/events/{id}', `/api/v1/events/${eventId}`);
  await call('POST', '/api/v1/events/{id}/redeliver', `/api/v1/events/${eventId}/redeliver`, { key });
  await call('POST', '/api/v1/events/{id}/redeliver', '/api/v1/events/evt_1/redeliver', { key });
  await call('POST', '/api/v1/events/{id}/redeliver', `/api/v1/events/${eventId}/redeliver`, { key: pk });
  await call('POST', '/api/v1/events/{id}/redeliver', `/api/v1/events/${eventId}/redeliver`);

  // Webhook bodies match the Event schema too.
  for (const d of receiver.deliveries) {
    assertMatchesSpec('GET', '/api/v1/events/{id}', { status: 200, headers: new Headers({ 'content-type': 'application/json', 'x-request-id': 'r' }), body: JSON.parse(d.body), text: d.body });
  }

  // Rate limit on public verify (burst 30 per payment).
  let limited = false;
  for (let i = 0; i < 40 && !limited; i++) {
    const r = await api(stack.gatewayUrl, `/api/public/payments/${other.id}/verify`, { method: 'POST', headers: { 'x-service-payment-token': other.paymentToken } });
    if (r.status === 429) {
      assertMatchesSpec('POST', '/api/public/payments/{id}/verify', r);
      limited = true;
    }
  }
  assert.ok(limited);

  // Every declared operation was exercised at least once.
  const hit = new Set([...exercised].map((e) => e.split(' ').slice(0, 2).join(' ')));
  assert.deepEqual(declaredOperations().filter((op) => !hit.has(op)), []);
  assert.equal(spec.openapi, '3.1.0');
});
