/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/**
 * Webhook delivery from the durable outbox to a real receiver, checked with the official
 * `standardwebhooks` library. Events come from create and cancel (no chain needed here; the chain
 * transitions use the very same outbox path).
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { rotateWebhookSecret } from '../../src/gateway/merchants.js';
import { startBareGateway, type BareGateway } from '../helpers/gateway.js';
import { api, sleep, waitFor } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { dbAll, dbGet } from '../helpers/db.js';

let gw: BareGateway;
let receiver: Receiver;

const FAST = { retryScheduleMs: [50, 100, 150], jitter: 0, timeoutMs: 1_000, leaseMs: 2_000, pollMs: 25 };

beforeEach(async () => {
  receiver = await startReceiver();
  gw = await startBareGateway({ webhookUrl: receiver.url, webhooks: FAST });
});
afterEach(async () => {
  await gw.stop();
  await receiver.close();
});

async function createPayment(k = gw.merchant.secretKey) {
  const res = await api(gw.url, '/api/v1/payments', { key: k, body: { amount: '1', currency: 'SOL', orderId: 'o-1' } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

function outbox(): Promise<any[]> {
  return dbAll(gw.dbPath, 'SELECT * FROM webhook_outbox ORDER BY id');
}

describe('webhook delivery', () => {
  it('delivers signed events that the Standard Webhooks library verifies', async () => {
    const p = await createPayment();
    await api(gw.url, `/api/v1/payments/${p.id}/cancel`, { key: gw.merchant.secretKey, method: 'POST' });
    await waitFor(async () => receiver.deliveries.length >= 2);
    const wh = new Webhook(gw.merchant.webhookSecret);
    const events = receiver.deliveries.map((d) => wh.verify(d.body, d.headers) as any);
    assert.deepEqual(events.map((e) => e.type), ['payment.created', 'payment.cancelled']);
    assert.deepEqual(events.map((e) => e.data.payment.sequence), [1, 2]);
    assert.equal(events[1].data.payment.status, 'cancelled');
    assert.equal(events[0].data.payment.orderId, 'o-1');
    assert.ok(!('paymentToken' in events[0].data.payment), 'the payment token is never sent to webhooks');
    for (const d of receiver.deliveries) {
      assert.equal(d.headers['content-type'], 'application/json');
      assert.match(d.headers['webhook-id']!, /^evt_/);
      assert.ok(Math.abs(Number(d.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
      assert.equal(JSON.parse(d.body).id, d.headers['webhook-id']);
    }
    // A tampered body fails verification.
    assert.throws(() => wh.verify(receiver.deliveries[0]!.body.replace('"1"', '"1000"'), receiver.deliveries[0]!.headers));
    // The same events are listed by the API.
    const listed = await api(gw.url, '/api/v1/events', { key: gw.merchant.secretKey });
    assert.deepEqual(listed.body.data.map((e: any) => e.id).reverse(), events.map((e) => e.id));
  });

  it('retries while the receiver is down and delivers once it is back: nothing lost', async () => {
    let down = true;
    receiver.behave = (_d, i) => (down ? (i % 2 ? 'reset' : 'error') : 'ok');
    const p = await createPayment();
    await waitFor(async () => receiver.deliveries.length >= 3, { what: 'three failed attempts' });
    assert.equal((await outbox())[0].status, 'pending');
    down = false;
    await waitFor(async () => (await outbox())[0].status === 'delivered', { what: 'delivery after recovery' });
    const ids = new Set(receiver.deliveries.map((d) => d.headers['webhook-id']));
    assert.equal(ids.size, 1, 'retries carry the same webhook-id so receivers can deduplicate');
    const last = receiver.deliveries.at(-1)!;
    assert.equal((new Webhook(gw.merchant.webhookSecret).verify(last.body, last.headers) as any).data.payment.id, p.id);
    const row = (await outbox())[0];
    assert.equal(row.attempts, receiver.deliveries.length);
    assert.ok(row.delivered_at);
  });

  it('gives up after the last retry of the schedule and keeps the record', async () => {
    receiver.behave = () => 'error';
    await createPayment();
    await waitFor(async () => (await outbox())[0].status === 'failed', { what: 'failed status' });
    assert.equal(receiver.deliveries.length, FAST.retryScheduleMs.length + 1);
    assert.equal((await outbox())[0].last_status, 503);
  });

  it('disables the endpoint on 410 Gone and sends nothing more', async () => {
    receiver.behave = () => 'gone';
    await createPayment();
    await waitFor(async () => (await outbox())[0]?.status === 'disabled');
    await createPayment();
    await sleep(300);
    assert.equal(receiver.deliveries.length, 1);
    const merchant = await dbGet<any>(gw.dbPath, 'SELECT webhook_disabled FROM merchants WHERE id = ?', gw.merchant.merchantId);
    assert.equal(merchant.webhook_disabled, 1);
  });

  it('times out a receiver that never answers and retries', async () => {
    receiver.behave = (_d, i) => (i === 0 ? 'hang' : 'ok');
    await createPayment();
    await waitFor(async () => (await outbox())[0].status === 'delivered', { timeoutMs: 10_000 });
    assert.equal(receiver.deliveries.length, 2);
  });

  it('signs with the old and the new secret during a rotation', async () => {
    const fresh = await rotateWebhookSecret(gw.gateway.store, gw.merchant.merchantId);
    await createPayment();
    await waitFor(async () => receiver.deliveries.length >= 1);
    const d = receiver.deliveries[0]!;
    assert.equal(d.headers['webhook-signature']!.split(' ').length, 2);
    assert.ok(new Webhook(fresh).verify(d.body, d.headers));
    assert.ok(new Webhook(gw.merchant.webhookSecret).verify(d.body, d.headers));
  });

  it('stops signing with a rotated-out secret once its overlap ends', async () => {
    const fresh = await rotateWebhookSecret(gw.gateway.store, gw.merchant.merchantId, 0);
    await createPayment();
    await waitFor(async () => receiver.deliveries.length >= 1);
    const d = receiver.deliveries[0]!;
    assert.equal(d.headers['webhook-signature']!.split(' ').length, 1);
    assert.ok(new Webhook(fresh).verify(d.body, d.headers));
    assert.throws(() => new Webhook(gw.merchant.webhookSecret).verify(d.body, d.headers));
  });

  it('redelivers an event on request, and 404s for another merchant', async () => {
    await createPayment();
    await waitFor(async () => receiver.deliveries.length >= 1);
    const [event] = (await api(gw.url, '/api/v1/events', { key: gw.merchant.secretKey })).body.data;
    const res = await api(gw.url, `/api/v1/events/${event.id}/redeliver`, { key: gw.merchant.secretKey, method: 'POST' });
    assert.equal(res.status, 202);
    await waitFor(async () => receiver.deliveries.length >= 2);
    assert.equal(receiver.deliveries[1]!.headers['webhook-id'], event.id);
    assert.equal(receiver.deliveries[1]!.body, receiver.deliveries[0]!.body);
    const other = await gw.addMerchant();
    const foreign = await api(gw.url, `/api/v1/events/${event.id}/redeliver`, { key: other.secretKey, method: 'POST' });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'event_not_found');
    const noHook = await api(gw.url, `/api/v1/events/${event.id}`, { key: other.secretKey });
    assert.equal(noHook.status, 404);
  });

  it('paginates events newest first', async () => {
    for (let i = 0; i < 3; i++) await createPayment();
    const page1 = await api(gw.url, '/api/v1/events?limit=2', { key: gw.merchant.secretKey });
    assert.equal(page1.body.data.length, 2);
    assert.equal(page1.body.hasMore, true);
    const page2 = await api(gw.url, `/api/v1/events?limit=2&startingAfter=${page1.body.data[1].id}`, { key: gw.merchant.secretKey });
    assert.equal(page2.body.data.length, 1);
    assert.equal(page2.body.hasMore, false);
    const all = [...page1.body.data, ...page2.body.data].map((e: any) => e.id);
    assert.deepEqual(all, [...all].sort().reverse());
  });
});
