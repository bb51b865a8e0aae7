/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/**
 * Durability: the gateway is a real child process (the svc-gateway CLI), killed with SIGKILL while
 * a webhook delivery is in flight, then started again on the same database (SQLite file or PostgreSQL). Nothing may be lost
 * (the delivery is retried after its lease) and nothing may happen twice (one confirmation, one event).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { Webhook } from 'standardwebhooks';
import { payUrl, startLocalnet, type Localnet } from '../../src/localnet/index.js';
import { api, waitFor } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { runCli, spawnGateway, type GatewayProcess } from '../helpers/cli.js';
import { createTestDatabase, dbGet, type TestDatabase } from '../helpers/db.js';

let localnet: Localnet;
let receiver: Receiver;
let dir: string;
let database: TestDatabase | undefined;
const processes: GatewayProcess[] = [];

const TUNING = {
  WEBHOOK_LEASE_MS: '1500',
  WEBHOOK_TIMEOUT_MS: '60000',
  WEBHOOK_RETRY_SCHEDULE_MS: '100,200,400',
  WATCHER_TICK_MS: '50',
  WATCHER_MIN_CHECK_INTERVAL_MS: '100',
};

before(async () => {
  localnet = await startLocalnet({ port: 0, slotMs: 50 });
  receiver = await startReceiver();
  dir = await mkdtemp(join(tmpdir(), 'svc-crash-'));
});
after(async () => {
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all(processes.map((p) => p.exited));
  await receiver?.close();
  await localnet?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

it('loses nothing and confirms nothing twice when killed mid-delivery', async () => {
  database = await createTestDatabase(dir);
  const db = database.target;
  const recipient = Keypair.generate().publicKey.toBase58();
  await localnet.airdrop(recipient, { sol: 1 });
  const { stdout } = await runCli(['merchant', 'create', '--database', db, '--name', 'Crash Shop', '--recipient', recipient, '--webhook-url', receiver.url, '--json']);
  const merchant = JSON.parse(stdout);
  assert.match(merchant.secretKey, /^svc_test_/);

  // The receiver hangs on the first payment.confirmed it gets: the gateway is then mid-delivery.
  let hung = false;
  receiver.behave = (d) => {
    if (!hung && JSON.parse(d.body).type === 'payment.confirmed') {
      hung = true;
      return 'hang';
    }
    return 'ok';
  };

  const first = await spawnGateway(['--database', db, '--rpc', localnet.rpcUrl], TUNING);
  processes.push(first);
  const p = (await api(first.url, '/api/v1/payments', { key: merchant.secretKey, body: { amount: '0.05', currency: 'SOL' } })).body;
  const { signature } = await payUrl(p.url, { rpcUrl: localnet.rpcUrl });
  await waitFor(async () => hung, { what: 'the confirmed webhook to be in flight' });
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await spawnGateway(['--database', db, '--rpc', localnet.rpcUrl], TUNING);
  processes.push(second);
  const confirmedDeliveries = () => receiver.deliveries.filter((d) => JSON.parse(d.body).type === 'payment.confirmed');
  await waitFor(async () => confirmedDeliveries().length >= 2, { timeoutMs: 20_000, what: 'the retried delivery' });

  const wh = new Webhook(merchant.webhookSecret);
  const delivered = confirmedDeliveries().map((d) => wh.verify(d.body, d.headers) as any);
  assert.equal(new Set(delivered.map((e) => e.id)).size, 1, 'the same event, retried: receivers deduplicate on webhook-id');
  assert.equal(delivered[0].data.payment.signature, signature);

  const read = (await api(second.url, `/api/v1/payments/${p.id}`, { key: merchant.secretKey })).body;
  assert.equal(read.status, 'confirmed');
  assert.equal(read.signature, signature);
  assert.equal(read.sequence, 2);
  const count = async (sql: string, ...params: unknown[]) => (await dbGet<{ n: number }>(db, sql, ...params))!.n;
  const counts = {
    confirmedEvents: await count("SELECT COUNT(*) AS n FROM events WHERE payment_id = ? AND type = 'payment.confirmed'", p.id),
    settlements: await count('SELECT COUNT(*) AS n FROM settlements WHERE payment_id = ?', p.id),
  };
  await waitFor(async () => (await count("SELECT COUNT(*) AS n FROM webhook_outbox WHERE status != 'delivered'")) === 0, {
    what: 'every outbox row delivered',
  });
  assert.equal(counts.confirmedEvents, 1);
  assert.equal(counts.settlements, 1);
  const created = receiver.deliveries.filter((d) => JSON.parse(d.body).type === 'payment.created');
  assert.ok(created.length >= 1, 'the created event arrived too');

  second.child.kill('SIGTERM');
  assert.equal(await second.exited, 0, 'SIGTERM shuts down cleanly');
});
