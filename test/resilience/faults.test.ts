/**
 * Two gateway instances (real processes) on one PostgreSQL database, through faults that last a
 * while: the webhook receiver failing, the Solana RPC answering errors and then not answering at all
 * (a real TCP proxy in front of the localnet), and PostgreSQL itself stopped and started again.
 * Nothing may change state wrongly during a fault, and everything must resume after it without a
 * restart of the instances. Needs PostgreSQL: run under scripts/with-postgres.mjs (skipped otherwise).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { payUrl } from '../../src/localnet/index.js';
import { dbAll } from '../helpers/db.js';
import { api, sleep, waitFor } from '../helpers/http.js';
import { metricValue, parsePrometheus } from '../helpers/prometheus.js';
import { FAST_ENV, HAS_POSTGRES, postgresControl, startCluster, type Cluster } from './cluster.js';

let cluster: Cluster;
const skip = !HAS_POSTGRES && 'needs PostgreSQL (scripts/with-postgres.mjs)';

before(async () => {
  if (HAS_POSTGRES) cluster = await startCluster(2);
});
after(async () => {
  await cluster?.stop();
});

async function create(orderId: string) {
  const res = await cluster.call('/api/v1/payments', { body: { amount: '0.001', currency: 'SOL', orderId } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

const statusOf = async (id: string) => (await dbAll<{ status: string }>(cluster.database.target, 'SELECT status FROM payments WHERE id = ?', id))[0]!.status;
const eventsOf = (id: string) => dbAll<{ id: string; type: string }>(cluster.database.target, 'SELECT id, type FROM events WHERE payment_id = ?', id);

/** A metric summed over every live instance. */
async function clusterMetric(name: string, where: Record<string, string> = {}): Promise<number> {
  let sum = 0;
  for (const p of cluster.instances) {
    if (!p) continue;
    const res = await fetch(`${p.url}/metrics`, { headers: { authorization: `Bearer ${FAST_ENV.METRICS_TOKEN}` } });
    sum += metricValue(parsePrometheus(await res.text()), name, where);
  }
  return sum;
}

