/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/**
 * SOL payments settled by real transactions on the localnet: the happy path and the money cases.
 * Transfers come from payUrl (as a wallet pays a Solana Pay URL) or are built by hand where a case
 * needs what no honest wallet sends. Every "stays pending" assertion is followed by a correct payment
 * that confirms, so the check itself is proven to be running.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Keypair, SystemProgram, PublicKey } from '@solana/web3.js';
import { payUrl } from '../../src/localnet/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { api, sleep, waitFor } from '../helpers/http.js';
import { fundedPayer, send, transfer, transferInstructions } from '../helpers/transfers.js';
import { dbGet, dbRun, expireNow } from '../helpers/db.js';

let stack: Stack;

before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

const LAMPORTS = 10_000_000n; // 0.01 SOL

async function create(body: Record<string, unknown> = {}) {
  const res = await api(stack.gatewayUrl, '/api/v1/payments', { key: stack.merchant.secretKey, body: { amount: '0.01', currency: 'SOL', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function read(id: string) {
  return (await api(stack.gatewayUrl, `/api/v1/payments/${id}`, { key: stack.merchant.secretKey })).body;
}

/** Forces a fresh chain check (merchant verify) after the watcher had time to see everything. */
async function settledState(id: string) {
  await sleep(400);
  return (await api(stack.gatewayUrl, `/api/v1/payments/${id}/verify`, { key: stack.merchant.secretKey, method: 'POST' })).body;
}

async function untilStatus(id: string, status: string, timeoutMs = 15_000) {
  return waitFor(async () => {
    const p = await read(id);
    return p.status === status ? p : null;
  }, { timeoutMs, what: `${id} to be ${status}` });
}

async function eventsOf(paymentId: string): Promise<any[]> {
  const res = await api(stack.gatewayUrl, '/api/v1/events?limit=100', { key: stack.merchant.secretKey });
  return res.body.data.filter((e: any) => e.data.payment.id === paymentId).reverse();
}

