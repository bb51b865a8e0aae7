/**
 * ReferenceScanner against the real localnet: real signed transactions executed by litesvm, found through
 * getSignaturesForAddress and read with getTransaction over JSON-RPC.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, Keypair, PublicKey, TransactionInstruction, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { startLocalnet, payUrl, type Localnet } from '../../../src/localnet/index.js';
import { encodeTransferRequestUrl } from '../../../src/core/solana-pay.js';
import { createTransferInstructions } from '../../../src/solana/transfer.js';
import { ReferenceScanner, type ExpectedTransfer, type ReferenceScannerOptions } from '../../../src/gateway/chain/index.js';
import { createMintWithSupply, createTokenAccount, newReference, send, transferWithKeys } from './localnet-helpers.js';

/** Slots before a transaction is finalized. High, so nothing finalizes unless a test steps the chain. */
const FINALIZATION_DEPTH = 500;

let localnet: Localnet;
let connection: Connection;
const payer = Keypair.generate();
const merchant = Keypair.generate().publicKey;
let usdc: PublicKey;

before(async () => {
  localnet = await startLocalnet({ port: 0, finalizationDepth: FINALIZATION_DEPTH });
  connection = new Connection(localnet.rpcUrl, 'confirmed');
  usdc = new PublicKey(localnet.usdcMint);
  await localnet.airdrop(payer.publicKey.toBase58(), { sol: 50, usdc: 1000 });
  await createTokenAccount(localnet, merchant, usdc);
});
after(() => localnet.close());

const scanner = (commitment: 'confirmed' | 'finalized' = 'confirmed', options: Omit<ReferenceScannerOptions, 'commitment'> = {}) =>
  new ReferenceScanner(connection, { commitment, ...options });

function expectSol(reference: PublicKey, sol: number, over: Partial<ExpectedTransfer> = {}): ExpectedTransfer {
  return { reference: reference.toBase58(), recipient: merchant.toBase58(), mint: null, amount: BigInt(sol * LAMPORTS_PER_SOL), memo: null, ...over };
}

function solUrl(reference: PublicKey, amount: string, extra: { memo?: string; recipient?: PublicKey; references?: PublicKey[] } = {}): string {
  return encodeTransferRequestUrl({
    recipient: (extra.recipient ?? merchant).toBase58(),
    amount,
    references: (extra.references ?? [reference]).map((r) => r.toBase58()),
    ...(extra.memo !== undefined ? { memo: extra.memo } : {}),
  });
}

/** Pays exactly like a wallet scanning the QR code, from the shared funded payer. */
const pay = (url: string) => payUrl(url, { rpcUrl: localnet.rpcUrl, payer });

function finalizeEverything(): void {
  for (let i = 0; i < FINALIZATION_DEPTH + 1; i++) localnet.chain.advanceSlot();
}

