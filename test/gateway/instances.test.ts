/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/**
 * Several gateway instances on one PostgreSQL database (DESIGN §8). Runs with SVC_TEST_DATABASE=postgres
 * (npm run test:postgres); skipped on SQLite, where one gateway owns its file.
 * - checks coalesce across instances, rate limits and idempotency keys are shared;
 * - three real svc-gateway processes, 24 payments paid on the localnet: each confirmed exactly once,
 *   each event delivered exactly once, never by two instances at the same time, and RPC scans per
 *   payment do not grow with the number of instances;
 * - an instance killed with SIGKILL while holding check and delivery leases: another instance takes
 *   its work over once the leases run out, not before.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { Webhook } from 'standardwebhooks';
import { createMerchant, startGateway, type GatewayOptions, type MerchantCredentials, type RunningGateway } from '../../src/gateway/index.js';
import { payUrl, startLocalnet, type Localnet } from '../../src/localnet/index.js';
import { runCli, spawnGateway, type GatewayProcess } from '../helpers/cli.js';
import { createTestDatabase, dbAll, dbGet, TEST_ENGINE, type TestDatabase } from '../helpers/db.js';
import { CLOSED_RPC } from '../helpers/gateway.js';
import { api, sleep, waitFor } from '../helpers/http.js';

const skip = TEST_ENGINE !== 'postgres' && 'several instances need PostgreSQL (npm run test:postgres)';

let dir: string;
const databases: TestDatabase[] = [];
const processes: GatewayProcess[] = [];
const closers: (() => Promise<void>)[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-instances-'));
});
after(async () => {
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all(processes.map((p) => p.exited));
  for (const close of closers.reverse()) await close();
  for (const d of databases) await d.drop();
  await rm(dir, { recursive: true, force: true });
});

async function newDatabase(): Promise<string> {
  const d = await createTestDatabase(dir, `db${databases.length}`);
  databases.push(d);
  return d.target;
}

/** An HTTP server on 127.0.0.1:0 closed after the file. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function readBody(req: import('node:http').IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A JSON-RPC proxy in front of the localnet that counts calls by method and first parameter. */
async function countingRpc(target: string) {
  const calls: { method: string; first: unknown }[] = [];
  const { url } = await listen(async (req, res) => {
    const body = await readBody(req);
    try {
      const parsed = JSON.parse(body);
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) calls.push({ method: call.method, first: call.params?.[0] });
    } catch {
      // forwarded as is; the node answers the parse error
    }
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(await upstream.text());
  });
  return { url, calls };
}

/**
 * A webhook receiver that holds each delivery a moment and notes how many deliveries of the same
 * event overlap: more than one at a time would mean two instances sending it at once.
 */
async function overlapReceiver(holdMs: number) {
  const deliveries: { id: string; headers: Record<string, string>; body: string; at: number }[] = [];
  const inFlight = new Map<string, number>();
  let maxOverlap = 0;
  let mode: 'ok' | 'hang' = 'ok';
  const { url } = await listen(async (req, res) => {
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const id = headers['webhook-id'] ?? '';
    deliveries.push({ id, headers, body, at: Date.now() });
    if (mode === 'hang') return; // never answered: the sender's lease runs out
    inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
    maxOverlap = Math.max(maxOverlap, inFlight.get(id)!);
    await sleep(holdMs);
    inFlight.set(id, inFlight.get(id)! - 1);
    res.end('ok');
  });
  return {
    url: url + '/webhooks',
    deliveries,
    maxOverlap: () => maxOverlap,
    setMode: (m: 'ok' | 'hang') => {
      mode = m;
    },
  };
}

/** N in-process gateways on one database (separate pools, caches and limiters: separate instances). */
async function inProcessInstances(n: number, options: Partial<GatewayOptions> = {}) {
  const url = await newDatabase();
  const merchant = await createMerchant({ databasePath: url }, { name: 'Shared Shop', recipient: Keypair.generate().publicKey.toBase58() });
  const gateways: RunningGateway[] = [];
  for (let i = 0; i < n; i++) {
    const g = await startGateway({ rpcUrl: CLOSED_RPC, databasePath: url, port: 0, log: () => {}, ...options });
    gateways.push(g);
    closers.push(() => g.close());
  }
  return { url, merchant, gateways };
}