describe('faults that last a while', { skip }, () => {
  it('keeps every event while the webhook receiver fails, and delivers them all once it is back', async () => {
    cluster.receiver.behave = (_d, i) => (i % 2 === 0 ? 'error' : 'reset');
    const payments = [await create('wh-1'), await create('wh-2'), await create('wh-3')];
    await payUrl(payments[0].url, { rpcUrl: cluster.localnet.rpcUrl });
    await waitFor(async () => (await statusOf(payments[0].id)) === 'confirmed', { what: 'confirmation during the receiver outage' });
    await waitFor(async () => (await clusterMetric('svc_webhook_failures_total')) >= 4, { what: 'failed attempts' });
    assert.ok((await clusterMetric('svc_webhook_outbox_pending')) >= 4, 'the events wait in the outbox');

    const recovered = cluster.receiver.deliveries.length; // attempts from here on answered 2xx
    cluster.receiver.behave = () => 'ok';
    const ids = (await Promise.all(payments.map((p) => eventsOf(p.id)))).flat().map((e) => e.id);
    assert.equal(ids.length, 4, 'three created, one confirmed');
    const ok = () => new Set(cluster.receiver.deliveries.filter((_, i) => i >= recovered).map((d) => d.headers['webhook-id']));
    await waitFor(async () => ids.every((id) => ok().has(id)), { timeoutMs: 30_000, what: 'every event delivered after the outage' });
    await waitFor(async () => (await clusterMetric('svc_webhook_outbox_pending')) === 0, { what: 'an empty outbox' });
  });

  it('changes no payment while the RPC answers errors, then times out; detection resumes after', async (t) => {
    const paid = [await create('rpc-1'), await create('rpc-2')];
    const unpaid = await create('rpc-3');
    const errorsBefore = await clusterMetric('svc_rpc_errors_total');

    let httpErrors = 0;
    let timeouts = 0;
    try {
      cluster.proxy.mode = 'error';
      // Paid straight on the localnet: the chain has the transfers, the gateways cannot see them.
      for (const p of paid) await payUrl(p.url, { rpcUrl: cluster.localnet.rpcUrl });
      await sleep(2_500);
      cluster.proxy.mode = 'hang';
      await sleep(3_500); // longer than RPC_TIMEOUT_MS: checks time out
      for (const p of [...paid, unpaid]) {
        assert.equal(await statusOf(p.id), 'pending', `${p.orderId} unchanged during the outage`);
        assert.deepEqual((await eventsOf(p.id)).map((e) => e.type), ['payment.created']);
      }
      httpErrors = (await clusterMetric('svc_rpc_errors_total', { reason: 'http_status' })) + (await clusterMetric('svc_rpc_errors_total', { reason: 'rpc_error' }));
      timeouts = await clusterMetric('svc_rpc_errors_total', { reason: 'timeout' });
    } finally {
      if (cluster.proxy.mode !== 'pass') cluster.proxy.mode = 'pass';
    }
    t.diagnostic(`during the outage: ${httpErrors} error answers, ${timeouts} timeouts (errors before: ${errorsBefore})`);
    assert.ok(httpErrors > 0, 'error answers were counted');
    assert.ok(timeouts > 0, 'timeouts were counted');

    const back = Date.now();
    for (const p of paid) await waitFor(async () => (await statusOf(p.id)) === 'confirmed', { timeoutMs: 30_000, what: `${p.orderId} confirmed after the outage` });
    t.diagnostic(`detection resumed: both confirmed ${Date.now() - back} ms after the RPC came back`);
    assert.equal(await statusOf(unpaid.id), 'pending');
    for (const p of paid) assert.deepEqual((await eventsOf(p.id)).map((e) => e.type).sort(), ['payment.confirmed', 'payment.created']);
  });

  it('recovers from PostgreSQL stopped and started again, without restarting the instances', async (t) => {
    const pids = cluster.instances.map((p) => p!.child.pid);
    const pg = postgresControl();
    pg.stop();
    let during: number[] = [];
    try {
      await sleep(1_000);
      // While the database is down the API fails cleanly (a problem, never a hang or a crash).
      during = await Promise.all(
        cluster.instances.map(async (p) => (await api(p!.url, '/api/v1/payments?limit=1', { key: cluster.merchant.secretKey })).status),
      );
      await sleep(2_000);
    } finally {
      pg.start();
    }
    const restarted = Date.now();
    t.diagnostic(`API status codes while PostgreSQL was down: ${during.join(', ')}`);
    for (const s of during) assert.equal(s, 503, 'database_unavailable while the database is down');

    const p = await create('after-pg');
    await payUrl(p.url, { rpcUrl: cluster.localnet.rpcUrl });
    await waitFor(async () => (await statusOf(p.id)) === 'confirmed', { timeoutMs: 30_000, what: 'a payment confirmed after PostgreSQL came back' }).catch((error: Error) => {
      throw new Error(`${error.message}\n${cluster.instances.map((i) => i?.stderr().slice(-3000)).join('\n---\n')}`);
    });
    const [created, confirmed] = (await eventsOf(p.id)).map((e) => e.id);
    await waitFor(async () => [created, confirmed].every((id) => cluster.receiver.deliveries.some((d) => d.headers['webhook-id'] === id)), {
      timeoutMs: 30_000,
      what: 'its events delivered',
    });
    t.diagnostic(`working again ${Date.now() - restarted} ms after PostgreSQL started`);
    assert.deepEqual(cluster.instances.map((i) => i!.child.pid), pids, 'the same processes: no restart');
    for (const i of cluster.instances) assert.equal(i!.child.exitCode, null, 'still running');
    for (const i of cluster.instances) assert.equal((await api(i!.url, '/api/v1/payments?limit=1', { key: cluster.merchant.secretKey })).status, 200);
  });
});
