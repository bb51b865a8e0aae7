/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/** With commitment 'finalized', a seen transfer makes the payment `processing` first, then `confirmed`. */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { payUrl } from '../../src/localnet/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { api, waitFor } from '../helpers/http.js';

let stack: Stack;

before(async () => {
  stack = await startStack({ commitment: 'finalized', slotMs: 50, finalizationDepth: 40 });
});
after(async () => {
  await stack?.stop();
});

it('goes pending → processing → confirmed, one event each, sequence rising', async () => {
  const res = await api(stack.gatewayUrl, '/api/v1/payments', { key: stack.merchant.secretKey, body: { amount: '0.02', currency: 'SOL' } });
  const p = res.body;
  const { signature } = await payUrl(p.url, { rpcUrl: stack.rpcUrl });
  const processing = await waitFor(async () => {
    const r = (await api(stack.gatewayUrl, `/api/v1/payments/${p.id}`, { key: stack.merchant.secretKey })).body;
    return r.status === 'processing' ? r : null;
  });
  assert.equal(processing.signature, signature);
  assert.equal(processing.confirmedAt, null);
  const done = await waitFor(async () => {
    const r = (await api(stack.gatewayUrl, `/api/v1/payments/${p.id}`, { key: stack.merchant.secretKey })).body;
    return r.status === 'confirmed' ? r : null;
  });
  assert.equal(done.signature, signature);
  assert.equal(done.sequence, 3);
  const events = (await api(stack.gatewayUrl, '/api/v1/events', { key: stack.merchant.secretKey })).body.data.reverse();
  assert.deepEqual(events.map((e: any) => e.type), ['payment.created', 'payment.processing', 'payment.confirmed']);
  assert.deepEqual(events.map((e: any) => e.data.payment.sequence), [1, 2, 3]);
});