describe('ReferenceScanner on the localnet', () => {
  it('finds a SOL payment made from a transfer request URL: paid', async () => {
    const reference = newReference();
    const { signature } = await pay(solUrl(reference, '0.5'));
    const candidates = await scanner().scan(expectSol(reference, 0.5));
    assert.equal(candidates.length, 1);
    assert.deepEqual(
      { ...candidates[0], slot: 0, blockTime: 0 },
      { signature, verdict: 'paid', reason: null, amountReceived: 500_000_000n, overpaid: false, payer: payer.publicKey.toBase58(), slot: 0, blockTime: 0, reachedCommitment: true },
    );
    assert.ok(candidates[0]!.slot >= 0 && typeof candidates[0]!.blockTime === 'number');
  });

  it('finds a USDC payment: paid, in base units', async () => {
    const reference = newReference();
    const url = encodeTransferRequestUrl({ recipient: merchant.toBase58(), amount: '12.5', splToken: usdc.toBase58(), references: [reference.toBase58()] });
    const { signature } = await pay(url);
    const [candidate] = await scanner().scan({ reference: reference.toBase58(), recipient: merchant.toBase58(), mint: usdc.toBase58(), amount: 12_500_000n, memo: null });
    assert.deepEqual([candidate?.signature, candidate?.verdict, candidate?.amountReceived], [signature, 'paid', 12_500_000n]);
  });

  it('pays with a Token-2022 mint too', async () => {
    const mint = await createMintWithSupply(localnet, connection, payer, { decimals: 2, holder: payer.publicKey, supply: 10_000n, programId: TOKEN_2022_PROGRAM_ID });
    await createTokenAccount(localnet, merchant, mint);
    const reference = newReference();
    await pay(encodeTransferRequestUrl({ recipient: merchant.toBase58(), amount: '3.25', splToken: mint.toBase58(), references: [reference.toBase58()] }));
    const [candidate] = await scanner().scan({ reference: reference.toBase58(), recipient: merchant.toBase58(), mint: mint.toBase58(), amount: 325n, memo: null });
    assert.deepEqual([candidate?.verdict, candidate?.amountReceived], ['paid', 325n]);
  });

  it('reports an underpayment with what arrived', async () => {
    const reference = newReference();
    await pay(solUrl(reference, '0.4'));
    const [candidate] = await scanner().scan(expectSol(reference, 1));
    assert.deepEqual([candidate?.verdict, candidate?.reason, candidate?.amountReceived], ['underpaid', 'amount_short', 400_000_000n]);
  });

  it('reports an overpayment as paid and overpaid', async () => {
    const reference = newReference();
    await pay(solUrl(reference, '1.5'));
    const [candidate] = await scanner().scan(expectSol(reference, 1));
    assert.deepEqual([candidate?.verdict, candidate?.overpaid, candidate?.amountReceived], ['paid', true, 1_500_000_000n]);
  });

  it('never counts another mint with the same decimals', async () => {
    const fakeUsdc = await createMintWithSupply(localnet, connection, payer, { decimals: 6, holder: payer.publicKey, supply: 1_000_000_000n });
    await createTokenAccount(localnet, merchant, fakeUsdc);
    const reference = newReference();
    await pay(encodeTransferRequestUrl({ recipient: merchant.toBase58(), amount: '20', splToken: fakeUsdc.toBase58(), references: [reference.toBase58()] }));
    const [candidate] = await scanner().scan({ reference: reference.toBase58(), recipient: merchant.toBase58(), mint: usdc.toBase58(), amount: 20_000_000n, memo: null });
    assert.deepEqual([candidate?.verdict, candidate?.reason, candidate?.amountReceived], ['invalid', 'wrong_mint', 0n]);
  });

  it('rejects a payment to another recipient', async () => {
    const reference = newReference();
    await pay(solUrl(reference, '0.5', { recipient: Keypair.generate().publicKey }));
    const [candidate] = await scanner().scan(expectSol(reference, 0.5));
    assert.deepEqual([candidate?.verdict, candidate?.reason], ['invalid', 'recipient_not_credited']);
  });

  it('rejects USDC paid to another wallet, even with the reference and the exact amount', async () => {
    const other = Keypair.generate().publicKey;
    await createTokenAccount(localnet, other, usdc);
    const reference = newReference();
    await pay(encodeTransferRequestUrl({ recipient: other.toBase58(), amount: '5', splToken: usdc.toBase58(), references: [reference.toBase58()] }));
    const [candidate] = await scanner().scan({ reference: reference.toBase58(), recipient: merchant.toBase58(), mint: usdc.toBase58(), amount: 5_000_000n, memo: null });
    assert.deepEqual([candidate?.verdict, candidate?.reason, candidate?.amountReceived], ['invalid', 'recipient_not_credited', 0n]);
  });

  it('rejects a failed transaction, then still finds the real payment after it', async () => {
    const reference = newReference();
    const broke = Keypair.generate();
    await localnet.airdrop(broke.publicKey.toBase58(), { sol: 0.01 });
    // Asks for more than it holds: lands, pays its fee, fails.
    const failed = await send(connection, broke, [transferWithKeys(broke.publicKey, merchant, 5n * BigInt(LAMPORTS_PER_SOL), [reference])], { skipPreflight: true });
    const status = await connection.getSignatureStatus(failed, { searchTransactionHistory: true });
    assert.ok(status.value?.err, 'the transfer really failed on chain');
    const { signature } = await pay(solUrl(reference, '0.5'));

    const candidates = await scanner().scan(expectSol(reference, 0.5));
    assert.deepEqual(
      candidates.map((c) => [c.signature, c.verdict, c.reason]),
      [
        [failed, 'invalid', 'transaction_failed'],
        [signature, 'paid', null],
      ],
    );
  });

  it('checks every signature: spam on the reference does not hide the real payment (paginated)', async () => {
    const reference = newReference();
    const attacker = Keypair.generate();
    await localnet.airdrop(attacker.publicKey.toBase58(), { sol: 1 });
    const spam: string[] = [];
    for (let i = 1n; i <= 3n; i++) {
      // Mentions the reference and even pays the merchant a little, before the customer pays.
      spam.push(await send(connection, attacker, [transferWithKeys(attacker.publicKey, merchant, i, [reference])]));
    }
    const { signature } = await pay(solUrl(reference, '0.25'));
    const s = scanner('confirmed', { pageSize: 2 });
    const candidates = await s.scan(expectSol(reference, 0.25));
    assert.deepEqual(candidates.map((c) => c.signature), [...spam, signature]);
    assert.deepEqual(candidates.map((c) => c.verdict), ['underpaid', 'underpaid', 'underpaid', 'paid']);
    // 4 signatures in pages of 2: two full pages and an empty one, then 4 getTransaction.
    assert.equal(s.rpcCalls, 3 + 4);
  });

  it('reads at most readLimit transactions per scan, oldest first, and catches up on the next scans', async () => {
    const reference = newReference();
    const attacker = Keypair.generate();
    await localnet.airdrop(attacker.publicKey.toBase58(), { sol: 1 });
    const { signature: real } = await pay(solUrl(reference, '0.25'));
    const spam: string[] = [];
    for (let i = 1n; i <= 3n; i++) spam.push(await send(connection, attacker, [transferWithKeys(attacker.publicKey, attacker.publicKey, i, [reference])]));

    const s = scanner('confirmed', { readLimit: 2 });
    const first = await s.scan(expectSol(reference, 0.25));
    assert.deepEqual(first.map((c) => [c.signature, c.verdict]), [[real, 'paid'], [spam[0], 'invalid']], 'the oldest two: the payment is not starved');
    assert.equal(s.rpcCalls, 1 + 2);
    const second = await s.scan(expectSol(reference, 0.25));
    assert.deepEqual(second.map((c) => c.signature), [real, ...spam]);
    assert.equal(s.rpcCalls, 3 + 1 + 2);
    assert.deepEqual(second.map((c) => c.reason), [null, 'recipient_not_credited', 'recipient_not_credited', 'recipient_not_credited']);
  });

  it('stops at signatureLimit, newest first', async () => {
    const reference = newReference();
    const signatures: string[] = [];
    for (let i = 1n; i <= 3n; i++) signatures.push(await send(connection, payer, [transferWithKeys(payer.publicKey, merchant, 1000n + i, [reference])]));
    const candidates = await scanner('confirmed', { signatureLimit: 2 }).scan(expectSol(reference, 0.000001));
    assert.deepEqual(candidates.map((c) => c.signature), signatures.slice(1));
  });

  it('matches the memo exactly (Memo v2 from the URL, and Memo v1 with a signer key)', async () => {
    const memo = 'order 42 — ünïcode ✓';
    const good = newReference();
    await pay(solUrl(good, '0.1', { memo }));
    const wrong = newReference();
    await pay(solUrl(wrong, '0.1', { memo: 'order 43 — ünïcode ✓' }));
    const none = newReference();
    await pay(solUrl(none, '0.1'));

    const v1 = newReference();
    const memoV1 = new TransactionInstruction({
      programId: new PublicKey('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo'),
      keys: [{ pubkey: payer.publicKey, isSigner: true, isWritable: false }],
      data: Buffer.from(memo, 'utf8'),
    });
    // Memo after the transfer, signer key on it: still the payment's memo.
    await send(connection, payer, [transferWithKeys(payer.publicKey, merchant, 100_000_000n, [v1]), memoV1]);

    const s = scanner();
    const verdict = async (reference: PublicKey) => (await s.scan(expectSol(reference, 0.1, { memo })))[0]?.reason;
    assert.equal(await verdict(good), null);
    assert.equal(await verdict(v1), null);
    assert.equal(await verdict(wrong), 'memo_mismatch');
    assert.equal(await verdict(none), 'memo_mismatch');
  });

  it('sees one transaction that carries two references under each of them', async () => {
    const [first, second] = [newReference(), newReference()];
    const instructions = await createTransferInstructions(connection, { payer: payer.publicKey, recipient: merchant, amount: 300_000_000n, references: [first, second] });
    const signature = await send(connection, payer, instructions);
    const s = scanner();
    for (const reference of [first, second]) {
      const candidates = await s.scan(expectSol(reference, 0.3));
      assert.deepEqual(candidates.map((c) => [c.signature, c.verdict]), [[signature, 'paid']]);
    }
  });

  it('costs one RPC call per scan when nothing is new, and one more per new transaction', async () => {
    const reference = newReference();
    const s = scanner();
    const expected = expectSol(reference, 0.2);

    assert.deepEqual(await s.scan(expected), []);
    assert.equal(s.rpcCalls, 1, 'an unpaid reference: one getSignaturesForAddress');

    await pay(solUrl(reference, '0.2'));
    const first = await s.scan(expected);
    assert.equal(s.rpcCalls, 1 + 2, 'a new transaction: list + getTransaction');

    const again = await s.scan(expected);
    assert.equal(s.rpcCalls, 3 + 1, 'nothing new: list only');
    assert.deepEqual(again, first);

    // Another expectation for the same reference is checked afresh, not answered from the cache.
    const stricter = await s.scan({ ...expected, amount: expected.amount + 1n });
    assert.equal(stricter[0]?.verdict, 'underpaid');
    assert.equal(s.rpcCalls, 4 + 2);

    await s.scan({ ...expected, amount: expected.amount + 1n });
    assert.equal(s.rpcCalls, 6 + 1);
    s.forget(reference.toBase58());
    await s.scan({ ...expected, amount: expected.amount + 1n });
    assert.equal(s.rpcCalls, 7 + 2, 'forget drops the cache');
  });

  it('with finalized commitment: not reached at first, then reached, then one call per scan', async () => {
    const reference = newReference();
    const s = scanner('finalized');
    const expected = expectSol(reference, 0.3);
    const { signature } = await pay(solUrl(reference, '0.3'));

    const before = await s.scan(expected);
    assert.deepEqual(before.map((c) => [c.signature, c.verdict, c.reachedCommitment]), [[signature, 'paid', false]]);
    assert.equal(s.rpcCalls, 2);
    await s.scan(expected);
    assert.equal(s.rpcCalls, 3, 'still confirmed: the list is read again, the transaction is not');

    finalizeEverything();
    const after = await s.scan(expected);
    assert.deepEqual(after.map((c) => [c.signature, c.verdict, c.reachedCommitment]), [[signature, 'paid', true]]);
    assert.equal(s.rpcCalls, 3 + 2, 'finalized: the list, and the transaction read again at finalized');

    const settled = await s.scan(expected);
    assert.deepEqual(settled, after);
    assert.equal(s.rpcCalls, 5 + 1, 'below the floor: one call that returns nothing new');
  });

  it('keeps at most maxCachedReferences references cached, dropping the least recently scanned', async () => {
    const [a, b, c] = [newReference(), newReference(), newReference()];
    await pay(solUrl(a, '1'));
    await pay(solUrl(b, '1'));
    const s = scanner('confirmed', { maxCachedReferences: 2 });
    await s.scan(expectSol(a, 1));
    await s.scan(expectSol(b, 1));
    await s.scan(expectSol(c, 1)); // a is the least recently scanned: dropped
    assert.equal(s.cachedReferences, 2);

    let calls = s.rpcCalls;
    assert.equal((await s.scan(expectSol(b, 1)))[0]?.verdict, 'paid');
    assert.equal(s.rpcCalls - calls, 1, 'b is still cached: list only');
    calls = s.rpcCalls;
    assert.equal((await s.scan(expectSol(a, 1)))[0]?.verdict, 'paid', 'a dropped reference is simply scanned afresh');
    assert.equal(s.rpcCalls - calls, 2, 'a was dropped: list and read again');
    assert.equal(s.cachedReferences, 2);
  });

  it('throws RPC failures instead of turning them into a verdict', async () => {
    const down = new ReferenceScanner(new Connection('http://127.0.0.1:9/', { commitment: 'confirmed', disableRetryOnRateLimit: true }), { commitment: 'confirmed' });
    await assert.rejects(down.scan(expectSol(newReference(), 1)));
  });

  it('refuses a bad expectation or options up front', () => {
    const s = scanner();
    assert.throws(() => s.scan(expectSol(newReference(), 0)), RangeError);
    assert.throws(() => new ReferenceScanner(connection, { commitment: 'processed' as 'confirmed' }), TypeError);
    assert.throws(() => new ReferenceScanner(connection, { commitment: 'confirmed', pageSize: 1001 }), RangeError);
    assert.throws(() => new ReferenceScanner(connection, { commitment: 'confirmed', readLimit: 0 }), RangeError);
  });

  it('shares one run between concurrent scans of the same payment', async () => {
    const reference = newReference();
    await pay(solUrl(reference, '0.1'));
    const s = scanner();
    const [a, b, c] = await Promise.all([s.scan(expectSol(reference, 0.1)), s.scan(expectSol(reference, 0.1)), s.scan(expectSol(reference, 0.1))]);
    assert.equal(s.rpcCalls, 2);
    assert.deepEqual(a, b);
    assert.deepEqual(b, c);
  });
});