describe('SOL payments on the localnet', () => {
  it('confirms a payment paid from its Solana Pay URL, with memo', async () => {
    const p = await create({ memo: 'order-1' });
    const { signature, payer } = await payUrl(p.url, { rpcUrl: stack.rpcUrl });
    const done = await untilStatus(p.id, 'confirmed');
    assert.equal(done.signature, signature);
    assert.equal(done.payer, payer);
    assert.equal(done.amountReceived, '0.01');
    assert.equal(done.overpaid, false);
    assert.equal(done.paidLate, false);
    assert.ok(Date.parse(done.confirmedAt) >= Date.parse(done.createdAt));
    assert.equal(done.sequence, 2);
    const events = await eventsOf(p.id);
    assert.deepEqual(events.map((e) => e.type), ['payment.created', 'payment.confirmed']);
    assert.deepEqual(events.map((e) => e.data.payment.sequence), [1, 2]);
  });

  it('leaves an underpaid payment pending, reports it once, then confirms on the full amount', async () => {
    const p = await create();
    const payer = await fundedPayer(stack);
    const short = await transfer(stack, { payer, recipient: p.recipient, amount: LAMPORTS / 2n, references: [p.reference] });
    const under = await waitFor(async () => {
      const r = await read(p.id);
      return r.amountReceived ? r : null;
    });
    assert.equal(under.status, 'pending');
    assert.equal(under.amountReceived, '0.005');
    assert.equal(under.signature, null);
    await settledState(p.id);
    let events = await eventsOf(p.id);
    assert.equal(events.filter((e) => e.type === 'payment.underpaid').length, 1, 'underpaid reported once per signature');

    const full = await transfer(stack, { payer, recipient: p.recipient, amount: LAMPORTS, references: [p.reference] });
    const done = await untilStatus(p.id, 'confirmed');
    assert.equal(done.signature, full);
    assert.notEqual(done.signature, short);
    assert.equal(done.amountReceived, '0.01');
    events = await eventsOf(p.id);
    assert.deepEqual(events.map((e) => e.type), ['payment.created', 'payment.underpaid', 'payment.confirmed']);
  });

  it('confirms an overpaid payment and flags it', async () => {
    const p = await create();
    const payer = await fundedPayer(stack);
    await transfer(stack, { payer, recipient: p.recipient, amount: LAMPORTS * 3n, references: [p.reference] });
    const done = await untilStatus(p.id, 'confirmed');
    assert.equal(done.overpaid, true);
    assert.equal(done.amountReceived, '0.03');
  });

  it('ignores a transfer to another wallet that carries the reference', async () => {
    const p = await create();
    const payer = await fundedPayer(stack);
    await transfer(stack, { payer, recipient: Keypair.generate().publicKey.toBase58(), amount: LAMPORTS, references: [p.reference] });
    assert.equal((await settledState(p.id)).status, 'pending');
    const good = await transfer(stack, { payer, recipient: p.recipient, amount: LAMPORTS, references: [p.reference] });
    assert.equal((await untilStatus(p.id, 'confirmed')).signature, good);
  });

  it('ignores a failed transaction that would have paid', async () => {
    const p = await create();
    const payer = await fundedPayer(stack, { sol: 0.05 });
    const pay = await transferInstructions(stack, { payer, recipient: p.recipient, amount: LAMPORTS, references: [p.reference] });
    // A second instruction that cannot succeed makes the whole transaction fail (it still lands, fee charged).
    const failing = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 10_000_000_000 });
    const failedSig = await send(stack, [...pay, failing], [payer], { skipPreflight: true });
    const status = (await new (await import('@solana/web3.js')).Connection(stack.rpcUrl).getSignatureStatuses([failedSig], { searchTransactionHistory: true })).value[0];
    assert.ok(status?.err, 'the transaction landed as failed');
    assert.equal((await settledState(p.id)).status, 'pending');
    const good = await transfer(stack, { payer, recipient: p.recipient, amount: LAMPORTS, references: [p.reference] });
    assert.equal((await untilStatus(p.id, 'confirmed')).signature, good);
  });

  it('ignores a transfer without the memo the payment asks for', async () => {
    const p = await create({ memo: 'invoice-77' });
    const payer = await fundedPayer(stack);
    await transfer(stack, { payer, recipient: p.recipient, amount: LAMPORTS, references: [p.reference] });
    await transfer(stack, { payer, recipient: p.recipient, amount: LAMPORTS, references: [p.reference], memo: 'invoice-78' });
    assert.equal((await settledState(p.id)).status, 'pending');
    const good = await transfer(stack, { payer, recipient: p.recipient, amount: LAMPORTS, references: [p.reference], memo: 'invoice-77' });
    assert.equal((await untilStatus(p.id, 'confirmed')).signature, good);
  });

  it('is not blocked by a spam transaction on the reference that came first', async () => {
    const p = await create();
    const attacker = await fundedPayer(stack);
    // Mentions the reference, pays the attacker's own other wallet.
    const spam = SystemProgram.transfer({ fromPubkey: attacker.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 });
    spam.keys.push({ pubkey: new PublicKey(p.reference), isSigner: false, isWritable: false });
    await send(stack, [spam], [attacker]);
    await settledState(p.id);
    const { signature } = await payUrl(p.url, { rpcUrl: stack.rpcUrl });
    const done = await untilStatus(p.id, 'confirmed');
    assert.equal(done.signature, signature);
  });

  it('settles only one of two payments with one transaction carrying both references', async () => {
    const a = await create();
    const b = await create();
    const payer = await fundedPayer(stack);
    const sig = await transfer(stack, { payer, recipient: a.recipient, amount: LAMPORTS, references: [a.reference, b.reference] });
    await waitFor(async () => (await read(a.id)).status === 'confirmed' || (await read(b.id)).status === 'confirmed');
    await settledState(a.id);
    await settledState(b.id);
    const states = [await read(a.id), await read(b.id)];
    const confirmed = states.filter((s) => s.status === 'confirmed');
    assert.equal(confirmed.length, 1, JSON.stringify(states.map((s) => s.status)));
    assert.equal(confirmed[0].signature, sig);
    assert.equal(states.filter((s) => s.status === 'pending').length, 1);
    const settledBySig = await dbGet<{ n: number }>(stack.dbPath, 'SELECT COUNT(*) AS n FROM settlements WHERE signature = ?', sig);
    assert.equal(settledBySig?.n, 1);
    // The other one still settles with its own transfer.
    const other = states.find((s) => s.status === 'pending');
    const own = await transfer(stack, { payer, recipient: other.recipient, amount: LAMPORTS, references: [other.reference] });
    assert.equal((await untilStatus(other.id, 'confirmed')).signature, own);
  });

  it('expires an unpaid payment, then confirms it with paidLate when paid after expiry', async () => {
    const p = await create();
    await expireNow(stack.dbPath, p.id);
    const expired = await untilStatus(p.id, 'expired');
    assert.equal(expired.sequence, 2);
    const { signature } = await payUrl(p.url, { rpcUrl: stack.rpcUrl });
    const done = await untilStatus(p.id, 'confirmed');
    assert.equal(done.signature, signature);
    assert.equal(done.paidLate, true);
    const events = await eventsOf(p.id);
    assert.deepEqual(events.map((e) => e.type), ['payment.created', 'payment.expired', 'payment.confirmed']);
  });

  it('confirms a cancelled payment with paidLate when it is paid anyway', async () => {
    const p = await create();
    const cancelled = await api(stack.gatewayUrl, `/api/v1/payments/${p.id}/cancel`, { key: stack.merchant.secretKey, method: 'POST' });
    assert.equal(cancelled.body.status, 'cancelled');
    const { signature } = await payUrl(p.url, { rpcUrl: stack.rpcUrl });
    const done = await untilStatus(p.id, 'confirmed');
    assert.equal(done.signature, signature);
    assert.equal(done.paidLate, true);
    assert.ok(done.cancelledAt);
  });

  it('never lets one signature settle a second payment, even a later one with the same reference amount', async () => {
    const a = await create();
    const { signature } = await payUrl(a.url, { rpcUrl: stack.rpcUrl });
    await untilStatus(a.id, 'confirmed');
    // Forge a second payment row that points at the same reference: the settlements table must refuse the signature.
    const b = await create();
    await dbRun(stack.dbPath, 'UPDATE payments SET reference = ? WHERE id = ?', a.reference + '-x', b.id);
    await dbRun(stack.dbPath, 'UPDATE payments SET reference = ? WHERE id = ?', a.reference + '-tmp', a.id);
    await dbRun(stack.dbPath, 'UPDATE payments SET reference = ? WHERE id = ?', a.reference, b.id);
    const after = await settledState(b.id);
    assert.equal(after.status, 'pending', 'a used signature never settles another payment');
    const owner = await dbGet<{ payment_id: string }>(stack.dbPath, 'SELECT payment_id FROM settlements WHERE signature = ?', signature);
    assert.equal(owner?.payment_id, a.id);
  });
});
