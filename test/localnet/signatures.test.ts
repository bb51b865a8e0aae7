/** Finding transactions by reference, and what each commitment level sees. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { waitForConfirmation, type Localnet } from '../../src/localnet/index.js';
import { fundedKeypair, newAddress, rpc, withLocalnet } from './helpers.js';

describe('getSignaturesForAddress, getSignatureStatuses and commitment', () => {
  let net: Localnet;
  let connection: Connection;
  // Slots advance only when the test says so: commitment checks are then exact.
  before(async () => ({ net, connection } = await withLocalnet({ slotMs: 3_600_000, finalizationDepth: 4 })));
  after(() => net.close());

  async function pay(payer: Keypair, reference: PublicKey, lamports: number, memo?: string): Promise<string> {
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight });
    if (memo) tx.add({ programId: new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'), keys: [], data: Buffer.from(memo) });
    const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: newAddress(), lamports });
    ix.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
    tx.add(ix);
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await waitForConfirmation(connection, signature);
    net.chain.advanceSlot();
    return signature;
  }

  it('lists newest first and pages with before, until and limit', async () => {
    const payer = await fundedKeypair(net, { sol: '5' });
    const reference = newAddress();
    const sigs: string[] = [];
    for (let i = 0; i < 5; i++) sigs.push(await pay(payer, reference, 1_000_000 + i, i === 2 ? 'order-2 ✓' : undefined));
    const newestFirst = [...sigs].reverse();

    const all = await connection.getSignaturesForAddress(reference, {}, 'confirmed');
    assert.deepEqual(all.map((s) => s.signature), newestFirst);
    assert.ok(all.every((s, i) => i === 0 || s.slot <= (all[i - 1]?.slot ?? Infinity)));
    assert.equal(all.find((s) => s.signature === sigs[2])?.memo, '[11] order-2 ✓');
    assert.equal(all.find((s) => s.signature === sigs[1])?.memo, null);
    assert.ok(all.every((s) => s.err === null && typeof s.blockTime === 'number'));
    // The payments landed in slots 0..4 and the chain is now at slot 5: with finalizationDepth 4,
    // slots 0 and 1 are finalized.
    assert.deepEqual(all.map((s) => s.slot), [4, 3, 2, 1, 0]);
    assert.deepEqual(all.map((s) => s.confirmationStatus), ['confirmed', 'confirmed', 'confirmed', 'finalized', 'finalized']);

    const firstPage = await connection.getSignaturesForAddress(reference, { limit: 2 }, 'confirmed');
    assert.deepEqual(firstPage.map((s) => s.signature), newestFirst.slice(0, 2));
    const secondPage = await connection.getSignaturesForAddress(reference, { limit: 2, before: firstPage[1]?.signature }, 'confirmed');
    assert.deepEqual(secondPage.map((s) => s.signature), newestFirst.slice(2, 4));
    const untilOldest = await connection.getSignaturesForAddress(reference, { until: sigs[1] }, 'confirmed');
    assert.deepEqual(untilOldest.map((s) => s.signature), newestFirst.slice(0, 3));
    const window = await connection.getSignaturesForAddress(reference, { before: sigs[4], until: sigs[0] }, 'confirmed');
    assert.deepEqual(window.map((s) => s.signature), [sigs[3], sigs[2], sigs[1]]);
    assert.deepEqual(await connection.getSignaturesForAddress(newAddress(), {}, 'confirmed'), []);
  });

  it('bounds pages by the ledger position of before/until, even when they name another address\'s transaction', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const [a, b] = [newAddress(), newAddress()];
    const first = await pay(payer, a, 1_000_000);
    const between = await pay(payer, b, 1_000_001);
    const last = await pay(payer, a, 1_000_002);
    assert.deepEqual((await connection.getSignaturesForAddress(a, { before: between }, 'confirmed')).map((s) => s.signature), [first]);
    assert.deepEqual((await connection.getSignaturesForAddress(a, { until: between }, 'confirmed')).map((s) => s.signature), [last]);
    const unknown = '1'.repeat(64);
    assert.deepEqual(await connection.getSignaturesForAddress(a, { before: unknown }, 'confirmed'), []);
    assert.deepEqual((await connection.getSignaturesForAddress(a, { until: unknown }, 'confirmed')).map((s) => s.signature), [last, first]);
  });

  it('shows a transaction as confirmed at once and finalized only finalizationDepth slots later', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const reference = newAddress();
    const signature = await pay(payer, reference, 1_000_000);

    const status = (await connection.getSignatureStatuses([signature])).value[0];
    assert.equal(status?.confirmationStatus, 'confirmed');
    assert.equal(status?.confirmations, 1);
    assert.deepEqual((await connection.getSignaturesForAddress(reference, {}, 'finalized')).map((s) => s.signature), []);
    assert.equal(await connection.getTransaction(signature, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }), null);
    // Without a commitment a node answers at `finalized`.
    assert.deepEqual(await rpc(net.rpcUrl, 'getSignaturesForAddress', [reference.toBase58()]).then((r) => r.result), []);
    assert.ok(await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }));

    for (let i = 0; i < 3; i++) net.chain.advanceSlot(); // now 4 slots past the transaction's slot
    const finalized = await connection.getSignaturesForAddress(reference, {}, 'finalized');
    assert.deepEqual(finalized.map((s) => [s.signature, s.confirmationStatus]), [[signature, 'finalized']]);
    const after = (await connection.getSignatureStatuses([signature])).value[0];
    assert.equal(after?.confirmationStatus, 'finalized');
    assert.equal(after?.confirmations, null);
    assert.ok(await connection.getTransaction(signature, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }));
    assert.equal(await connection.getSlot('confirmed') - (await connection.getSlot('finalized')), 4);
  });

  it('answers getSignatureStatuses with null for unknown signatures and caps the list at 256', async () => {
    const unknown = '1'.repeat(64);
    const { value } = await connection.getSignatureStatuses([unknown], { searchTransactionHistory: true });
    assert.deepEqual(value, [null]);
    const tooMany = await rpc(net.rpcUrl, 'getSignatureStatuses', [Array(257).fill(unknown)]);
    assert.equal(tooMany.error?.code, -32602);
  });

  it('expires blockhashes after 150 slots', async () => {
    const { blockhash } = await connection.getLatestBlockhash('confirmed');
    for (let i = 0; i < 150; i++) net.chain.advanceSlot();
    assert.equal((await connection.isBlockhashValid(blockhash, { commitment: 'confirmed' })).value, true);
    net.chain.advanceSlot();
    assert.equal((await connection.isBlockhashValid(blockhash, { commitment: 'confirmed' })).value, false);
  });

  it('answers account reads at finalized with the state of the newest finalized slot', async () => {
    const payer = await fundedKeypair(net, { sol: '1', usdc: '5' });
    for (let i = 0; i < 4; i++) net.chain.advanceSlot(); // the funding is final now
    assert.equal(await connection.getBalance(payer.publicKey, 'finalized'), 1_000_000_000);
    const to = newAddress();
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 3_000_000 }),
    );
    tx.sign(payer);
    await waitForConfirmation(connection, await connection.sendRawTransaction(tx.serialize()));
    const tokenAccount = new PublicKey(await net.createTokenAccount(to.toBase58(), net.usdcMint));

    assert.equal(await connection.getBalance(to, 'confirmed'), 3_000_000);
    assert.equal(await connection.getBalance(to, 'finalized'), 0);
    assert.equal(await connection.getBalance(payer.publicKey, 'finalized'), 1_000_000_000);
    assert.equal(await connection.getAccountInfo(tokenAccount, 'finalized'), null);
    assert.ok(await connection.getAccountInfo(tokenAccount, 'confirmed'));

    for (let i = 0; i < 4; i++) net.chain.advanceSlot();
    assert.equal(await connection.getBalance(to, 'finalized'), 3_000_000);
    assert.ok(await connection.getAccountInfo(tokenAccount, 'finalized'));
    assert.equal(await connection.getBalance(payer.publicKey, 'finalized'), await connection.getBalance(payer.publicKey, 'confirmed'));
  });
});
