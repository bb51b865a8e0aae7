/**
 * Public verify from memory (src/gateway/http/public-view-cache.ts): the cached answer is the exact
 * JSON of the view, a state change made by this gateway shows on the very next poll, a read that
 * raced a change is not kept, and a token never opens another payment from the cache.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PublicViewCache } from '../../src/gateway/http/public-view-cache.js';
import { toPublicPayment } from '../../src/gateway/payments/view.js';
import type { PaymentRow } from '../../src/gateway/store/store.js';
import { startBareGateway, type BareGateway } from '../helpers/gateway.js';
import { api } from '../helpers/http.js';

const row = (over: Partial<PaymentRow> = {}): PaymentRow => ({
  id: 'pay_01M7Z6YBQ80Y1DVSS0GDS5D0VQ',
  merchant_id: 'mch_1',
  livemode: 0,
  status: 'pending',
  amount: '1.5',
  amount_base: '1500000000',
  currency: 'SOL',
  mint: null,
  decimals: 9,
  recipient: 'R',
  reference: 'F',
  url: 'solana:R?amount=1.5',
  label: 'Shop "quoted" ☕',
  message: null,
  memo: null,
  order_id: 'secret-order',
  metadata: '{"secret":"x"}',
  amount_received_base: null,
  signature: null,
  payer: null,
  paid_late: 0,
  overpaid: 0,
  created_at: '2026-11-21T10:00:00.000Z',
  expires_at: '2026-11-21T10:15:00.000Z',
  confirmed_at: null,
  cancelled_at: null,
  sequence: 1,
  next_check_at: null,
  checks: 0,
  ...over,
}) as PaymentRow;

const merchant = { name: 'Shop', logo_url: null };

describe('PublicViewCache', () => {
  it('answers exactly the JSON of the public view, serverTime included', () => {
    const cache = new PublicViewCache(60_000);
    const entry = cache.remember(row(), merchant, cache.readStamp(), 'h1');
    const at = new Date('2026-11-21T10:01:02.345Z');
    assert.equal(PublicViewCache.body(entry, at), JSON.stringify(toPublicPayment(row(), merchant, at)));
    assert.ok(!PublicViewCache.body(entry, at).includes('secret'), 'no metadata, no orderId');
    assert.equal(cache.paymentIdOf('h1'), row().id);
    assert.equal(cache.view(row().id), entry);
  });

  it('forgets a view when the payment changes, and does not keep a read that began before the change', () => {
    const cache = new PublicViewCache(60_000);
    cache.remember(row(), merchant, cache.readStamp(), 'h1');
    const stamp = cache.readStamp(); // a slow reader starts here and reads sequence 1...
    cache.invalidate(row().id); // ...while the payment is cancelled
    assert.equal(cache.view(row().id), undefined);
    const stale = cache.remember(row(), merchant, stamp);
    assert.equal(stale.sequence, 1, 'the racing read is still answered');
    assert.equal(cache.view(row().id), undefined, 'but not kept');
    cache.remember(row({ status: 'cancelled', sequence: 2 }), merchant, cache.readStamp());
    assert.equal(cache.view(row().id)?.status, 'cancelled');
  });

  it('expires entries after the TTL (changes made by another instance)', () => {
    let now = 1_000;
    const cache = new PublicViewCache(500, 10, () => now);
    cache.remember(row(), merchant, cache.readStamp());
    now += 499;
    assert.ok(cache.view(row().id));
    now += 1;
    assert.equal(cache.view(row().id), undefined);
  });

  it('stays within its bound', () => {
    const cache = new PublicViewCache(60_000, 3);
    for (let i = 0; i < 10; i++) cache.remember(row({ id: `pay_${i}` }), merchant, cache.readStamp(), `h${i}`);
    assert.equal(cache.paymentIdOf('h0'), undefined);
    assert.equal(cache.paymentIdOf('h9'), 'pay_9');
    assert.equal(cache.view('pay_0'), undefined);
  });
});

describe('public verify through the cache', () => {
  let gw: BareGateway;
  before(async () => {
    gw = await startBareGateway({ background: false });
  });
  after(async () => {
    await gw.stop();
  });

  it('shows a cancel on the next poll, and refuses another payment token from memory too', async () => {
    const key = gw.merchant.secretKey;
    const a = (await api(gw.url, '/api/v1/payments', { key, body: { amount: '1', currency: 'SOL' } })).body;
    const b = (await api(gw.url, '/api/v1/payments', { key, body: { amount: '2', currency: 'SOL' } })).body;
    const verify = (id: string, token: string) => api(gw.url, `/api/public/payments/${id}/verify`, { method: 'POST', headers: { 'x-service-payment-token': token } });
    const first = await verify(a.id, a.paymentToken);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.equal(first.body.status, 'pending');
    assert.equal((await verify(a.id, a.paymentToken)).body.sequence, 1, 'served again (from memory)');
    // a's token is now known to open a: it never opens b.
    const wrong = await verify(b.id, a.paymentToken);
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'payment_token_invalid');
    assert.equal((await api(gw.url, `/api/v1/payments/${a.id}/cancel`, { method: 'POST', key })).status, 200);
    const after = await verify(a.id, a.paymentToken);
    assert.equal(after.body.status, 'cancelled');
    assert.equal(after.body.sequence, 2);
    assert.notEqual(after.body.serverTime, undefined);
  });
});
