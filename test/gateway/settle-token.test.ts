/**
 * Token (USDC) payments on the localnet: happy path, a look-alike token of another mint, the
 * merchant without a token account, and the Solana Pay transaction request signed by a wallet.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, Keypair, Transaction } from '@solana/web3.js';
import { payUrl, waitForConfirmation } from '../../src/localnet/index.js';
import { createMerchant } from '../../src/gateway/index.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { api, waitFor } from '../helpers/http.js';
import { createMint, fundedPayer, transfer } from '../helpers/transfers.js';

let stack: Stack;

before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

async function create(body: Record<string, unknown>, key = stack.merchant.secretKey) {
  return api(stack.gatewayUrl, '/api/v1/payments', { key, body });
}

async function untilStatus(id: string, status: string) {
  return waitFor(async () => {
    const p = (await api(stack.gatewayUrl, `/api/v1/payments/${id}`, { key: stack.merchant.secretKey })).body;
    return p.status === status ? p : null;
  }, { what: `${id} to be ${status}` });
}

describe('USDC payments on the localnet', () => {
  it('confirms a USDC payment, seen through the public verify', async () => {
    const p = (await create({ amount: '12.50', currency: 'USDC' })).body;
    assert.equal(p.mint, stack.usdcMint);
    assert.match(p.url, new RegExp(`spl-token=${stack.usdcMint}`));
    const { signature } = await payUrl(p.url, { rpcUrl: stack.rpcUrl });
    const seen = await waitFor(async () => {
      const v = await api(stack.gatewayUrl, `/api/public/payments/${p.id}/verify`, {
        method: 'POST',
        headers: { 'x-service-payment-token': p.paymentToken },
      });
      return v.body.status === 'confirmed' ? v.body : null;
    });
    assert.equal(seen.signature, signature);
    assert.equal(seen.amountReceived, '12.5');
  });

  it('lists USDC with its decimals read from the chain', async () => {
    const m = await api(stack.gatewayUrl, '/api/v1/merchant', { key: stack.merchant.secretKey });
    assert.deepEqual(m.body.currencies, [
      { symbol: 'SOL', mint: null, decimals: 9 },
      { symbol: 'USDC', mint: stack.usdcMint, decimals: 6 },
    ]);
  });

  it('never counts a token of another mint with the same decimals', async () => {
    const p = (await create({ amount: '5', currency: 'USDC' })).body;
    const payer = await fundedPayer(stack, { sol: 1, usdc: 5 });
    const fake = await createMint(stack, 6, [
      { owner: payer.publicKey.toBase58(), amount: 100_000_000n },
      { owner: stack.merchant.recipient, amount: 0n },
    ]);
    await transfer(stack, { payer, recipient: p.recipient, amount: 5_000_000n, mint: fake, references: [p.reference] });
    await new Promise((r) => setTimeout(r, 400));
    const after = await api(stack.gatewayUrl, `/api/v1/payments/${p.id}/verify`, { key: stack.merchant.secretKey, method: 'POST' });
    assert.equal(after.body.status, 'pending');
    assert.equal(after.body.amountReceived, null);
    const real = await transfer(stack, { payer, recipient: p.recipient, amount: 5_000_000n, mint: stack.usdcMint, references: [p.reference] });
    assert.equal((await untilStatus(p.id, 'confirmed')).signature, real);
  });

  it('refuses a USDC payment for a merchant without a USDC token account, clearly', async () => {
    const bare = Keypair.generate().publicKey.toBase58();
    const m = await createMerchant({ databasePath: stack.dbPath }, { name: 'No ATA', recipient: bare });
    const res = await create({ amount: '1', currency: 'USDC' }, m.secretKey);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'recipient_token_account_missing');
    assert.equal(res.body.param, 'currency');
    assert.match(res.body.detail, new RegExp(bare));
    // SOL still works for that merchant.
    assert.equal((await create({ amount: '1', currency: 'SOL' }, m.secretKey)).status, 201);
  });

  it('builds a transaction request that a wallet signs and that settles the payment', async () => {
    const p = (await create({ amount: '2.25', currency: 'USDC', memo: 'tx-request' })).body;
    const wallet = await fundedPayer(stack, { sol: 1, usdc: 3 });
    const base = `${stack.gatewayUrl}/api/public/payments/${p.id}/transaction?token=${p.paymentToken}`;
    const get = await api(base, '');
    assert.equal(get.body.label, 'Stack Shop');
    assert.match(get.body.icon, /^http:\/\/127\.0\.0\.1:\d+\/api\/public\/icon\.svg$/);
    const post = await api(base, '', { body: { account: wallet.publicKey.toBase58() } });
    assert.equal(post.status, 200, post.text);
    const tx = Transaction.from(Buffer.from(post.body.transaction, 'base64'));
    assert.equal(tx.feePayer?.toBase58(), wallet.publicKey.toBase58());
    assert.ok(tx.signatures.every((s) => s.signature === null), 'unsigned');
    tx.partialSign(wallet);
    const connection = new Connection(stack.rpcUrl, 'confirmed');
    const signature = await connection.sendRawTransaction(tx.serialize());
    await waitForConfirmation(connection, signature);
    const done = await untilStatus(p.id, 'confirmed');
    assert.equal(done.signature, signature);
    assert.equal(done.amountReceived, '2.25');
    // Once paid, no new transaction is offered.
    const again = await api(base, '', { body: { account: wallet.publicKey.toBase58() } });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'payment_not_payable');
  });
});
