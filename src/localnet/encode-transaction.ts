/**
 * getTransaction's result for a recorded transaction, in the encodings real nodes offer:
 * json, jsonParsed, base64 and base58. Shapes follow agave's UiTransaction types and were
 * checked against recorded devnet/mainnet answers (test/localnet/shapes.test.ts).
 */
import type { PublicKey, VersionedMessage } from '@solana/web3.js';
import { encodeBase58 } from '../core/base58.js';
import type { CompiledInner, TxRecord } from './chain.js';
import { parseInstruction } from './parse-instruction.js';

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

export function encodeTransactionResult(
  record: TxRecord,
  encoding: TransactionEncoding,
  options: { includeVersion: boolean },
): Record<string, unknown> {
  const tx = record.transaction;
  const keys = record.accountKeys.map((k) => k.toBase58());
  const parsed = encoding === 'jsonParsed';
  let transaction: unknown;
  if (encoding === 'base64') transaction = [Buffer.from(tx.serialize()).toString('base64'), 'base64'];
  else if (encoding === 'base58') transaction = [encodeBase58(tx.serialize()), 'base58'];
  else transaction = { message: parsed ? parsedMessage(record, keys) : jsonMessage(tx.message), signatures: tx.signatures.map((s) => encodeBase58(s)) };

  const result: Record<string, unknown> = {
    blockTime: record.blockTime,
    meta: encodeMeta(record, keys, parsed),
    slot: record.slot,
    transaction,
  };
  if (options.includeVersion) result.version = tx.version;
  return result;
}

export function encodeMeta(record: TxRecord, keys: string[], parsed: boolean): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    computeUnitsConsumed: record.computeUnitsConsumed,
    err: record.err,
    fee: record.fee,
    innerInstructions: record.innerInstructions.map(({ index, instructions }) => ({
      index,
      instructions: instructions.map((ix) => (parsed ? parsedInner(ix, keys) : jsonInner(ix))),
    })),
    logMessages: record.logMessages,
    postBalances: record.postBalances,
    postTokenBalances: record.postTokenBalances,
    preBalances: record.preBalances,
    preTokenBalances: record.preTokenBalances,
    rewards: [],
    status: record.err === null ? { Ok: null } : { Err: record.err },
  };
  // jsonParsed shows lookup-table keys inline (source: "lookupTable") and omits loadedAddresses.
  if (!parsed) meta.loadedAddresses = { readonly: b58(record.loadedAddresses.readonly), writable: b58(record.loadedAddresses.writable) };
  if (record.returnData) meta.returnData = { programId: record.returnData.programId, data: [Buffer.from(record.returnData.data).toString('base64'), 'base64'] };
  return meta;
}

function b58(keys: PublicKey[]): string[] {
  return keys.map((k) => k.toBase58());
}

function jsonInner(ix: CompiledInner): Record<string, unknown> {
  return { accounts: ix.accounts, data: encodeBase58(ix.data), programIdIndex: ix.programIdIndex, stackHeight: ix.stackHeight };
}

function parsedInner(ix: CompiledInner, keys: string[]): unknown {
  return parseInstruction(
    keys[ix.programIdIndex] ?? '',
    ix.accounts.map((i) => keys[i] ?? ''),
    ix.data,
    ix.stackHeight,
  );
}

function jsonMessage(message: VersionedMessage): Record<string, unknown> {
  const out: Record<string, unknown> = {
    accountKeys: message.staticAccountKeys.map((k) => k.toBase58()),
    header: message.header,
    instructions: message.compiledInstructions.map((ix) => ({
      accounts: ix.accountKeyIndexes,
      data: encodeBase58(ix.data),
      programIdIndex: ix.programIdIndex,
      stackHeight: null,
    })),
    recentBlockhash: message.recentBlockhash,
  };
  if (message.version === 0) out.addressTableLookups = lookups(message);
  return out;
}

function lookups(message: VersionedMessage): unknown[] {
  return message.addressTableLookups.map((l) => ({
    accountKey: l.accountKey.toBase58(),
    readonlyIndexes: l.readonlyIndexes,
    writableIndexes: l.writableIndexes,
  }));
}

function parsedMessage(record: TxRecord, keys: string[]): Record<string, unknown> {
  const message = record.transaction.message;
  const staticCount = message.staticAccountKeys.length;
  const out: Record<string, unknown> = {
    accountKeys: keys.map((pubkey, i) => ({
      pubkey,
      signer: message.isAccountSigner(i),
      source: i < staticCount ? 'transaction' : 'lookupTable',
      writable: message.isAccountWritable(i),
    })),
    instructions: message.compiledInstructions.map((ix) =>
      parseInstruction(
        keys[ix.programIdIndex] ?? '',
        ix.accountKeyIndexes.map((i) => keys[i] ?? ''),
        ix.data,
        null,
      ),
    ),
    recentBlockhash: message.recentBlockhash,
  };
  if (message.version === 0) out.addressTableLookups = lookups(message);
  return out;
}
