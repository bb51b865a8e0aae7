/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/**
 * Idempotency-Key on every POST under /api/v1 (cancel, verify and redeliver as well as create), as the
 * SDK retries them with one: a replay returns the first answer with Idempotent-Replayed: true and does
 * nothing again; the same key on another route, payment or body is 409; a failed request releases it.
 * Real gateway, real database, real webhook receiver.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { dbGet, dbRun } from '../helpers/db.js';
import { startBareGateway, type BareGateway } from '../helpers/gateway.js';
import { api, sleep, waitFor } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let gw: BareGateway;
let receiver: Receiver;
let key: string;

before(async () => {
  receiver = await startReceiver();
  gw = await startBareGateway({
    webhookUrl: receiver.url,
    webhooks: { retryScheduleMs: [50], jitter: 0, timeoutMs: 1000, leaseMs: 2000, pollMs: 25 },
  });
  key = gw.merchant.secretKey;
});
after(async () => {
  await gw?.stop();
  await receiver?.close();
});

async function create() {
  const res = await api(gw.url, '/api/v1/payments', { key, body: { amount: '1', currency: 'SOL' } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

const post = (path: string, idempotencyKey?: string) =>
  api(gw.url, path, { key, method: 'POST', headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });

async function eventsOf(paymentId: string): Promise<any[]> {
  const res = await api(gw.url, '/api/v1/events?limit=100', { key });
  return res.body.data.filter((e: any) => e.data.payment.id === paymentId);
}

describe('Idempotency-Key on cancel, verify and redeliver', () => {
  it('replays a cancel: same answer, no second cancellation, no second event', async () => {
    const p = await create();
    const first = await post(`/api/v1/payments/${p.id}/cancel`, 'cancel-1');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.status, 'cancelled');
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await post(`/api/v1/payments/${p.id}/cancel`, 'cancel-1');
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal((await eventsOf(p.id)).filter((e) => e.type === 'payment.cancelled').length, 1);
    // Without a key, the retry is a new request and meets the state conflict.
    const bare = await post(`/api/v1/payments/${p.id}/cancel`);
    assert.equal(bare.status, 409);
    assert.equal(bare.body.code, 'payment_not_cancellable');
  });

  it('refuses one key on another payment or another route (409 idempotency_key_reused)', async () => {
    const [a, b] = [await create(), await create()];
    assert.equal((await post(`/api/v1/payments/${a.id}/cancel`, 'shared-key')).status, 200);
    for (const path of [`/api/v1/payments/${b.id}/cancel`, `/api/v1/payments/${a.id}/verify`]) {
      const res = await post(path, 'shared-key');
      assert.equal(res.status, 409, res.text);
      assert.equal(res.body.code, 'idempotency_key_reused');
    }
    assert.equal((await api(gw.url, `/api/v1/payments/${b.id}`, { key })).body.status, 'pending', 'b was not cancelled');
  });

  it('releases the key of a failed request, so it can be used for the corrected one', async () => {
    const p = await create();
    await post(`/api/v1/payments/${p.id}/cancel`);
    const failed = await post(`/api/v1/payments/${p.id}/cancel`, 'retry-me');
    assert.equal(failed.status, 409);
    assert.equal(failed.body.code, 'payment_not_cancellable');
    const other = await create();
    const ok = await post(`/api/v1/payments/${other.id}/cancel`, 'retry-me');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.headers.get('idempotent-replayed'), null);
  });

  it('replays a verify with the payment as the first check saw it', async () => {
    const p = await create();
    const first = await post(`/api/v1/payments/${p.id}/verify`, 'verify-1');
    assert.equal(first.status, 200, first.text);
    await post(`/api/v1/payments/${p.id}/cancel`);
    const again = await post(`/api/v1/payments/${p.id}/verify`, 'verify-1');
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.status, 'pending', 'the stored answer, not a new check');
    assert.deepEqual(again.body, first.body);
    const fresh = await post(`/api/v1/payments/${p.id}/verify`, 'verify-2');
    assert.equal(fresh.body.status, 'cancelled');
  });

  it('replays a redeliver without queueing the event twice', async () => {
    const p = await create();
    const [created] = await eventsOf(p.id);
    const deliveriesOf = () => receiver.deliveries.filter((d) => d.headers['webhook-id'] === created.id).length;
    await waitFor(async () => deliveriesOf() === 1, { what: 'the first delivery' });
    const first = await post(`/api/v1/events/${created.id}/redeliver`, 'redeliver-1');
    assert.equal(first.status, 202, first.text);
    const again = await post(`/api/v1/events/${created.id}/redeliver`, 'redeliver-1');
    assert.equal(again.status, 202);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    await waitFor(async () => deliveriesOf() === 2, { what: 'the redelivery' });
    await sleep(300); // several worker polls: a second queued copy would have gone out by now
    assert.equal(deliveriesOf(), 2);
    // Without the key, a second redelivery is queued (that is what redeliver is for).
    assert.equal((await post(`/api/v1/events/${created.id}/redeliver`)).status, 202);
    await waitFor(async () => deliveriesOf() === 3, { what: 'the second redelivery' });
  });

  it('refuses a malformed key on these routes before doing anything', async () => {
    const p = await create();
    for (const bad of ['has space', 'x'.repeat(256), 'ünïcode']) {
      const res = await api(gw.url, `/api/v1/payments/${p.id}/cancel`, { key, method: 'POST', headers: { 'idempotency-key': bad } });
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
      assert.equal(res.body.code, 'idempotency_key_invalid');
    }
    assert.equal((await api(gw.url, `/api/v1/payments/${p.id}`, { key })).body.status, 'pending');
  });

  it('lets a retry take over a key whose request never finished (its instance died), after the lock', async () => {
    const body = { amount: '2', currency: 'SOL', orderId: 'takeover' };
    // What an instance killed mid-create leaves: the key's record, unfinished. The hash is the gateway's own.
    const hash = createHash('sha256').update(`POST /payments\n${JSON.stringify(body)}`).digest('hex');
    const leave = async (key: string, agoMs: number) => {
      const at = new Date(Date.now() - agoMs);
      await dbRun(
        gw.dbPath,
        'INSERT INTO idempotency_keys (merchant_id, livemode, key, request_hash, status_code, response_body, created_at, expires_at) VALUES (?, 0, ?, ?, NULL, NULL, ?, ?)',
        gw.merchant.merchantId, key, hash, at.toISOString(), new Date(at.getTime() + 24 * 3600_000).toISOString(),
      );
    };
    await leave('fresh-unfinished', 1_000);
    const busy = await api(gw.url, '/api/v1/payments', { key, body, headers: { 'idempotency-key': 'fresh-unfinished' } });
    assert.equal(busy.status, 409);
    assert.equal(busy.body.code, 'idempotency_key_in_use', 'within the lock it may still be running');

    await leave('abandoned', 61_000);
    const taken = await api(gw.url, '/api/v1/payments', { key, body, headers: { 'idempotency-key': 'abandoned' } });
    assert.equal(taken.status, 201, taken.text);
    const replay = await api(gw.url, '/api/v1/payments', { key, body, headers: { 'idempotency-key': 'abandoned' } });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.id, taken.body.id);
    // The create stored its answer in the payment's own transaction.
    const stored = await dbGet<{ response_body: string }>(gw.dbPath, "SELECT response_body FROM idempotency_keys WHERE key = 'abandoned'");
    assert.equal(JSON.parse(stored!.response_body).id, taken.body.id);
  });
});
