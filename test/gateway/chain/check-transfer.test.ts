/**
 * checkTransfer against real devnet and mainnet getTransaction answers (test/fixtures/solana-rpc/), read through
 * @solana/web3.js from a replaying JSON-RPC server. Every expectation is derived from the recorded data.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Keypair, type VersionedTransactionResponse } from '@solana/web3.js';
import { checkTransfer, type ExpectedTransfer } from '../../../src/gateway/chain/index.js';
import { viewTransaction } from '../../../src/gateway/chain/transaction-view.js';
import { loadRecordedTransactions, startReplayRpc, type RecordedResult, type ReplayRpc } from './replay-rpc.js';

const recorded = loadRecordedTransactions();
let rpc: ReplayRpc;
before(async () => {
  rpc = await startReplayRpc(recorded.values());
});
after(() => rpc.close());

function fixture(file: string): RecordedResult {
  const tx = recorded.get(file);
  assert.ok(tx, `missing fixture ${file}`);
  return tx.result;
}

async function fetchJson(file: string): Promise<VersionedTransactionResponse> {
  const signature = fixture(file).transaction.signatures[0]!;
  const tx = await rpc.connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
  assert.ok(tx);
  return tx;
}

function keyOf(key: string | { pubkey: string }): string {
  return typeof key === 'string' ? key : key.pubkey;
}

/** Static keys the header marks read-only and unsigned (the last numReadonlyUnsignedAccounts of them). */
function readonlyUnsignedKeys(result: RecordedResult): string[] {
  const keys = result.transaction.message.accountKeys.map(keyOf);
  const header = result.transaction.message.header!;
  return keys.slice(keys.length - header.numReadonlyUnsignedAccounts);
}

/** The one account whose lamports rose, and by how much (from pre/postBalances). */
function lamportGainer(result: RecordedResult, keys: string[]): { address: string; rise: bigint } {
  const rises = result.meta.postBalances.map((post, i) => ({ address: keys[i]!, rise: BigInt(post) - BigInt(result.meta.preBalances[i]!) }));
  const gainers = rises.filter((r) => r.rise > 0n);
  assert.equal(gainers.length, 1, 'the recorded transfer credits exactly one account');
  return gainers[0]!;
}

/** The owner whose token balance rose, its mint and the rise (a missing pre entry counts as 0). */
function tokenGainer(result: RecordedResult): { owner: string; mint: string; rise: bigint; accountIndex: number } {
  const gainers = result.meta.postTokenBalances
    .map((post) => {
      const pre = result.meta.preTokenBalances.find((b) => b.accountIndex === post.accountIndex);
      return { owner: post.owner, mint: post.mint, accountIndex: post.accountIndex, rise: BigInt(post.uiTokenAmount.amount) - BigInt(pre?.uiTokenAmount.amount ?? '0') };
    })
    .filter((g) => g.rise > 0n);
  assert.equal(gainers.length, 1, 'the recorded transfer credits exactly one token account');
  return gainers[0]!;
}

const stranger = () => Keypair.generate().publicKey.toBase58();
const MAINNET_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('checkTransfer: devnet v0 SOL transfer (json)', () => {
  const file = 'sol-transfer-v0-json-devnet-metamask-snap.json';
  const result = fixture(file);
  const keys = result.transaction.message.accountKeys.map(keyOf);
  const { address: recipient, rise } = lamportGainer(result, keys);
  const reference = readonlyUnsignedKeys(result).at(-1)!;
  const expected = (over: Partial<ExpectedTransfer> = {}): ExpectedTransfer => ({ reference, recipient, mint: null, amount: rise, memo: null, ...over });

  it('is the 0.1 SOL the README describes', () => {
    assert.equal(rise, 100_000_000n);
    assert.notEqual(reference, recipient);
  });

  it('is paid for exactly the amount received, to its real recipient', async () => {
    const tx = await fetchJson(file);
    assert.deepEqual(checkTransfer(tx, expected()), { verdict: 'paid', reason: null, amountReceived: rise, overpaid: false, payer: keys[0] });
  });

  it('is paid and overpaid when less was asked', async () => {
    const check = checkTransfer(await fetchJson(file), expected({ amount: rise - 1n }));
    assert.equal(check.verdict, 'paid');
    assert.equal(check.overpaid, true);
    assert.equal(check.amountReceived, rise);
  });

  it('is underpaid when more was asked, and records what arrived', async () => {
    const check = checkTransfer(await fetchJson(file), expected({ amount: rise + 1n }));
    assert.deepEqual([check.verdict, check.reason, check.amountReceived], ['underpaid', 'amount_short', rise]);
  });

  it('is invalid for another recipient, including the payer who sent it', async () => {
    const tx = await fetchJson(file);
    assert.deepEqual([checkTransfer(tx, expected({ recipient: stranger() })).reason, checkTransfer(tx, expected({ recipient: keys[0]! })).reason], [
      'recipient_not_credited',
      'recipient_not_credited',
    ]);
  });

  it('is invalid when the reference is not one of its account keys', async () => {
    const check = checkTransfer(await fetchJson(file), expected({ reference: stranger() }));
    assert.deepEqual([check.verdict, check.reason], ['invalid', 'reference_missing']);
  });

  it('is invalid when a memo is required (it carries none)', async () => {
    assert.equal(checkTransfer(await fetchJson(file), expected({ memo: 'order-1' })).reason, 'memo_mismatch');
  });

  it('does not pay a token payment: SOL is another asset', async () => {
    const check = checkTransfer(await fetchJson(file), expected({ mint: MAINNET_USDC }));
    assert.deepEqual([check.verdict, check.reason, check.amountReceived], ['invalid', 'wrong_mint', 0n]);
  });

  it('refuses a non-positive expected amount', async () => {
    const tx = await fetchJson(file);
    assert.throws(() => checkTransfer(tx, expected({ amount: 0n })), RangeError);
  });
});

