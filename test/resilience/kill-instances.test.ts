/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/**
 * Three gateway instances (real `svc-gateway start` processes) on one PostgreSQL database. Payments
 * are created through whichever instance answers (retried on another with the same Idempotency-Key
 * when one dies mid-request) and paid on the localnet, while instances are SIGKILLed and restarted at
 * random. Afterwards: every payment confirmed exactly once with its own signature, no payment created
 * twice, and every event delivered at least once (the receiver dedupes by webhook-id).
 * RESILIENCE_PAYMENTS sets how many payments (60 in CI; the 200 locally: RESILIENCE_PAYMENTS=200).
 * Needs PostgreSQL: run under scripts/with-postgres.mjs (skipped otherwise).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { payUrl } from '../../src/localnet/index.js';
import { dbAll } from '../helpers/db.js';
import { sleep, waitFor } from '../helpers/http.js';
import { HAS_POSTGRES, startCluster, type Cluster } from './cluster.js';

const PAYMENTS = Number(process.env.RESILIENCE_PAYMENTS ?? 60);
const INSTANCES = 3;

let cluster: Cluster;

before(async () => {
  if (HAS_POSTGRES) cluster = await startCluster(INSTANCES);
});
after(async () => {
  await cluster?.stop();
});

it(`confirms ${PAYMENTS} payments exactly once and delivers every event while instances are SIGKILLed`, { skip: !HAS_POSTGRES && 'needs PostgreSQL (scripts/with-postgres.mjs)', timeout: 600_000 }, async (t) => {
  const started = Date.now();
  let kills = 0;
  let chaos = true;
  const rnd = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));
  const restarts = new Set<Promise<unknown>>();
  const chaosLoop = (async () => {
    while (chaos) {
      await sleep(rnd(300, 1200));
      const live = cluster.instances.flatMap((p, i) => (p ? [i] : []));
      if (!chaos || live.length < 2) continue; // keep one instance up
      const i = live[rnd(0, live.length)]!;
      await cluster.kill(i);
      kills++;
      // Restart in the background after a pause, so several instances can be down or starting at once.
      const restart = sleep(rnd(200, 1500)).then(() => cluster.start(i));
      restarts.add(restart);
      void restart.finally(() => restarts.delete(restart));
    }
    await Promise.all(restarts);
  })();

  const signatures = new Map<string, string>(); // orderId -> signature
  let next = 0;
  const worker = async () => {
    while (next < PAYMENTS) {
      await sleep(rnd(0, 300)); // spread the payments over the chaos
      if (next >= PAYMENTS) break;
      const k = next++;
      const orderId = `order-${k}`;
      const created = await cluster.call('/api/v1/payments', {
        body: { amount: '0.001', currency: 'SOL', orderId },
        headers: { 'idempotency-key': `chaos-${k}` },
      });
      assert.equal(created.status, 201, created.text);
      const { signature } = await payUrl(created.body.url, { rpcUrl: cluster.localnet.rpcUrl });
      signatures.set(orderId, signature);
    }
  };
  try {
    await Promise.all(Array.from({ length: 4 }, worker));
    // On a quiet machine the payments can all be sent before the chaos has killed much: keep killing
    // while they are still being confirmed and delivered, until at least three kills have happened.
    await waitFor(async () => kills >= 3, { timeoutMs: 30_000, intervalMs: 100, what: 'three SIGKILLs' });
  } finally {
    chaos = false;
    await chaosLoop;
  }
  for (let i = 0; i < INSTANCES; i++) if (!cluster.instances[i]) await cluster.start(i);
  const paidAt = Date.now();

  const target = cluster.database.target;
  try {
    await waitFor(
      async () => (await dbAll<{ n: number }>(target, "SELECT count(*) AS n FROM payments WHERE status = 'confirmed'"))[0]!.n === PAYMENTS,
      { timeoutMs: 60_000, intervalMs: 250, what: `${PAYMENTS} confirmed payments` },
    );
  } catch (error) {
    const stuck = await dbAll(target, "SELECT * FROM payments WHERE status <> 'confirmed'");
    const now = new Date().toISOString();
    throw new Error(`${(error as Error).message}\nnow ${now}, not confirmed: ${JSON.stringify(stuck.map((p: any) => ({ ...p, url: undefined, metadata: undefined })), null, 1).slice(0, 3000)}\nlogs: ${cluster.instances.map((p) => p?.stderr().slice(-1500)).join('\n---\n')}`);
  }
  const confirmedAt = Date.now();

  const payments = await dbAll<any>(target, 'SELECT id, order_id, status, signature, sequence FROM payments');
  assert.equal(payments.length, PAYMENTS, 'no payment created twice by a retried create');
  for (const p of payments) {
    assert.equal(p.status, 'confirmed');
    assert.equal(p.signature, signatures.get(p.order_id), `${p.order_id} settled by its own transfer`);
    assert.equal(Number(p.sequence), 2, `${p.order_id}: created then confirmed, nothing else`);
  }
  const settlements = await dbAll<{ n: number }>(target, 'SELECT count(*) AS n FROM settlements');
  assert.equal(Number(settlements[0]!.n), PAYMENTS);
  const events = await dbAll<{ id: string; type: string; payment_id: string }>(target, 'SELECT id, type, payment_id FROM events');
  const confirmedEvents = events.filter((e) => e.type === 'payment.confirmed');
  assert.equal(confirmedEvents.length, PAYMENTS, 'one payment.confirmed per payment');
  assert.equal(new Set(confirmedEvents.map((e) => e.payment_id)).size, PAYMENTS);
  assert.equal(events.length, 2 * PAYMENTS, 'created and confirmed, nothing more');

  // Every event reaches the receiver at least once (a delivery cut by a kill is retried after its lease).
  const ids = new Set(events.map((e) => e.id));
  const delivered = () => new Set(cluster.receiver.deliveries.map((d) => d.headers['webhook-id']));
  await waitFor(async () => [...ids].every((id) => delivered().has(id)), { timeoutMs: 60_000, intervalMs: 250, what: 'every event delivered' });
  const wh = new Webhook(cluster.merchant.webhookSecret);
  for (const d of cluster.receiver.deliveries) {
    const event = wh.verify(d.body, d.headers) as any;
    assert.ok(ids.has(event.id), 'only events of this database were sent');
  }
  const duplicates = cluster.receiver.deliveries.length - delivered().size;
  t.diagnostic(
    `${PAYMENTS} payments, ${kills} SIGKILLs in ${((paidAt - started) / 1000).toFixed(1)} s; all confirmed ${((confirmedAt - paidAt) / 1000).toFixed(1)} s after the last transfer; ` +
      `${cluster.receiver.deliveries.length} deliveries for ${ids.size} events (${duplicates} repeats, deduped by webhook-id)`,
  );
  assert.ok(kills >= 3, `instances were killed during the run (${kills})`);
});
