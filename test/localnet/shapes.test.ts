/**
 * The localnet's answers against recorded answers of real devnet/mainnet nodes
 * (/work/shared/fixtures/solana-rpc, copied in test/fixtures/solana-rpc): same keys, same JSON types.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  AddressLookupTableProgram,
  Connection,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
  type Keypair,
  type TransactionInstruction,
} from '@solana/web3.js';
import { createTransferInstructions } from '../../src/solana/transfer.js';
import { waitForConfirmation, type Localnet } from '../../src/localnet/index.js';
import { fundedKeypair, newAddress, rpc, withLocalnet } from './helpers.js';

const FIXTURES = new URL('../fixtures/solana-rpc/', import.meta.url);
function fixture(name: string): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  const json = JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
  return 'jsonrpc' in json ? json.result : json;
}

/** Differences in keys and JSON types; null on either side matches any type (optional values). */
function shapeDiff(actual: unknown, expected: unknown, path = '$', allowedExtra: ReadonlySet<string> = new Set()): string[] {
  if (path === '$' && actual === null) return ['$: null (no result to compare)'];
  if (actual === null || expected === null) return [];
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v);
  if (kind(actual) !== kind(expected)) return [`${path}: ${kind(actual)} instead of ${kind(expected)}`];
  if (Array.isArray(actual) && Array.isArray(expected)) {
    return actual.length && expected.length ? shapeDiff(actual[0], expected[0], `${path}[0]`, allowedExtra) : [];
  }
  if (typeof actual !== 'object') return [];
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const out: string[] = [];
  for (const key of Object.keys(e)) {
    if (!(key in a)) out.push(`${path}.${key}: missing`);
    else out.push(...shapeDiff(a[key], e[key], `${path}.${key}`, allowedExtra));
  }
  for (const key of Object.keys(a)) if (!(key in e) && !allowedExtra.has(`${path}.${key}`)) out.push(`${path}.${key}: not in the real answer`);
  return out;
}

describe('result shapes match real nodes', () => {
  let net: Localnet;
  let connection: Connection;
  let payer: Keypair;
  before(async () => {
    ({ net, connection } = await withLocalnet());
    payer = await fundedKeypair(net, { sol: '5', usdc: '10' });
  });
  after(() => net.close());

  async function sendV0(instructions: TransactionInstruction[], tables: Parameters<TransactionMessage['compileToV0Message']>[0] = []): Promise<string> {
    const { blockhash } = await connection.getLatestBlockhash('confirmed');
    const tx = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message(tables));
    tx.sign([payer]);
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    await waitForConfirmation(connection, signature).catch(() => undefined);
    return signature;
  }
  const getTx = (signature: string, encoding: 'json' | 'jsonParsed') =>
    rpc(net.rpcUrl, 'getTransaction', [signature, { encoding, commitment: 'confirmed', maxSupportedTransactionVersion: 0 }]).then((r) => r.result);

  it('getTransaction json of a version 0 token transfer matches devnet', async () => {
    const recipient = newAddress();
    await net.createTokenAccount(recipient.toBase58(), net.usdcMint);
    const ixs = await createTransferInstructions(connection, { payer: payer.publicKey, recipient, amount: 10_000n, mint: new PublicKey(net.usdcMint) });
    const ours = await getTx(await sendV0(ixs), 'json');
    assert.deepEqual(shapeDiff(ours, fixture('spl-devnet-usdc-transfer-v0-json-metamask-snap.json')), []);
    assert.deepEqual(shapeDiff(ours, fixture('sol-transfer-v0-json-devnet-metamask-snap.json')), []);
  });

  it('getTransaction json of a failed version 0 transaction matches mainnet, err and status included', async () => {
    const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: newAddress(), lamports: 10_000_000_000_000 });
    const ours = await getTx(await sendV0([ix]), 'json');
    const real = fixture('FAILED-jupiter-swap-v0-alt-usdc-mainnet-metamask-snap.json');
    // The recorded answer spells the lookup field "readableIndexes" (a typo of its source): real nodes say readonlyIndexes.
    real.transaction.message.addressTableLookups = real.transaction.message.addressTableLookups.map(
      ({ readableIndexes, ...rest }: { readableIndexes: number[] }) => ({ ...rest, readonlyIndexes: readableIndexes }),
    );
    // Its source also left out the top-level instructions' "stackHeight": null that 2025 mainnet nodes send.
    assert.deepEqual(shapeDiff(ours, real, '$', new Set(['$.transaction.message.instructions[0].stackHeight'])), []);
    assert.deepEqual(Object.keys(ours.meta.err), Object.keys(real.meta.err));
    assert.deepEqual(ours.meta.status, { Err: ours.meta.err });
  });

  it('inner instructions have the shape of the mainnet create-account transfer', async () => {
    const recentSlot = await connection.getSlot('finalized');
    const [create] = AddressLookupTableProgram.createLookupTable({ authority: payer.publicKey, payer: payer.publicKey, recentSlot });
    const ours = await getTx(await sendV0([create]), 'json');
    assert.ok(ours.meta.innerInstructions.length > 0);
    const real = fixture('spl-usdc-transfer-create-ata-computebudget-v0-mainnet-metamask-snap.json');
    assert.deepEqual(shapeDiff(ours.meta.innerInstructions, real.meta.innerInstructions), []);
    assert.deepEqual(shapeDiff(ours, real), []);
  });

  it('getTransaction jsonParsed of a version 0 lookup-table transfer matches the devnet answer', async () => {
    const recipient = newAddress();
    const recentSlot = await connection.getSlot('finalized');
    const [create, table] = AddressLookupTableProgram.createLookupTable({ authority: payer.publicKey, payer: payer.publicKey, recentSlot });
    const extend = AddressLookupTableProgram.extendLookupTable({ lookupTable: table, authority: payer.publicKey, payer: payer.publicKey, addresses: [recipient] });
    await sendV0([create, extend]);
    net.chain.advanceSlot();
    const account = (await connection.getAddressLookupTable(table)).value;
    assert.ok(account);
    const ours = await getTx(await sendV0([SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 10_000_000 })], [account]), 'jsonParsed');
    // The 2022 devnet answer predates computeUnitsConsumed; current nodes add it, and stackHeight on instructions.
    const newerFields = new Set(['$.meta.computeUnitsConsumed', '$.transaction.message.instructions[0].stackHeight']);
    assert.deepEqual(shapeDiff(ours, fixture('sol-transfer-v0-alt-jsonParsed-devnet-agave-docs.json'), '$', newerFields), []);
    assert.equal(ours.transaction.message.accountKeys.at(-1).source, 'lookupTable');
  });

  it('getSignaturesForAddress entries match the documented answer', async () => {
    const reference = newAddress();
    const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: newAddress(), lamports: 1_000_000 });
    ix.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
    await sendV0([ix]);
    const ours = (await rpc(net.rpcUrl, 'getSignaturesForAddress', [reference.toBase58(), { commitment: 'confirmed' }])).result;
    assert.equal(ours.length, 1);
    assert.deepEqual(shapeDiff(ours, fixture('getSignaturesForAddress-agave-docs.json')), []);
    assert.deepEqual(Object.keys(ours[0]).sort(), Object.keys(fixture('getSignaturesForAddress-agave-docs.json')[0]).sort());
  });
});
