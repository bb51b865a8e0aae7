/**
 * RPC failures never change a payment, and a hung RPC node cannot wedge the checks: every call has
 * a deadline, after which the check ends and the next one runs. The "node" here is a real HTTP
 * server that accepts requests and never answers.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBareGateway, type BareGateway } from '../helpers/gateway.js';
import { api, waitFor } from '../helpers/http.js';
import { dbGet, dbRun } from '../helpers/db.js';

let hung: Server;
let gw: BareGateway;
let requests = 0;

before(async () => {
  hung = createServer(() => {
    requests++; // never answers
  });
  await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
  gw = await startBareGateway({
    rpcUrl: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
    rpcTimeoutMs: 200,
    watcher: { tickMs: 50, minCheckIntervalMs: 100, lateIntervalMs: 1000, batchSize: 100, concurrency: 4 },
  });
});
after(async () => {
  await gw.stop();
  hung.closeAllConnections();
  await new Promise<void>((r) => hung.close(() => r()));
});

it('times out hung RPC calls, keeps the payment unchanged, and keeps checking', async () => {
  const key = gw.merchant.secretKey;
  const p = (await api(gw.url, '/api/v1/payments', { key, body: { amount: '1', currency: 'SOL' } })).body;
  const first = await api(gw.url, `/api/v1/payments/${p.id}/verify`, { key, method: 'POST' });
  assert.equal(first.status, 200);
  assert.equal(first.body.status, 'pending');
  assert.equal(first.body.sequence, 1);
  const before = requests;
  await new Promise((r) => setTimeout(r, 800));
  const second = await api(gw.url, `/api/v1/payments/${p.id}/verify`, { key, method: 'POST' });
  assert.equal(second.body.status, 'pending');
  assert.equal(second.body.sequence, 1);
  assert.ok(requests > before, 'checks went on after the first one timed out');
  const events = await api(gw.url, '/api/v1/events', { key });
  assert.deepEqual(events.body.data.map((e: { type: string }) => e.type), ['payment.created']);
});

it('still expires payments on time while the RPC is down, and ends the late watch after 24 h', async () => {
  const key = gw.merchant.secretKey;
  const p = (await api(gw.url, '/api/v1/payments', { key, body: { amount: '1', currency: 'SOL' } })).body;
  const past = new Date(Date.now() - 1000).toISOString();
  await dbRun(gw.dbPath, 'UPDATE payments SET expires_at = ?, next_check_at = ? WHERE id = ?', past, past, p.id);
  const expired = await waitFor(async () => {
    const r = (await api(gw.url, `/api/v1/payments/${p.id}`, { key })).body;
    return r.status === 'expired' ? r : null;
  });
  assert.equal(expired.sequence, 2);
  const row = async () => (await dbGet<{ next_check_at: string | null }>(gw.dbPath, 'SELECT next_check_at FROM payments WHERE id = ?', p.id))!;
  assert.notEqual((await row()).next_check_at, null, 'late watch: still checked after expiry');
  // A day and more later: no more checks.
  const longAgo = new Date(Date.now() - 25 * 3600_000).toISOString();
  await dbRun(gw.dbPath, 'UPDATE payments SET expires_at = ?, next_check_at = ? WHERE id = ?', longAgo, past, p.id);
  await waitFor(async () => (await row()).next_check_at === null, { what: 'the late watch to end' });
  assert.equal((await api(gw.url, `/api/v1/payments/${p.id}`, { key })).body.status, 'expired');
});
