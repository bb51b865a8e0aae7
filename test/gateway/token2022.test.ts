/** A payment in a Token-2022 token (configured by symbol like any other) settles like a Token one. */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { Keypair } from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { parseTransferRequestUrl } from '../../src/core/solana-pay.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { api, waitFor } from '../helpers/http.js';
import { createMint, fundedPayer, transfer } from '../helpers/transfers.js';

let stack: Stack;
const mint = Keypair.generate();

before(async () => {
  // The mint's address is known before it exists: the gateway reads its decimals on first use.
  stack = await startStack({ gateway: { currencies: [{ symbol: 'PYUSD', mint: mint.publicKey.toBase58() }] } });
});
after(async () => {
  await stack?.stop();
});

it('confirms a Token-2022 payment and reads its decimals from the chain', async () => {
  const payer = await fundedPayer(stack, { sol: 1 });
  await createMint(
    stack,
    6,
    [
      { owner: payer.publicKey.toBase58(), amount: 10_000_000n },
      { owner: stack.merchant.recipient, amount: 0n },
    ],
    { mint, programId: TOKEN_2022_PROGRAM_ID },
  );
  const res = await api(stack.gatewayUrl, '/api/v1/payments', { key: stack.merchant.secretKey, body: { amount: '3.5', currency: 'PYUSD' } });
  assert.equal(res.status, 201, res.text);
  const p = res.body;
  assert.equal(p.mint, mint.publicKey.toBase58());
  assert.equal(parseTransferRequestUrl(p.url).splToken, mint.publicKey.toBase58());
  const tooPrecise = await api(stack.gatewayUrl, '/api/v1/payments', { key: stack.merchant.secretKey, body: { amount: '0.0000001', currency: 'PYUSD' } });
  assert.equal(tooPrecise.body.code, 'amount_too_precise');
  const signature = await transfer(stack, { payer, recipient: p.recipient, amount: 3_500_000n, mint: p.mint, references: [p.reference] });
  const done = await waitFor(async () => {
    const r = (await api(stack.gatewayUrl, `/api/v1/payments/${p.id}`, { key: stack.merchant.secretKey })).body;
    return r.status === 'confirmed' ? r : null;
  });
  assert.equal(done.signature, signature);
  assert.equal(done.amountReceived, '3.5');
});
