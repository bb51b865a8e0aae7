/**
 * Checks of one payment coalesce: many concurrent browser and merchant verifies cost one chain check
 * per check interval, so RPC load follows the number of pending payments, not of open tabs.
 * The watcher is off here so that only the requests can cause checks; the chain is unreachable
 * (each check fails fast, and by design changes nothing).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startBareGateway, type BareGateway } from '../helpers/gateway.js';
import { api } from '../helpers/http.js';

let gw: BareGateway;

before(async () => {
  gw = await startBareGateway({
    background: false,
    watcher: { tickMs: 50, minCheckIntervalMs: 60_000, lateIntervalMs: 60_000, batchSize: 100, concurrency: 4 },
    rateLimits: { perPayment: { ratePerSecond: 1000, burst: 1000 }, perClient: { ratePerSecond: 1000, burst: 1000 } },
  });
});
after(async () => {
  await gw.stop();
});

it('runs one chain check for 50 concurrent public and merchant verifies of one payment', async () => {
  const key = gw.merchant.secretKey;
  const a = (await api(gw.url, '/api/v1/payments', { key, body: { amount: '1', currency: 'SOL' } })).body;
  const b = (await api(gw.url, '/api/v1/payments', { key, body: { amount: '2', currency: 'SOL' } })).body;
  const before = gw.gateway.service.checksStarted;
  const calls = Array.from({ length: 50 }, (_v, i) =>
    i % 2
      ? api(gw.url, `/api/public/payments/${a.id}/verify`, { method: 'POST', headers: { 'x-service-payment-token': a.paymentToken } })
      : api(gw.url, `/api/v1/payments/${a.id}/verify`, { method: 'POST', key }),
  );
  const answers = await Promise.all(calls);
  assert.ok(answers.every((r) => r.status === 200 && r.body.status === 'pending'));
  assert.equal(gw.gateway.service.checksStarted - before, 1, 'one check for payment a');
  // Another payment has its own budget.
  await api(gw.url, `/api/v1/payments/${b.id}/verify`, { method: 'POST', key });
  assert.equal(gw.gateway.service.checksStarted - before, 2);
  // Within the interval, more verifies cost nothing.
  await Promise.all(Array.from({ length: 20 }, () => api(gw.url, `/api/v1/payments/${a.id}/verify`, { method: 'POST', key })));
  assert.equal(gw.gateway.service.checksStarted - before, 2);
});
