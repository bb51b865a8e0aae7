/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/**
 * PostgreSQL going away and coming back: a running gateway recovers by itself (no restart), calls
 * made during the outage wait and complete, and a state change made across the outage happens once.
 * The test runs its own throwaway server (it stops it), so it needs the PostgreSQL tools; it runs in
 * the PostgreSQL pass (npm run test:postgres) and is skipped on SQLite.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { Keypair } from '@solana/web3.js';
import { startPgServer, type PgServer } from '../../scripts/pg-server.mjs';
import { createMerchant, startGateway, type MerchantCredentials, type RunningGateway } from '../../src/gateway/index.js';
import { TEST_ENGINE, dbAll } from '../helpers/db.js';
import { CLOSED_RPC } from '../helpers/gateway.js';
import { api, sleep } from '../helpers/http.js';

const skip = TEST_ENGINE !== 'postgres' && 'needs PostgreSQL (npm run test:postgres)';

let server: PgServer | undefined;
let gateway: RunningGateway | undefined;
let merchant: MerchantCredentials;
let url: string;

before(async () => {
  if (skip) return;
  // Committed means durable here (an immediate stop is a crash): no asynchronous commit.
  server = await startPgServer({ settings: { synchronous_commit: 'on' } });
  url = server.url('postgres');
  merchant = await createMerchant({ databasePath: url }, { name: 'Outage Shop', recipient: Keypair.generate().publicKey.toBase58() });
  gateway = await startGateway({ rpcUrl: CLOSED_RPC, databasePath: url, port: 0, log: () => {}, detection: { enabled: false } });
});
after(async () => {
  await gateway?.close();
  server?.close();
});

for (const mode of ['fast', 'immediate'] as const) {
  it(`rides out a PostgreSQL restart (${mode} stop) without a gateway restart`, { skip }, async () => {
    const key = merchant.secretKey;
    const created = await api(gateway!.url, '/api/v1/payments', { key, body: { amount: '1', currency: 'SOL' } });
    assert.equal(created.status, 201, created.text);
    const p = created.body;

    server!.stop(mode);
    // Made while the database is down: they wait for it (the store retries) instead of failing.
    const read = api(gateway!.url, `/api/v1/payments/${p.id}`, { key });
    const cancel = api(gateway!.url, `/api/v1/payments/${p.id}/cancel`, { key, method: 'POST' });
    await sleep(1500);
    server!.start();

    const r = await read;
    assert.equal(r.status, 200, r.text);
    const cancelled = await cancel;
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(cancelled.body.sequence, 2);
    const events = await dbAll<{ type: string }>(url, 'SELECT type FROM events WHERE payment_id = ? ORDER BY id', p.id);
    assert.deepEqual(events.map((e) => e.type), ['payment.created', 'payment.cancelled'], 'the change happened once');

    // And the instance keeps working as before.
    const again = await api(gateway!.url, '/api/v1/payments', { key, body: { amount: '2', currency: 'SOL' } });
    assert.equal(again.status, 201, again.text);
    const list = await api(gateway!.url, '/api/v1/payments?limit=100', { key });
    assert.ok(list.body.data.some((x: any) => x.id === again.body.id));
  });
}
