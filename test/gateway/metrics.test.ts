/**
 * GET /metrics against real gateways: a full stack (localnet, real payment, real webhook receiver)
 * scraped with the METRICS_TOKEN, and a gateway whose RPC and webhook endpoint fail, scraped on its
 * separate metrics port. Checks the series an operator alerts on (docs/operations.md).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { payUrl } from '../../src/localnet/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { startBareGateway } from '../helpers/gateway.js';
import { api, waitFor } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { hasMetric, metricValue, parsePrometheus, type Sample } from '../helpers/prometheus.js';

const TOKEN = 'metrics-token-0123456789abcdef';

function atLeast(s: Sample[], name: string, where: Record<string, string>, n: number): void {
  const v = metricValue(s, name, where);
  assert.ok(v >= n, `${name}${JSON.stringify(where)} = ${v}, expected at least ${n}`);
}

async function scrape(url: string, token?: string): Promise<Sample[]> {
  const res = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parsePrometheus(text);
}

describe('GET /metrics on the API port, behind METRICS_TOKEN', () => {
  let stack: Stack;
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
    stack = await startStack({ webhookUrl: receiver.url, gateway: { metrics: { token: TOKEN } } });
  });
  after(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('refuses a scrape without the token, or with another one, as a problem 401', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer not-the-token-at-all' }, { authorization: TOKEN }];
    for (const headers of attempts) {
      const res = await api(stack.gatewayUrl, '/metrics', { headers });
      assert.equal(res.status, 401, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(res.body.code, 'metrics_token_invalid');
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    }
  });

  it('counts requests by route template, payments watched, chain checks, RPC calls and webhook attempts', async () => {
    const key = stack.merchant.secretKey;
    const created = [];
    for (let i = 0; i < 2; i++) {
      const res = await api(stack.gatewayUrl, '/api/v1/payments', { key, body: { amount: '0.01', currency: 'SOL' } });
      assert.equal(res.status, 201, res.text);
      created.push(res.body);
    }
    const [paid, open] = created;
    assert.equal((await api(stack.gatewayUrl, `/api/v1/payments/${open.id}`, { key })).status, 200);
    assert.equal((await api(stack.gatewayUrl, '/api/v1/payments/pay_nope', { key })).status, 404);
    assert.equal((await api(stack.gatewayUrl, '/no/such/route')).status, 404);
    await payUrl(paid.url, { rpcUrl: stack.rpcUrl });
    await waitFor(async () => (await api(stack.gatewayUrl, `/api/v1/payments/${paid.id}`, { key })).body.status === 'confirmed');
    // created ×2 and confirmed ×1
    await waitFor(async () => receiver.deliveries.length >= 3, { what: 'three webhook deliveries' });

    const s = await waitFor(async () => {
      const samples = await scrape(stack.gatewayUrl, TOKEN);
      // A request is counted when its response has finished, which may be a moment after the client saw it.
      const settled =
        metricValue(samples, 'svc_webhook_deliveries_total', { result: 'delivered' }) >= 3 &&
        metricValue(samples, 'svc_http_requests_total', { route: '/api/v1/payments/:id', method: 'GET', status: '200' }) >= 2;
      return settled ? samples : null;
    });
    assert.equal(metricValue(s, 'svc_http_requests_total', { route: '/api/v1/payments', method: 'POST', status: '201' }), 2);
    assert.equal(metricValue(s, 'svc_http_requests_total', { route: '/api/v1/payments/:id', method: 'GET', status: '404' }), 1);
    atLeast(s, 'svc_http_requests_total', { route: '/api/v1/payments/:id', method: 'GET', status: '200' }, 2);
    assert.equal(metricValue(s, 'svc_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }), 1);
    assert.equal(metricValue(s, 'svc_http_request_duration_seconds_count', { route: '/api/v1/payments', method: 'POST' }), 2);
    // Ids never become label values (bounded cardinality).
    assert.ok(!s.some((x) => Object.values(x.labels).some((v) => /pay_|evt_/.test(v))), 'no ids in labels');

    assert.equal(metricValue(s, 'svc_payments_watched', { status: 'pending' }), 1, 'the unpaid payment is watched');
    assert.equal(metricValue(s, 'svc_payments_watched', { status: 'confirmed' }), 0, 'a confirmed payment is no longer watched');
    // The confirmation needed at least one check: one signature list and one transaction read. How many
    // more checks and scans ran by now depends on the watcher's timing, so only that floor is asserted.
    atLeast(s, 'svc_payment_checks_total', {}, 1);
    atLeast(s, 'svc_rpc_requests_total', { method: 'getSignaturesForAddress' }, 1);
    atLeast(s, 'svc_rpc_requests_total', { method: 'getTransaction' }, 1);
    atLeast(s, 'svc_chain_scan_rpc_calls_total', {}, 2);
    assert.equal(metricValue(s, 'svc_rpc_errors_total'), 0);
    assert.equal(metricValue(s, 'svc_webhook_attempts_total'), receiver.deliveries.length);
    assert.equal(metricValue(s, 'svc_webhook_failures_total'), 0);
    assert.equal(metricValue(s, 'svc_webhook_outbox_pending'), 0);
    assert.equal(metricValue(s, 'svc_database_up'), 1);
    for (const name of ['process_cpu_user_seconds_total', 'nodejs_eventloop_lag_seconds']) assert.ok(hasMetric(s, name), name);
  });
});

describe('GET /metrics on its own port, with a failing RPC and webhook endpoint', () => {
  it('is absent from the API port, and counts RPC errors and webhook failures', async () => {
    const receiver = await startReceiver();
    receiver.behave = () => 'error';
    const gw = await startBareGateway({
      webhookUrl: receiver.url,
      metrics: { port: 0 },
      watcher: { minCheckIntervalMs: 50 },
      webhooks: { retryScheduleMs: [50, 50, 50, 50, 50, 50], jitter: 0, timeoutMs: 1000, leaseMs: 2000, pollMs: 25 },
    });
    try {
      assert.equal((await api(gw.url, '/metrics')).body.code, 'route_not_found', 'not served on the API port without a token');
      assert.ok(gw.gateway.metricsUrl, 'metrics listener started');
      const res = await api(gw.url, '/api/v1/payments', { key: gw.merchant.secretKey, body: { amount: '1', currency: 'SOL' } });
      assert.equal(res.status, 201);
      const s = await waitFor(async () => {
        const samples = await scrape(gw.gateway.metricsUrl!);
        return metricValue(samples, 'svc_rpc_errors_total', { method: 'getSignaturesForAddress', reason: 'network' }) >= 1 &&
          metricValue(samples, 'svc_webhook_deliveries_total', { result: 'retry' }) >= 2
          ? samples
          : null;
      });
      atLeast(s, 'svc_webhook_failures_total', { reason: 'http_status' }, 2);
      assert.equal(metricValue(s, 'svc_webhook_deliveries_total', { result: 'delivered' }), 0);
      assert.equal(metricValue(s, 'svc_webhook_outbox_pending'), 1, 'the created event still waits');
      assert.equal(metricValue(s, 'svc_payments_watched', { status: 'pending' }), 1, 'RPC errors change nothing');
      const other = await fetch(`${gw.gateway.metricsUrl}/other`);
      assert.equal(other.status, 404);
    } finally {
      await gw.stop();
      await receiver.close();
    }
  });
});