describe('checkTransfer: devnet v0 SOL transfer to a lookup-table key (jsonParsed)', () => {
  const file = 'sol-transfer-v0-alt-jsonParsed-devnet-agave-docs.json';
  const result = fixture(file);
  const accounts = result.transaction.message.accountKeys as Array<{ pubkey: string; writable: boolean; source: string }>;
  const keys = accounts.map((a) => a.pubkey);
  const { address: recipient, rise } = lamportGainer(result, keys);
  const reference = accounts.find((a) => !a.writable)!.pubkey;
  const instruction = result.transaction.message.instructions[0] as { parsed: { info: { destination: string; lamports: number } } };

  it('credits the key loaded from the lookup table, by the lamports its instruction says', () => {
    assert.equal(accounts.find((a) => a.pubkey === recipient)?.source, 'lookupTable');
    assert.equal(instruction.parsed.info.destination, recipient);
    assert.equal(BigInt(instruction.parsed.info.lamports), rise);
  });

  it('is paid when read with getParsedTransaction', async () => {
    const tx = await rpc.connection.getParsedTransaction(result.transaction.signatures[0]!, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    assert.ok(tx);
    const expected: ExpectedTransfer = { reference, recipient, mint: null, amount: rise, memo: null };
    assert.deepEqual(checkTransfer(tx, expected), { verdict: 'paid', reason: null, amountReceived: rise, overpaid: false, payer: keys[0] });
    assert.equal(checkTransfer(tx, { ...expected, amount: rise + 1n }).verdict, 'underpaid');
    assert.equal(checkTransfer(tx, { ...expected, reference: stranger() }).reason, 'reference_missing');
    // The lookup-table key itself can serve as the reference: loaded keys are account keys too.
    assert.equal(checkTransfer(tx, { ...expected, reference: recipient }).verdict, 'paid');
  });
});

describe('checkTransfer: devnet USDC transfer (SPL Token Transfer, json)', () => {
  const file = 'spl-devnet-usdc-transfer-v0-json-metamask-snap.json';
  const result = fixture(file);
  const keys = result.transaction.message.accountKeys.map(keyOf);
  const gain = tokenGainer(result);
  const reference = readonlyUnsignedKeys(result).at(-1)!;
  const expected = (over: Partial<ExpectedTransfer> = {}): ExpectedTransfer => ({
    reference,
    recipient: gain.owner,
    mint: gain.mint,
    amount: gain.rise,
    memo: null,
    ...over,
  });

  it('is 0.01 USDC (6 decimals) to a wallet that is not in the account keys', () => {
    assert.equal(gain.rise, 10_000n);
    assert.equal(keys.includes(gain.owner), false, 'only its token account is');
  });

  it('is paid with the right mint, to the owner', async () => {
    const tx = await fetchJson(file);
    assert.deepEqual(checkTransfer(tx, expected()), { verdict: 'paid', reason: null, amountReceived: gain.rise, overpaid: false, payer: keys[0] });
    assert.deepEqual(checkTransfer(tx, expected({ amount: gain.rise + 1n })).reason, 'amount_short');
  });

  it('is invalid for another mint with the same decimals (mainnet USDC)', async () => {
    assert.notEqual(gain.mint, MAINNET_USDC);
    const check = checkTransfer(await fetchJson(file), expected({ mint: MAINNET_USDC }));
    assert.deepEqual([check.verdict, check.reason, check.amountReceived], ['invalid', 'wrong_mint', 0n]);
  });

  it('is invalid when the "recipient" is the token account rather than its owner', async () => {
    const tokenAccount = keys[gain.accountIndex]!;
    assert.equal(checkTransfer(await fetchJson(file), expected({ recipient: tokenAccount })).reason, 'recipient_not_credited');
  });

  it('is invalid for a SOL payment (no lamports reached the owner; a token did)', async () => {
    assert.equal(checkTransfer(await fetchJson(file), expected({ mint: null })).reason, 'wrong_mint');
  });

  it('does not count the sender, whose balance fell', async () => {
    const check = checkTransfer(await fetchJson(file), expected({ recipient: keys[0]! }));
    assert.deepEqual([check.reason, check.amountReceived], ['recipient_not_credited', 0n]);
  });
});

describe('checkTransfer: mainnet USDC with compute budget and a new token account', () => {
  const file = 'spl-usdc-transfer-create-ata-computebudget-v0-mainnet-metamask-snap.json';
  const result = fixture(file);
  const keys = result.transaction.message.accountKeys.map(keyOf);
  const gain = tokenGainer(result);
  const reference = readonlyUnsignedKeys(result)[0]!;

  it('has no preTokenBalances entry for the new account, and the transfer is not the last instruction', () => {
    assert.equal(result.meta.preTokenBalances.some((b) => b.accountIndex === gain.accountIndex), false);
    const instructions = result.transaction.message.instructions as Array<{ programIdIndex: number }>;
    assert.equal(keys[instructions.at(-1)!.programIdIndex], 'ComputeBudget111111111111111111111111111111');
    assert.equal(gain.rise, 1_000_000n);
    assert.equal(gain.mint, MAINNET_USDC);
  });

  it('is paid: the new account counts from 0', async () => {
    const expected: ExpectedTransfer = { reference, recipient: gain.owner, mint: gain.mint, amount: gain.rise, memo: null };
    const tx = await fetchJson(file);
    assert.deepEqual(checkTransfer(tx, expected), { verdict: 'paid', reason: null, amountReceived: gain.rise, overpaid: false, payer: keys[0] });
    assert.equal(checkTransfer(tx, { ...expected, amount: gain.rise / 2n }).overpaid, true);
    assert.equal(checkTransfer(tx, { ...expected, amount: gain.rise * 2n }).verdict, 'underpaid');
  });
});

describe('checkTransfer: failed mainnet Jupiter swap (v0, two lookup tables)', () => {
  const file = 'FAILED-jupiter-swap-v0-alt-usdc-mainnet-metamask-snap.json';
  const result = fixture(file);
  const loaded = result.meta.loadedAddresses!;

  it('orders keys static, then loaded writable, then loaded read-only, matching the balance arrays', async () => {
    const view = viewTransaction(await fetchJson(file));
    const staticCount = result.transaction.message.accountKeys.length;
    assert.equal(view.accountKeys.length, result.meta.preBalances.length);
    assert.deepEqual(view.accountKeys.slice(staticCount, staticCount + loaded.writable.length), loaded.writable);
    assert.deepEqual(view.accountKeys.slice(staticCount + loaded.writable.length), loaded.readonly);
  });

  it('is transaction_failed whatever the expectation, with nothing received', async () => {
    const tx = await fetchJson(file);
    const usdc = result.meta.postTokenBalances.find((b) => b.mint === MAINNET_USDC)!;
    for (const expected of [
      { reference: loaded.readonly.at(-1)!, recipient: usdc.owner, mint: MAINNET_USDC, amount: 1n, memo: null },
      { reference: loaded.writable[0]!, recipient: keyOf(result.transaction.message.accountKeys[0]!), mint: null, amount: 1n, memo: null },
    ]) {
      assert.deepEqual(checkTransfer(tx, expected), {
        verdict: 'invalid',
        reason: 'transaction_failed',
        amountReceived: 0n,
        overpaid: false,
        payer: keyOf(result.transaction.message.accountKeys[0]!),
      });
    }
  });

  it('finds a reference loaded from a lookup table (same answer with the failure removed)', async () => {
    const tx = await fetchJson(file);
    const succeeded = { ...tx, meta: { ...tx.meta!, err: null } };
    const base = { recipient: stranger(), mint: null, amount: 1n, memo: null };
    for (const reference of [...loaded.writable, ...loaded.readonly]) {
      assert.equal(checkTransfer(succeeded, { ...base, reference }).reason, 'recipient_not_credited', reference);
    }
    assert.equal(checkTransfer(succeeded, { ...base, reference: stranger() }).reason, 'reference_missing');
  });
});