describe('several instances on one PostgreSQL database', { skip }, () => {
  it('coalesces checks of one payment across instances: 60 verifies over 3 instances cost one chain check', async () => {
    const { merchant, gateways } = await inProcessInstances(3, {
      background: false,
      watcher: { tickMs: 50, minCheckIntervalMs: 60_000, lateIntervalMs: 60_000, batchSize: 100, concurrency: 4, checkLeaseMs: 30_000 },
      detection: { enabled: false },
      rateLimits: { perPayment: { ratePerSecond: 1000, burst: 1000 }, perClient: { ratePerSecond: 1000, burst: 1000 } },
    });
    const key = merchant.secretKey;
    const p = (await api(gateways[0]!.url, '/api/v1/payments', { key, body: { amount: '1', currency: 'SOL' } })).body;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_v, i) => {
        const g = gateways[i % 3]!;
        return i % 2
          ? api(g.url, `/api/public/payments/${p.id}/verify`, { method: 'POST', headers: { 'x-service-payment-token': p.paymentToken } })
          : api(g.url, `/api/v1/payments/${p.id}/verify`, { method: 'POST', key });
      }),
    );
    assert.ok(answers.every((r) => r.status === 200 && r.body.status === 'pending'), JSON.stringify(answers.map((r) => r.status)));
    await sleep(200); // public verifies start their check without waiting for it
    const checks = gateways.map((g) => g.service.checksStarted);
    assert.equal(
      checks.reduce((a, b) => a + b, 0),
      1,
      `one chain check in all, got ${checks.join(' + ')}`,
    );
  });

  it('shares the rate limit of one payment across instances', async () => {
    const { merchant, gateways } = await inProcessInstances(3, {
      background: false,
      detection: { enabled: false },
      rateLimits: { perPayment: { ratePerSecond: 0.01, burst: 10 }, perClient: { ratePerSecond: 1000, burst: 1000 } },
    });
    const p = (await api(gateways[0]!.url, '/api/v1/payments', { key: merchant.secretKey, body: { amount: '1', currency: 'SOL' } })).body;
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_v, i) =>
        api(gateways[i % 3]!.url, `/api/public/payments/${p.id}/verify`, {
          method: 'POST',
          headers: { 'x-service-payment-token': p.paymentToken },
        }).then((r) => r.status),
      ),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 10, 'the burst of 10 is for all instances together');
    assert.equal(statuses.filter((s) => s === 429).length, 20);
  });

  it('creates one payment when the same Idempotency-Key races on three instances', async () => {
    const { url, merchant, gateways } = await inProcessInstances(3, { background: false, detection: { enabled: false } });
    const body = { amount: '2.5', currency: 'SOL', orderId: 'race-1' };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_v, i) =>
        api(gateways[i % 3]!.url, '/api/v1/payments', { key: merchant.secretKey, body, headers: { 'idempotency-key': 'race-key-1' } }),
      ),
    );
    const created = answers.filter((r) => r.status === 201);
    assert.ok(created.length >= 1, JSON.stringify(answers.map((r) => r.status)));
    assert.ok(answers.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'idempotency_key_in_use')));
    assert.equal(new Set(created.map((r) => r.body.id)).size, 1, 'every 201 is the same payment (replays)');
    const rows = await dbAll<{ n: number }>(url, 'SELECT COUNT(*) AS n FROM payments');
    assert.equal(rows[0]!.n, 1);
  });

  describe('three svc-gateway processes and the localnet', () => {
    let localnet: Localnet;
    before(async () => {
      localnet = await startLocalnet({ port: 0, slotMs: 50 });
      closers.push(() => localnet.close());
    });

    const TUNING = {
      WATCHER_TICK_MS: '50',
      WATCHER_MIN_CHECK_INTERVAL_MS: '500',
      LATE_WATCH_INTERVAL_MS: '1000',
      CHECK_LEASE_MS: '3000',
      WEBHOOK_LEASE_MS: '3000',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE_MS: '100,200,400,800',
      RATE_LIMIT_PER_CLIENT: '1000,1000',
      DATABASE_POOL_SIZE: '4',
    };

    async function merchantOn(url: string, webhookUrl: string): Promise<MerchantCredentials> {
      const recipient = Keypair.generate().publicKey.toBase58();
      await localnet.airdrop(recipient, { sol: 1 });
      const { stdout } = await runCli(['merchant', 'create', '--database', url, '--name', 'Busy Shop', '--recipient', recipient, '--webhook-url', webhookUrl, '--json']);
      return JSON.parse(stdout);
    }

    it('confirms 24 payments exactly once and delivers each event once, never from two instances at a time', async () => {
      const url = await newDatabase();
      const receiver = await overlapReceiver(30);
      const rpc = await countingRpc(localnet.rpcUrl);
      const merchant = await merchantOn(url, receiver.url);
      const instances = await Promise.all([0, 1, 2].map(() => spawnGateway(['--database', url, '--rpc', rpc.url], TUNING)));
      processes.push(...instances);
      const key = merchant.secretKey;

      const payments: any[] = [];
      for (let i = 0; i < 24; i++) {
        const res = await api(instances[i % 3]!.url, '/api/v1/payments', { key, body: { amount: `0.0${(i % 9) + 1}`, currency: 'SOL', orderId: `o-${i}` } });
        assert.equal(res.status, 201, res.text);
        payments.push(res.body);
      }
      // Unpaid for 3 s: every instance's watcher sees them due, yet each young payment is scanned
      // about once a second in all (three uncoordinated watchers would scan three times as often).
      const scansBefore = rpc.calls.length;
      const t0 = Date.now();
      await sleep(3000);
      const seconds = (Date.now() - t0) / 1000;
      const references = new Set(payments.map((p) => p.reference as string));
      const scans = rpc.calls.slice(scansBefore).filter((c) => c.method === 'getSignaturesForAddress' && references.has(c.first as string)).length;
      const perPayment = scans / payments.length;
      assert.ok(perPayment <= seconds + 1.5, `reference scans per payment ${perPayment.toFixed(1)} in ${seconds.toFixed(1)} s (about one a second expected)`);
      assert.ok(perPayment >= 1, 'payments were checked');

      // Paid in groups; the payer polls the public verify on any instance, as browsers behind a load balancer would.
      for (let i = 0; i < payments.length; i += 6) {
        await Promise.all(payments.slice(i, i + 6).map((p) => payUrl(p.url, { rpcUrl: localnet.rpcUrl })));
      }
      let poll = 0;
      await waitFor(
        async () => {
          const open = (await dbAll<{ id: string }>(url, "SELECT id FROM payments WHERE status <> 'confirmed'")).map((r) => r.id);
          await Promise.all(
            payments
              .filter((p) => open.includes(p.id))
              .map((p) =>
                api(instances[poll++ % 3]!.url, `/api/public/payments/${p.id}/verify`, { method: 'POST', headers: { 'x-service-payment-token': p.paymentToken } }),
              ),
          );
          return open.length === 0;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: 'all 24 payments confirmed' },
      );
      await waitFor(async () => (await dbGet<{ n: number }>(url, "SELECT COUNT(*) AS n FROM webhook_outbox WHERE status <> 'delivered'"))!.n === 0, {
        timeoutMs: 20_000,
        what: 'every webhook delivered',
      });

      const perPaymentRows = await dbAll<{ id: string; sequence: number; confirmed: number; settled: number }>(
        url,
        `SELECT p.id, p.sequence,
           (SELECT COUNT(*) FROM events e WHERE e.payment_id = p.id AND e.type = 'payment.confirmed') AS confirmed,
           (SELECT COUNT(*) FROM settlements s WHERE s.payment_id = p.id) AS settled
         FROM payments p`,
      );
      assert.equal(perPaymentRows.length, 24);
      for (const r of perPaymentRows) {
        assert.deepEqual({ sequence: r.sequence, confirmed: r.confirmed, settled: r.settled }, { sequence: 2, confirmed: 1, settled: 1 }, r.id);
      }
      const events = await dbAll<{ id: string }>(url, 'SELECT id FROM events');
      assert.equal(events.length, 48, 'created and confirmed, per payment');
      const attempts = await dbAll<{ attempts: number; n: number }>(url, 'SELECT attempts, COUNT(*) AS n FROM webhook_outbox GROUP BY attempts');
      assert.deepEqual(attempts, [{ attempts: 1, n: 48 }], 'one attempt per event, all delivered');
      const wh = new Webhook(merchant.webhookSecret);
      for (const d of receiver.deliveries) wh.verify(d.body, d.headers);
      assert.equal(receiver.deliveries.length, 48);
      assert.equal(new Set(receiver.deliveries.map((d) => d.id)).size, 48, 'each event delivered once');
      assert.equal(receiver.maxOverlap(), 1, 'never two deliveries of one event at once');
      assert.deepEqual(new Set(events.map((e) => e.id)), new Set(receiver.deliveries.map((d) => d.id)));
    });

    it("takes over a SIGKILLed instance's check and delivery leases once they expire", async () => {
      const url = await newDatabase();
      const receiver = await overlapReceiver(10);
      const merchant = await merchantOn(url, receiver.url);
      // Instance A's RPC never answers and neither does the receiver: A holds leases on every check
      // and delivery it starts when it is killed.
      const { url: deadRpc } = await listen(() => {});
      receiver.setMode('hang');
      const a = await spawnGateway(['--database', url, '--rpc', deadRpc], {
        ...TUNING,
        RPC_TIMEOUT_MS: '60000',
        CHECK_LEASE_MS: '6000',
        WEBHOOK_TIMEOUT_MS: '2500',
        WEBHOOK_RETRY_SCHEDULE_MS: Array(20).fill('100').join(','),
      });
      processes.push(a);
      const key = merchant.secretKey;
      // Created at once, so that they fall due together and A's watcher leases them in one pass.
      const payments: any[] = await Promise.all(
        Array.from({ length: 5 }, async () => (await api(a.url, '/api/v1/payments', { key, body: { amount: '0.02', currency: 'SOL' } })).body),
      );
      const leased = async () =>
        receiver.deliveries.length >= 5 &&
        (await dbGet<{ n: number }>(url, 'SELECT COUNT(*) AS n FROM payments WHERE checking_until > ?', new Date().toISOString()))!.n >= 1;
      // Paid while A is alive (it cannot see the chain), then A dies holding its leases.
      for (const p of payments) await payUrl(p.url, { rpcUrl: localnet.rpcUrl });
      await waitFor(leased, { what: 'A holding check leases, and the five deliveries in flight' });
      a.child.kill('SIGKILL');
      await a.exited;
      const killedAt = Date.now();
      // The payments whose check A was running when it died (the others B may check at once).
      const leaseEnds = new Map(
        (await dbAll<{ id: string; checking_until: string | null }>(url, 'SELECT id, checking_until FROM payments'))
          .filter((r) => r.checking_until && Date.parse(r.checking_until) > killedAt)
          .map((r) => [r.id, Date.parse(r.checking_until!)]),
      );
      assert.ok(leaseEnds.size >= 1);
      const deliveryLeaseEnds = new Map(
        (await dbAll<{ event_id: string; lease_until: string | null }>(url, 'SELECT event_id, lease_until FROM webhook_outbox')).map((r) => [
          r.event_id,
          r.lease_until ? Date.parse(r.lease_until) : 0,
        ]),
      );
      receiver.setMode('ok');
      const hungDeliveries = receiver.deliveries.length;

      const b = await spawnGateway(['--database', url, '--rpc', localnet.rpcUrl], TUNING);
      processes.push(b);
      await waitFor(async () => (await dbGet<{ n: number }>(url, "SELECT COUNT(*) AS n FROM payments WHERE status = 'confirmed'"))!.n === 5, {
        timeoutMs: 20_000,
        what: 'B confirming the five payments',
      });
      const rows = await dbAll<{ id: string; confirmed_at: string; sequence: number }>(url, 'SELECT id, confirmed_at, sequence FROM payments');
      for (const r of rows) {
        assert.equal(r.sequence, 2);
        const end = leaseEnds.get(r.id);
        if (end === undefined) continue;
        assert.ok(Date.parse(r.confirmed_at) >= end, `${r.id} checked by B only after A's lease ended`);
        assert.ok(Date.parse(r.confirmed_at) < end + 8_000, `${r.id} taken over soon after the lease`);
      }
      await waitFor(async () => (await dbGet<{ n: number }>(url, "SELECT COUNT(*) AS n FROM webhook_outbox WHERE status <> 'delivered'"))!.n === 0, {
        timeoutMs: 20_000,
        what: 'every webhook delivered by B',
      });
      for (const d of receiver.deliveries.slice(hungDeliveries)) {
        const leaseEnd = deliveryLeaseEnds.get(d.id);
        if (leaseEnd !== undefined) assert.ok(d.at >= leaseEnd, `${d.id} sent again only after A's delivery lease ended`);
      }
      const delivered = new Set(receiver.deliveries.map((d) => d.id));
      assert.equal(delivered.size, 10, 'all ten events (five created, five confirmed) arrived');
      const confirmedEvents = await dbGet<{ n: number }>(url, "SELECT COUNT(*) AS n FROM events WHERE type = 'payment.confirmed'");
      assert.equal(confirmedEvents!.n, 5);
    });
  });
});
